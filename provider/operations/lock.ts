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
   * inside the grace again (it then tries at the grace's end, as before).
   */
  lookAfterMs: number;
}

/** An action's duration when the page has no finished operation to learn it from. */
export const DEFAULT_ACTION_MS = 2_000;
/** The longest one wait (a longer operation is looked at again after this). */
export const MAX_LOCK_WAIT_MS = 30_000;
/** The shortest one wait: the lock may be free already, but not this very millisecond. */
export const MIN_LOCK_WAIT_MS = 100;
/**
 * The widest spread of the waiters' wakes after an expected end. The project is
 * idle until the first wakes (the earliest of k waiters about spread ÷ (k + 1) after the end), but
 * every waiter looks within it, on the route that also carries every process's polls, and the
 * account allows 40 requests per rolling second per route. This spread is for a waiter that may look
 * twice within a second — it looked just before the end it waits for — so that thirty such looks stay
 * apart (runs 30, 31: 23 and 9 answers of 429 when they came within 200 ms; a client's readings of a
 * project now come about a second apart (at least 950 ms) all the same, `projectLockWait`). A grace's waiters are
 * spread by {@link FAR_WAKE_SPREAD_MS} and try their change at its end. A waiter that looked a second or more before the end looks once
 * around it when the end comes as expected: {@link FAR_WAKE_SPREAD_MS}.
 */
export const MAX_WAKE_SPREAD_MS = 1_000;
/**
 * The spread of the wakes for an end at least {@link MAX_WAKE_SPREAD_MS} away: when the end comes as
 * expected, each waiter looks once around it, so a rolling second holds one look per waiter however
 * narrow the spread (one that comes later sends them to the overdue wait, at least 250 ms), and
 * the project is idle less (the first of k waiters wakes about spread ÷ (k + 1) after the end; ten
 * waiters idled 2.8 s at 300 ms against 4.4 s at 1 s, runs 28, 27; the eight hand-overs after a
 * burst's first took 0.5–0.64 s in all at 300 ms, runs 42–45, 0.3 s at 150 ms, runs 47–48). Narrower
 * has a price: a waiter whose look comes within the few milliseconds between the first waiter's look
 * and its change reaching the service also finds the lock free, and meets a 423 (then one more look):
 * about 1.2 per ten waiters' burst at 150 ms, 0.6 at 300 ms (a simulation of the draws; the square of
 * a uniform draw over 300 ms: 2.3 for about as much less idle, bench run 46). The first run's
 * waiters look a grace after each change's end ({@link LockEstimate.lookAfterMs}), which a narrow
 * spread would otherwise bring inside that grace.
 */
export const FAR_WAKE_SPREAD_MS = 150;
/** The shortest wait once the operations are overdue (they run longer than learned). */
export const MIN_OVERDUE_WAIT_MS = 500;
/** The most changes a holder's branch is expected to send after its current one. */
export const MAX_FOLLOWING_CHANGES = 3;
/**
 * How long after a change's end its branch's next change is expected (its process's poll and step),
 * at least: twice the branch's usual pause when that is longer ({@link runGapMs}). Runs' pauses were
 * 30–70 ms in bench runs 37–40 (ten pipelines on 2 cores). Every waiter of a burst's first hand-over
 * waits out the grace: the project idled 1.1–1.2 s there with 750 ms and a look a second after the
 * last, 0.38 s with 300 ms and a try (run 40).
 */
export const HOLDER_GRACE_MS = 300;
/** The longest grace, however slow the branches have been between their changes. */
export const MAX_HOLDER_GRACE_MS = 3_000;
/**
 * How many finished runs of other branches the burst must show before runs are expected to repeat
 * (one is enough when the burst starts on the page and that run holds more than one change).
 */
export const MIN_RUNS_SEEN = 2;
/**
 * A project quiet this long (nothing pending, no change created; the control plane's own suspends
 * and checks do not count) between two changes ends a burst: the runs before it are not the
 * pipelines under way now. Waiters take a free lock within a few seconds.
 */
export const BURST_GAP_MS = 15_000;

// A `failed` operation is not terminal: the control plane retries it, and it holds the lock meanwhile.
const pending = (o: Operation) => !isTerminal(o.status);

/**
 * The page's operations in the order the project ran them: by creation, and for one request's
 * operations (equal creation times) in the reverse of the page's order (the API lists newest first).
 */
function oldestFirst(ops: readonly Operation[]): Operation[] {
  return ops
    .map((o, i) => ({ o, i }))
    .sort((a, b) => Date.parse(a.o.created_at) - Date.parse(b.o.created_at) || b.i - a.i)
    .map((x) => x.o);
}

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

/** Actions the control plane also starts on its own: a compute's suspend after inactivity, its checks. */
const CONTROL_PLANE_ACTIONS = new Set(["suspend_compute", "check_availability"]);

/**
 * The page's operations oldest first, without those the control plane started on its own: a
 * suspend or check alone in its request (no other operation of its branch created with it). A
 * suspend that came with a program's change (a role's `apply_config` on an idle compute) stays.
 */
function changesOnly(ops: readonly Operation[]): Operation[] {
  const ordered = oldestFirst(ops);
  return ordered.filter(
    (o) =>
      !CONTROL_PLANE_ACTIONS.has(o.action) ||
      ordered.some((p) => p !== o && p.branch_id === o.branch_id && p.created_at === o.created_at),
  );
}

/**
 * The page's runs, oldest first: changes in a row on one branch, a change being one request's
 * operations (one branch, one creation time: a branch's create and its compute's start). Only the
 * current burst's (`burstRuns`).
 */
export function runsOf(ops: readonly Operation[]): { branch: string | undefined; changes: number }[] {
  return burstRuns(ops).runs;
}

type Run = { branch: string | undefined; changes: number };

/**
 * The runs since the project was last quiet for {@link BURST_GAP_MS} (nothing pending, nothing
 * created): the pipelines under way now. Older history — a seed's, earlier pushes', branches made
 * in the console with one change each — says little of how long these runs are, and taught waiters
 * a run of one change, so that they cut every run of a burst (bench run 25). `whole` when the burst
 * starts after such a quiet time on the page: its first run is then not cut by the page's edge.
 */
function burstRuns(ops: readonly Operation[]): { runs: Run[]; whole: boolean } {
  const changes = changesOnly(ops);
  let start = 0;
  let latestEnd = -Infinity;
  changes.forEach((o, i) => {
    if (i > 0 && Date.parse(o.created_at) - latestEnd > BURST_GAP_MS) start = i;
    latestEnd = Math.max(latestEnd, pending(o) ? Infinity : Date.parse(o.updated_at));
  });
  const runs: Run[] = [];
  let previous: Operation | undefined;
  for (const o of changes.slice(start)) {
    const last = runs[runs.length - 1];
    if (last && last.branch === o.branch_id) {
      if (o.created_at !== previous?.created_at) last.changes++;
    } else runs.push({ branch: o.branch_id, changes: 1 });
    previous = o;
  }
  return { runs, whole: start > 0 };
}

/**
 * How many more changes the holder's branch is expected to send right after its current one. A
 * program's resources on one branch are created one after another (a branch, then its role, then
 * the role's database), and the process that holds the lock sends its next change as soon as its
 * operation ends, before any waiter's look: the lock passes between branches only when a run ends.
 * So once the burst under way shows finished runs ({@link typicalRun}), the (lower) median of their
 * changes is the expected run, and a waiter sleeps through the rest of the holder's run
 * (what its branch sent in the burst, in this run and any earlier one another waiter cut short)
 * — one look per run instead of one per change. Not for a waiter on the holder's own branch (it is
 * that run) or one whose branch is not known (`null`: a compute's change names no branch), nor for
 * an operation without a branch or when the page's last run is not the holder's branch (a suspend or
 * check the control plane started on its own holds none: {@link estimateLock} names the holder).
 * The last run is the holder's, not counted as finished; nor is the first, unless the burst starts
 * on the page (else the page may cut it).
 */
export function followingChanges(
  ops: readonly Operation[],
  ownBranch?: string | null,
  holderBranch?: string,
): number {
  return holderRun(ops, ownBranch, holderBranch).following;
}

/**
 * The holder's run as a waiter sees it: the changes it is expected to send after its current one
 * ({@link followingChanges}), and whether it may send more though no typical run of the burst is
 * known yet (`mayGoOn`: the burst's first run, when the holder's branch is another than the
 * waiter's and the waiter's change names its branch or creates one) — a look right at its current
 * change's end would then find the lock free inside a grace ({@link holderGraceMs}).
 */
function holderRun(
  ops: readonly Operation[],
  ownBranch: string | null | undefined,
  holderBranch: string | undefined,
): { following: number; mayGoOn: boolean } {
  const none = { following: 0, mayGoOn: false };
  if (ownBranch === null) return none;
  const { runs, whole } = burstRuns(ops);
  const holder = runs[runs.length - 1];
  if (!holder?.branch || holder.branch === ownBranch) return none;
  // Another branch's change queued behind the running one: whose run goes on is not known.
  if (holderBranch !== undefined && holder.branch !== holderBranch) return none;
  const typical = typicalRun(runs, whole);
  if (typical === undefined) return { following: 0, mayGoOn: true };
  const sent = changesOf(runs).get(holder.branch) ?? holder.changes;
  return { following: Math.min(MAX_FOLLOWING_CHANGES, Math.max(0, typical - sent)), mayGoOn: false };
}

/** Each branch's changes in the burst, over all its runs: a run cut short by another goes on later. */
function changesOf(runs: readonly Run[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const r of runs)
    if (r.branch !== undefined) totals.set(r.branch, (totals.get(r.branch) ?? 0) + r.changes);
  return totals;
}

/**
 * The (lower) median of the changes each branch sent in the burst, once {@link MIN_RUNS_SEEN} branches
 * with finished runs are seen — or one of more than one change, when the burst is `whole` — not the
 * holder's, nor the first run's branch unless the burst is `whole` (else the page may have cut it).
 */
function typicalRun(runs: readonly Run[], whole: boolean): number | undefined {
  const totals = changesOf(runs);
  const first = whole ? undefined : runs[0]?.branch;
  const holder = runs[runs.length - 1]?.branch;
  const counted = [...new Set(runs.slice(whole ? 0 : 1, -1).map((r) => r.branch))]
    .filter((b): b is string => b !== undefined && b !== first && b !== holder)
    .map((b) => totals.get(b) as number)
    .sort((a, b) => a - b);
  // A whole burst's first run is a pipeline's run from its start: enough alone, unless it is of one
  // change — what a run cut by a waiter that took the lock after its first change looks like (a
  // typical run of one would then let every waiter cut every run).
  const enough = counted.length >= MIN_RUNS_SEEN || (whole && counted.length === 1 && counted[0] > 1);
  return enough ? counted[Math.floor((counted.length - 1) / 2)] : undefined;
}

/**
 * How long a branch takes between one change's end and its next change in a run (ms, median of the
 * page's; 0 when none is seen, at most {@link MAX_HOLDER_GRACE_MS}): its process's poll and step.
 */
export function runGapMs(ops: readonly Operation[]): number {
  const gaps: number[] = [];
  // The change being read: its branch, creation time, latest end, and whether all of it has ended.
  let change: { branch?: string; created: string; endMs: number; ended: boolean } | undefined;
  for (const o of changesOnly(ops)) {
    if (change && o.branch_id === change.branch && o.created_at === change.created) {
      change.endMs = Math.max(change.endMs, Date.parse(o.updated_at));
      change.ended &&= isTerminal(o.status);
      continue;
    }
    if (change?.branch !== undefined && change.branch === o.branch_id && change.ended) {
      gaps.push(Math.max(0, Date.parse(o.created_at) - change.endMs));
    }
    change = {
      branch: o.branch_id,
      created: o.created_at,
      endMs: Date.parse(o.updated_at),
      ended: isTerminal(o.status),
    };
  }
  return Math.min(MAX_HOLDER_GRACE_MS, median(gaps) ?? 0);
}

/**
 * How long a waiter that finds the lock free still leaves it to the branch whose change just ended
 * (ms; 0 to go now): up to {@link HOLDER_GRACE_MS} after that end (or twice the branch's usual pause
 * between changes, when longer: a busy machine; at most {@link MAX_HOLDER_GRACE_MS}), while the branch's run is shorter
 * than the project's typical run (or no run is known yet). Its process sends its next change as soon
 * as it has seen the end; a waiter that took the lock in that moment would cut the run short, and
 * every other waiter, expecting the run to go on, would sleep through a project left idle. Not for a
 * waiter on that branch, nor once the run is as long as the typical one.
 */
export function holderGraceMs(ops: readonly Operation[], nowMs: number, ownBranch?: string | null): number {
  if (ownBranch === null) return 0;
  const ordered = oldestFirst(ops);
  const changes = changesOnly(ops);
  const last = changes[changes.length - 1];
  if (!last?.branch_id || last.branch_id === ownBranch || ordered.some(pending)) return 0;
  const { runs, whole } = burstRuns(ops);
  const typical = typicalRun(runs, whole);
  if (typical !== undefined && (changesOf(runs).get(last.branch_id) ?? 0) >= typical) return 0;
  return Math.max(0, Date.parse(last.updated_at) + graceOf(ops) - nowMs);
}

/**
 * How long after a change's end (as the page gives it) its grace ends: {@link HOLDER_GRACE_MS}, or
 * twice the branches' usual pause when longer (at most {@link MAX_HOLDER_GRACE_MS}); a second more on
 * a page of whole seconds (the service may round its times down: the change ended up to a second later).
 */
function graceOf(ops: readonly Operation[]): number {
  const rounding = ops.every((o) => Date.parse(o.updated_at) % 1_000 === 0) ? 1_000 : 0;
  return rounding + Math.min(MAX_HOLDER_GRACE_MS, Math.max(HOLDER_GRACE_MS, 2 * runGapMs(ops)));
}

/**
 * What holds the project's lock on one page of its operations (newest or oldest first), if anything;
 * `ownBranch` is the branch of the change that waits (none for a branch's create; `null` when the
 * change has one the route does not name, as a compute's: then no run is expected to go on).
 */
export function estimateLock(
  ops: readonly Operation[],
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
 * had taken the lock) and found it near its end would otherwise all look again at that end (thirty
 * at once met 9 answers of 429 when the spread was a quarter of the wait, at least 100 ms: bench
 * run 31).
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
