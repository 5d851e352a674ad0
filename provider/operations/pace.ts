/**
 * The constants of the wait for a project's lock (`lock.ts`, `runs.ts`). Each value's reason is in
 * docs/decisions/0014-requests-at-the-control-planes-pace.md, with the rule they serve.
 */

/** An action's duration when the page has no finished operation to learn it from. */
export const DEFAULT_ACTION_MS = 2_000;
/** The longest one wait (a longer operation is looked at again after this). */
export const MAX_LOCK_WAIT_MS = 30_000;
/** The shortest one wait: the lock may be free already, but not this very millisecond. */
export const MIN_LOCK_WAIT_MS = 100;
/**
 * The spread of the wakes for an end under a second away, and of nothing else: such a waiter may look
 * twice within one second, and thirty of them must stay under the account's 40 requests per rolling
 * second of the operations route (see docs/decisions/0014).
 */
export const MAX_WAKE_SPREAD_MS = 1_000;
/**
 * The spread of the wakes for an end at least {@link MAX_WAKE_SPREAD_MS} away, and of a grace's tries:
 * each waiter then looks once around the end, so the spread sets only the idle at a hand-over (the
 * first of k waiters wakes about spread ÷ (k + 1) after the end) against the looks that come too close
 * to the first one's change and meet a 423 (see docs/decisions/0014).
 */
export const FAR_WAKE_SPREAD_MS = 150;
/**
 * The shortest wait once the operations are overdue (they run longer than learned, have not started,
 * or failed and are to be retried): a stuck short operation is not looked at every few hundred ms.
 */
export const MIN_OVERDUE_WAIT_MS = 500;
/** The most changes a holder's branch is expected to send after its current one (a run only predicted). */
export const MAX_FOLLOWING_CHANGES = 3;
/**
 * How long after a change's end its branch's next change is expected, at least (its process's poll and
 * step take tens of ms): a waiter that finds the lock free leaves it that long to the run that may go
 * on. Twice the branch's usual pause when that is longer (see docs/decisions/0014).
 */
export const HOLDER_GRACE_MS = 300;
/** The longest grace, however slow the branches have been between their changes. */
export const MAX_HOLDER_GRACE_MS = 3_000;
/**
 * How many finished runs of other branches the burst must show before runs are expected to repeat
 * (one is enough when the burst starts on the page and that run holds more than one change): a
 * single run may be one a waiter cut short.
 */
export const MIN_RUNS_SEEN = 2;
/**
 * A project quiet this long (nothing pending, no change created; the control plane's own suspends
 * and checks do not count) between two changes ends a burst: waiters take a free lock within a few
 * seconds, so the runs before it are not the pipelines under way now.
 */
export const BURST_GAP_MS = 15_000;
