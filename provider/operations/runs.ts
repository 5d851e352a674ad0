/**
 * The runs on one page of a project's operations: a program's changes on one branch come in a row
 * (a branch, then its role, then the role's database), so the lock passes between branches only when
 * a run ends. From them, how many more changes the holder is expected to send, and how long a waiter
 * that finds the lock free leaves it to the branch whose change just ended. The rule:
 * docs/decisions/0014-requests-at-the-control-planes-pace.md.
 */
import {
  BURST_GAP_MS,
  HOLDER_GRACE_MS,
  MAX_FOLLOWING_CHANGES,
  MAX_HOLDER_GRACE_MS,
  MIN_RUNS_SEEN,
} from "./pace";
import { isTerminal } from "./status";

/** The fields of an operation the lock's estimate reads (the API's `Operation` has them). */
export interface LockOperation {
  id: string;
  action: string;
  status: string;
  failures_count: number;
  branch_id?: string;
  created_at: string;
  updated_at: string;
  /** When a `failed` operation is retried. */
  retry_at?: string;
  total_duration_ms?: number;
}

// A `failed` operation is not terminal: the control plane retries it, and it holds the lock meanwhile.
export const pending = (o: LockOperation) => !isTerminal(o.status);

/**
 * The page's operations in the order the project ran them: by creation, and for one request's
 * operations (equal creation times) in the reverse of the page's order (the API lists newest first).
 */
export function oldestFirst(ops: readonly LockOperation[]): LockOperation[] {
  return ops
    .map((o, i) => ({ o, i }))
    .sort((a, b) => Date.parse(a.o.created_at) - Date.parse(b.o.created_at) || b.i - a.i)
    .map((x) => x.o);
}

export function median(xs: number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Actions the control plane also starts on its own: a compute's suspend after inactivity, its checks. */
const CONTROL_PLANE_ACTIONS = new Set(["suspend_compute", "check_availability"]);

/**
 * The page's operations oldest first, without those the control plane started on its own: a
 * suspend or check alone in its request (no other operation of its branch created with it). A
 * suspend that came with a program's change (a role's `apply_config` on an idle compute) stays.
 */
export function changesOnly(ops: readonly LockOperation[]): LockOperation[] {
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
export function runsOf(ops: readonly LockOperation[]): { branch: string | undefined; changes: number }[] {
  return burstRuns(ops).runs;
}

type Run = { branch: string | undefined; changes: number };

/**
 * The runs since the project was last quiet for {@link BURST_GAP_MS} (nothing pending, nothing
 * created): the pipelines under way now. Older history — a seed's, earlier pushes', branches made
 * in the console with one change each — says little of how long these runs are, and would teach
 * waiters a run of one change, so that they cut every run of a burst. `whole` when the burst
 * starts after such a quiet time on the page: its first run is then not cut by the page's edge.
 */
function burstRuns(ops: readonly LockOperation[]): { runs: Run[]; whole: boolean } {
  const changes = changesOnly(ops);
  let start = 0;
  let latestEnd = -Infinity;
  changes.forEach((o, i) => {
    if (i > 0 && Date.parse(o.created_at) - latestEnd > BURST_GAP_MS) start = i;
    latestEnd = Math.max(latestEnd, pending(o) ? Infinity : Date.parse(o.updated_at));
  });
  const runs: Run[] = [];
  let previous: LockOperation | undefined;
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
 * check the control plane started on its own holds none: `estimateLock` (lock.ts) names the holder).
 * The last run is the holder's, not counted as finished; nor is the first, unless the burst starts
 * on the page (else the page may cut it).
 */
export function followingChanges(
  ops: readonly LockOperation[],
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
export function holderRun(
  ops: readonly LockOperation[],
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
export function runGapMs(ops: readonly LockOperation[]): number {
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
export function holderGraceMs(
  ops: readonly LockOperation[],
  nowMs: number,
  ownBranch?: string | null,
): number {
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
export function graceOf(ops: readonly LockOperation[]): number {
  const rounding = ops.every((o) => Date.parse(o.updated_at) % 1_000 === 0) ? 1_000 : 0;
  return rounding + Math.min(MAX_HOLDER_GRACE_MS, Math.max(HOLDER_GRACE_MS, 2 * runGapMs(ops)));
}
