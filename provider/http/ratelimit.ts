/**
 * Client-side pacing under the service's rate limits, so that a large stack spends its requests
 * instead of collecting 429s. Neon documents 700 requests per minute per account, a burst of 40
 * requests per second per route, and 10 per second for creating organization API keys.
 *
 * The decision is a pure function of the send times so far; {@link RateLimiter} owns the clock.
 * Windows slide, and the limits used keep a margin below the service's, because the service counts
 * arrivals and this client counts departures.
 */
import type { Clock } from "./clock";

/** Limits on requests sent by one client (one API key, one account). */
export interface RateLimits {
  /** Requests in any 60 s window, all routes together. */
  perMinute: number;
  /** Requests of one route in any 1 s window. */
  perRoutePerSecond: number;
  /** Lower per-second limits of particular routes, by route template (`POST /api_keys`). */
  routePerSecond?: Readonly<Record<string, number>>;
}

/** Neon's documented limits. */
export const NEON_RATE_LIMITS: RateLimits = {
  perMinute: 700,
  perRoutePerSecond: 40,
  routePerSecond: { "POST /organizations/{org_id}/api_keys": 10 },
};

/** The share of each limit this client uses (arrival times at the service differ from send times). */
const RATE_LIMIT_MARGIN = 0.95;

const MINUTE_MS = 60_000;
const SECOND_MS = 1_000;

/** Send times so far, oldest first: every route's, and the route's own. */
export interface SendHistory {
  all: readonly number[];
  route: readonly number[];
}

/**
 * The earliest time at or after `now` when one more request of `route` may be sent. Rules: at most
 * `floor(perMinute × margin)` sends in any 60 s and `floor(routeLimit × margin)` of the route in any
 * 1 s (at least 1 each). When a window is full, the next send waits until its oldest send leaves it.
 */
export function nextSendAt(
  history: SendHistory,
  route: string,
  now: number,
  limits: RateLimits,
  /** The share of the per-minute budget this client takes (1: all of it; see {@link accountShare}). */
  share = 1,
): number {
  const perMinute = Math.max(1, Math.floor(limits.perMinute * RATE_LIMIT_MARGIN * share));
  const routeLimit = limits.routePerSecond?.[route] ?? limits.perRoutePerSecond;
  const perSecond = Math.max(1, Math.floor(routeLimit * RATE_LIMIT_MARGIN));
  let at = now;
  const inMinute = history.all.filter((t) => t > now - MINUTE_MS);
  if (inMinute.length >= perMinute) at = Math.max(at, inMinute[inMinute.length - perMinute] + MINUTE_MS);
  const inSecond = history.route.filter((t) => t > now - SECOND_MS);
  if (inSecond.length >= perSecond) at = Math.max(at, inSecond[inSecond.length - perSecond] + SECOND_MS);
  return at;
}

/** The smallest share of the account's per-minute budget a client falls back to. */
export const MIN_SHARE = 1 / 32;
/** How long a client takes to climb back from a halved share to the next doubling. */
export const SHARE_RECOVERY_MS = 30_000;

/**
 * The share of the account's per-minute budget a client takes, `since` ms after its share was last
 * halved to `low`: other clients of the account (other CI jobs, other tools) spend the same budget,
 * which this client learns only from a 429. A 429 halves what it sends (see {@link RateLimiter.limited});
 * without one it doubles every {@link SHARE_RECOVERY_MS}, up to all of it — as TCP shares a link
 * between senders that cannot see each other.
 */
export function accountShare(low: number, since: number): number {
  return Math.min(1, low * 2 ** (Math.max(0, since) / SHARE_RECOVERY_MS));
}

/** The longest a paced request sleeps before it looks at the windows again. */
const MAX_PACING_SLEEP_MS = 1_000;

/** Paces the requests of one client; every request waits for its turn in {@link acquire}. */
export class RateLimiter {
  private readonly all: number[] = [];
  private readonly byRoute = new Map<string, number[]>();
  /** The share after the last halving, and when it was halved. */
  private low = 1;
  private halvedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly limits: RateLimits,
    private readonly clock: Clock,
  ) {}

  /**
   * Resolves when a request of `route` may be sent, and counts it as sent; at `endBy` (the call's
   * deadline) it goes anyway, so that the call meets its own answer instead of a queue's.
   */
  async acquire(route: string, endBy = Number.POSITIVE_INFINITY): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      this.forget(now);
      const routeTimes = this.byRoute.get(route) ?? [];
      const at = nextSendAt({ all: this.all, route: routeTimes }, route, now, this.limits, this.share(now));
      if (at <= now || now >= endBy) {
        this.all.push(now);
        routeTimes.push(now);
        this.byRoute.set(route, routeTimes);
        return;
      }
      // Never asleep for long: the share grows meanwhile, and the window with it.
      await this.clock.sleep(Math.min(at, endBy, now + MAX_PACING_SLEEP_MS) - now);
    }
  }

  /** This client's share of the account's per-minute budget now. */
  share(now: number): number {
    return accountShare(this.low, now - this.halvedAt);
  }

  /**
   * A 429: the account's budget is spent by others too. The share drops (once per burst) to half of
   * what this client sent in the last minute, and at most to half of the share it had: halving a
   * share a client does not use restrains nothing (thirty clients that each send 30 a minute share
   * 700 only once each sends fewer than 23), while halving what it sends brings every client that
   * got a 429 under the budget together. Never below {@link MIN_SHARE}, so that a quiet client keeps
   * enough to finish; it doubles back every {@link SHARE_RECOVERY_MS}.
   */
  limited(): void {
    const now = this.clock.now();
    if (now - this.halvedAt < SHARE_RECOVERY_MS / 4) return;
    this.forget(now);
    const budget = this.limits.perMinute * RATE_LIMIT_MARGIN;
    const sent = budget > 0 ? this.all.length / budget : 0;
    this.low = Math.max(MIN_SHARE, Math.min(this.share(now), sent) / 2);
    this.halvedAt = now;
  }

  /** Drops send times that no window can count any more. */
  private forget(now: number): void {
    while (this.all.length > 0 && this.all[0] <= now - MINUTE_MS) this.all.shift();
    for (const [route, times] of this.byRoute) {
      while (times.length > 0 && times[0] <= now - SECOND_MS) times.shift();
      if (times.length === 0) this.byRoute.delete(route);
    }
  }
}
