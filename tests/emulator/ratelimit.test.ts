/**
 * Rate limits (`rateLimit` option), on a frozen emulator clock: only `clock.advance` moves time, so
 * counting requests per second never races real time.
 */
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, EP, OPS } from "./client";

let emu: EmulatorHandle;
let c: Client;

afterEach(() => emu?.stop());

const ops = (key?: string) => c.get(OPS, { params: { project_id: emu.seed.projectId }, key });
const endpoints = (key?: string) => c.get(EP, { params: { project_id: emu.seed.projectId }, key });

async function burst(n: number, call: () => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await call()).status);
  return statuses;
}

describe("rate limits", () => {
  it("are off by default", async () => {
    emu = await startEmulator({ seed: 1, frozenClock: true });
    c = new Client(emu);
    expect(new Set(await burst(60, () => ops()))).toEqual(new Set([200]));
  });

  it("allow a burst of 40 requests per second per route, then 429 with Retry-After until the second has passed", async () => {
    emu = await startEmulator({ seed: 1, frozenClock: true, rateLimit: true });
    c = new Client(emu);
    expect(new Set(await burst(40, () => ops()))).toEqual(new Set([200]));
    const refused = await ops();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.body).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringContaining("40 requests per second to GET /projects/:project_id/operations"),
    });
    // Another route has its own burst budget.
    expect((await endpoints()).status).toBe(200);
    emu.clock.advance(999);
    expect((await ops()).status).toBe(429);
    emu.clock.advance(1);
    expect((await ops()).status).toBe(200);
    // The handle counts the refusals (benchmarks and e2e tests report them).
    expect(emu.rateLimitedCount()).toBe(2);
  });

  it("allow 700 requests per minute per account, shared by all keys of the account", async () => {
    emu = await startEmulator({ seed: 1, frozenClock: true, rateLimit: { perRoutePerSecond: 1000 } });
    c = new Client(emu);
    const second = emu.createPersonalKey("admin"); // the same user: the same account
    const statuses = [...(await burst(350, () => ops())), ...(await burst(350, () => endpoints(second)))];
    expect(new Set(statuses)).toEqual(new Set([200]));
    emu.clock.advance(10_000);
    const refused = await ops(second);
    expect(refused.status).toBe(429);
    // The oldest request leaves the minute 50 s from now.
    expect(refused.headers.get("retry-after")).toBe("50");
    expect(refused.body.message).toContain("700 requests per minute per account");
    // Another account (the member user) is not affected.
    expect((await ops(emu.createPersonalKey("member"))).status).toBe(200);
    emu.clock.advance(50_000);
    expect((await ops()).status).toBe(200);
  });

  it("count organization and project-scoped keys for their organization", async () => {
    emu = await startEmulator({
      seed: 1,
      frozenClock: true,
      rateLimit: { perMinute: 5, perRoutePerSecond: 100 },
    });
    c = new Client(emu);
    const orgKeys = "/organizations/{org_id}/api_keys";
    const org = (await c.post(orgKeys, { params: { org_id: emu.seed.orgId }, body: { key_name: "o" } })).body
      .key;
    const scoped = (
      await c.post(orgKeys, {
        params: { org_id: emu.seed.orgId },
        body: { key_name: "p", project_id: emu.seed.projectId },
      })
    ).body.key;
    expect(await burst(3, () => ops(org))).toEqual([200, 200, 200]);
    expect(await burst(3, () => ops(scoped))).toEqual([200, 200, 429]);
    // The personal key's user has used 2 of its own 5 (the two key creations).
    expect(await burst(4, () => ops())).toEqual([200, 200, 200, 429]);
  });

  it("allow 10 per second to POST /organizations/{org_id}/api_keys", async () => {
    emu = await startEmulator({ seed: 1, frozenClock: true, rateLimit: true });
    c = new Client(emu);
    const create = () =>
      c.post("/organizations/{org_id}/api_keys", {
        params: { org_id: emu.seed.orgId },
        body: { key_name: "k", project_id: emu.seed.projectId },
      });
    expect(await burst(11, create)).toEqual([...Array(10).fill(200), 429]);
    emu.clock.advance(1000);
    expect((await create()).status).toBe(200);
  });

  it("forget their counts on reset()", async () => {
    emu = await startEmulator({ seed: 1, frozenClock: true, rateLimit: { perRoutePerSecond: 2 } });
    c = new Client(emu);
    expect(await burst(3, () => ops())).toEqual([200, 200, 429]);
    emu.reset();
    expect((await ops()).status).toBe(200);
  });
});

describe("frozen clock", () => {
  it("stands still in real time and moves only with advance", async () => {
    emu = await startEmulator({ seed: 1, frozenClock: true, opMs: 1 });
    c = new Client(emu);
    const t0 = emu.clock.now();
    const r = await c.post(EP, {
      params: { project_id: emu.seed.projectId },
      body: { endpoint: { branch_id: emu.seed.branchIds[1], type: "read_write" } },
    });
    await new Promise((res) => setTimeout(res, 20));
    expect(emu.clock.now()).toBe(t0);
    const op = "/projects/{project_id}/operations/{operation_id}";
    const params = { project_id: emu.seed.projectId, operation_id: r.body.operations[0].id };
    expect((await c.get(op, { params })).body.operation.status).toBe("running");
    emu.clock.advance(1);
    expect(emu.clock.now()).toBe(t0 + 1);
    expect((await c.get(op, { params })).body.operation.status).toBe("finished");
    emu.reset();
    expect(emu.clock.now()).toBe(t0 + 1);
  });
});
