import {
  backoffDelay,
  DEFAULT_BACKOFF,
  DEFAULT_RETRY_LIMITS,
  MIN_BACKOFF_MS,
  parseRetryAfter,
  shouldRetry,
  type AttemptOutcome,
  type RetryReason,
} from "../../../provider/http";

const res = (status: number, retryAfterMs?: number): AttemptOutcome => ({
  type: "response",
  status,
  retryAfterMs,
});
const reset: AttemptOutcome = { type: "network", phase: "sent", timedOut: false };
const timeout: AttemptOutcome = { type: "network", phase: "sent", timedOut: true };
const refused: AttemptOutcome = { type: "network", phase: "connect", timedOut: false };

describe("shouldRetry: the policy table", () => {
  // [method, outcome, expected: reason to retry, "final", or "reconcile" (final + mayHaveReachedServer)]
  const table: [string, string, AttemptOutcome, RetryReason | "final" | "reconcile"][] = [
    ["GET", "200", res(200), "final"],
    ["POST", "201", res(201), "final"],
    ["DELETE", "204", res(204), "final"],
    ...(["GET", "POST", "PATCH", "DELETE"].flatMap((m) => [
      [m, "423", res(423), "locked"],
      [m, "503", res(503), "unavailable"],
      [m, "429", res(429, 2000), "rate_limited"],
      [m, "401", res(401), "final"],
      [m, "404", res(404), "final"],
      [m, "400", res(400), "final"],
      [m, "409", res(409), "final"],
      [m, "422", res(422), "final"],
      [m, "connection refused", refused, "network"],
    ]) as [string, string, AttemptOutcome, RetryReason | "final"][]),
    ["GET", "502", res(502), "bad_gateway"],
    ["GET", "504", res(504), "bad_gateway"],
    ["DELETE", "502", res(502), "bad_gateway"],
    ["DELETE", "504", res(504), "bad_gateway"],
    ["GET", "500", res(500), "final"],
    ["DELETE", "500", res(500), "final"],
    // A 5xx answer to a change may come after the commit: the caller looks before repeating it.
    ["POST", "500", res(500), "reconcile"],
    ["PATCH", "500", res(500), "reconcile"],
    ["POST", "502", res(502), "reconcile"],
    ["POST", "504", res(504), "reconcile"],
    ["PATCH", "502", res(502), "reconcile"],
    ["PATCH", "504", res(504), "reconcile"],
    ["GET", "reset", reset, "network"],
    ["GET", "timeout", timeout, "network"],
    ["DELETE", "reset", reset, "network"],
    ["DELETE", "timeout", timeout, "network"],
    ["POST", "reset", reset, "reconcile"],
    ["POST", "timeout", timeout, "reconcile"],
    ["PATCH", "reset", reset, "reconcile"],
    ["PATCH", "timeout", timeout, "reconcile"],
  ];

  test.each(table)("%s %s → %s", (method, _label, outcome, expected) => {
    const d = shouldRetry(method, outcome, 1);
    if (expected === "final") expect(d).toEqual({ retry: false, mayHaveReachedServer: false });
    else if (expected === "reconcile") expect(d).toEqual({ retry: false, mayHaveReachedServer: true });
    else expect(d).toMatchObject({ retry: true, reason: expected });
  });

  test("429 and 503 carry their Retry-After", () => {
    expect(shouldRetry("POST", res(429, 2000), 1)).toEqual({
      retry: true,
      reason: "rate_limited",
      retryAfterMs: 2000,
    });
    expect(shouldRetry("GET", res(503, 1000), 1)).toEqual({
      retry: true,
      reason: "unavailable",
      retryAfterMs: 1000,
    });
  });

  test("423 has no attempt limit of its own (the deadline bounds it)", () => {
    expect(shouldRetry("POST", res(423), 10_000)).toMatchObject({ retry: true });
  });

  test("the other reasons stop at their attempt limit", () => {
    expect(shouldRetry("GET", res(503), DEFAULT_RETRY_LIMITS.unavailable - 1)).toMatchObject({ retry: true });
    expect(shouldRetry("GET", res(503), DEFAULT_RETRY_LIMITS.unavailable)).toMatchObject({ retry: false });
    expect(shouldRetry("GET", reset, DEFAULT_RETRY_LIMITS.network)).toEqual({
      retry: false,
      mayHaveReachedServer: true,
    });
    expect(shouldRetry("GET", refused, DEFAULT_RETRY_LIMITS.network)).toEqual({
      retry: false,
      mayHaveReachedServer: false,
    });
    expect(shouldRetry("GET", res(502), DEFAULT_RETRY_LIMITS.bad_gateway)).toMatchObject({ retry: false });
    expect(shouldRetry("GET", res(429), DEFAULT_RETRY_LIMITS.rate_limited)).toMatchObject({ retry: false });
  });

  test("custom limits apply", () => {
    const limits = { ...DEFAULT_RETRY_LIMITS, locked: 2 };
    expect(shouldRetry("POST", res(423), 1, limits)).toMatchObject({ retry: true });
    expect(shouldRetry("POST", res(423), 2, limits)).toMatchObject({ retry: false });
  });

  test("the method is case-insensitive", () => {
    expect(shouldRetry("get", reset, 1)).toMatchObject({ retry: true });
    expect(shouldRetry("post", reset, 1)).toEqual({ retry: false, mayHaveReachedServer: true });
  });
});

describe("backoffDelay", () => {
  const reasons = Object.keys(DEFAULT_BACKOFF) as RetryReason[];

  test.each(reasons)("%s: full jitter within [min, min(cap, base·2^(n-1))]", (reason) => {
    const { baseMs, capMs } = DEFAULT_BACKOFF[reason];
    for (let attempt = 1; attempt <= 40; attempt++) {
      const ceiling = Math.min(capMs, baseMs * 2 ** (attempt - 1));
      expect(backoffDelay(attempt, reason, () => 0)).toBe(MIN_BACKOFF_MS);
      const top = backoffDelay(attempt, reason, () => 0.999999);
      expect(top).toBeLessThanOrEqual(ceiling);
      expect(top).toBeGreaterThanOrEqual(Math.min(ceiling - 1, ceiling * 0.99));
      expect(backoffDelay(attempt, reason, () => 0.5)).toBe(
        Math.max(MIN_BACKOFF_MS, Math.floor(0.5 * ceiling)),
      );
    }
  });

  test("423 starts small and stays at most ~2 s", () => {
    expect(backoffDelay(1, "locked", () => 0.999)).toBeLessThanOrEqual(100);
    expect(backoffDelay(50, "locked", () => 0.999)).toBeLessThanOrEqual(2000);
  });

  test("never exceeds the cap, even for absurd attempt numbers", () => {
    expect(backoffDelay(10_000, "network", () => 0.999)).toBeLessThanOrEqual(DEFAULT_BACKOFF.network.capMs);
  });

  test("Retry-After is a floor, plus a little jitter", () => {
    expect(backoffDelay(1, "rate_limited", () => 0, 2000)).toBe(2000);
    const d = backoffDelay(1, "rate_limited", () => 0.999, 2000);
    expect(d).toBeGreaterThanOrEqual(2000);
    expect(d).toBeLessThan(2250);
    expect(backoffDelay(1, "rate_limited", () => 0, 0)).toBe(0);
  });

  test("custom shapes apply", () => {
    const shapes = { ...DEFAULT_BACKOFF, locked: { baseMs: 10, capMs: 20 } };
    expect(backoffDelay(5, "locked", () => 0.999, undefined, shapes)).toBeLessThanOrEqual(20);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");
  test.each([
    ["2", 2000],
    ["0", 0],
    [" 10 ", 10_000],
    ["1.5", 1500],
    ["Sat, 21 Nov 2026 12:00:05 GMT", 5000],
    ["Sat, 21 Nov 2026 11:59:00 GMT", 0],
  ])("%j → %j ms", (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  test.each([[undefined], [null], [""], ["soon"], ["-1"], ["1e3"], ["12:00"]])("%j → undefined", (value) => {
    expect(parseRetryAfter(value as string | undefined, now)).toBeUndefined();
  });
});
