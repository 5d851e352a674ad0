/**
 * The operation waiter as a pure step over plain data: given what is known
 * about the awaited operations and the current time, decide whether the wait
 * is done, has failed, or should poll again after some delay. The driver
 * (`waiter.ts`) owns the clock, the HTTP calls and the sharing of polls.
 *
 * Status classes live in `status.ts`. A `failed` operation is not terminal:
 * the wait fails only when it stays `failed` longer than the grace period.
 */

import { FAILURE_STATUSES, RETRYABLE_FAILED_STATUS, SUCCESS_STATUSES } from "./status";

import { tentativeOf, windowOf, type DurationWindow } from "./durations";

export { FAILURE_STATUSES, RETRYABLE_FAILED_STATUS, SUCCESS_STATUSES };
export {
  COMPUTE_ACTIONS,
  durationWindow,
  MIN_DURATION_SAMPLES,
  tentativeOf,
  windowOf,
  type DurationWindow,
} from "./durations";

/** The fields of an operation the step reads. */
export interface OpView {
  id: string;
  action: string;
  status: string;
  failures_count: number;
  error?: string;
  /** Set on operations of a compute (start, suspend, apply_config…). */
  endpoint_id?: string;
}

/**
 * What the caller already knows of an operation it awaits: the answer to the request that started
 * it names its action and status. With them the first poll can be timed by the action's expected
 * duration instead of a fixed early look. Not an observation: it counts for no poll.
 */
export interface OpHint {
  id: string;
  action?: string;
  status?: string;
  endpoint_id?: string;
}

/** What the waiter knows about one operation. */
export interface OpTrack {
  id: string;
  action?: string;
  status?: string;
  failuresCount?: number;
  error?: string;
  /** Time from which its running time is counted (registration, or when it left `scheduling`). */
  anchorAt: number;
  /**
   * Where the growing interval counts from when it differs from `anchorAt`: the last time it was seen
   * queued (its start is then known better than that, from the operation it queued behind).
   */
  growFrom?: number;
  /** Last time it was seen in `scheduling`. */
  scheduledSeenAt?: number;
  /** Since when it has been `failed` without leaving that status. */
  failedSince?: number;
  /** Set when a read by id answered 404. */
  notFound?: boolean;
  /** An operation of a compute: without its own action's estimate, the estimate of all compute operations applies. */
  compute?: boolean;
}

/** The whole state of one wait: plain, serializable data. */
export interface WaitState {
  projectId: string;
  ids: string[];
  startedAt: number;
  deadlineAt: number;
  failedGraceMs: number;
  ops: Record<string, OpTrack>;
  /** Observations applied so far. */
  attempt: number;
  /** Last time any awaited operation changed status. */
  lastChangeAt: number;
}

/** Poll timing. */
export interface ScheduleConfig {
  /** First check after registering a wait. */
  firstPollMs: number;
  /** Growth of the interval while nothing is known: next ≈ elapsed × growth. */
  growth: number;
  /** Largest interval between polls. */
  maxIntervalMs: number;
  /** Smallest interval between polls. */
  minIntervalMs: number;
  /**
   * Largest interval inside an expected finish window: inside it, never slower than a poller that
   * looks every second (long operations' windows are wide; the sleep up to the window saves the rest).
   */
  maxWindowIntervalMs: number;
}

/** Defaults: first check after 100 ms, ×1.5 up to 5 s. */
export const DEFAULT_SCHEDULE: ScheduleConfig = {
  firstPollMs: 100,
  growth: 1.5,
  maxIntervalMs: 5_000,
  minIntervalMs: 50,
  maxWindowIntervalMs: 1_000,
};

/** Why a wait failed. */
export type FailReason = "error" | "cancelled" | "failed_too_long" | "deadline" | "not_found";

/** What to do next. */
export type Decision =
  | { type: "done" }
  | { type: "fail"; reason: FailReason; operationId: string }
  | { type: "poll"; afterMs: number };

/** Starts a wait; `hints` are what the request that started the operations answered about them. */
export function initialState(
  projectId: string,
  ids: readonly string[],
  now: number,
  opts: { deadlineMs: number; failedGraceMs: number },
  hints: readonly OpHint[] = [],
): WaitState {
  const unique = [...new Set(ids)];
  const ops: Record<string, OpTrack> = {};
  for (const id of unique) {
    const h = hints.find((x) => x.id === id);
    ops[id] = {
      id,
      anchorAt: now,
      ...(h?.action !== undefined ? { action: h.action } : {}),
      // Only a status the waiter need not act on: a finished or failed one must be seen by a poll.
      ...(h?.status === "running" || h?.status === "scheduling" ? { status: h.status } : {}),
      ...(h?.status === "scheduling" ? { scheduledSeenAt: now } : {}),
      ...(h?.endpoint_id ? { compute: true } : {}),
    };
  }
  return {
    projectId,
    ids: unique,
    startedAt: now,
    deadlineAt: now + opts.deadlineMs,
    failedGraceMs: opts.failedGraceMs,
    ops,
    attempt: 0,
    lastChangeAt: now,
  };
}

/** An observation of one operation: its current view, or the news that it does not exist. */
export type Observation = { id: string; op: OpView } | { id: string; notFound: true };

/**
 * Applies observations made at `now`. Observations of operations this wait
 * does not await are ignored, so one poll can feed many waits.
 */
export function observe(
  state: WaitState,
  now: number,
  observations: readonly Observation[],
  windows: Readonly<Record<string, DurationWindow>> = {},
): WaitState {
  const ops = { ...state.ops };
  let changed = false;
  let seen = false;
  for (const o of observations) {
    const prev = ops[o.id];
    if (!prev) continue;
    seen = true;
    if ("notFound" in o) {
      ops[o.id] = { ...prev, notFound: true };
      changed = true;
      continue;
    }
    const { status } = o.op;
    const next: OpTrack = {
      ...prev,
      action: o.op.action,
      status,
      failuresCount: o.op.failures_count,
      error: o.op.error ?? prev.error,
      notFound: undefined,
      compute: prev.compute || Boolean(o.op.endpoint_id) || undefined,
    };
    if (status === "scheduling") next.scheduledSeenAt = now;
    // It left `scheduling` some time after we last saw it there; counting from
    // then over-estimates its running time, which only makes us poll earlier.
    // Queued behind an operation of this wait that has finished since, it started
    // when that one finished: not before that one's earliest expected end.
    if (prev.status === "scheduling" && status !== "scheduling") {
      const seenQueued = prev.scheduledSeenAt ?? prev.anchorAt;
      next.anchorAt = Math.min(now, Math.max(seenQueued, predecessorEnd(state, windows)));
      // Without an estimate of its own, the growing interval keeps the earlier count: no burst of looks.
      if (next.anchorAt > seenQueued) next.growFrom = seenQueued;
    }
    if (status === RETRYABLE_FAILED_STATUS) next.failedSince = prev.failedSince ?? now;
    else next.failedSince = undefined;
    if (prev.status !== status) changed = true;
    ops[o.id] = next;
  }
  if (!seen) return state;
  return { ...state, ops, attempt: state.attempt + 1, lastChangeAt: changed ? now : state.lastChangeAt };
}

/**
 * The earliest expected end of the operation of this wait that was running when last seen, by its
 * estimate (0 when none ran or none is estimated): an operation queued behind it started no earlier.
 */
function predecessorEnd(state: WaitState, windows: Readonly<Record<string, DurationWindow>>): number {
  let end = 0;
  for (const t of Object.values(state.ops)) {
    const w = t.status === "running" ? windowOf(t, windows) : undefined;
    if (w) end = Math.max(end, t.anchorAt + w.lo);
  }
  return end;
}

/**
 * Decides what to do at `now`. Rules, first match wins:
 * 1. An operation in `error` or `cancelled`: fail on it.
 * 2. An operation that does not exist: fail on it.
 * 3. An operation `failed` for at least the grace period: fail on it.
 * 4. Every operation `finished` or `skipped`: done.
 * 5. The deadline has passed: fail on the first unfinished operation.
 * 6. Otherwise poll at the earliest time any unfinished operation wants a
 *    look, never past the deadline.
 */
export function decide(
  state: WaitState,
  now: number,
  windows: Readonly<Record<string, DurationWindow>> = {},
  cfg: ScheduleConfig = DEFAULT_SCHEDULE,
): Decision {
  const tracks = state.ids.map((id) => state.ops[id]);
  const terminal = tracks.find((t) => t.status !== undefined && FAILURE_STATUSES.has(t.status));
  if (terminal)
    return {
      type: "fail",
      reason: terminal.status === "cancelled" ? "cancelled" : "error",
      operationId: terminal.id,
    };
  const missing = tracks.find((t) => t.notFound);
  if (missing) return { type: "fail", reason: "not_found", operationId: missing.id };
  const stuck = tracks.find((t) => t.failedSince !== undefined && now - t.failedSince >= state.failedGraceMs);
  if (stuck) return { type: "fail", reason: "failed_too_long", operationId: stuck.id };
  const open = tracks.filter((t) => !(t.status !== undefined && SUCCESS_STATUSES.has(t.status)));
  if (open.length === 0) return { type: "done" };
  if (now >= state.deadlineAt) return { type: "fail", reason: "deadline", operationId: open[0].id };

  let at = Number.POSITIVE_INFINITY;
  // Before the first poll, an early look helps only when nothing tells when the operations end.
  const estimated = open.every((t) => t.status === "scheduling" || windowOf(t, windows) !== undefined);
  if (state.attempt === 0 && !(estimated && open.some((t) => t.status === "running"))) {
    at = state.startedAt + cfg.firstPollMs;
  } else {
    // While one operation of the wait runs, the ones queued behind it cannot finish first.
    const running = open.filter((t) => t.status !== "scheduling");
    for (const t of running.length > 0 ? running : open)
      at = Math.min(at, nextPollAt(t, state, now, windows, cfg));
    // Nor can the wait end before they have run too: with one operation running and every queued one
    // estimated, the next look is at the earliest the last could finish (the running one's next look,
    // plus each queued one's shortest time). A failure of the running one is seen that much later.
    const queued = open.filter((t) => t.status === "scheduling");
    const queuedLo = queued.map((t) => windowOf(t, windows)?.lo);
    if (
      running.length === 1 &&
      queued.length > 0 &&
      windowOf(running[0], windows) !== undefined &&
      queuedLo.every((lo) => lo !== undefined)
    ) {
      // At most two of the longest intervals: a failure of the running one is seen that much later.
      at += Math.min(
        queuedLo.reduce((sum: number, lo) => sum + (lo as number), 0),
        2 * cfg.maxIntervalMs,
      );
    }
    const failed = open.find((t) => t.failedSince !== undefined);
    if (failed) at = Math.min(at, failed.failedSince! + state.failedGraceMs);
  }
  at = Math.min(Math.max(at, now + cfg.minIntervalMs), state.deadlineAt);
  return { type: "poll", afterMs: Math.max(0, at - now) };
}

/**
 * When one operation wants its next look. Without a duration estimate the
 * interval grows with the elapsed time (×`growth`, from `firstPollMs` to
 * `maxIntervalMs`). With one, it sleeps towards the expected finish window
 * (checking once halfway when that sleep is long), polls densely inside the
 * window, and backs off gradually after it.
 */
export function nextPollAt(
  t: OpTrack,
  state: WaitState,
  now: number,
  windows: Readonly<Record<string, DurationWindow>>,
  cfg: ScheduleConfig,
): number {
  const grow = (from: number, min = cfg.firstPollMs) =>
    now + clamp((now - from) * (cfg.growth - 1), min, cfg.maxIntervalMs);
  if (t.failedSince !== undefined) return grow(t.failedSince);
  if (t.status === undefined || t.status === "scheduling" || t.status === "cancelling") {
    return grow(Math.max(t.anchorAt, state.lastChangeAt));
  }
  const w = windowOf(t, windows);
  if (!w) {
    // No trusted estimate: the growing interval, plus a look when an earlier operation of the action
    // took as long as this one has now (the first start in a fresh project, one earlier start seen).
    // The first such look needs no growing looks before it when the duration is the action's own (not
    // borrowed from other compute operations) and no longer than the longest interval: a faster
    // operation is then seen at most that late, as the growing interval itself would see one.
    const tentative = tentativeOf(t, windows);
    const points = tentative?.points ?? [];
    const next = points.findIndex((p) => t.anchorAt + p > now);
    const grown = grow(t.growFrom ?? t.anchorAt);
    if (next < 0) return grown;
    const at = t.anchorAt + points[next];
    const own = t.action !== undefined && windows[t.action] === tentative;
    return own && next === 0 && points[0] <= cfg.maxIntervalMs ? at : Math.min(grown, at);
  }
  const elapsed = now - t.anchorAt;
  const step = windowInterval(w, cfg);
  if (elapsed < w.lo) {
    // A long sleep to the window gets one check halfway, in case operations
    // got faster; a short one (≤ 2 × the largest interval) does not need it,
    // unless the estimate is borrowed from other actions.
    const half = w.lo / 2;
    // Borrowed, unless the few durations seen of its own action all fall inside it.
    const own = t.action !== undefined ? windows[t.action] : undefined;
    const confirmed = own?.points?.every((p) => p >= w.lo && p <= w.hi) === true;
    const borrowed =
      t.action === undefined || (windowOf({ action: t.action }, windows) === undefined && !confirmed);
    const long = borrowed || w.lo - elapsed > 2 * cfg.maxIntervalMs;
    const target = long && elapsed + cfg.minIntervalMs < half ? half : w.lo;
    return t.anchorAt + target;
  }
  // Densely through the window, gaps between the durations seen included: skipping them saves a few
  // polls but sees an end that falls in a gap late (see docs/decisions/0014).
  if (elapsed < w.hi) return now + step;
  // Late: start at the window's pace and slow down gently, on the scale of the window's width.
  const late = step * (1 + (elapsed - w.hi) / Math.max(w.hi - w.lo, step));
  return now + clamp(late, step, cfg.maxIntervalMs);
}

/** Poll interval inside an expected-finish window: a twelfth of its width, 3 % of the median at least. */
export function windowInterval(w: DurationWindow, cfg: ScheduleConfig = DEFAULT_SCHEDULE): number {
  return clamp(Math.max((w.hi - w.lo) / 12, w.median * 0.03), cfg.minIntervalMs, cfg.maxWindowIntervalMs);
}

/** One step: apply observations made at `now`, then decide. */
export function step(
  state: WaitState,
  input: {
    now: number;
    observations: readonly Observation[];
    windows?: Readonly<Record<string, DurationWindow>>;
    config?: ScheduleConfig;
  },
): { state: WaitState; decision: Decision } {
  const next = observe(state, input.now, input.observations, input.windows);
  return { state: next, decision: decide(next, input.now, input.windows, input.config) };
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
