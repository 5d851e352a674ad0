/** Compute endpoints over HTTP: lifecycle, rules and every refusal. */
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, EP, EP1, OP1, createActive } from "./client";

let emu: EmulatorHandle;
let c: Client;
let project: string;
let branches: string[];

beforeAll(async () => {
  // suspend_compute is slower so that the project is observably locked while it runs. A frozen clock:
  // only `advance` moves it, so an operation is over exactly when a test says so, on any machine.
  emu = await startEmulator({
    opMs: 20,
    opDurations: { suspend_compute: 1000 },
    seed: 7,
    frozenClock: true,
  });
  c = new Client(emu);
});
afterAll(() => emu.stop());
beforeEach(() => {
  emu.reset();
  project = emu.seed.projectId;
  // The non-default branches dev-01 …: the default branch already has the seeded primary compute.
  branches = emu.seed.branchIds.slice(1);
});

/** Settles every operation by moving the emulator clock (no real waiting). */
const finishOps = () => emu.clock.advance(5000);
const params = (endpoint_id?: string): Record<string, string> =>
  endpoint_id ? { project_id: project, endpoint_id } : { project_id: project };

async function create(endpoint: Record<string, unknown>) {
  return c.post(EP, { params: params(), body: { endpoint } });
}

describe("create", () => {
  it("creates a read_write compute in init with a running start_compute, then it becomes active", async () => {
    const r = await create({ branch_id: branches[0], type: "read_write" });
    expect(r.status).toBe(201);
    const ep = r.body.endpoint;
    expect(ep.id).toMatch(/^ep-/);
    expect(ep).toMatchObject({
      project_id: project,
      branch_id: branches[0],
      type: "read_write",
      current_state: "init",
      pending_state: "active",
      region_id: "aws-us-east-2",
      settings: { pg_settings: {} },
      creation_source: "api",
      provisioner: "k8s-neonvm",
      suspend_timeout_seconds: 0,
    });
    expect(ep.last_active).toBeUndefined();
    expect(ep.host).toBe(`${ep.id}.us-east-2.aws.neon.tech`);
    expect(r.body.operations).toHaveLength(1);
    expect(r.body.operations[0]).toMatchObject({
      action: "start_compute",
      status: "running",
      endpoint_id: ep.id,
    });
    finishOps();
    const got = await c.get(EP1, { params: params(ep.id) });
    expect(got.body.endpoint.current_state).toBe("active");
    expect(got.body.endpoint.pending_state).toBeUndefined();
    expect(got.body.endpoint.last_active).toBeDefined();
    expect(Date.parse(got.body.endpoint.updated_at)).toBeGreaterThan(Date.parse(ep.created_at));
    const op = await c.get(OP1, { params: { project_id: project, operation_id: r.body.operations[0].id } });
    expect(op.body.operation.status).toBe("finished");
  });

  it("becomes active by itself in real time too on a clock that is not frozen (op durations are wall-clock based)", async () => {
    const live = await startEmulator({ opMs: 20, seed: 7 });
    try {
      const lc = new Client(live);
      const p = { project_id: live.seed.projectId };
      const r = await lc.post(EP, {
        params: p,
        body: { endpoint: { branch_id: live.seed.branchIds[1], type: "read_write" } },
      });
      expect(r.body.operations[0]).toMatchObject({ action: "start_compute", status: "running" });
      // No deadline that a slow machine could miss: wait (in real time only) until the emulator clock is
      // past the operation's end — it started no later than now and takes 20 ms — then read once.
      const end = live.clock.now() + 20;
      while (live.clock.now() <= end) await new Promise((res) => setTimeout(res, 5));
      const got = await lc.get(EP1, { params: { ...p, endpoint_id: r.body.endpoint.id } });
      expect(got.body.endpoint.current_state).toBe("active");
    } finally {
      await live.stop();
    }
  });

  it("refuses a second read_write on a branch (409) but allows many read_only", async () => {
    const rw = await createActive(c, project, { branch_id: branches[0], type: "read_write" });
    const again = await create({ branch_id: branches[0], type: "read_write" });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CONFLICT");
    expect(again.body.message).toContain(rw.id);
    expect(again.body.message).toContain(branches[0]);
    for (let i = 0; i < 3; i++) {
      const ro = await create({ branch_id: branches[0], type: "read_only" });
      expect(ro.status).toBe(201);
      expect(ro.body.operations[0].action).toBe("start_compute");
      finishOps();
    }
    const list = await c.get("/projects/{project_id}/branches/{branch_id}/endpoints", {
      params: { project_id: project, branch_id: branches[0] },
    });
    expect(list.body.endpoints).toHaveLength(4);
  });

  it("gives a re-created compute a new id and host", async () => {
    const a = await createActive(c, project, { branch_id: branches[1], type: "read_write" });
    expect((await c.del(EP1, { params: params(a.id) })).status).toBe(200);
    finishOps();
    const b = await createActive(c, project, { branch_id: branches[1], type: "read_write" });
    expect(b.id).not.toBe(a.id);
    expect(b.host).not.toBe(a.host);
  });

  it("accepts every offered size and fixed sizes above 16", async () => {
    for (const [min, max] of [
      [0.25, 0.25],
      [0.5, 16],
      [1, 1],
      [18, 18],
      [56, 56],
    ]) {
      const r = await create({
        branch_id: branches[2],
        type: "read_only",
        autoscaling_limit_min_cu: min,
        autoscaling_limit_max_cu: max,
      });
      expect(r.status).toBe(201);
      expect(r.body.endpoint).toMatchObject({ autoscaling_limit_min_cu: min, autoscaling_limit_max_cu: max });
      finishOps();
    }
  });

  it("uses one given bound for both, and 0.25 CU when none is given", async () => {
    const one = await create({ branch_id: branches[2], type: "read_only", autoscaling_limit_max_cu: 4 });
    expect(one.body.endpoint).toMatchObject({ autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 4 });
    finishOps();
    const none = await create({ branch_id: branches[2], type: "read_only" });
    expect(none.body.endpoint).toMatchObject({
      autoscaling_limit_min_cu: 0.25,
      autoscaling_limit_max_cu: 0.25,
    });
  });

  it.each([
    [
      { autoscaling_limit_min_cu: 0.75, autoscaling_limit_max_cu: 1 },
      /autoscaling_limit_min_cu 0.75 is not an offered size; allowed sizes are 0.25, 0.5, 1 to 16/,
    ],
    [
      { autoscaling_limit_min_cu: 17, autoscaling_limit_max_cu: 17 },
      /autoscaling_limit_min_cu 17 is not an offered size/,
    ],
    [{ autoscaling_limit_min_cu: 58, autoscaling_limit_max_cu: 58 }, /58 is not an offered size/],
    [
      { autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 2 },
      /min_cu 4 is greater than autoscaling_limit_max_cu 2/,
    ],
    [{ autoscaling_limit_min_cu: 8, autoscaling_limit_max_cu: 18 }, /above 16, the largest autoscaling size/],
    [{ autoscaling_limit_min_cu: 0.1 }, /endpoint.autoscaling_limit_min_cu: must be at least 0.25/],
    [
      { autoscaling_limit_min_cu: "1" },
      /endpoint.autoscaling_limit_min_cu: expected number, received string/,
    ],
    [
      { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 2, provisioner: "k8s-pod" },
      /needs provisioner k8s-neonvm/,
    ],
    [{ provisioner: "docker" }, /endpoint.provisioner/],
    [{ suspend_timeout_seconds: 30 }, /endpoint.suspend_timeout_seconds: must be -1 \(never\), 0/],
    [{ suspend_timeout_seconds: 700000 }, /at most 604800/],
    [{ suspend_timeout_seconds: 1.5 }, /must be an integer/],
    [{ name: "" }, /endpoint.name: must not be empty/],
    [{ pooler_mode: "session" }, /endpoint.pooler_mode/],
    [
      { settings: { pg_settings: { work_mem: 4 } } },
      /endpoint.settings.pg_settings.work_mem: expected string/,
    ],
    [{ colour: "red" }, /endpoint: unknown field "colour"/],
    [
      { region_id: "aws-eu-central-1" },
      /region_id aws-eu-central-1 differs from the project's region aws-us-east-2/,
    ],
  ])("refuses %j with a 400 naming the field", async (extra, message) => {
    const r = await create({ branch_id: branches[0], type: "read_write", ...extra });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("INVALID_REQUEST");
    expect(r.body.message).toMatch(message);
    expect(r.body.message).toMatch(/^Failed to create endpoint: /);
  });

  it("refuses a missing or wrong type and a missing branch_id", async () => {
    const noType = await create({ branch_id: branches[0] });
    expect(noType.status).toBe(400);
    expect(noType.body.message).toMatch(/endpoint.type is required/);
    const badType = await create({ branch_id: branches[0], type: "read_replica" });
    expect(badType.body.message).toMatch(/endpoint.type: .*"read_write"\|"read_only"/);
    const noBranch = await create({ type: "read_write" });
    expect(noBranch.body.message).toMatch(/endpoint.branch_id is required/);
    const noBody = await c.post(EP, { params: params() });
    expect(noBody.status).toBe(400);
    expect(noBody.body.message).toMatch(/endpoint is required/);
  });

  it("answers 404 for an unknown branch or project", async () => {
    const r = await create({ branch_id: "br-nope-1", type: "read_write" });
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/branch br-nope-1 not found/);
    const p = await c.post(EP, {
      params: { project_id: "no-such-project" },
      body: { endpoint: { branch_id: branches[0], type: "read_write" } },
    });
    expect(p.status).toBe(404);
    expect(p.body.message).toMatch(/project no-such-project not found/);
  });

  it("limits the free plan to 2 CU", async () => {
    const free = { project_id: emu.seed.freeProjectId };
    const big = await c.post(EP, {
      params: free,
      body: {
        endpoint: {
          branch_id: emu.seed.freeProjectBranchIds[1],
          type: "read_write",
          autoscaling_limit_min_cu: 1,
          autoscaling_limit_max_cu: 3,
        },
      },
    });
    expect(big.status).toBe(400);
    expect(big.body.message).toMatch(/exceeds the free plan limit of 2 CU/);
    const ok = await c.post(EP, {
      params: free,
      body: {
        endpoint: {
          branch_id: emu.seed.freeProjectBranchIds[1],
          type: "read_write",
          autoscaling_limit_min_cu: 0.25,
          autoscaling_limit_max_cu: 2,
        },
      },
    });
    expect(ok.status).toBe(201);
  });

  it("creates a disabled compute idle, without operations", async () => {
    const r = await create({ branch_id: branches[3], type: "read_write", disabled: true });
    expect(r.status).toBe(201);
    expect(r.body.endpoint.current_state).toBe("idle");
    expect(r.body.operations).toEqual([]);
    const start = await c.post(`${EP1}/start`, { params: params(r.body.endpoint.id) });
    expect(start.status).toBe(409);
    expect(start.body.message).toMatch(/is disabled/);
  });
});

describe("the seeded primary compute", () => {
  it("is an idle read_write compute on each seeded project's default branch, so a second one gets 409", async () => {
    for (const [projectId, branchId, endpointId] of [
      [emu.seed.projectId, emu.seed.defaultBranchId, emu.seed.primaryEndpointId],
      [emu.seed.freeProjectId, emu.seed.freeProjectBranchId, emu.seed.freeProjectPrimaryEndpointId],
    ]) {
      const got = await c.get(EP1, { params: { project_id: projectId, endpoint_id: endpointId } });
      expect(got.body.endpoint).toMatchObject({
        branch_id: branchId,
        type: "read_write",
        current_state: "idle",
        creation_source: "console",
        suspend_timeout_seconds: 0,
      });
      expect(got.body.endpoint.pending_state).toBeUndefined();
      expect(Date.parse(got.body.endpoint.suspended_at) - Date.parse(got.body.endpoint.last_active)).toBe(
        301_000,
      );
      const again = await c.post(EP, {
        params: { project_id: projectId },
        body: { endpoint: { branch_id: branchId, type: "read_write" } },
      });
      expect(again.status).toBe(409);
      expect(again.body.message).toContain(endpointId);
      // It starts like any idle compute.
      const start = await c.post(`${EP1}/start`, {
        params: { project_id: projectId, endpoint_id: endpointId },
      });
      expect(start.body.operations.map((o: { action: string }) => o.action)).toEqual(["start_compute"]);
      finishOps();
      const active = await c.get(EP1, { params: { project_id: projectId, endpoint_id: endpointId } });
      expect(active.body.endpoint.current_state).toBe("active");
    }
  });
});

describe("list and get", () => {
  it("lists the project's computes and a branch's computes; 404 for unknown ones", async () => {
    const a = await createActive(c, project, { branch_id: branches[0], type: "read_write" });
    const b = await createActive(c, project, { branch_id: branches[1], type: "read_write" });
    const all = await c.get(EP, { params: params() });
    expect(all.body.endpoints.map((e: { id: string }) => e.id).sort()).toEqual(
      [emu.seed.primaryEndpointId, a.id, b.id].sort(),
    );
    const br = await c.get("/projects/{project_id}/branches/{branch_id}/endpoints", {
      params: { project_id: project, branch_id: branches[1] },
    });
    expect(br.body.endpoints.map((e: { id: string }) => e.id)).toEqual([b.id]);
    const unknownBranch = await c.get("/projects/{project_id}/branches/{branch_id}/endpoints", {
      params: { project_id: project, branch_id: "br-x" },
    });
    expect(unknownBranch.status).toBe(404);
    const missing = await c.get(EP1, { params: params("ep-missing-1") });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringContaining("ep-missing-1"),
    });
  });
});

describe("update", () => {
  it("resizes an active compute with apply_config (restart inside it) and keeps it active", async () => {
    const ep = await createActive(c, project, {
      branch_id: branches[0],
      type: "read_write",
      autoscaling_limit_min_cu: 1,
      autoscaling_limit_max_cu: 2,
    });
    const before = (await c.get(EP1, { params: params(ep.id) })).body.endpoint;
    const r = await c.patch(EP1, {
      params: params(ep.id),
      body: { endpoint: { autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 4 } },
    });
    expect(r.status).toBe(200);
    expect(r.body.operations.map((o: { action: string; status: string }) => [o.action, o.status])).toEqual([
      ["apply_config", "running"],
    ]);
    expect(r.body.endpoint).toMatchObject({
      autoscaling_limit_min_cu: 2,
      autoscaling_limit_max_cu: 4,
      current_state: "active",
      pending_state: "active",
    });
    finishOps();
    const after = (await c.get(EP1, { params: params(ep.id) })).body.endpoint;
    expect(after.pending_state).toBeUndefined();
    expect(Date.parse(after.started_at)).toBeGreaterThan(Date.parse(before.started_at));
  });

  it("moves an idle compute to another branch with apply_config running + suspend_compute scheduling", async () => {
    const ep = await createActive(c, project, { branch_id: branches[0], type: "read_write" });
    await c.post(`${EP1}/suspend`, { params: params(ep.id) });
    finishOps();
    const r = await c.patch(EP1, { params: params(ep.id), body: { endpoint: { branch_id: branches[4] } } });
    expect(r.status).toBe(200);
    expect(r.body.operations.map((o: { action: string; status: string }) => [o.action, o.status])).toEqual([
      ["apply_config", "running"],
      ["suspend_compute", "scheduling"],
    ]);
    expect(r.body.endpoint).toMatchObject({
      branch_id: branches[4],
      current_state: "idle",
      pending_state: "idle",
    });
    finishOps();
    const after = (await c.get(EP1, { params: params(ep.id) })).body.endpoint;
    expect(after).toMatchObject({ branch_id: branches[4], current_state: "idle" });
    expect(after.pending_state).toBeUndefined();
  });

  it("refuses moving a read_write compute onto a branch that has one (409), allows read_only", async () => {
    const a = await createActive(c, project, { branch_id: branches[0], type: "read_write" });
    const b = await createActive(c, project, { branch_id: branches[1], type: "read_write" });
    const r = await c.patch(EP1, { params: params(b.id), body: { endpoint: { branch_id: branches[0] } } });
    expect(r.status).toBe(409);
    expect(r.body.message).toContain(a.id);
    const ro = await createActive(c, project, { branch_id: branches[1], type: "read_only" });
    const moved = await c.patch(EP1, {
      params: params(ro.id),
      body: { endpoint: { branch_id: branches[0] } },
    });
    expect(moved.status).toBe(200);
    const unknown = await c.patch(EP1, {
      params: params(a.id),
      body: { endpoint: { branch_id: "br-none-1" } },
    });
    expect(unknown.status).toBe(404);
  });

  it.each([
    [{ type: "read_only" }, /endpoint.type cannot be changed/],
    [{ region_id: "aws-us-east-2" }, /endpoint.region_id cannot be changed/],
    [{ autoscaling_limit_max_cu: 0.5 }, /min_cu 1 is greater than autoscaling_limit_max_cu 0.5/],
    [{ autoscaling_limit_max_cu: 20 }, /above 16/],
    [{ autoscaling_limit_min_cu: 3, autoscaling_limit_max_cu: 3.5 }, /3.5 is not an offered size/],
    [{ suspend_timeout_seconds: -2 }, /suspend_timeout_seconds/],
    [{ disabled: "yes" }, /endpoint.disabled: expected boolean/],
  ])("refuses %j with 400", async (patch, message) => {
    const ep = await createActive(c, project, {
      branch_id: branches[0],
      type: "read_write",
      autoscaling_limit_min_cu: 1,
      autoscaling_limit_max_cu: 2,
    });
    const r = await c.patch(EP1, { params: params(ep.id), body: { endpoint: patch } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(message);
  });

  it("returns no operations when nothing changes, and 404 for an unknown compute", async () => {
    const ep = await createActive(c, project, {
      branch_id: branches[0],
      type: "read_write",
      autoscaling_limit_min_cu: 1,
      autoscaling_limit_max_cu: 2,
    });
    const same = await c.patch(EP1, {
      params: params(ep.id),
      body: { endpoint: { autoscaling_limit_min_cu: 1 } },
    });
    expect(same.status).toBe(200);
    expect(same.body.operations).toEqual([]);
    const missing = await c.patch(EP1, { params: params("ep-gone-1"), body: { endpoint: {} } });
    expect(missing.status).toBe(404);
  });

  it("disabling an active compute suspends it; a disabled compute does not start", async () => {
    const ep = await createActive(c, project, { branch_id: branches[0], type: "read_write" });
    const r = await c.patch(EP1, { params: params(ep.id), body: { endpoint: { disabled: true } } });
    expect(r.body.operations.map((o: { action: string }) => o.action)).toEqual([
      "apply_config",
      "suspend_compute",
    ]);
    expect(r.body.endpoint).toMatchObject({ disabled: true, pending_state: "idle" });
    finishOps();
    expect((await c.get(EP1, { params: params(ep.id) })).body.endpoint.current_state).toBe("idle");
    expect((await c.post(`${EP1}/start`, { params: params(ep.id) })).status).toBe(409);
  });

  it("changes suspend_timeout_seconds, name and settings in place", async () => {
    const ep = await createActive(c, project, { branch_id: branches[0], type: "read_write" });
    const r = await c.patch(EP1, {
      params: params(ep.id),
      body: {
        endpoint: {
          suspend_timeout_seconds: -1,
          name: "primary",
          settings: { pg_settings: { work_mem: "64MB" } },
        },
      },
    });
    expect(r.body.endpoint).toMatchObject({
      suspend_timeout_seconds: -1,
      name: "primary",
      settings: { pg_settings: { work_mem: "64MB" } },
    });
    expect(r.body.operations.map((o: { action: string }) => o.action)).toEqual(["apply_config"]);
  });
});

describe("start, suspend, restart", () => {
  it("suspends and starts with the matching operations and pending states", async () => {
    const ep = await createActive(c, project, { branch_id: branches[0], type: "read_write" });
    const s = await c.post(`${EP1}/suspend`, { params: params(ep.id) });
    expect(s.status).toBe(200);
    expect(s.body.operations[0]).toMatchObject({ action: "suspend_compute", status: "running" });
    expect(s.body.endpoint.pending_state).toBe("idle");
    finishOps();
    const idle = (await c.get(EP1, { params: params(ep.id) })).body.endpoint;
    expect(idle.current_state).toBe("idle");
    expect(idle.suspended_at).toBeDefined();
    const again = await c.post(`${EP1}/suspend`, { params: params(ep.id) });
    expect(again.body.operations).toEqual([]);
    const st = await c.post(`${EP1}/start`, { params: params(ep.id) });
    expect(st.body.operations[0]).toMatchObject({ action: "start_compute", status: "running" });
    expect(st.body.endpoint).toMatchObject({ current_state: "idle", pending_state: "active" });
    finishOps();
    expect((await c.get(EP1, { params: params(ep.id) })).body.endpoint.current_state).toBe("active");
    const startActive = await c.post(`${EP1}/start`, { params: params(ep.id) });
    expect(startActive.body.operations).toEqual([]);
  });

  it("restarts only an active compute: suspend_compute then start_compute", async () => {
    const ep = await createActive(c, project, { branch_id: branches[0], type: "read_write" });
    const r = await c.post(`${EP1}/restart`, { params: params(ep.id) });
    expect(r.status).toBe(200);
    expect(r.body.operations.map((o: { action: string; status: string }) => [o.action, o.status])).toEqual([
      ["suspend_compute", "running"],
      ["start_compute", "scheduling"],
    ]);
    finishOps();
    expect((await c.get(EP1, { params: params(ep.id) })).body.endpoint.current_state).toBe("active");
    await c.post(`${EP1}/suspend`, { params: params(ep.id) });
    finishOps();
    const idle = await c.post(`${EP1}/restart`, { params: params(ep.id) });
    expect(idle.status).toBe(409);
    expect(idle.body.code).toBe("CONFLICT");
    expect(idle.body.message).toMatch(/is idle; restart works only on an active compute/);
    const missing = await c.post(`${EP1}/restart`, { params: params("ep-x-1") });
    expect(missing.status).toBe(404);
  });
});

describe("delete", () => {
  it("deletes an active compute with suspend_compute, an idle one with none, and answers 204 afterwards", async () => {
    const ep = await createActive(c, project, { branch_id: branches[0], type: "read_write" });
    const r = await c.del(EP1, { params: params(ep.id) });
    expect(r.status).toBe(200);
    expect(r.body.endpoint.id).toBe(ep.id);
    expect(r.body.operations.map((o: { action: string }) => o.action)).toEqual(["suspend_compute"]);
    expect((await c.get(EP1, { params: params(ep.id) })).status).toBe(404);
    finishOps();
    const again = await c.del(EP1, { params: params(ep.id) });
    expect(again.status).toBe(204);
    const idle = await create({ branch_id: branches[1], type: "read_write", disabled: true });
    const d = await c.del(EP1, { params: params(idle.body.endpoint.id) });
    expect(d.body.operations).toEqual([]);
  });
});

describe("scale to zero", () => {
  it("suspends an active compute after 300 s of inactivity by default, with a suspend_compute operation", async () => {
    const ep = await createActive(c, project, { branch_id: branches[0], type: "read_write" });
    emu.clock.advance(299_000);
    expect((await c.get(EP1, { params: params(ep.id) })).body.endpoint.current_state).toBe("active");
    emu.clock.advance(2_000);
    const got = (await c.get(EP1, { params: params(ep.id) })).body.endpoint;
    expect(got.current_state).toBe("idle");
    const ops = await c.get("/projects/{project_id}/operations", { params: params(), query: { limit: 1 } });
    expect(ops.body.operations[0]).toMatchObject({
      action: "suspend_compute",
      endpoint_id: ep.id,
      status: "finished",
    });
    // Backdated: the suspension happened when the timeout ran out, not when it was observed.
    expect(Date.parse(ops.body.operations[0].created_at) - Date.parse(got.last_active)).toBe(300_000);
  });

  it("honours a custom timeout and never suspends with -1", async () => {
    const short = await createActive(c, project, {
      branch_id: branches[0],
      type: "read_write",
      suspend_timeout_seconds: 60,
    });
    const never = await createActive(c, project, {
      branch_id: branches[1],
      type: "read_write",
      suspend_timeout_seconds: -1,
    });
    emu.clock.advance(61_000);
    expect((await c.get(EP1, { params: params(short.id) })).body.endpoint.current_state).toBe("idle");
    emu.clock.advance(7 * 24 * 3600 * 1000);
    expect((await c.get(EP1, { params: params(never.id) })).body.endpoint.current_state).toBe("active");
  });

  it("locks the project while the background suspension runs", async () => {
    const ep = await createActive(c, project, {
      branch_id: branches[0],
      type: "read_write",
      suspend_timeout_seconds: 60,
    });
    // Jump to just after the timeout: the suspend_compute (1 s) is still running.
    const lastActive = Date.parse((await c.get(EP1, { params: params(ep.id) })).body.endpoint.last_active);
    emu.clock.advance(lastActive + 60_100 - emu.clock.now());
    const r = await create({ branch_id: branches[1], type: "read_write" });
    expect(r.status).toBe(423);
    expect(r.body.message).toBe(
      "project already has running conflicting operations, scheduling of new ones is prohibited",
    );
    // The compute itself is in transition.
    const again = await c.post(`${EP1}/suspend`, { params: params(ep.id) });
    expect(again.status).toBe(423);
    expect(again.body.message).toBe("endpoint is in some transitive state, could not suspend");
    expect((await c.get(EP1, { params: params(ep.id) })).body.endpoint.pending_state).toBe("idle");
  });
});
