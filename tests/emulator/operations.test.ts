/** Operations over HTTP: statuses over time, one at a time per project, 423, listing and faults. */
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, EP, EP1, OP1, OPS, createActive } from "./client";

let emu: EmulatorHandle;
let c: Client;
let project: string;
let branches: string[];

beforeAll(async () => {
  // A frozen clock: only `advance` moves it, so each status is seen exactly when a test expects it (on the
  // real clock a loaded machine can finish a 1 s operation between two requests that expect it running).
  emu = await startEmulator({
    opMs: 1000,
    seed: 11,
    opDurations: { suspend_compute: 500 },
    frozenClock: true,
  });
  c = new Client(emu);
});
afterAll(() => emu.stop());
beforeEach(() => {
  emu.reset();
  emu.setFaults({});
  project = emu.seed.projectId;
  // The non-default branches dev-01 …: the default branch already has the seeded primary compute.
  branches = emu.seed.branchIds.slice(1);
});

const getOp = async (id: string) =>
  (await c.get(OP1, { params: { project_id: project, operation_id: id } })).body.operation;
const create = (endpoint: Record<string, unknown>, headers?: Record<string, string>) =>
  c.post(EP, { params: { project_id: project }, body: { endpoint }, headers });

describe("status over time", () => {
  it("moves scheduling → running → finished, in order, one operation at a time", async () => {
    const ep = (await create({ branch_id: branches[0], type: "read_write" })).body.endpoint;
    emu.clock.advance(1000);
    const r = await c.post(`${EP1}/restart`, { params: { project_id: project, endpoint_id: ep.id } });
    const [suspend, start] = r.body.operations;
    expect([suspend.status, start.status]).toEqual(["running", "scheduling"]);
    expect(suspend.total_duration_ms).toBe(0);
    emu.clock.advance(250);
    expect((await getOp(suspend.id)).total_duration_ms).toBeGreaterThanOrEqual(250);
    emu.clock.advance(300); // suspend_compute takes 500 ms (per-action override)
    const s2 = await getOp(suspend.id);
    const t2 = await getOp(start.id);
    expect(s2.status).toBe("finished");
    expect(s2.total_duration_ms).toBe(500);
    expect(t2.status).toBe("running");
    // The second starts when the first ends.
    expect(Date.parse(t2.updated_at)).toBe(Date.parse(s2.updated_at));
    emu.clock.advance(1000);
    const t3 = await getOp(start.id);
    expect(t3).toMatchObject({ status: "finished", failures_count: 0, total_duration_ms: 1000 });
    expect(Date.parse(t3.updated_at) - Date.parse(t3.created_at)).toBe(1500);
  });

  it("answers 423 with an error body to every mutation while an operation is not terminal", async () => {
    const ep = (await create({ branch_id: branches[0], type: "read_write" })).body.endpoint;
    const p = { project_id: project, endpoint_id: ep.id };
    const attempts = [
      await create({ branch_id: branches[1], type: "read_write" }),
      await c.patch(EP1, { params: p, body: { endpoint: { autoscaling_limit_max_cu: 1 } } }),
      await c.post(`${EP1}/start`, { params: p }),
      await c.post(`${EP1}/suspend`, { params: p }),
      await c.post(`${EP1}/restart`, { params: p }),
      await c.del(EP1, { params: p }),
      await c.post("/projects/{project_id}/branches", { params: { project_id: project }, body: {} }),
      await c.del("/projects/{project_id}/branches/{branch_id}", {
        params: { project_id: project, branch_id: branches[5] },
      }),
    ];
    // The compute being started answers with its own transition; everything else with the project's lock.
    const verbs = [undefined, "update", "start", "suspend", "restart", "delete", undefined, undefined];
    attempts.forEach((a, i) => {
      expect(a.status).toBe(423);
      expect(a.body.code).toBe("LOCKED");
      expect(a.body.message).toBe(
        verbs[i]
          ? `endpoint is in some transitive state, could not ${verbs[i]}`
          : "project already has running conflicting operations, scheduling of new ones is prohibited",
      );
      expect(a.body.request_id).toBeDefined();
    });
    // Reads still work, and other projects are not locked.
    expect((await c.get(EP, { params: { project_id: project } })).status).toBe(200);
    const other = await c.post(EP, {
      params: { project_id: emu.seed.freeProjectId },
      body: { endpoint: { branch_id: emu.seed.freeProjectBranchIds[1], type: "read_write" } },
    });
    expect(other.status).toBe(201);
    emu.clock.advance(1000);
    expect((await create({ branch_id: branches[1], type: "read_write" })).status).toBe(201);
  });

  it("applies per-action durations and seeded jitter deterministically", async () => {
    const run = async () => {
      const e = await startEmulator({ seed: 5, opMs: 1000, opJitter: 0.3 });
      const cl = new Client(e);
      const p = { project_id: e.seed.projectId };
      const totals: number[] = [];
      for (const b of e.seed.branchIds.slice(1, 5)) {
        const r = await cl.post(EP, { params: p, body: { endpoint: { branch_id: b, type: "read_write" } } });
        e.clock.advance(2000);
        const op = await cl.get(OP1, { params: { ...p, operation_id: r.body.operations[0].id } });
        totals.push(op.body.operation.total_duration_ms);
      }
      await e.stop();
      return totals;
    };
    const a = await run();
    expect(await run()).toEqual(a);
    for (const t of a) {
      expect(t).toBeGreaterThanOrEqual(700);
      expect(t).toBeLessThanOrEqual(1300);
    }
    expect(new Set(a).size).toBeGreaterThan(1);
  });
});

describe("list and get", () => {
  it("lists newest first and pages with limit and cursor without skipping or repeating", async () => {
    // Many operations created within the same millisecond (one request) and across requests.
    for (const b of branches.slice(0, 6)) {
      await c.post("/projects/{project_id}/branches", {
        params: { project_id: project },
        body: { branch: { parent_id: b }, endpoints: [{ type: "read_write" }, { type: "read_only" }] },
      });
      emu.clock.advance(5000);
    }
    const all = (await c.get(OPS, { params: { project_id: project }, query: { limit: 1000 } })).body;
    expect(all.pagination).toBeUndefined();
    const created = all.operations.map((o: { created_at: string }) => o.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    for (const limit of [1, 3, 7]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 100; page++) {
        const r = await c.get(OPS, {
          params: { project_id: project },
          query: cursor ? { limit, cursor } : { limit },
        });
        expect(r.body.operations.length).toBeLessThanOrEqual(limit);
        seen.push(...r.body.operations.map((o: { id: string }) => o.id));
        if (!r.body.pagination) break;
        expect(r.body.pagination.cursor).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
        cursor = r.body.pagination.cursor;
      }
      expect(seen).toEqual(all.operations.map((o: { id: string }) => o.id));
    }
  });

  it("seeds a history whose operations took as long as the emulator's own, one at a time, oldest first", async () => {
    const all = (await c.get(OPS, { params: { project_id: project }, query: { limit: 1000 } })).body
      .operations;
    const history = [...all].reverse();
    expect(history.map((o: { action: string }) => o.action).slice(0, 3)).toEqual([
      "create_timeline",
      "start_compute",
      "create_branch",
    ]);
    expect(history[history.length - 1].action).toBe("suspend_compute");
    for (const op of history) {
      expect(op.status).toBe("finished");
      // opMs 1000, suspend_compute 500 (this file's emulator).
      expect(op.total_duration_ms).toBe(op.action === "suspend_compute" ? 500 : 1000);
    }
    for (let i = 1; i < history.length; i++)
      expect(Date.parse(history[i].created_at)).toBeGreaterThanOrEqual(Date.parse(history[i - 1].updated_at));
    expect(Date.parse(history[history.length - 1].updated_at)).toBeLessThan(emu.clock.now());
  });

  it("defaults to 10 per page", async () => {
    const r = await c.get(OPS, { params: { project_id: project } });
    expect(r.body.operations).toHaveLength(10);
    expect(r.body.pagination.cursor).toBeDefined();
  });

  it.each([["0"], ["1001"], ["abc"], ["-1"], ["2.5"]])(
    "refuses limit=%s with 400 naming limit",
    async (limit) => {
      const r = await c.get(OPS, { params: { project_id: project }, query: { limit } });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/limit=.*must be an integer from 1 to 1000/);
    },
  );

  it("refuses a malformed cursor with 400 naming cursor", async () => {
    const r = await c.get(OPS, { params: { project_id: project }, query: { cursor: "yesterday" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/cursor=yesterday/);
  });

  it("answers 404 for an unknown operation, or one of another project", async () => {
    const r = await c.get(OP1, {
      params: { project_id: project, operation_id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(r.status).toBe(404);
    const mine = (await c.get(OPS, { params: { project_id: project }, query: { limit: 1 } })).body
      .operations[0];
    const cross = await c.get(OP1, { params: { project_id: emu.seed.freeProjectId, operation_id: mine.id } });
    expect(cross.status).toBe(404);
  });
});

describe("operation faults", () => {
  it("op=failed: running → failed (failures_count 1, error) → running (retry_at) → finished, effect applied", async () => {
    const r = await create(
      { branch_id: branches[0], type: "read_write" },
      { "x-emulator-fault": "op=failed" },
    );
    const id = r.body.operations[0].id;
    emu.clock.advance(1100);
    const failed = await getOp(id);
    expect(failed).toMatchObject({ status: "failed", failures_count: 1 });
    expect(failed.error).toMatch(/transient/);
    // A failed operation is not terminal: the project stays locked.
    expect((await create({ branch_id: branches[1], type: "read_write" })).status).toBe(423);
    emu.clock.advance(1000);
    const retried = await getOp(id);
    expect(retried).toMatchObject({ status: "running", failures_count: 1 });
    expect(retried.retry_at).toBeDefined();
    emu.clock.advance(1000);
    expect(await getOp(id)).toMatchObject({ status: "finished", failures_count: 1 });
    const ep = await c.get(EP1, { params: { project_id: project, endpoint_id: r.body.endpoint.id } });
    expect(ep.body.endpoint.current_state).toBe("active");
  });

  it("op=error ends in error with a text and does not apply its effect", async () => {
    const r = await create(
      { branch_id: branches[0], type: "read_write" },
      { "x-emulator-fault": "op=error" },
    );
    emu.clock.advance(1100);
    const op = await getOp(r.body.operations[0].id);
    expect(op.status).toBe("error");
    expect(op.error).toMatch(/start_compute failed/);
    const ep = (await c.get(EP1, { params: { project_id: project, endpoint_id: r.body.endpoint.id } })).body
      .endpoint;
    expect(ep.current_state).toBe("init");
    expect(ep.pending_state).toBeUndefined();
    // Terminal: the project is unlocked again and the compute can be started.
    const st = await c.post(`${EP1}/start`, { params: { project_id: project, endpoint_id: ep.id } });
    expect(st.body.operations[0].action).toBe("start_compute");
  });

  it("op=cancelled goes cancelling then cancelled", async () => {
    const r = await create(
      { branch_id: branches[0], type: "read_write" },
      { "x-emulator-fault": "op=cancelled" },
    );
    emu.clock.advance(600);
    expect((await getOp(r.body.operations[0].id)).status).toBe("cancelling");
    emu.clock.advance(500);
    expect((await getOp(r.body.operations[0].id)).status).toBe("cancelled");
  });

  it("server-wide op rates fail, error and cancel operations", async () => {
    emu.setFaults({ opErrorRate: 1 });
    const r = await create({ branch_id: branches[0], type: "read_write" });
    emu.clock.advance(1100);
    expect((await getOp(r.body.operations[0].id)).status).toBe("error");
    emu.setFaults({ opCancelRate: 1 });
    const r2 = await create({ branch_id: branches[1], type: "read_write" });
    emu.clock.advance(1100);
    expect((await getOp(r2.body.operations[0].id)).status).toBe("cancelled");
    emu.setFaults({ opFailRate: 1 });
    const r3 = await create({ branch_id: branches[2], type: "read_write" });
    emu.clock.advance(3100);
    expect(await getOp(r3.body.operations[0].id)).toMatchObject({ status: "finished", failures_count: 1 });
  });
});

describe("background check_availability", () => {
  it("runs periodically on projects that have a compute, when enabled", async () => {
    const e = await startEmulator({ opMs: 100, checkAvailability: true });
    const cl = new Client(e);
    const p = { project_id: e.seed.projectId };
    // Without computes a project is not checked: remove the free project's (idle, so no operation).
    const free = { project_id: e.seed.freeProjectId };
    const gone = await cl.del(EP1, { params: { ...free, endpoint_id: e.seed.freeProjectPrimaryEndpointId } });
    expect(gone.body.operations).toEqual([]);
    await createActive(cl, e.seed.projectId, {
      branch_id: e.seed.branchIds[1],
      type: "read_write",
      suspend_timeout_seconds: -1,
    });
    e.clock.advance(1000);
    await cl.get(OPS, { params: p });
    e.clock.advance(61_000);
    const ops = (await cl.get(OPS, { params: p, query: { limit: 5 } })).body.operations;
    expect(ops[0].action).toBe("check_availability");
    expect([e.seed.defaultBranchId, e.seed.branchIds[1]]).toContain(ops[0].branch_id);
    expect(ops[0].endpoint_id).toBeUndefined();
    // None on a project without computes.
    const freeOps = (await cl.get(OPS, { params: free, query: { limit: 5 } })).body.operations;
    expect(freeOps.some((o: { action: string }) => o.action === "check_availability")).toBe(false);
    await e.stop();
  });

  it("is off by default", async () => {
    await createActive(c, project, {
      branch_id: branches[0],
      type: "read_write",
      suspend_timeout_seconds: -1,
    });
    emu.clock.advance(3_600_000);
    const ops = (await c.get(OPS, { params: { project_id: project }, query: { limit: 5 } })).body.operations;
    expect(ops.some((o: { action: string }) => o.action === "check_availability")).toBe(false);
  });
});
