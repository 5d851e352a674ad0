import { NEON_RATE_LIMITS, nextSendAt, RateLimiter, shouldRetry } from "../../../provider/http";
import { accountShare, MIN_SHARE, SHARE_RECOVERY_MS } from "../../../provider/http/ratelimit";
import { FakeClock } from "../../support/fake-clock";

const ROUTE = "GET /projects/{project_id}/operations";
const KEYS = "POST /organizations/{org_id}/api_keys";

describe("nextSendAt: pacing under Neon's documented limits", () => {
  it("sends at once while the windows have room", () => {
    expect(nextSendAt({ all: [], route: [] }, ROUTE, 1_000, NEON_RATE_LIMITS)).toBe(1_000);
  });

  it("holds a route to 38 sends per second (40 less the margin)", () => {
    const route = Array.from({ length: 38 }, (_, i) => 1_000 + i);
    expect(nextSendAt({ all: route, route }, ROUTE, 1_050, NEON_RATE_LIMITS)).toBe(2_000);
    const fewer = route.slice(1);
    expect(nextSendAt({ all: fewer, route: fewer }, ROUTE, 1_050, NEON_RATE_LIMITS)).toBe(1_050);
  });

  it("holds organization key creation to 9 per second", () => {
    const route = Array.from({ length: 9 }, (_, i) => 5_000 + i * 10);
    expect(nextSendAt({ all: route, route }, KEYS, 5_100, NEON_RATE_LIMITS)).toBe(6_000);
  });

  it("holds the account to 665 sends per minute (700 less the margin), across routes", () => {
    const all = Array.from({ length: 665 }, (_, i) => i * 50);
    const now = 665 * 50;
    expect(nextSendAt({ all, route: [] }, ROUTE, now, NEON_RATE_LIMITS)).toBe(60_000);
  });
});

describe("RateLimiter", () => {
  it("spreads a burst of 100 requests of one route over whole seconds, never more than 38 in any second", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(NEON_RATE_LIMITS, clock);
    const sentAt: number[] = [];
    const all = Promise.all(
      Array.from({ length: 100 }, () => limiter.acquire(ROUTE).then(() => sentAt.push(clock.now()))),
    );
    await clock.run(all);
    expect(sentAt).toHaveLength(100);
    for (const t of sentAt)
      expect(sentAt.filter((u) => u > t - 1_000 && u <= t).length).toBeLessThanOrEqual(38);
    expect(Math.max(...sentAt)).toBe(2_000);
  });

  it("keeps 1000 requests over many routes within 665 in any minute", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(NEON_RATE_LIMITS, clock);
    const sentAt: number[] = [];
    const all = Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        limiter.acquire(`GET /r${i % 50}`).then(() => sentAt.push(clock.now())),
      ),
    );
    await clock.run(all);
    sentAt.sort((a, b) => a - b);
    for (let i = 665; i < sentAt.length; i++)
      expect(sentAt[i] - sentAt[i - 665]).toBeGreaterThanOrEqual(60_000);
    // Fake time, but tens of thousands of steps: 2 s idle, over 30 s beside four CPU-bound processes.
  }, 180_000);
});

describe("a 429 teaches a client its share of the account's budget", () => {
  it("a 429 halves the share once per burst; without one it doubles every 30 s, up to the whole", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(NEON_RATE_LIMITS, clock);
    expect(limiter.share(clock.now())).toBe(1);
    // A client that has sent its whole budget in the last minute (665, paced) is cut to half of it.
    await clock.run(Promise.all(Array.from({ length: 665 }, (_, i) => limiter.acquire(`GET /r${i % 40}`))));
    limiter.limited();
    expect(limiter.share(clock.now())).toBe(0.5);
    // The same burst's other 429s are one signal.
    limiter.limited();
    expect(limiter.share(clock.now())).toBe(0.5);
    clock.t += SHARE_RECOVERY_MS / 4;
    limiter.limited();
    expect(limiter.share(clock.now())).toBeCloseTo(0.5 * 2 ** 0.25 * 0.5, 9);
    clock.t += SHARE_RECOVERY_MS;
    expect(limiter.share(clock.now())).toBeCloseTo(0.5 * 2 ** 0.25, 9);
    clock.t += 10 * SHARE_RECOVERY_MS;
    expect(limiter.share(clock.now())).toBe(1);
    // Never below the smallest share, however many 429s.
    for (let k = 0; k < 20; k++) {
      clock.t += SHARE_RECOVERY_MS / 4;
      limiter.limited();
    }
    expect(limiter.share(clock.now())).toBe(MIN_SHARE);
    expect(accountShare(MIN_SHARE, 5 * SHARE_RECOVERY_MS)).toBe(1);
  });

  it("a 429 cuts a client to half of what it sent in the last minute, not to half of a share it did not use", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(NEON_RATE_LIMITS, clock);
    // Thirty clients of one account that each send 133 a minute (a fifth of the budget) overrun it
    // together; halving a whole share would leave each free to send 332.
    await clock.run(Promise.all(Array.from({ length: 133 }, (_, i) => limiter.acquire(`GET /r${i % 40}`))));
    clock.t += 1_000;
    limiter.limited();
    expect(limiter.share(clock.now()) * 665).toBeCloseTo(133 / 2, 6);
    // It paces at that: the 67th request in the minute waits for the oldest send to leave the window.
    const sent = Array.from({ length: 66 }, (_, i) => clock.now() + i);
    expect(
      nextSendAt(
        { all: sent, route: [] },
        ROUTE,
        clock.now() + 100,
        NEON_RATE_LIMITS,
        limiter.share(clock.now()),
      ),
    ).toBe(sent[0] + 60_000);
    // A quiet client (5 in the last minute) keeps the floor, enough to finish.
    const quiet = new RateLimiter(NEON_RATE_LIMITS, new FakeClock());
    for (let i = 0; i < 5; i++) await quiet.acquire(ROUTE);
    quiet.limited();
    expect(quiet.share(0)).toBe(MIN_SHARE);
    // Doubling every 30 s brings the cut client back to the whole budget in 3.3 doublings.
    clock.t += 4 * SHARE_RECOVERY_MS;
    expect(limiter.share(clock.now())).toBe(1);
  });

  it("a paced request goes at its call's deadline rather than after it", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ perMinute: 2, perRoutePerSecond: 40 }, clock);
    await clock.run(limiter.acquire(ROUTE));
    // The budget of one per minute is spent: without a deadline it waits a minute...
    await clock.run(limiter.acquire(ROUTE, 5_000));
    expect(clock.t).toBe(5_000);
  });

  it("paces at the share: half of 665 per minute after a 429", () => {
    // 332 sends in the last minute fill half the budget: the next waits for the oldest to leave it.
    const recent = Array.from({ length: 332 }, (_, i) => 680 + i * 10);
    expect(nextSendAt({ all: recent, route: [] }, ROUTE, 4_000, NEON_RATE_LIMITS, 0.5)).toBe(60_680);
    expect(nextSendAt({ all: recent, route: [] }, ROUTE, 4_000, NEON_RATE_LIMITS, 1)).toBe(4_000);
  });

  it("a 429 is waited out until the call's deadline, never failed by a count", () => {
    const r = shouldRetry("POST", { type: "response", status: 429, retryAfterMs: 1_000 }, 500);
    expect(r).toMatchObject({ retry: true, reason: "rate_limited" });
  });
});

describe("422 'branch not ready yet' is waited out", () => {
  it("is retried like 423 for every method, and only with the not-ready flag", () => {
    for (const m of ["GET", "POST", "PATCH", "DELETE"]) {
      expect(shouldRetry(m, { type: "response", status: 422, notReady: true }, 50)).toEqual({
        retry: true,
        reason: "locked",
      });
      expect(shouldRetry(m, { type: "response", status: 422 }, 1)).toMatchObject({ retry: false });
    }
  });
});
