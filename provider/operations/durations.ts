/**
 * What the waiter expects of an action's running time, learned from the durations of its finished
 * operations: a window from the shortest to the longest seen (tentative while there are few), and
 * which window an operation goes by (its action's own, else that of all compute operations).
 */

/** Expected running time of an action, learned from `total_duration_ms` of finished operations. */
export interface DurationWindow {
  /** Earliest expected finish, ms after start. */
  lo: number;
  /** Latest expected finish. */
  hi: number;
  median: number;
  samples: number;
  /** A tentative window's durations, ascending: where its extra looks go (see `nextPollAt` in step.ts). */
  points?: readonly number[];
  /**
   * Fewer samples than {@link MIN_DURATION_SAMPLES}: not trusted as a window. The wait keeps its
   * growing interval and only adds a look at each duration seen (see `nextPollAt` in step.ts).
   */
  tentative?: true;
}

/**
 * The key of the estimate pooled over every operation of a compute, for an action with too few
 * finished operations of its own (in a project's history they are alike: seconds each).
 */
export const COMPUTE_ACTIONS = "*compute";

/** The expected finish window of an operation: its action's own, else that of all compute operations. */
export function windowOf(
  t: { action?: string; compute?: boolean },
  windows: Readonly<Record<string, DurationWindow>>,
): DurationWindow | undefined {
  const firm = (w: DurationWindow | undefined) => (w && !w.tentative ? w : undefined);
  const own = t.action !== undefined ? firm(windows[t.action]) : undefined;
  return own ?? (t.compute ? firm(windows[COMPUTE_ACTIONS]) : undefined);
}

/** Without a trusted window: the few durations seen of its action, else of all compute operations. */
export function tentativeOf(
  t: { action?: string; compute?: boolean },
  windows: Readonly<Record<string, DurationWindow>>,
): DurationWindow | undefined {
  const own = t.action !== undefined ? windows[t.action] : undefined;
  return own ?? (t.compute ? windows[COMPUTE_ACTIONS] : undefined);
}

/** Minimum number of finished operations of an action before its durations are trusted. */
export const MIN_DURATION_SAMPLES = 3;

/**
 * The expected finish window of an action from recent durations (ms): from
 * the shortest to the longest seen, widened on each side by the range over the
 * number of samples (about the gap between neighbouring samples), at most a
 * tenth of the median. The margin shrinks as the history grows and is 0 when
 * every duration was the same: a wait's anchor is never before its operation
 * started, so a poll at the window's start is then already at or after the
 * end. With fewer samples the window is `tentative`; undefined without any.
 */
export function durationWindow(samples: readonly number[]): DurationWindow | undefined {
  const xs = samples.filter((x) => Number.isFinite(x) && x >= 0).sort((a, b) => a - b);
  if (xs.length === 0) return undefined;
  const median = xs[Math.floor(xs.length / 2)];
  if (xs.length < MIN_DURATION_SAMPLES) {
    return { lo: xs[0], hi: xs[xs.length - 1], median, samples: xs.length, points: xs, tentative: true };
  }
  const margin = Math.min((xs[xs.length - 1] - xs[0]) / xs.length, median * 0.1);
  return { lo: Math.max(0, xs[0] - margin), hi: xs[xs.length - 1] + margin, median, samples: xs.length };
}
