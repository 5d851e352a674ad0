/**
 * The seam between the HTTP and waiting code and real time. Every delay and
 * every timestamp goes through a {@link Clock}, so tests pass a fake one and
 * never wait.
 */

/** Sleeps `ms` milliseconds; resolves early (without error) when `signal` aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Time, delay and randomness, injected wherever they are needed. */
export interface Clock {
  /** Milliseconds since the epoch (or any fixed origin). */
  now(): number;
  sleep: Sleep;
  /** A number in [0, 1). */
  random(): number;
}

/** A sleep on `setTimeout` that an `AbortSignal` can cut short, leaving no timer behind. */
const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });

/** Builds a clock from optional overrides; missing parts use real time. */
export function makeClock(parts: { now?: () => number; sleep?: Sleep; random?: () => number } = {}): Clock {
  return {
    now: parts.now ?? (() => Date.now()),
    sleep: parts.sleep ?? realSleep,
    random: parts.random ?? Math.random,
  };
}
