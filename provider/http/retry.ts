/**
 * When to retry a request and how long to wait first. Both are pure
 * functions of plain data; the HTTP client applies them and owns the clock.
 */

/** HTTP methods the client sends. */
export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE" | "PUT";

/** What one attempt produced, reduced to what the retry decision needs. */
export type AttemptOutcome =
  | {
      type: "response";
      status: number;
      retryAfterMs?: number;
      /**
       * A 422 whose message says the branch is not ready yet (its creation has not finished). The
       * service sends no code for it, so the client reads the message; nothing else is retried on it.
       */
      notReady?: boolean;
    }
  | {
      type: "network";
      /**
       * `connect`: the connection was never established (refused, DNS), so the
       * request provably never reached the server. `sent`: it was cut off after
       * the request may have been written.
       */
      phase: "connect" | "sent";
      timedOut: boolean;
    };

/** The class of a retry, which selects its backoff. */
export type RetryReason = "locked" | "rate_limited" | "unavailable" | "bad_gateway" | "network";

/** The retry decision. */
export type RetryDecision =
  | { retry: true; reason: RetryReason; retryAfterMs?: number }
  | {
      retry: false;
      /** For a failed attempt of a non-idempotent call: it may have had its effect. */
      mayHaveReachedServer: boolean;
    };

/** Attempt limits per reason; the retry deadline bounds all of them as well. */
export interface RetryLimits {
  /** 423 is retried until the deadline: the lock is released when the running operation ends. */
  locked: number;
  rate_limited: number;
  unavailable: number;
  bad_gateway: number;
  network: number;
}

/** Default attempt limits (attempts, not retries). */
export const DEFAULT_RETRY_LIMITS: RetryLimits = {
  locked: Number.POSITIVE_INFINITY,
  // Refused, not processed: waited out until the deadline (many CI jobs share one account's budget).
  rate_limited: Number.POSITIVE_INFINITY,
  unavailable: 8,
  bad_gateway: 6,
  network: 6,
};

const IDEMPOTENT: ReadonlySet<string> = new Set(["GET", "DELETE", "PUT"]);

/**
 * Decides whether to send a request again after `attempt` attempts (1 = the
 * first one just failed). Rules, first match wins:
 *
 * 1. A 2xx or 3xx is a success: nothing to retry.
 * 2. 423 Locked, any method: the API says it is always safe to retry; it means
 *    another operation holds the project (or a quota is exhausted, which the
 *    deadline catches).
 * 3. 503 Service Unavailable, any method: the API says it is always safe to retry.
 * 4. 429 Too Many Requests, any method: the request was refused, not
 *    processed; retry after its `Retry-After`.
 * 4b. 422 "branch not ready yet", any method: the branch's creation has not finished; the request
 *    was refused, not processed, and succeeds once it has (retried like 423, until the deadline).
 * 5. 502 and 504 on GET/DELETE/PUT: a gateway failed, the request may or may
 *    not have been processed; repeating an idempotent call is harmless.
 * 6. Any other status: final (401, 404, other 4xx, 500 and the rest of 5xx).
 *    A 500, 502 or 504 answer to a POST/PATCH may come after the change was
 *    committed (a gateway or a crash between commit and answer), so it is
 *    flagged `mayHaveReachedServer` and the caller reconciles.
 * 7. No answer, connection never established: provably not processed, so
 *    every method may retry.
 * 8. No answer after the request may have been sent (reset, timeout): only
 *    idempotent methods retry. A POST/PATCH is never blindly repeated; it
 *    fails with `mayHaveReachedServer` so the caller reconciles (as does an
 *    idempotent call whose retries ran out).
 *
 * Each rule is also capped by its attempt limit, counted per reason: `attempt` is the number of
 * attempts that failed for that reason, this one included (a number: the same for every reason).
 */
export function shouldRetry(
  method: string,
  outcome: AttemptOutcome,
  attempt: number | ((reason: RetryReason) => number),
  limits: RetryLimits = DEFAULT_RETRY_LIMITS,
): RetryDecision {
  const m = method.toUpperCase();
  const idempotent = IDEMPOTENT.has(m);
  // Each reason has its own count: a call that waited out many 423s still gets its 429 retries.
  const within = (reason: RetryReason) =>
    (typeof attempt === "number" ? attempt : attempt(reason)) < limits[reason];
  const no = (mayHaveReachedServer = false): RetryDecision => ({ retry: false, mayHaveReachedServer });

  if (outcome.type === "response") {
    const s = outcome.status;
    if (s < 400) return no(); // 1
    if (s === 423) return within("locked") ? { retry: true, reason: "locked" } : no(); // 2
    if (s === 503) {
      // 3: a Retry-After on a 503 is honoured too.
      return within("unavailable")
        ? { retry: true, reason: "unavailable", retryAfterMs: outcome.retryAfterMs }
        : no();
    }
    if (s === 429) {
      // 4
      return within("rate_limited")
        ? { retry: true, reason: "rate_limited", retryAfterMs: outcome.retryAfterMs }
        : no();
    }
    if (s === 422 && outcome.notReady) return within("locked") ? { retry: true, reason: "locked" } : no(); // 4b
    if ((s === 502 || s === 504) && idempotent)
      return within("bad_gateway") ? { retry: true, reason: "bad_gateway" } : no(); // 5
    return no(!idempotent && (s === 500 || s === 502 || s === 504)); // 6
  }
  if (outcome.phase === "connect") return within("network") ? { retry: true, reason: "network" } : no(); // 7
  // 8: the request may have been processed; say so whenever we stop here.
  if (idempotent && within("network")) return { retry: true, reason: "network" };
  return no(true);
}

/** Backoff shape per retry reason: exponential from `baseMs`, capped at `capMs`, full jitter. */
export interface BackoffShape {
  baseMs: number;
  capMs: number;
}

/**
 * Default backoff shapes. 423 uses a small base: when many creates in one
 * project wait for its lock, they should notice promptly that it is free.
 */
export const DEFAULT_BACKOFF: Record<RetryReason, BackoffShape> = {
  locked: { baseMs: 75, capMs: 2_000 },
  rate_limited: { baseMs: 1_000, capMs: 30_000 },
  unavailable: { baseMs: 250, capMs: 10_000 },
  bad_gateway: { baseMs: 250, capMs: 10_000 },
  network: { baseMs: 250, capMs: 10_000 },
};

/** The smallest delay a jittered backoff returns, so a retry loop never spins. */
export const MIN_BACKOFF_MS = 10;

/**
 * The delay before retry number `attempt` (1 = after the first failure):
 * full jitter, `random() * min(cap, base * 2^(attempt-1))`, at least
 * {@link MIN_BACKOFF_MS}. When the server sent `Retry-After`, the delay is at
 * least that, plus a little jitter so that many waiting clients do not return
 * in the same millisecond.
 */
export function backoffDelay(
  attempt: number,
  reason: RetryReason,
  random: () => number,
  retryAfterMs?: number,
  shapes: Record<RetryReason, BackoffShape> = DEFAULT_BACKOFF,
): number {
  const { baseMs, capMs } = shapes[reason];
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
  const jittered = Math.max(MIN_BACKOFF_MS, Math.floor(random() * ceiling));
  if (retryAfterMs !== undefined && retryAfterMs >= 0) {
    return retryAfterMs + Math.floor(random() * Math.min(250, baseMs));
  }
  return jittered;
}

/**
 * Parses a `Retry-After` header: delay-seconds (`"2"`, also `"1.5"`) or an
 * HTTP-date. Returns milliseconds from `nowMs` (0 for a date in the past), or
 * undefined when the value is missing or unreadable.
 */
export function parseRetryAfter(value: string | undefined | null, nowMs: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  const v = String(value).trim();
  if (v === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // HTTP-dates always name a weekday or month; a bare number would already have matched.
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
