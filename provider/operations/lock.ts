/**
 * When a project's lock is expected to be free (issue 28): a change answered 423 waits for the end
 * of what runs on the project instead of retrying blindly into the lock. One page of the project's
 * operations says what is pending (the project runs them one at a time, in order) and, from the
 * finished ones, how long each action takes there; the wait is until the last pending one's expected
 * end, with jitter so that many waiters do not all wake at once. A waiter that wakes early meets
 * another 423 and looks again; one that knows nothing falls back to the exponential backoff.
 */
import type { Operation } from "../api/schemas";
import { isTerminal, RETRYABLE_FAILED_STATUS } from "./status";

/** What holds the lock, and until when it is expected to. */
export interface LockEstimate {
  /** The operation running now (or first in line), whose end frees the lock for the next. */
  running: Operation;
  /** How many operations are pending on the project, the running one included. */
  pending: number;
  /** When the running operation started (ms since the epoch), as the page shows it. */
  startedMs: number;
  /** When the last pending operation is expected to end (ms since the epoch). */
  freeAtMs: number;
}

/** An action's duration when the page has no finished operation to learn it from. */
export const DEFAULT_ACTION_MS = 2_000;
/** The longest one wait (a longer operation is looked at again after this). */
export const MAX_LOCK_WAIT_MS = 30_000;
/** The shortest one wait: the lock may be free already, but not this very millisecond. */
export const MIN_LOCK_WAIT_MS = 100;

const pending = (o: Operation) => !isTerminal(o.status) && o.status !== RETRYABLE_FAILED_STATUS;

function median(xs: number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * How long each action took on this project, from the finished operations of one page: the
 * operation's own `total_duration_ms` when given, else its end minus the later of its creation and
 * the previous operation's end (operations of a project run one after another).
 */
export function learnedDurations(ops: readonly Operation[]): Map<string, number> {
  const byAction = new Map<string, number[]>();
  const oldestFirst = [...ops].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  let previousEnd = -Infinity;
  for (const o of oldestFirst) {
    if (!isTerminal(o.status)) continue;
    const end = Date.parse(o.updated_at);
    const start = Math.max(Date.parse(o.created_at), previousEnd);
    const took = o.total_duration_ms ?? end - start;
    previousEnd = Math.max(previousEnd, end);
    if (!(took >= 0)) continue;
    byAction.set(o.action, [...(byAction.get(o.action) ?? []), took]);
  }
  return new Map([...byAction].map(([a, xs]) => [a, median(xs) as number]));
}

/** What holds the project's lock on one page of its operations (newest or oldest first), if anything. */
export function estimateLock(ops: readonly Operation[], nowMs: number): LockEstimate | undefined {
  const waiting = ops.filter(pending).sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  if (waiting.length === 0) return undefined;
  const learned = learnedDurations(ops);
  const all = median([...learned.values()]);
  const typical = (action: string) => learned.get(action) ?? all ?? DEFAULT_ACTION_MS;
  const running = waiting.find((o) => o.status === "running") ?? waiting[0];
  // A running operation's last change is its start; one still scheduling starts when it is its turn.
  const startedMs = running.status === "running" ? Date.parse(running.updated_at) : nowMs;
  let freeAtMs = Math.max(startedMs + typical(running.action), nowMs);
  for (const o of waiting) if (o !== running) freeAtMs += typical(o.action);
  return { running, pending: waiting.length, startedMs, freeAtMs };
}

/**
 * The wait before the next try, from an estimate: until the lock is expected free, plus up to a
 * quarter of that (at most 1 s) at random, within [MIN_LOCK_WAIT_MS, MAX_LOCK_WAIT_MS].
 */
export function lockWaitMs(estimate: LockEstimate, nowMs: number, random: () => number): number {
  const until = Math.max(0, estimate.freeAtMs - nowMs);
  const jitter = random() * Math.min(1_000, until / 4 + MIN_LOCK_WAIT_MS);
  return Math.min(MAX_LOCK_WAIT_MS, Math.max(MIN_LOCK_WAIT_MS, until + jitter));
}
