/**
 * A change answered 423: when the client asks how long the project's lock is held (`lockWait`), and
 * how it looks again before it tries the change. The rule and its constants:
 * docs/decisions/0014-requests-at-the-control-planes-pace.md.
 */
import type { AttemptResult } from "./answer";
import { MIN_BACKOFF_MS, type RetryReason } from "./retry";
import type { ClientCore } from "./send";
import type { RequestSpec } from "./types";

/**
 * While looks at a project's operations keep finding the same operation pending, the change is still
 * sent this often: a reading can show an operation pending that holds no lock any more (a `failed` one
 * nobody retries).
 */
const LOOK_TRY_EVERY_MS = 60_000;
/**
 * While the looks see the lock pass from one operation to the next (other pipelines' changes), a try
 * would only meet another 423: the change is sent when a look finds the project free, and at the
 * latest this often all the same (a reading wrong in some way no look can tell).
 */
const LOOK_TRY_MOVING_MS = 180_000;

/**
 * Whether a failed attempt asks `lockWait` how long the project's lock is held: a change's 423 (never
 * a read's, which the lock does not hold: that reading would ask for a reading of its own; a
 * Retry-After, were the retry policy to take one from a 423, would come first), and not when the
 * call's time is up (the 423 is its answer then).
 */
export function asksLockWait(
  core: ClientCore,
  spec: RequestSpec<unknown>,
  decision: { reason: RetryReason; retryAfterMs?: number },
  result: AttemptResult,
  started: number,
): boolean {
  return Boolean(
    decision.reason === "locked" &&
    started + core.deadlineMs - core.clock.now() > MIN_BACKOFF_MS &&
    decision.retryAfterMs === undefined &&
    spec.route.method !== "GET" &&
    result.type === "response" &&
    result.res.status === 423 &&
    core.opts.lockWait,
  );
}

/**
 * After a wait for a project's lock: waits again while a fresh reading of the project's operations
 * still shows one pending, until it shows none (or cannot tell), too little of the call's time is
 * left for another wait, or a look names as the lock's holder an operation first named
 * {@link LOOK_TRY_EVERY_MS} before, since the change was last sent (an operation the reading shows
 * pending forever — a `failed` one nobody retries — must not hold the change until its deadline,
 * even while others run between; a lock passing from one new operation to the next, other
 * pipelines' changes, would only answer another 423, so that is tried at {@link LOOK_TRY_MOVING_MS})
 * — then the change is tried. Each wait is reported like the 423's.
 */
export async function untilLockFree(
  core: ClientCore,
  spec: RequestSpec<unknown>,
  started: number,
  sentAt: number,
  tries: number,
  holding: string | undefined,
) {
  const { clock, opts } = core;
  const left = () => started + core.deadlineMs - clock.now();
  // When each operation the looks named as holding the lock was first named since the last try:
  // one named again a minute later holds it (or stays pending) whatever ran in between.
  const named = new Map<string, number>();
  if (holding !== undefined) named.set(holding, sentAt);
  const stuck = () => {
    const since = holding === undefined ? undefined : named.get(holding);
    return (
      (since !== undefined && clock.now() - since >= LOOK_TRY_EVERY_MS) ||
      clock.now() - sentAt >= LOOK_TRY_MOVING_MS
    );
  };
  while (left() > MIN_BACKOFF_MS && !stuck()) {
    const lock = await opts.lockWait?.(spec.route, clock.now()).catch(() => undefined);
    // The look is a read of this client: a 429's pause or its own retries may have taken a while.
    if (!lock || left() <= MIN_BACKOFF_MS) return;
    // A look that names no operation (the lock is free, left to its last holder a moment) counts
    // as neither stuck nor moving.
    holding = lock.operationId;
    if (holding !== undefined && !named.has(holding)) named.set(holding, clock.now());
    const delay = Math.max(MIN_BACKOFF_MS, Math.min(lock.delayMs, left() - 1));
    opts.onRetry?.({
      method: spec.route.method,
      path: spec.route.path,
      attempt: tries,
      reason: "locked",
      delayMs: delay,
      maxAttempts: core.limits.locked,
      timeoutMs: core.timeoutMs,
      route: spec.route.template,
      holder: lock.holder,
      waitedMs: clock.now() - started,
      ...(lock.thenTry ? {} : { look: true as const }),
    });
    await clock.sleep(delay);
    if (lock.thenTry) return;
  }
}
