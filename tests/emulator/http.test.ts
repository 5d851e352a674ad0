/** HTTP behaviour shared by all routes: errors, request ids, faults, admin routes. */
import { request as httpRequest } from "node:http";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, EP, OP1, type Body } from "./client";

const json = async (r: Response): Promise<Body> => r.json();

let emu: EmulatorHandle;
let c: Client;
let base: string;

beforeAll(async () => {
  // Nothing here waits for an operation: a frozen clock (only `advance` moves it) keeps every one running
  // however slow the machine, where long operations on the real clock only made that likely.
  emu = await startEmulator({ opMs: 60_000, seed: 31, frozenClock: true });
  c = new Client(emu);
  base = emu.url.replace(/\/api\/v2$/, "");
});
afterAll(() => emu.stop());
beforeEach(() => {
  emu.reset();
  emu.setFaults({});
});

const createBody = () => ({ endpoint: { branch_id: emu.seed.branchIds[1], type: "read_write" } });
const params = () => ({ project_id: emu.seed.projectId });
/** Computes on dev-01, where the tests create theirs (the default branch has the seeded primary). */
const endpointCount = async () =>
  (await c.get(EP, { params: params() })).body.endpoints.filter(
    (e: { branch_id: string }) => e.branch_id === emu.seed.branchIds[1],
  ).length;

describe("errors and request ids", () => {
  it("echoes X-Request-ID in the header and in error bodies", async () => {
    const r = await c.get("/projects/{project_id}", {
      params: { project_id: "missing" },
      headers: { "x-request-id": "req-123" },
    });
    expect(r.status).toBe(404);
    expect(r.headers.get("x-request-id")).toBe("req-123");
    expect(r.body).toEqual({
      code: "NOT_FOUND",
      message: expect.stringContaining("missing"),
      request_id: "req-123",
    });
  });

  it("generates a request id when none is sent", async () => {
    const r = await c.get("/projects", { key: "bad" });
    expect(r.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.request_id).toBe(r.headers.get("x-request-id"));
  });

  it("answers a loud 404 naming method and path for unknown routes and methods", async () => {
    const unknown = await fetch(`${emu.url}/projects/x/databases?limit=1`, {
      headers: { authorization: `Bearer ${emu.apiKey}` },
    });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).message).toMatch(/^No route for GET \/api\/v2\/projects\/x\/databases: /);
    const method = await fetch(`${emu.url}/projects`, {
      method: "PUT",
      headers: { authorization: `Bearer ${emu.apiKey}` },
    });
    expect(method.status).toBe(404);
    const body = await json(method);
    expect(body.message).toMatch(/^No route for PUT \/api\/v2\/projects: /);
    expect(body.request_id).toBeDefined();
  });

  it("refuses malformed JSON with 400", async () => {
    const r = await c.post(EP, { params: params(), rawBody: '{"endpoint": {' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("INVALID_REQUEST");
    expect(r.body.message).toMatch(/malformed JSON/);
  });

  it("refuses a non-JSON content type with 415", async () => {
    const r = await c.post(EP, {
      params: params(),
      rawBody: "x=1",
      headers: { "content-type": "text/plain" },
    });
    expect(r.status).toBe(415);
    expect(r.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("refuses a body that is not an object, naming it", async () => {
    const r = await c.post(EP, { params: params(), body: [1, 2] });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/body: expected object, received array/);
  });
});

describe("per-request faults (X-Emulator-Fault)", () => {
  it.each([
    [423, "LOCKED"],
    [500, "INTERNAL_ERROR"],
    [503, "SERVICE_UNAVAILABLE"],
  ])("status=%s answers it without applying the change", async (status, code) => {
    const r = await c.post(EP, {
      params: params(),
      body: createBody(),
      headers: { "x-emulator-fault": `status=${status}` },
    });
    expect(r.status).toBe(status);
    expect(r.body).toMatchObject({
      code,
      message: expect.stringMatching(/^Injected fault \(X-Emulator-Fault header\)/),
    });
    expect(await endpointCount()).toBe(0);
  });

  it("status=429 sends Retry-After (default 1, or as given)", async () => {
    const a = await c.get("/projects", { headers: { "x-emulator-fault": "status=429" } });
    expect(a.status).toBe(429);
    expect(a.headers.get("retry-after")).toBe("1");
    const b = await c.get("/projects", { headers: { "x-emulator-fault": "status=429;retry-after=7" } });
    expect(b.headers.get("retry-after")).toBe("7");
    expect(b.body.code).toBe("TOO_MANY_REQUESTS");
  });

  it("latency=N delays the response", async () => {
    const t = Date.now();
    expect((await c.get("/projects", { headers: { "x-emulator-fault": "latency=150" } })).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
  });

  it("drop-after-commit applies the change and then drops the connection", async () => {
    await expect(
      fetch(`${emu.url}/projects/${emu.seed.projectId}/endpoints`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${emu.apiKey}`,
          "content-type": "application/json",
          "x-emulator-fault": "drop-after-commit",
        },
        body: JSON.stringify(createBody()),
      }),
    ).rejects.toThrow();
    expect(await endpointCount()).toBe(1);
    // GETs are never dropped.
    expect(
      (await c.get(EP, { params: params(), headers: { "x-emulator-fault": "drop-after-commit" } })).status,
    ).toBe(200);
  });

  it("error-after-commit applies the change and then answers 502", async () => {
    const res = await fetch(`${emu.url}/projects/${emu.seed.projectId}/endpoints`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${emu.apiKey}`,
        "content-type": "application/json",
        "x-emulator-fault": "error-after-commit",
      },
      body: JSON.stringify(createBody()),
    });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toMatch(/change was applied/);
    expect(await endpointCount()).toBe(1);
  });

  it("combines directives", async () => {
    const t = Date.now();
    const r = await c.get("/projects", { headers: { "x-emulator-fault": "latency=100, status=503" } });
    expect(r.status).toBe(503);
    expect(Date.now() - t).toBeGreaterThanOrEqual(90);
  });

  it.each([["status=404"], ["latency=abc"], ["op=maybe"], ["explode"], ["status=429;retry-after=x"]])(
    "refuses the malformed directive %s with 400",
    async (h) => {
      const r = await c.get("/projects", { headers: { "x-emulator-fault": h } });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/X-Emulator-Fault/);
    },
  );
});

describe("server-wide faults", () => {
  it("rate503 = 1 fails every API request; setFaults({}) clears it", async () => {
    emu.setFaults({ rate503: 1 });
    expect((await c.get("/projects")).status).toBe(503);
    emu.setFaults({});
    expect((await c.get("/projects")).status).toBe(200);
  });

  it("rate429 sends the configured Retry-After", async () => {
    emu.setFaults({ rate429: 1, retryAfterSeconds: 3 });
    const r = await c.get("/projects");
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("3");
  });

  it("latencyMs delays every request", async () => {
    emu.setFaults({ latencyMs: 100 });
    const t = Date.now();
    await c.get("/projects");
    expect(Date.now() - t).toBeGreaterThanOrEqual(90);
  });

  it("dropAfterCommitRate = 1 commits POSTs and drops them", async () => {
    emu.setFaults({ dropAfterCommitRate: 1 });
    await expect(
      fetch(`${emu.url}/projects/${emu.seed.projectId}/endpoints`, {
        method: "POST",
        headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(createBody()),
      }),
    ).rejects.toThrow();
    emu.setFaults({});
    expect(await endpointCount()).toBe(1);
  });

  it("rolls rates deterministically under a seed", async () => {
    const run = async () => {
      const e = await startEmulator({ seed: 99, faults: { rate423: 0.2, rate500: 0.2, rate503: 0.2 } });
      const cl = new Client(e);
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await cl.get("/projects")).status);
      await e.stop();
      return statuses;
    };
    const a = await run();
    expect(await run()).toEqual(a);
    expect(new Set(a)).toEqual(new Set([200, 423, 500, 503]));
  });

  it("refuses invalid fault options", () => {
    expect(() => emu.setFaults({ rate500: 2 })).toThrow();
  });
});

describe("admin routes", () => {
  it("summarises the state, sets faults, advances the clock and resets", async () => {
    await c.post(EP, { params: params(), body: createBody() });
    const state = await json(await fetch(`${base}/_emulator/state`));
    const main = state.projects.find((p: { id: string }) => p.id === emu.seed.projectId);
    expect(main.endpoints).toHaveLength(2); // the seeded primary and the new one
    expect(main.pending_operations).toBe(1);
    expect(state.requests).toBe(emu.requestCount());

    const put = await fetch(`${base}/_emulator/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rate500: 1 }),
    });
    expect(put.status).toBe(200);
    expect((await c.get("/projects")).status).toBe(500);
    const bad = await fetch(`${base}/_emulator/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rate500: "x" }),
    });
    expect(bad.status).toBe(400);
    await fetch(`${base}/_emulator/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: "{}",
    });

    const before = emu.clock.now();
    const adv = await fetch(`${base}/_emulator/advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ms: 3_600_000 }),
    });
    expect(adv.status).toBe(200);
    expect(emu.clock.now() - before).toBeGreaterThanOrEqual(3_600_000);
    expect(
      (
        await fetch(`${base}/_emulator/advance`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(400);

    const key = await json(
      await fetch(`${base}/_emulator/api_keys`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ role: "member" }),
      }),
    );
    expect((await c.get("/projects", { key: key.key })).status).toBe(200);

    expect((await fetch(`${base}/_emulator/reset`, { method: "POST" })).status).toBe(200);
    expect(await endpointCount()).toBe(0);
  });

  it("counts API requests only", async () => {
    const n = emu.requestCount();
    await c.get("/projects");
    await c.get("/projects", { key: "bad" });
    await fetch(`${base}/_emulator/state`);
    expect(emu.requestCount()).toBe(n + 2);
  });

  it("needs no API key", async () => {
    expect((await fetch(`${base}/_emulator/state`)).status).toBe(200);
  });
});

describe("concurrency", () => {
  it("serves many concurrent keep-alive GETs of an operation", async () => {
    const r = await c.post(EP, { params: params(), body: createBody() });
    const id = r.body.operations[0].id;
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        c.get(OP1, { params: { project_id: emu.seed.projectId, operation_id: id } }),
      ),
    );
    expect(results.every((x) => x.status === 200 && x.body.operation.id === id)).toBe(true);
  });

  it("answers on a raw socket without Accept", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${emu.url}/projects`,
        { headers: { authorization: `Bearer ${emu.apiKey}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(200);
  });
});
