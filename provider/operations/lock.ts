/**
 * When a project's lock is expected to be free: a change answered 423 waits for the end of what runs
 * on the project instead of retrying blindly into the lock. One page of the project's operations says
 * what is pending (the project runs them one at a time, in order) and, from the finished ones, how long
 * each action takes there; the wait is until the last pending one's expected end (and the rest of the
 * holder's run, `runs.ts`), spread so that many waiters do not all look at once. A waiter that knows
 * nothing falls back to the exponential backoff. The rule and its constants (`pace.ts`):
 * docs/decisions/0014-requests-at-the-control-planes-pace.md.
 */
import {
  DEFAULT_ACTION_MS,
  FAR_WAKE_SPREAD_MS,
  MAX_LOCK_WAIT_MS,
  MAX_WAKE_SPREAD_MS,
  MIN_LOCK_WAIT_MS,
  MIN_OVERDUE_WAIT_MS,
} from "./pace";
import {
  changesOnly,
  graceOf,
  holderRun,
  median,
  oldestFirst,
  pending,
  runGapMs,
  type LockOperation,
} from "./runs";
import { isTerminal, RETRYABLE_FAILED_STATUS } from "./status";

export {
  BURST_GAP_MS,
  DEFAULT_ACTION_MS,
  FAR_WAKE_SPREAD_MS,
  HOLDER_GRACE_MS,
  MAX_FOLLOWING_CHANGES,
  MAX_HOLDER_GRACE_MS,
  MAX_LOCK_WAIT_MS,
  MAX_WAKE_SPREAD_MS,
  MIN_LOCK_WAIT_MS,
  MIN_OVERDUE_WAIT_MS,
  MIN_RUNS_SEEN,
} from "./pace";
export { followingChanges, holderGraceMs, runGapMs, runsOf, type LockOperation } from "./runs";

/** What holds the lock, and until when it is expected to. */
export interface LockEstimate {
  /** The operation running now (or first in line), whose end frees the lock for the next. */
  running: LockOperation;
  /** How many operations are pending on the project, the running one included. */
  pending: number;
  /** When the running operation started (ms since the epoch), as the page shows it. */
  startedMs: number;
  /** When the last pending operation is expected to end (ms since the epoch). */
  freeAtMs: number;
  /** How long the running operation's action takes on this project (learned, or the default). */
  typicalMs: number;
  /**
   * The changes the holder's branch is expected to send next, as its run so far is shorter than the
   * project's typical run (included in `freeAtMs`; 0 when none are expected).
   */
  followingChanges: number;
  /**
   * How long after `freeAtMs` a waiter looks (ms; not in `freeAtMs`): the grace of a holder whose run
   * may go on ({@link holderGraceMs}) while the burst shows no typical run. A look right at the end
   * would find the lock free inside that grace, and the change tried at its end would meet a 423
   * whenever the holder did go on (every change but the last of the burst's first run); a look after
   * it finds the holder's next change running, or the lock free and no grace left. 0 otherwise.
   * Counted from the *expected* end: a holder that ends early leaves the project idle up to this much
   * longer than a look at the end would; one that ends later than this plus the spread puts the look
   * inside the grace again (it then tries at the grace's end).
   */
  lookAfterMs: number;
}

/**
 * How long each action took on this project, from the finished operations of one page: the
 * operation's own `total_duration_ms` when given, else its end minus the later of its creation and
 * the previous operation's end (operations of a project run one after another).
 */
export function learnedDurations(ops: readonly LockOperation[]): Map<string, number> {
  const byAction = new Map<string, number[]>();
  let previousEnd = -Infinity;
  for (const o of oldestFirst(ops)) {
    if (!isTerminal(o.status)) continue;
    const end = Date.parse(o.updated_at);
    const start = Math.max(Date.parse(o.created_at), previousEnd);
    const took = o.total_duration_ms ?? end - start;
    previousEnd = Math.max(previousEnd, end);
    // Only clean runs: a skipped, failed-and-retried or failed operation says nothing of the action's time.
    if (o.status !== "finished" || o.failures_count > 0 || !(took > 0)) continue;
    byAction.set(o.action, [...(byAction.get(o.action) ?? []), took]);
  }
  return new Map([...byAction].map(([a, xs]) => [a, median(xs) as number]));
}

/**
 * What holds the project's lock on one page of its operations (newest or oldest first), if anything;
 * `ownBranch` is the branch of the change that waits (none for a branch's create; `null` when the
 * change has one the route does not name, as a compute's: then no run is expected to go on).
 */
export function estimateLock(
  ops: readonly LockOperation[],
  nowMs: number,
  ownBranch?: string | null,
): LockEstimate | undefined {
  const waiting = oldestFirst(ops).filter(pending);
  if (waiting.length === 0) return undefined;
  const learned = learnedDurations(ops);
  const all = median([...learned.values()]);
  const typical = (action: string) => learned.get(action) ?? all ?? DEFAULT_ACTION_MS;
  const running = waiting.find((o) => o.status === "running") ?? waiting[0];
  // A running operation's last change is its start; a failed one starts again at its retry time; one
  // still scheduling starts when it is its turn.
  const startedMs =
    running.status === "running"
      ? Date.parse(running.updated_at)
      : running.status === RETRYABLE_FAILED_STATUS && running.retry_at
        ? Math.max(Date.parse(running.retry_at), nowMs)
        : nowMs;
  const typicalMs = typical(running.action);
  let freeAtMs = Math.max(startedMs + typicalMs, nowMs);
  for (const o of waiting) if (o !== running) freeAtMs += typical(o.action);
  // The holder's next changes: each as long as an operation typically is on this project, after the
  // branch's usual pause between two changes. The holder is the first pending program's change: a
  // suspend or check the control plane started on its own is in no run, even when the page's last run
  // is of its branch (that run is the branch's earlier one, which the suspend does not go on with), but
  // a change queued behind it is. None after an operation without a branch.
  const changes = new Set(changesOnly(ops));
  const holder = waiting.find((o) => changes.has(o));
  const run = holder?.branch_id
    ? holderRun(ops, ownBranch, holder.branch_id)
    : { following: 0, mayGoOn: false };
  const following = run.following;
  if (following > 0) freeAtMs += following * ((all ?? DEFAULT_ACTION_MS) + runGapMs(ops));
  const lookAfterMs = run.mayGoOn ? graceOf(ops) : 0;
  return {
    running,
    pending: waiting.length,
    startedMs,
    freeAtMs,
    typicalMs,
    followingChanges: following,
    lookAfterMs,
  };
}

/**
 * The wait before the next try, from an estimate: until the lock is expected free, plus the
 * estimate's {@link LockEstimate.lookAfterMs} (a holder's grace, while its run may go on), plus up to
 * {@link FAR_WAKE_SPREAD_MS} at random when that end is a second or more away, else up to
 * {@link MAX_WAKE_SPREAD_MS} — however near that end is: waiters that looked early (a new operation
 * had taken the lock) and found it near its end would otherwise all look again at that end, within
 * one second of the route (see docs/decisions/0014).
 * When that end is near (under {@link MIN_OVERDUE_WAIT_MS}) but not known — the operation has run
 * longer than learned, or has not started, or failed and is to be retried — a share of the running
 * action's time instead: half of it (at least {@link MIN_OVERDUE_WAIT_MS}) times 0.5 to 1.5 at random,
 * so that waiters neither poll nor wake together, and with no `lookAfterMs`. Always within
 * [MIN_LOCK_WAIT_MS, MAX_LOCK_WAIT_MS].
 */
export function lockWaitMs(estimate: LockEstimate, nowMs: number, random: () => number): number {
  const until = estimate.freeAtMs - nowMs;
  // A near end is waited for as such only when it is known: an operation seen running, not past its
  // expected end. One not started yet, or failed (to be retried), or overdue (`freeAtMs` is then not
  // before now) is looked at again no sooner than the overdue wait.
  const known =
    until >= MIN_OVERDUE_WAIT_MS ||
    (estimate.running.status === "running" && estimate.startedMs + estimate.typicalMs > nowMs);
  // Not monotonic on purpose: an end 999 ms away may be waited for longer than one 1 s away, as
  // waiters that look that near an end are the ones that may look twice within a second.
  const spread = until >= MAX_WAKE_SPREAD_MS ? FAR_WAKE_SPREAD_MS : MAX_WAKE_SPREAD_MS;
  const wait = known
    ? until + estimate.lookAfterMs + random() * spread
    : Math.max(MIN_OVERDUE_WAIT_MS, estimate.typicalMs / 2) * (0.5 + random());
  return Math.min(MAX_LOCK_WAIT_MS, Math.max(MIN_LOCK_WAIT_MS, wait));
}
