import { NEON_RATE_LIMITS, nextSendAt, RateLimiter, shouldRetry } from "../../../provider/http";
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
