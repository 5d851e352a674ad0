/**
 * Rate limits as the service documents them: 700 requests per minute per account, a burst of 40
 * requests per second per route, and 10 per second for `POST /organizations/{org_id}/api_keys`; beyond
 * that 429. Sliding windows over the emulator clock (so tests drive them with `clock.advance`), kept in
 * memory only (a restart or `reset()` forgets them).
 */

/** Limits; each defaults to the service's documented value. */
export interface RateLimitOptions {
  /** Requests per rolling minute per account (default 700). */
  perMinute?: number;
  /** Requests per rolling second per account and route (default 40). */
  perRoutePerSecond?: number;
  /** Requests per rolling second per account to `POST /organizations/{org_id}/api_keys` (default 10). */
  orgApiKeysPerSecond?: number;
}

export const DEFAULT_RATE_LIMITS: Required<RateLimitOptions> = {
  perMinute: 700,
  perRoutePerSecond: 40,
  orgApiKeysPerSecond: 10,
};

/** The route with its own, lower burst limit. */
export const ORG_API_KEYS_CREATE = "POST /organizations/:org_id/api_keys";

/** Which limit refused a request, and how long until it admits one (whole seconds, at least 1). */
export interface RateRefusal {
  limit: string;
  retryAfterSeconds: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(readonly limits: Required<RateLimitOptions>) {}

  /**
   * Admits (and records) a request of `account` to `route` at `now` (ms), or returns the refusal.
   * Refused requests are not recorded: a client that waits `Retry-After` gets through.
   */
  admit(account: string, route: string, now: number): RateRefusal | undefined {
    const burst =
      route === ORG_API_KEYS_CREATE ? this.limits.orgApiKeysPerSecond : this.limits.perRoutePerSecond;
    const checks: [string, number, number, string][] = [
      [
        `account ${account}`,
        60_000,
        this.limits.perMinute,
        `${this.limits.perMinute} requests per minute per account`,
      ],
      [`account ${account} route ${route}`, 1_000, burst, `${burst} requests per second to ${route}`],
    ];
    let refusal: RateRefusal | undefined;
    for (const [key, windowMs, limit, what] of checks) {
      const log = this.log(key, now - windowMs);
      if (log.length >= limit) {
        // The oldest request in the window leaves it at oldest + window (the log is in time order).
        const waitMs = log[log.length - limit] + windowMs - now;
        const seconds = Math.max(1, Math.ceil(waitMs / 1000));
        if (!refusal || seconds > refusal.retryAfterSeconds)
          refusal = { limit: what, retryAfterSeconds: seconds };
      }
    }
    if (refusal) return refusal;
    for (const [key] of checks) this.windows.get(key)!.push(now);
    return undefined;
  }

  /** The times of a window's requests after `since`, older ones dropped. */
  private log(key: string, since: number): number[] {
    let log = this.windows.get(key);
    if (!log) this.windows.set(key, (log = []));
    let drop = 0;
    while (drop < log.length && log[drop] <= since) drop++;
    if (drop) log.splice(0, drop);
    return log;
  }

  clear(): void {
    this.windows.clear();
  }
}
