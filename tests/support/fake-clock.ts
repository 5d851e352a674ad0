/**
 * A fake clock for driver tests: `sleep` registers a timer on virtual time,
 * and `run` advances to the next timer whenever nothing else can progress.
 * No real time passes.
 */
export class FakeClock {
  t = 0;
  sleeps: number[] = [];
  private timers: { at: number; seq: number; resolve: () => void }[] = [];
  private seq = 0;

  readonly now = (): number => this.t;

  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    this.sleeps.push(ms);
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        "abort",
        () => {
          this.timers = this.timers.filter((x) => x !== timer);
          resolve();
        },
        { once: true },
      );
    });
  };

  readonly random = (): number => 0.5;

  /** Lets pending promise callbacks run (real event-loop turns, no timers). */
  async settle(): Promise<void> {
    for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
  }

  /** Runs virtual time until `p` settles (or `limitMs` of virtual time pass); returns its outcome. */
  async run<T>(p: Promise<T>, limitMs = 24 * 3600_000): Promise<T> {
    let done = false;
    const tracked = p.then(
      (v) => {
        done = true;
        return v;
      },
      (e) => {
        done = true;
        throw e;
      },
    );
    tracked.catch(() => undefined);
    const end = this.t + limitMs;
    for (;;) {
      await this.settle();
      if (done) return tracked;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift();
      if (!next) throw new Error("FakeClock: nothing scheduled and the promise is still pending");
      if (next.at > end) throw new Error(`FakeClock: still pending after ${limitMs} ms of virtual time`);
      this.t = Math.max(this.t, next.at);
      next.resolve();
    }
  }
}
