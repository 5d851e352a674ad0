import util from "node:util";
import axios, { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from "axios";
import { z } from "zod";
import {
  ApiError,
  createHttpClient,
  PACKAGE_NAME,
  PACKAGE_VERSION,
  ResponseShapeError,
  route,
  type ApiErrorKind,
  type HttpClientOptions,
  type HttpMethod,
  type LockWait,
  type Route,
  type RequestSpec,
  type RetryInfo,
} from "../../../provider/http";
import { buildClient, createNeonClient, projectLockWait } from "../../../provider/api/client";
import { FakeClock } from "../../support/fake-clock";
import { FAR_WAKE_SPREAD_MS, HOLDER_GRACE_MS } from "../../../provider/operations/lock";

const KEY = "napi_unit_test_secret_0123456789abcdef";

type Reply =
  { status: number; body?: unknown; headers?: Record<string, string> } | { fail: string; message?: string };

/** An axios adapter answering from a script; records every request it sees. */
function scripted(replies: Reply[] | ((config: InternalAxiosRequestConfig, n: number) => Reply)) {
  const seen: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    const n = seen.length;
    const r =
      typeof replies === "function" ? replies(config, n) : replies[Math.min(n - 1, replies.length - 1)];
    if ("fail" in r) {
      // A real AxiosError: its config carries the Authorization header.
      throw new AxiosError(r.message ?? `${r.fail} while talking to ${config.url}`, r.fail, config, {});
    }
    return {
      data: r.body === undefined ? "" : JSON.stringify(r.body),
      status: r.status,
      statusText: `S${r.status}`,
      headers: r.headers ?? {},
      config,
      request: {},
    };
  };
  return { adapter, seen };
}

function client(replies: Parameters<typeof scripted>[0], extra: Partial<HttpClientOptions> = {}) {
  const clock = new FakeClock();
  const s = scripted(replies);
  const retries: RetryInfo[] = [];
  const http = createHttpClient({
    apiKey: KEY,
    baseUrl: "http://api.test/api/v2/",
    adapter: s.adapter,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    onRetry: (i) => retries.push(i),
    ...extra,
  });
  return { http, clock, seen: s.seen, retries };
}

const ANY = z.unknown();
function spec(method: HttpMethod, extra: Partial<RequestSpec<unknown>> = {}): RequestSpec<unknown> {
  return {
    route: route(`${method} /projects/{project_id}/endpoints`, { project_id: "p-1" }),
    verb: "create",
    thing: "a compute in project p-1",
    parse: (d) => ANY.parse(d),
    ...extra,
  };
}

async function failure(p: Promise<unknown>, clock: FakeClock): Promise<ApiError> {
  try {
    await clock.run(p);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error("expected a failure");
}

describe("requests", () => {
  test("sends auth, JSON, user agent and a fresh X-Request-ID per request", async () => {
    const { http, clock, seen } = client([
      { status: 423, body: { code: "LOCKED", message: "busy" } },
      { status: 200, body: { ok: 1 } },
    ]);
    await clock.run(http.request(spec("POST", { body: { endpoint: { branch_id: "br-1" } } })));
    expect(seen).toHaveLength(2);
    for (const c of seen) {
      expect(c.baseURL).toBe("http://api.test/api/v2");
      expect(c.headers.Authorization).toBe(`Bearer ${KEY}`);
      expect(c.headers.Accept).toBe("application/json");
      expect(c.headers["Content-Type"]).toBe("application/json");
      expect(String(c.headers["User-Agent"])).toContain(`${PACKAGE_NAME}/${PACKAGE_VERSION}`);
      expect(String(c.headers["X-Request-ID"])).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(String(c.data))).toEqual({ endpoint: { branch_id: "br-1" } });
    }
    expect(seen[0].headers["X-Request-ID"]).not.toBe(seen[1].headers["X-Request-ID"]);
    expect(http.requestCount()).toBe(2);
  });

  test("the service's time comes from the latest answer's Date header; a skew under 2 s counts as none", async () => {
    const { http, clock } = client((_c, n) => {
      const skew = [3_600_000, 1_500, -90_000][n - 1] ?? 0;
      return { status: 200, body: {}, headers: { date: new Date(clock.now() + skew).toUTCString() } };
    });
    expect(http.serviceNow()).toBe(clock.now()); // no answer yet: this machine's clock
    await clock.run(http.request(spec("GET")));
    expect(Math.abs(http.serviceNow() - clock.now() - 3_600_000)).toBeLessThan(1000); // to the second
    await clock.run(http.request(spec("GET")));
    expect(http.serviceNow()).toBe(clock.now());
    await clock.run(http.request(spec("GET")));
    expect(Math.abs(http.serviceNow() - clock.now() + 90_000)).toBeLessThan(1000);
  });

  test("the User-Agent constants match package.json", () => {
    const pkg = require("../../../package.json") as { name: string; version: string };
    expect(PACKAGE_NAME).toBe(pkg.name);
    expect(PACKAGE_VERSION).toBe(pkg.version);
  });

  test("the default base URL is the public API; timeout is set", async () => {
    const { http, clock, seen } = client([{ status: 200, body: {} }], {
      baseUrl: undefined,
      timeoutMs: 1234,
    });
    await clock.run(http.request(spec("GET")));
    expect(seen[0].baseURL).toBe("https://console.neon.tech/api/v2");
    expect(seen[0].timeout).toBe(1234);
  });

  test("a 423 storm is retried with small jittered delays until the lock is free", async () => {
    const storm: Reply[] = Array.from({ length: 12 }, () => ({
      status: 423,
      body: { code: "LOCKED", message: "busy" },
    }));
    const { http, clock, retries } = client([...storm, { status: 201, body: { ok: true } }]);
    await expect(clock.run(http.request(spec("POST")))).resolves.toEqual({ ok: true });
    expect(retries).toHaveLength(12);
    expect(retries.every((r) => r.reason === "locked" && r.status === 423)).toBe(true);
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(2000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(100);
  });

  test("a 429 after a long 423 wait is still retried: each reason's attempt limit counts only its own", async () => {
    // 30 423s (many environments' creates waiting for one project), then the account's rate limit.
    const locked: Reply[] = Array.from({ length: 30 }, () => ({ status: 423, body: { code: "LOCKED" } }));
    const limited: Reply[] = Array.from({ length: 3 }, () => ({
      status: 429,
      headers: { "retry-after": "1" },
    }));
    const { http, clock, retries } = client([...locked, ...limited, { status: 201, body: { ok: true } }]);
    await expect(clock.run(http.request(spec("POST")))).resolves.toEqual({ ok: true });
    expect(retries.filter((r) => r.reason === "rate_limited").map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(retries.filter((r) => r.reason === "locked")).toHaveLength(30);
  });

  test("a 423 waits for the project's lock to end as lockWait estimates it, not the backoff; with no estimate, the backoff", async () => {
    const asked: string[] = [];
    // The 423's reading: a wait; the look after it: nothing pending (try); the second 423's: no estimate.
    const estimates = [
      { delayMs: 2_500, holder: "project p-1 is running create_branch" },
      undefined,
      undefined,
    ];
    const { http, clock, retries } = client(
      [{ status: 423 }, { status: 423 }, { status: 201, body: { ok: 1 } }],
      {
        lockWait: async (r) => {
          asked.push(r.path);
          return estimates.shift();
        },
      },
    );
    await expect(clock.run(http.request(spec("POST")))).resolves.toEqual({ ok: 1 });
    expect(asked).toEqual(Array(3).fill("/projects/p-1/endpoints"));
    expect(clock.sleeps[0]).toBe(2_500);
    expect(clock.sleeps[1]).toBeLessThanOrEqual(75); // the 423 backoff's first step (75 ms base)
    expect(retries.map((r) => [r.reason, r.holder])).toEqual([
      ["locked", "project p-1 is running create_branch"],
      ["locked", undefined],
    ]);
    expect(retries[1].waitedMs).toBe(2_500);
  });

  test("after a lock wait the change is sent only once a fresh look shows the project free: no 423 per wake", async () => {
    // The 423's reading, then two looks that still find an operation pending, then one that finds none.
    const waits = [
      { delayMs: 3_000, holder: "project p-1 is running create_branch" },
      { delayMs: 2_000, holder: "project p-1 is running start_compute" },
      { delayMs: 700, holder: "project p-1 is running start_compute" },
      undefined,
    ];
    const since: number[] = [];
    const { http, clock, seen, retries } = client([{ status: 423 }, { status: 201, body: { ok: 1 } }], {
      lockWait: async (_r, s) => {
        since.push(s);
        return waits.shift();
      },
    });
    await expect(clock.run(http.request(spec("POST")))).resolves.toEqual({ ok: 1 });
    expect(seen.map((c) => c.method)).toEqual(["post", "post"]); // one 423, then the change that succeeds
    expect(clock.sleeps).toEqual([3_000, 2_000, 700]);
    // Each look is a reading begun after the wait before it ended; the first one after the 423 arrived.
    expect(since).toEqual([0, 3_000, 5_000, 5_700]);
    expect(retries.map((r) => [r.reason, r.attempt, r.delayMs, r.waitedMs])).toEqual([
      ["locked", 1, 3_000, 0],
      ["locked", 1, 2_000, 3_000],
      ["locked", 1, 700, 5_000],
    ]);
  });

  test("a wait that ends in a try (a free lock's grace) sends the change at its end without a look first", async () => {
    // The 423's reading: an operation runs; the look at its end: free, left a moment to its branch
    // (then try); that try meets another 423 (a faster waiter took the lock), whose reading finds the
    // lock free in a grace again straight away: tried at its end, no look.
    const waits = [
      { delayMs: 3_000, holder: "project p-1 is running create_branch" },
      { delayMs: 300, holder: "project p-1 is free", thenTry: true as const },
      { delayMs: 200, holder: "project p-1 is free", thenTry: true as const },
    ];
    const since: number[] = [];
    const sentAt: number[] = [];
    const { http, clock, seen, retries } = client(
      () => {
        sentAt.push(clock.now());
        return sentAt.length < 3 ? { status: 423 } : { status: 201, body: { ok: 1 } };
      },
      {
        lockWait: async (_r, s) => {
          since.push(s);
          return waits.shift();
        },
      },
    );
    await expect(clock.run(http.request(spec("POST")))).resolves.toEqual({ ok: 1 });
    expect(seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([3_000, 300, 200]);
    // The wait that ends in a try is not said as a look ("… and looks again").
    expect(retries.map((r) => r.look)).toEqual([undefined, undefined, undefined]);
    // Two readings for the first 423 (its own, the look at the end of its wait), one for the second.
    expect(since).toEqual([0, 3_000, 3_300]);
    expect(sentAt).toEqual([0, 3_300, 3_500]);
  });

  test("a look held back to a second after the last reading is a wait the call's deadline cuts: the last try comes in time", async () => {
    let reads = 0;
    let lw: (r: Route, s?: number) => Promise<LockWait | undefined> = async () => undefined;
    const sentAt: number[] = [];
    const { http, clock } = client(
      () => {
        sentAt.push(clock.now());
        return { status: 423 };
      },
      { retryDeadlineMs: 900, lockWait: (r, s) => lw(r, s) },
    );
    // An operation of the default 2 s, running for 1.7 s: its end is 300 ms away.
    const running = {
      operations: [
        {
          id: "op-1",
          project_id: "p-1",
          action: "create_branch",
          status: "running",
          failures_count: 0,
          created_at: new Date(-1_700).toISOString(),
          updated_at: new Date(-1_700).toISOString(),
        },
      ],
    };
    lw = projectLockWait(
      {
        operations: {
          listPage: async () => {
            reads++;
            return running;
          },
        } as never,
        serviceNow: () => clock.now(),
      },
      { now: clock.now, random: () => 0.5 },
    );
    const err = await failure(http.request(spec("POST")), clock);
    expect(err.status).toBe(423);
    // The 423's reading (at 0), a wait to 800 ms (the end, then half the near end's 1 s spread); the
    // look then would come within a second of that reading, so it waits too — cut to the deadline.
    expect(reads).toBe(1);
    expect(sentAt).toEqual([0, 899]);
  });

  test("the looks after a lock wait end at the call's deadline with a last try, which reports the 423", async () => {
    const sentAt: number[] = [];
    const { http, clock, seen } = client(
      () => {
        sentAt.push(clock.now());
        return { status: 423 };
      },
      {
        retryDeadlineMs: 10_000,
        lockWait: async () => ({ delayMs: 4_000, holder: "project p-1 is running create_branch" }),
      },
    );
    const err = await failure(http.request(spec("POST")), clock);
    expect(err.status).toBe(423);
    expect(err.message).toMatch(/deadline/);
    // The first try, then one last try just before the deadline: not one 423 per look.
    expect(seen).toHaveLength(2);
    expect(sentAt[0]).toBe(0);
    expect(sentAt[1]).toBeGreaterThan(9_000);
    expect(sentAt[1]).toBeLessThan(10_000);
  });

  test("a slow look (held by the client's own pace) does not carry the call past its deadline", async () => {
    let looks = 0;
    const { http, clock, seen } = client([{ status: 423 }], {
      retryDeadlineMs: 10_000,
      lockWait: async () => {
        // The 423's reading is quick; each look afterwards takes 8 s to answer.
        if (looks++ > 0) await clock.sleep(8_000);
        return { delayMs: 5_000, holder: "project p-1 is running create_branch" };
      },
    });
    const err = await failure(http.request(spec("POST")), clock);
    expect(err.status).toBe(423);
    expect(clock.now()).toBeLessThan(14_000); // at most the one slow look past the deadline, never a wait after it
    expect(seen).toHaveLength(2);
  });

  test("a look that estimates no wait at all still waits the shortest backoff: no spinning", async () => {
    let looks = 0;
    const { http, clock } = client([{ status: 423 }, { status: 201, body: { ok: 1 } }], {
      lockWait: async () => (looks++ < 50 ? { delayMs: 0 } : undefined),
    });
    await expect(clock.run(http.request(spec("POST")))).resolves.toEqual({ ok: 1 });
    expect(clock.sleeps.length).toBeGreaterThan(0);
    expect(Math.min(...clock.sleeps)).toBeGreaterThan(0);
  });

  test("while every look names the same operation holding the lock, the change is still sent once a minute", async () => {
    const sentAt: number[] = [];
    const { http, clock } = client(
      () => {
        sentAt.push(clock.now());
        return sentAt.length < 3 ? { status: 423 } : { status: 201, body: { ok: 1 } };
      },
      {
        lockWait: async () => ({
          delayMs: 20_000,
          holder: "project p-1 is running apply_config",
          operationId: "op-1",
        }),
      },
    );
    await expect(clock.run(http.request(spec("POST")))).resolves.toEqual({ ok: 1 });
    expect(sentAt).toHaveLength(3);
    expect(sentAt[1] - sentAt[0]).toBe(60_000);
    expect(sentAt[2] - sentAt[1]).toBe(60_000);
  });

  test("an operation named again a minute after it was first named gets the change sent, whatever ran between", async () => {
    const sentAt: number[] = [];
    let look = 0;
    const { http, clock } = client(
      () => {
        sentAt.push(clock.now());
        return sentAt.length < 2 ? { status: 423 } : { status: 201, body: { ok: 1 } };
      },
      {
        // A failed operation nobody retries (op-f), named between other pipelines' operations.
        lockWait: async () => {
          look++;
          return { delayMs: 20_000, holder: "h", operationId: look % 2 === 1 ? "op-f" : `op-${look}` };
        },
      },
    );
    await expect(clock.run(http.request(spec("POST")))).resolves.toEqual({ ok: 1 });
    // op-f at 0 s (the 423's reading) and again at 40 s: at 60 s the change is tried.
    expect(sentAt).toEqual([0, 60_000]);
  });

  test("while the looks see the lock pass between operations, the change waits for a look that finds it free", async () => {
    const sentAt: number[] = [];
    let look = 0;
    const { http, clock, seen } = client(
      () => {
        sentAt.push(clock.now());
        return sentAt.length < 2 ? { status: 423 } : { status: 201, body: { ok: 1 } };
      },
      {
        // Other pipelines' changes, one after another for 140 s (a grace in between), then none.
        lockWait: async () => {
          look++;
          if (look === 4) return { delayMs: 1_000, holder: "free; its branch goes on" };
          return look <= 8 ? { delayMs: 20_000, holder: "h", operationId: `op-${look}` } : undefined;
        },
      },
    );
    await expect(clock.run(http.request(spec("POST")))).resolves.toEqual({ ok: 1 });
    // No try into the lock at 60 s or 120 s: one 423, then the change once the look found it free.
    expect(seen).toHaveLength(2);
    expect(sentAt).toEqual([0, 141_000]);
  });

  test("while the lock keeps passing between operations, the change is still sent every three minutes", async () => {
    const sentAt: number[] = [];
    let look = 0;
    const { http, clock } = client(
      () => {
        sentAt.push(clock.now());
        return sentAt.length < 3 ? { status: 423 } : { status: 201, body: { ok: 1 } };
      },
      { lockWait: async () => ({ delayMs: 20_000, holder: "h", operationId: `op-${++look}` }) },
    );
    await expect(clock.run(http.request(spec("POST")))).resolves.toEqual({ ok: 1 });
    expect(sentAt).toEqual([0, 180_000, 360_000]);
  });

  test("a look's wait is said as a look, not as a try", async () => {
    const { http, clock, retries } = client([{ status: 423 }, { status: 201, body: {} }], {
      lockWait: (() => {
        const w = [{ delayMs: 3_000, holder: "h" }, { delayMs: 3_000, holder: "h" }, undefined];
        return async () => w.shift();
      })(),
    });
    await clock.run(http.request(spec("POST")));
    expect(retries.map((r) => [r.status, r.look])).toEqual([
      [423, undefined],
      [undefined, true],
    ]);
  });

  test("lockWait is asked only for a 423: not for a 429, nor for a branch not ready (422)", async () => {
    let asked = 0;
    const { http, clock } = client(
      [
        { status: 429, headers: { "retry-after": "1" } },
        { status: 422, body: { message: "branch not ready yet" } },
        { status: 200, body: {} },
      ],
      {
        lockWait: async () => {
          asked++;
          return { delayMs: 1 };
        },
      },
    );
    await clock.run(http.request(spec("POST")));
    expect(asked).toBe(0);
  });

  test("a 429 holds every request of the client until its Retry-After has passed, not only its own call", async () => {
    const clock = new FakeClock();
    const sentAt: Array<[string, number]> = [];
    const http = createHttpClient({
      apiKey: KEY,
      baseUrl: "http://api.test/api/v2/",
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0,
      adapter: async (config) => {
        sentAt.push([String(config.method).toUpperCase(), clock.now()]);
        const limited = config.method === "post" && sentAt.filter(([m]) => m === "POST").length === 1;
        return {
          data: JSON.stringify({}),
          status: limited ? 429 : 200,
          statusText: "",
          headers: limited ? { "retry-after": "5" } : {},
          config,
          request: {},
        };
      },
    });
    const first = http.request(spec("POST"));
    await clock.settle(); // the POST has had its 429
    const second = http.request(spec("GET"));
    await clock.run(Promise.all([first, second]));
    expect(sentAt[0]).toEqual(["POST", 0]);
    const get = sentAt.find(([m]) => m === "GET");
    expect(get?.[1]).toBeGreaterThanOrEqual(5_000);
  });

  test("a read's 423 never asks lockWait (the reading itself is a read: no reading of a reading)", async () => {
    let asked = 0;
    const { http, clock } = client([{ status: 423 }, { status: 200, body: {} }], {
      lockWait: async () => {
        asked++;
        return { delayMs: 1 };
      },
    });
    await clock.run(http.request(spec("GET")));
    expect(asked).toBe(0);
  });

  test("a 429's hold on the other calls ends at their own deadline, and is at most a minute", async () => {
    const clock = new FakeClock();
    const sentAt: Array<[string, number]> = [];
    const http = createHttpClient({
      apiKey: KEY,
      baseUrl: "http://api.test/api/v2/",
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0,
      retryDeadlineMs: 10_000,
      adapter: async (config) => {
        sentAt.push([String(config.method).toUpperCase(), clock.now()]);
        const limited = config.method === "post";
        return {
          data: JSON.stringify({}),
          status: limited ? 429 : 200,
          statusText: "",
          headers: limited ? { "retry-after": "3600" } : {},
          config,
          request: {},
        };
      },
    });
    // The POST's own Retry-After is past its deadline: it fails at once (and holds the others a minute at most).
    await expect(clock.run(http.request(spec("POST")))).rejects.toThrow();
    const get = clock.run(http.request(spec("GET")));
    await expect(get).resolves.toEqual({});
    expect(sentAt.find(([m]) => m === "GET")?.[1]).toBeLessThanOrEqual(10_000);
  });

  test("429 waits at least its Retry-After (seconds)", async () => {
    const { http, clock } = client([
      { status: 429, headers: { "retry-after": "2" } },
      { status: 200, body: {} },
    ]);
    await clock.run(http.request(spec("POST")));
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(2000);
    expect(clock.sleeps[0]).toBeLessThan(2500);
  });

  test("429 with an HTTP-date Retry-After", async () => {
    const { http, clock } = client((_c, n) =>
      n === 1
        ? { status: 429, headers: { "retry-after": new Date(3000).toUTCString() } }
        : { status: 200, body: {} },
    );
    await clock.run(http.request(spec("GET")));
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(3000);
  });

  test("GET retries a reset connection, a timeout, 502 and 504", async () => {
    const { http, clock, seen } = client([
      { fail: "ECONNRESET" },
      { fail: "ETIMEDOUT" },
      { status: 502 },
      { status: 504 },
      { status: 200, body: { fine: 1 } },
    ]);
    await expect(clock.run(http.request(spec("GET")))).resolves.toEqual({ fine: 1 });
    expect(seen).toHaveLength(5);
  });

  test("a POST cut off after sending is not repeated: network error with mayHaveReachedServer", async () => {
    const { http, clock, seen } = client([
      { fail: "ECONNRESET", message: "socket hang up" },
      { status: 201, body: {} },
    ]);
    const err = await failure(http.request(spec("POST")), clock);
    expect(seen).toHaveLength(1);
    expect(err.kind).toBe("network");
    expect(err.mayHaveReachedServer).toBe(true);
    expect(err.message).toMatch(
      /^Failed to create a compute in project p-1: the connection failed \(ECONNRESET\)/,
    );
    expect(err.message).toMatch(/may have reached the service/);
  });

  test("a GET that never got an answer says it changed nothing, and how to allow more time", async () => {
    const { http, clock, seen } = client(() => ({ fail: "ETIMEDOUT" }));
    const err = await failure(http.request(spec("GET")), clock);
    expect(seen.length).toBeGreaterThan(1);
    expect(err.kind).toBe("timeout");
    expect(err.mayHaveReachedServer).toBe(false);
    expect(err.message).not.toMatch(/may have reached the service/);
    expect(err.message).toMatch(/neon:requestTimeoutSeconds/);
  });

  test("a PATCH that timed out is not repeated either", async () => {
    const { http, clock, seen } = client([{ fail: "ETIMEDOUT" }]);
    const err = await failure(http.request(spec("PATCH")), clock);
    expect(seen).toHaveLength(1);
    expect(err.kind).toBe("timeout");
    expect(err.mayHaveReachedServer).toBe(true);
  });

  test("a POST whose connection was refused is retried (it never reached the server)", async () => {
    const { http, clock, seen } = client([{ fail: "ECONNREFUSED" }, { status: 201, body: { made: 1 } }]);
    await expect(clock.run(http.request(spec("POST")))).resolves.toEqual({ made: 1 });
    expect(seen).toHaveLength(2);
  });

  test("503 is retried for POST", async () => {
    const { http, clock, seen } = client([{ status: 503 }, { status: 201, body: {} }]);
    await clock.run(http.request(spec("POST")));
    expect(seen).toHaveLength(2);
  });

  test("500 is final", async () => {
    const { http, clock, seen } = client([
      { status: 500, body: { code: "INTERNAL", message: "boom", request_id: "rq-9" } },
    ]);
    const err = await failure(http.request(spec("GET")), clock);
    expect(seen).toHaveLength(1);
    expect(err.kind).toBe("server");
    expect(err.message).toBe(
      "Failed to create a compute in project p-1: boom (HTTP 500, code INTERNAL, request id rq-9). " +
        "The Neon service failed to handle the request; retry later, and quote the request id if it persists.",
    );
  });

  test("the retry deadline ends a 423 storm, and the error says so", async () => {
    const { http, clock, seen } = client(
      () => ({ status: 423, body: { code: "LOCKED", message: "project already has running operations" } }),
      {
        retryDeadlineMs: 10_000,
      },
    );
    const err = await failure(http.request(spec("POST")), clock);
    expect(err.kind).toBe("locked");
    expect(err.deadlineExceeded).toBe(true);
    expect(err.status).toBe(423);
    expect(err.attempts).toBe(seen.length);
    expect(clock.t).toBeLessThanOrEqual(10_000);
    expect(clock.t).toBeGreaterThan(7_000);
    expect(err.message).toMatch(
      /^Failed to create a compute in project p-1: project already has running operations \(HTTP 423, code LOCKED, request id [0-9a-f-]{36}, \d+ attempts\)\. Gave up retrying: the retry deadline of 10 s passed\./,
    );
  });

  test("a Retry-After longer than the deadline fails at once", async () => {
    const { http, clock, seen } = client([{ status: 429, headers: { "retry-after": "120" } }], {
      retryDeadlineMs: 60_000,
    });
    const err = await failure(http.request(spec("GET")), clock);
    expect(seen).toHaveLength(1);
    expect(err.kind).toBe("rate_limited");
    expect(err.deadlineExceeded).toBe(true);
    expect(clock.t).toBe(0);
  });

  test.each<[number, ApiErrorKind]>([
    [400, "invalid"],
    [401, "unauthorized"],
    [403, "forbidden"],
    [404, "not_found"],
    [409, "conflict"],
    [422, "invalid"],
    [500, "server"],
  ])("HTTP %i → kind %s, not retried", async (status, kind) => {
    const { http, clock, seen } = client([{ status, body: { code: "X", message: "nope" } }]);
    const err = await failure(http.request(spec("GET")), clock);
    expect(err.kind).toBe(kind);
    expect(err.status).toBe(status);
    expect(err.code).toBe("X");
    expect(err.apiMessage).toBe("nope");
    expect(seen).toHaveLength(1);
  });

  test("a non-JSON error body still gives a message", async () => {
    const { http, clock } = client([{ status: 404, body: undefined }]);
    const err = await failure(http.request(spec("GET")), clock);
    expect(err.message).toMatch(/^Failed to create a compute in project p-1: S404 \(HTTP 404/);
  });

  test("a response that does not match its schema names the field and the route", async () => {
    const { http, clock } = client([{ status: 200, body: { endpoint: { id: "ep-1" } } }]);
    const parse = (d: unknown) => {
      const r = z.object({ endpoint: z.object({ id: z.string(), host: z.string() }) }).safeParse(d);
      if (!r.success) throw new ResponseShapeError(r.error.issues.map((i) => `${i.path.join(".")}: missing`));
      return r.data;
    };
    const err = await failure(http.request({ ...spec("GET"), parse }), clock);
    expect(err.kind).toBe("invalid_response");
    expect(err.message).toContain("endpoint.host");
    expect(err.message).toContain("GET /projects/{project_id}/endpoints");
  });
});

describe("a 429 cuts the client to half of what it sent, then lets it double back", () => {
  it("after one at a client's first request, 600 requests wait for the share to grow back from the floor (1/32 of 665, doubling every 30 s)", async () => {
    const run = async (first: Reply) => {
      const { http, clock } = client([first, { status: 200, body: {} }]);
      await clock.run(http.request(spec("GET")));
      const start = clock.t;
      for (let i = 0; i < 600; i++) await clock.run(http.request(spec("GET")));
      return clock.t - start;
    };
    // Without a 429 only the route's 38 per second paces them: about 16 s.
    expect(await run({ status: 200, body: {} })).toBeLessThan(17_000);
    // After one (the client had sent 1 request: the floor), 600 fit in the last minute once
    // 21 × 2^(t / 30 s) reaches about 600: a little over two minutes.
    const after = await run({ status: 429, headers: { "retry-after": "1" } });
    expect(after).toBeGreaterThan(120_000);
    expect(after).toBeLessThan(150_000);
  });
});

describe("redaction: no error of any kind reveals the API key", () => {
  // Every reply echoes the key, as a careless server or proxy might.
  const echo = { code: "E", message: `the key ${KEY} (Bearer ${KEY}) is not welcome` };
  // Every row has all four cells: with fewer, jest would pass a `done` callback as the last one.
  const cases: [ApiErrorKind, Reply[], HttpMethod, Partial<HttpClientOptions>][] = [
    ["unauthorized", [{ status: 401, body: echo }], "GET", {}],
    ["not_found", [{ status: 404, body: echo }], "GET", {}],
    ["locked", [{ status: 423, body: echo }], "POST", { retryDeadlineMs: 1_000 }],
    [
      "rate_limited",
      [{ status: 429, body: echo, headers: { "retry-after": "1" } }],
      "GET",
      { retryLimits: { rate_limited: 2 } },
    ],
    ["invalid", [{ status: 400, body: echo }], "PATCH", {}],
    ["server", [{ status: 503, body: echo }], "GET", { retryLimits: { unavailable: 2 } }],
    [
      "network",
      [{ fail: "ECONNRESET", message: `socket hang up, Authorization: Bearer ${KEY}` }],
      "POST",
      {},
    ],
    [
      "network",
      [{ fail: "ECONNREFUSED", message: `connect ECONNREFUSED ${KEY}` }],
      "GET",
      { retryLimits: { network: 2 } },
    ],
    [
      "timeout",
      [{ fail: "ETIMEDOUT", message: `timeout of 30000ms exceeded ${KEY}` }],
      "GET",
      { retryLimits: { network: 1 } },
    ],
    ["invalid_response", [{ status: 200, body: { leaked: KEY } }], "GET", {}],
  ];

  test.each(cases)("%s", async (kind, replies, method, extra) => {
    const logs: string[] = [];
    const { http, clock, retries } = client(replies, extra);
    const parse =
      kind === "invalid_response"
        ? () => {
            throw new ResponseShapeError([`unexpected ${KEY}`]);
          }
        : (d: unknown) => d;
    const err = await failure(http.request({ ...spec(method), parse }), clock);
    expect(err.kind).toBe(kind);
    expect(axios.isAxiosError(err)).toBe(false);
    expect(err.cause === undefined || Object.getPrototypeOf(err.cause) === Object.prototype).toBe(true);
    logs.push(
      err.message,
      String(err),
      err.stack ?? "",
      JSON.stringify(err),
      JSON.stringify(err.cause ?? null),
      util.inspect(err, { depth: 20, showHidden: true }),
      util.format("%o", err),
      JSON.stringify(retries),
      util.inspect(http, { depth: 5, showHidden: true }),
    );
    for (const line of logs) expect(line).not.toContain(KEY);
  });

  test("an error from the typed client does not reveal the key either", async () => {
    const clock = new FakeClock();
    const { adapter } = scripted([{ fail: "ECONNRESET", message: `reset ${KEY}` }]);
    const api = buildClient(createHttpClient({ apiKey: KEY, adapter, now: clock.now }));
    const err = await failure(api.endpoints.create("p-1", { branch_id: "br-1", type: "read_write" }), clock);
    expect(err.mayHaveReachedServer).toBe(true);
    expect(util.inspect(err, { depth: 20, showHidden: true })).not.toContain(KEY);
    expect(util.inspect(api, { depth: 20, showHidden: true })).not.toContain(KEY);
  });

  test("createNeonClient refuses an empty key with a clear message", () => {
    expect(() => createNeonClient({ apiKey: "" })).toThrow(/no API key was given/);
  });
});

describe("projectLockWait", () => {
  const T = Date.parse("2026-11-26T10:00:00Z");
  const page = {
    operations: [
      {
        id: "op-2",
        project_id: "p-1",
        action: "create_branch",
        status: "running",
        failures_count: 0,
        created_at: new Date(T).toISOString(),
        updated_at: new Date(T).toISOString(),
      },
    ],
  };

  test("one reading serves the 423s of one project at once (even while under way), and the project's own routes", async () => {
    const clock = new FakeClock();
    clock.t = T;
    const reads: string[] = [];
    const wait = projectLockWait(
      {
        operations: {
          listPage: async (p: string) => {
            reads.push(p);
            await clock.sleep(50);
            return page;
          },
        } as never,
        serviceNow: () => clock.now(),
      },
      { now: clock.now, random: () => 0 },
    );
    const all = Promise.all([
      wait(
        route("PATCH /projects/{project_id}/branches/{branch_id}", { project_id: "p-1", branch_id: "br-1" }),
      ),
      wait(route("POST /projects/{project_id}/endpoints", { project_id: "p-1" })),
      wait(route("PATCH /projects/{project_id}", { project_id: "p-1" })),
    ]);
    const got = await clock.run(all);
    expect(reads).toEqual(["p-1"]);
    expect(got.map((g) => g?.holder)).toEqual(Array(3).fill(got[0]?.holder));
    expect(got[0]?.holder).toMatch(
      /^project p-1 is running create_branch \(operation op-2, running for 0 s\)$/,
    );
    // The looks after it tell the lock moving (another operation) from a project stuck (the same one).
    expect(got.map((g) => g?.operationId)).toEqual(["op-2", "op-2", "op-2"]);
    expect(await wait(route("POST /api_keys"))).toBeUndefined();
    expect(reads).toEqual(["p-1"]);
  });

  test("a reading begun before `since` is not used (it may predate the 423 it should explain); one begun at or after it is shared", async () => {
    const clock = new FakeClock();
    clock.t = T;
    let reads = 0;
    const wait = projectLockWait(
      {
        operations: {
          listPage: async () => {
            reads++;
            return page;
          },
        } as never,
        serviceNow: () => clock.now(),
      },
      { now: clock.now, random: () => 0 },
    );
    const to = route("POST /projects/{project_id}/branches", { project_id: "p-1" });
    await wait(to, T);
    await wait(to, T); // begun at `since`: shared
    expect(reads).toBe(1);
    clock.t = T + 200;
    // The reading began before this request was sent; a new one, but not within a second of it (a
    // change refused just after a look looks again a second after that look): a wait until then,
    // which names no holder (no progress line) and ends in a look.
    expect(await wait(to, T + 100)).toEqual({ delayMs: 800 });
    expect(reads).toBe(1);
    // That wait's timer may end a few ms early on the wall clock (it counts from the event loop's
    // time): a look then reads, rather than waiting again for what is left of the second.
    clock.t = T + 970;
    await wait(to, T + 970);
    expect(reads).toBe(2);
    // Not sooner: 51 ms before the next second's end is a wait, not a reading.
    clock.t = T + 970 + 949;
    expect(await wait(to, clock.t)).toEqual({ delayMs: 51 });
    expect(reads).toBe(2);
    await wait(to); // no `since`: a reading of the last second serves
    expect(reads).toBe(2);
  });

  test("a change waits through the rest of another branch's run, not of its own branch's", async () => {
    const clock = new FakeClock();
    clock.t = T;
    const at = (s: number) => new Date(T + s * 1_000).toISOString();
    const op = (id: string, branch: string, status: string, from: number, to: number) => ({
      id,
      project_id: "p-1",
      branch_id: branch,
      action: "apply_config",
      status,
      failures_count: 0,
      created_at: at(from),
      updated_at: at(to),
    });
    // Newest first: br-h's first change runs; br-a, br-b and br-c each sent two in a row (3 s each).
    const runs = {
      operations: [
        op("h1", "br-h", "running", 18, 18),
        op("c2", "br-c", "finished", 15, 18),
        op("c1", "br-c", "finished", 12, 15),
        op("b2", "br-b", "finished", 9, 12),
        op("b1", "br-b", "finished", 6, 9),
        op("a2", "br-a", "finished", 3, 6),
        op("a1", "br-a", "finished", 0, 3),
      ],
    };
    clock.t = T + 18_000;
    const wait = projectLockWait(
      { operations: { listPage: async () => runs } as never, serviceNow: () => clock.now() },
      { now: clock.now, random: () => 0 },
    );
    const on = (branch: string) =>
      route("POST /projects/{project_id}/branches/{branch_id}/roles", {
        project_id: "p-1",
        branch_id: branch,
      });
    const other = await wait(on("br-x"));
    const own = await wait(on("br-h"));
    // br-h is expected to send one more change after this one: 3 s + 3 s; on br-h itself, 3 s.
    expect(other?.delayMs).toBe(6_000);
    expect(other?.holder).toMatch(/its branch is expected to send 1 more\)$/);
    expect(own?.delayMs).toBe(3_000);
    expect(own?.holder).not.toMatch(/expected to send/);
    // A compute's change names no branch: whose run it is is not known, so none is waited for.
    const compute = await wait(route("POST /projects/{project_id}/endpoints", { project_id: "p-1" }));
    expect(compute?.delayMs).toBe(3_000);
    // A branch's create has no branch yet: br-h's run applies to it.
    expect((await wait(route("POST /projects/{project_id}/branches", { project_id: "p-1" })))?.delayMs).toBe(
      6_000,
    );
  });

  test("a free lock just after a short run's change is left to that branch for a moment, spread out", async () => {
    const clock = new FakeClock();
    const at = (ms: number) => new Date(T + ms).toISOString();
    // Newest first: br-h's first change ended 100 ms ago; no run of the project is known yet.
    const free = {
      operations: [
        {
          id: "h1",
          project_id: "p-1",
          branch_id: "br-h",
          action: "apply_config",
          status: "finished",
          failures_count: 0,
          created_at: at(1_001),
          updated_at: at(4_001),
        },
      ],
    };
    clock.t = T + 4_101;
    let random = 0;
    const wait = projectLockWait(
      { operations: { listPage: async () => free } as never, serviceNow: () => clock.now() },
      { now: clock.now, random: () => random },
    );
    const on = (branch: string) =>
      route("POST /projects/{project_id}/branches/{branch_id}/roles", {
        project_id: "p-1",
        branch_id: branch,
      });
    // 200 ms of the grace are left: waited out, then the change is tried without a look (one within
    // a second of this look would wait for that second, the project idle meanwhile).
    const first = await wait(on("br-x"));
    expect(first?.delayMs).toBe(HOLDER_GRACE_MS - 100);
    expect(first?.thenTry).toBe(true);
    expect(first?.holder).toMatch(/is free; the branch that held it is expected to go on/);
    random = 1;
    // Spread as a far wake is: many waiters of one grace try apart.
    expect((await wait(on("br-x"), T))?.delayMs).toBe(HOLDER_GRACE_MS - 100 + FAR_WAKE_SPREAD_MS);
    // Looked at 1 s before the change's end (as a service clock behind this one shows it): the whole
    // grace from that end is waited out, then spread.
    clock.t = T + 3_000;
    random = 0.5;
    expect((await wait(on("br-x"), T))?.delayMs).toBe(1_001 + HOLDER_GRACE_MS + FAR_WAKE_SPREAD_MS / 2);
    // br-h itself, or a compute's change, goes now (the backoff's short retry).
    expect(await wait(on("br-h"), T)).toBeUndefined();
    expect(
      await wait(route("POST /projects/{project_id}/endpoints", { project_id: "p-1" }), T),
    ).toBeUndefined();
  });

  test("in the burst's first run, a waiter looks a grace after the holder's change ends, then tries", async () => {
    const clock = new FakeClock();
    const at = (ms: number) => new Date(T + ms).toISOString();
    const op = (id: string, action: string, status: string, updatedMs: number) => ({
      id,
      project_id: "p-1",
      branch_id: "br-a",
      action,
      status,
      failures_count: 0,
      created_at: at(1),
      updated_at: at(updatedMs),
    });
    // Newest first: br-a's branch create (one request: the branch, then its compute's start) is the
    // only change the project has seen; its compute's start runs, expected to end at 3.001 s.
    let ops = [op("a-s", "start_compute", "running", 1), op("a-b", "create_branch", "finished", 3_001)];
    const wait = projectLockWait(
      { operations: { listPage: async () => ({ operations: ops }) } as never, serviceNow: () => clock.now() },
      { now: clock.now, random: () => 0 },
    );
    const create = route("POST /projects/{project_id}/branches", { project_id: "p-1" });
    clock.t = T + 1_000;
    // To the end (2.001 s away), then br-a's grace: a look at the end would find the lock free inside it.
    const first = await wait(create, clock.t);
    expect(first?.delayMs).toBe(2_001 + HOLDER_GRACE_MS);
    expect(first?.thenTry).toBeUndefined();
    // br-a did not go on: at that look the lock is free and no grace is left, so the change is tried.
    ops = [op("a-s", "start_compute", "finished", 3_001), op("a-b", "create_branch", "finished", 3_001)];
    clock.t = T + 1_000 + first!.delayMs;
    expect(await wait(create, clock.t)).toBeUndefined();
  });

  test("a failed reading gives no wait (the backoff applies) and is not repeated within the second", async () => {
    const clock = new FakeClock();
    let reads = 0;
    const wait = projectLockWait(
      {
        operations: {
          listPage: async () => {
            reads++;
            throw new Error("no");
          },
        } as never,
        serviceNow: () => clock.now(),
      },
      { now: clock.now, random: () => 0 },
    );
    const to = route("POST /projects/{project_id}/branches", { project_id: "p-9" });
    expect(await wait(to)).toBeUndefined();
    expect(await wait(to)).toBeUndefined();
    expect(reads).toBe(1);
  });
});
