/**
 * The service's 423 for a compute in transition and 422 for a branch whose creation has not finished,
 * and the order of these checks against the project's one-operation-at-a-time 423.
 */
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, EP, EP1, createActive, type Res } from "./client";

let emu: EmulatorHandle;
let c: Client;
let project: string;

const BUSY = "project already has running conflicting operations, scheduling of new ones is prohibited";
const BR = "/projects/{project_id}/branches";

beforeAll(async () => {
  // A frozen clock: only `advance` moves it, so a loaded machine cannot finish an operation mid-test.
  emu = await startEmulator({ opMs: 1000, seed: 31, frozenClock: true });
  c = new Client(emu);
});
afterAll(() => emu.stop());
beforeEach(() => {
  emu.reset();
  project = emu.seed.projectId;
});

const ep = (endpoint_id: string) => ({ project_id: project, endpoint_id });

describe("423 for a compute in transition", () => {
  it("refuses update, start, suspend, restart and delete of a compute whose start is running", async () => {
    const id = emu.seed.primaryEndpointId;
    const started = await c.post(`${EP1}/start`, { params: ep(id) });
    expect(started.body.endpoint.pending_state).toBe("active");
    const tries: [string, () => Promise<Res>][] = [
      ["update", () => c.patch(EP1, { params: ep(id), body: { endpoint: { suspend_timeout_seconds: -1 } } })],
      ["start", () => c.post(`${EP1}/start`, { params: ep(id) })],
      ["suspend", () => c.post(`${EP1}/suspend`, { params: ep(id) })],
      ["restart", () => c.post(`${EP1}/restart`, { params: ep(id) })],
      ["delete", () => c.del(EP1, { params: ep(id) })],
    ];
    for (const [verb, call] of tries) {
      const r = await call();
      expect([verb, r.status, r.body.code, r.body.message]).toEqual([
        verb,
        423,
        "LOCKED",
        `endpoint is in some transitive state, could not ${verb}`,
      ]);
    }
    // Another compute of the same project meets the project's lock instead.
    const other = await c.post(EP, {
      params: { project_id: project },
      body: { endpoint: { branch_id: emu.seed.branchIds[1], type: "read_write" } },
    });
    expect([other.status, other.body.message]).toEqual([423, BUSY]);
    // Once the start has finished, the same requests go through.
    emu.clock.advance(1000);
    const r = await c.post(`${EP1}/suspend`, { params: ep(id) });
    expect(r.status).toBe(200);
    expect(r.body.operations.map((o: { action: string }) => o.action)).toEqual(["suspend_compute"]);
  });

  it("is not a transition when a compute's start ended in error: it stays init and can be started again", async () => {
    const r = await c.post(EP, {
      params: { project_id: project },
      body: { endpoint: { branch_id: emu.seed.branchIds[1], type: "read_write" } },
      headers: { "x-emulator-fault": "op=error" },
    });
    emu.clock.advance(1000);
    const again = await c.post(`${EP1}/start`, { params: ep(r.body.endpoint.id) });
    expect(again.status).toBe(200);
    expect(again.body.operations[0].action).toBe("start_compute");
  });
});

describe("422 for a branch not ready yet", () => {
  it("refuses a compute on, a move onto, and a child of a branch whose create_branch is running", async () => {
    const created = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { name: "fresh" } },
    });
    expect(created.status).toBe(201);
    expect(created.body.branch.current_state).toBe("init");
    expect(
      created.body.operations.map((o: { action: string; status: string }) => [o.action, o.status]),
    ).toEqual([["create_branch", "running"]]);
    const fresh = created.body.branch.id;
    const onIt = await c.post(EP, {
      params: { project_id: project },
      body: { endpoint: { branch_id: fresh, type: "read_write" } },
    });
    expect([onIt.status, onIt.body.code, onIt.body.message]).toEqual([
      422,
      "UNPROCESSABLE_ENTITY",
      "branch not ready yet",
    ]);
    const replica = await c.post(EP, {
      params: { project_id: project },
      body: { endpoint: { branch_id: fresh, type: "read_only" } },
    });
    expect(replica.status).toBe(422);
    const move = await c.patch(EP1, {
      params: ep(emu.seed.primaryEndpointId),
      body: { endpoint: { branch_id: fresh } },
    });
    expect([move.status, move.body.message]).toEqual([422, "branch not ready yet"]);
    const child = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { parent_id: fresh } },
    });
    expect([child.status, child.body.message]).toEqual([422, "branch not ready yet"]);
    // Work against a ready branch meets the project's lock meanwhile.
    const elsewhere = await c.post(EP, {
      params: { project_id: project },
      body: { endpoint: { branch_id: emu.seed.branchIds[1], type: "read_write" } },
    });
    expect([elsewhere.status, elsewhere.body.message]).toEqual([423, BUSY]);
    // A 400 still comes first.
    const bad = await c.post(EP, {
      params: { project_id: project },
      body: { endpoint: { branch_id: fresh, type: "read_write", autoscaling_limit_min_cu: 0.75 } },
    });
    expect(bad.status).toBe(400);
    // Once create_branch has finished the branch is ready and takes a compute.
    emu.clock.advance(1000);
    const got = await c.get(`${BR}/{branch_id}`, { params: { project_id: project, branch_id: fresh } });
    expect(got.body.branch.current_state).toBe("ready");
    const made = await createActive(c, project, { branch_id: fresh, type: "read_write" });
    expect(made.branch_id).toBe(fresh);
  });
});
