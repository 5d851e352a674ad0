/**
 * The Compute provider's methods against the emulator over real HTTP (no Pulumi engine).
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { boundResource, urnOf } from "../../support/provider";
import { InitError as ComputeInitError, type Checked } from "../../../provider/resources/kit";
import type { ComputeInputs } from "../../../provider/resources/compute/types";
import { autoName } from "../../../provider/resources/compute/recovery";
import { updateBody } from "../../../provider/resources/compute/mapping";
import * as dynamicCompute from "../../../provider/resources/compute/impl";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

let emulator: EmulatorHandle;
let api: NeonClient;
let logs: string[] = [];
let projectId: string;
let branches: string[];

const urn = (name: string) => urnOf("Compute", name);

async function createCompute(name: string, inputs: Record<string, unknown>) {
  const checked = await impl.check({}, { projectId, __provider: "shim", __urn: urn(name), ...inputs });
  expect(checked.failures ?? []).toEqual([]);
  const created = await impl.create(checked.inputs);
  return { id: created.id, outs: created.outs as Record<string, unknown> };
}

let impl: ReturnType<typeof boundResource>;

withEmulator(
  { opMs: 40, seed: 3 },
  (e, client) => {
    emulator = e;
    api = client;
    projectId = emulator.seed.projectId;
    // dev-01 …: the default branch already has the seeded primary compute.
    branches = emulator.seed.branchIds.slice(1);
  },
  { resetEach: true },
);

beforeEach(() => {
  emulator.setFaults({});
  logs = [];
  impl = boundResource("Compute", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));
});

describe("Compute provider against the emulator", () => {
  it("creates a read_write compute and read replicas, each ready and with derived sizing", async () => {
    const rw = await createCompute("primary", { branchId: branches[0], cu: 2 });
    const ro1 = await createCompute("replica-1", { branchId: branches[0], type: "read_only", cu: 0.5 });
    const ro2 = await createCompute("replica-2", {
      branchId: branches[0],
      type: "read_only",
      minCu: 0.25,
      maxCu: 4,
    });

    expect(rw.id).toMatch(/^ep-/);
    expect(rw.outs).toMatchObject({
      endpointId: rw.id,
      type: "read_write",
      currentState: "active",
      minCu: 2,
      maxCu: 2,
      ramGb: 8,
      lfcGb: 6,
      maxConnections: 901,
      tempDiskGiB: 30,
      name: autoName(urn("primary"), { projectId, type: "read_write" }),
      __provider: "shim",
    });
    expect(ro2.outs).toMatchObject({ type: "read_only", ramGb: 16, tempDiskGiB: 60 });
    expect(ro2.outs.maxConnections).toBeUndefined();
    const hosts = new Set([rw.outs.host, ro1.outs.host, ro2.outs.host]);
    expect(hosts.size).toBe(3);
    expect(logs.some((l) => /start_compute: (running|scheduling|finished)/.test(l))).toBe(true);
    expect(await api.endpoints.listByBranch(projectId, branches[0])).toHaveLength(3);
  });

  it("refuses a second read_write compute on a branch with a message that says what to do", async () => {
    await createCompute("primary", { branchId: branches[0], cu: 1 });
    await expect(createCompute("second", { branchId: branches[0], cu: 1 })).rejects.toThrow(
      /read_write[\s\S]*give this resource type "read_only"/,
    );
    expect(await api.endpoints.listByBranch(projectId, branches[0])).toHaveLength(1);
  });

  it("moves a compute to another branch in place", async () => {
    const c = await createCompute("mover", { branchId: branches[0], cu: 0.5 });
    const news = { ...c.outs, branchId: branches[1] };
    const diff = await impl.diff(c.id, c.outs, news);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const updated = await impl.update(c.id, c.outs, news);
    expect(updated.outs).toMatchObject({ endpointId: c.id, branchId: branches[1], host: c.outs.host });
    expect((await api.endpoints.get(projectId, c.id)).branch_id).toBe(branches[1]);
  });

  it("refuses to move a read_write compute onto a branch that has one, and changes nothing", async () => {
    const a = await createCompute("a", { branchId: branches[0], cu: 0.5 });
    await createCompute("b", { branchId: branches[1], cu: 0.5 });
    await expect(impl.update(a.id, a.outs, { ...a.outs, branchId: branches[1] })).rejects.toThrow(
      new RegExp(`stays on branch ${branches[0]}`),
    );
    expect((await api.endpoints.get(projectId, a.id)).branch_id).toBe(branches[0]);
  });

  it("resizes in place, PATCHing only the sizes, and warns about the restart", async () => {
    const c = await createCompute("sized", {
      branchId: branches[0],
      cu: 1,
      pgSettings: { work_mem: "1024" },
    });
    // The outputs hold every input: as check would give them, with the new sizes.
    const news = { ...c.outs, cu: undefined, minCu: 0.5, maxCu: 4 } as Checked<ComputeInputs>;
    expect(updateBody(c.outs, news)).toEqual({
      autoscaling_limit_min_cu: 0.5,
      autoscaling_limit_max_cu: 4,
    });
    expect(await impl.diff(c.id, c.outs, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = await impl.update(c.id, c.outs, news);
    expect(updated.outs).toMatchObject({ minCu: 0.5, maxCu: 4, ramGb: 16 });
    expect(logs.join("\n")).toMatch(
      /warning: changing the compute size \(1 CU → 0\.5–4 CU\) restarts the compute/,
    );
  });

  it("removes a pg_settings key that is no longer declared", async () => {
    const c = await createCompute("pg", {
      branchId: branches[0],
      pgSettings: { work_mem: "1024", max_parallel_workers: "4" },
    });
    const updated = await impl.update(c.id, c.outs, { ...c.outs, pgSettings: { work_mem: "1024" } });
    expect(updated.outs?.pgSettings).toEqual({ work_mem: "1024" });
    expect((await api.endpoints.get(projectId, c.id)).settings.pg_settings).toEqual({ work_mem: "1024" });
  });

  it("restarts an active compute when restartTrigger changes, and says an idle one has nothing to restart", async () => {
    const c = await createCompute("r", { branchId: branches[0], cu: 0.25, restartTrigger: "1" });
    await impl.update(c.id, c.outs, { ...c.outs, restartTrigger: "2" });
    expect(logs.join("\n")).toMatch(/restartTrigger changed: restarting compute/);
    const actions: string[] = [];
    for await (const op of api.operations.list(projectId, { limit: 10 })) {
      if (op.endpoint_id === c.id) actions.push(op.action);
      if (actions.length === 2) break;
    }
    expect(actions).toEqual(["start_compute", "suspend_compute"]);

    const s = await api.endpoints.suspend(projectId, c.id);
    await api.waitForOperations(
      projectId,
      s.operations.map((o) => o.id),
    );
    logs = [];
    await impl.update(c.id, { ...c.outs, restartTrigger: "2" }, { ...c.outs, restartTrigger: "3" });
    expect(logs.join("\n")).toMatch(/is idle: nothing to restart/);
  });

  it("deletes a compute, and treats an already deleted one as success", async () => {
    const c = await createCompute("d", { branchId: branches[0], cu: 0.25 });
    await impl.delete(c.id, c.outs);
    expect(await api.endpoints.listByBranch(projectId, branches[0])).toEqual([]);
    await expect(impl.delete(c.id, c.outs)).resolves.toBeUndefined();
  });

  it("reads a compute by projectId/endpointId, and reports one deleted out of band as gone", async () => {
    const c = await createCompute("gone", { branchId: branches[0], cu: 0.25 });
    const byImportId = await impl.read(`${projectId}/${c.id}`);
    expect(byImportId).toMatchObject({
      id: c.id,
      props: { endpointId: c.id, projectId, branchId: branches[0] },
    });
    const del = await api.endpoints.delete(projectId, c.id);
    if (del)
      await api.waitForOperations(
        projectId,
        del.operations.map((o) => o.id),
      );
    expect(await impl.read(c.id, c.outs)).toEqual({});
  });

  it("keeps a compute whose start operation ends in error in state (partial create)", async () => {
    emulator.setFaults({ opErrorRate: 1 });
    const checked = await impl.check(
      {},
      { projectId, branchId: branches[0], cu: 1, __provider: "shim", __urn: urn("bad") },
    );
    const err = await impl.create(checked.inputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ComputeInitError);
    const init = err as ComputeInitError;
    expect(init.id).toMatch(/^ep-/);
    expect(init.properties).toMatchObject({ endpointId: init.id, __provider: "shim" });
    expect(init.reasons[0]).toMatch(/start_compute/);
    expect(init.message).toMatch(/kept in the stack/);
    // The compute exists, so a later up can finish or delete it.
    expect((await api.endpoints.listByBranch(projectId, branches[0])).map((e) => e.id)).toEqual([init.id]);
  });

  // Only POST/PATCH/DELETE are hit by these faults; the reads that reconcile go through.
  const lostAnswers = [
    ["the connection drops", { dropAfterCommitRate: 1 }],
    ["a gateway answers 502", { errorAfterCommitRate: 1 }],
  ] as const;

  it.each(lostAnswers)(
    "finds the compute when %s after the create was committed, instead of creating a second",
    async (_label, faults) => {
      emulator.setFaults(faults);
      const checked = await impl.check(
        {},
        { projectId, branchId: branches[2], type: "read_only", name: "explicit", __urn: urn("lost") },
      );
      const created = await impl.create(checked.inputs);
      const onBranch = await api.endpoints.listByBranch(projectId, branches[2]);
      expect(onBranch.map((e) => e.id)).toEqual([created.id]);
      expect(logs.join("\n")).toMatch(
        new RegExp(`answer to the create request was lost; found compute ${created.id}`),
      );
    },
  );

  it("finishes a compute whose create failed on the next update, starting it", async () => {
    emulator.setFaults({ opErrorRate: 1 });
    const checked = await impl.check({}, { projectId, branchId: branches[6], cu: 0.5, __urn: urn("retry") });
    const init = (await impl.create(checked.inputs).catch((e: unknown) => e)) as ComputeInitError;
    expect(init).toBeInstanceOf(ComputeInitError);
    expect(init.properties.currentState).toBe("init");
    emulator.setFaults({});
    // What the engine does on the next up: an update from the kept state with the same inputs.
    const updated = await impl.update(init.id, init.properties, checked.inputs);
    expect(updated.outs).toMatchObject({ endpointId: init.id, currentState: "active" });
    expect(logs.join("\n")).toMatch(/did not start when it was created; starting it/);
  });

  it("applies the program's change before starting a compute whose create failed", async () => {
    emulator.setFaults({ opErrorRate: 1 });
    const checked = await impl.check({}, { projectId, branchId: branches[7], cu: 0.5, __urn: urn("fix") });
    const init = (await impl.create(checked.inputs).catch((e: unknown) => e)) as ComputeInitError;
    expect(init).toBeInstanceOf(ComputeInitError);
    emulator.setFaults({});
    const fixed = await impl.check({}, { ...checked.inputs, pgSettings: { work_mem: "2048" } });
    const updated = await impl.update(init.id, init.properties, fixed.inputs);
    expect(updated.outs).toMatchObject({ pgSettings: { work_mem: "2048" } });
    // Ready: active, or idle (scaled to zero, starts on the next connection); no longer stuck in init.
    expect(["active", "idle"]).toContain(updated.outs?.currentState);
    expect((await api.endpoints.get(projectId, init.id)).settings.pg_settings).toEqual({ work_mem: "2048" });
    // The change went first and left the compute ready, so no second start was sent before it: the
    // newest start_compute of this compute is still the failed one from the create.
    const starts = [];
    for await (const op of api.operations.list(projectId, { limit: 50 })) {
      if (op.endpoint_id === init.id && op.action === "start_compute") starts.push(op.status);
    }
    expect(starts[0]).toBe("error");
  });

  it("starts a compute found from an interrupted run whose start had failed", async () => {
    const name = autoName(urn("stalled"), { projectId, type: "read_only" });
    emulator.setFaults({ opErrorRate: 1 });
    const earlier = await api.endpoints.create(projectId, {
      branch_id: branches[8],
      type: "read_only",
      name,
    });
    await api
      .waitForOperations(
        projectId,
        earlier.operations.map((o) => o.id),
      )
      .catch(() => undefined);
    expect((await api.endpoints.get(projectId, earlier.endpoint.id)).current_state).toBe("init");
    emulator.setFaults({});
    const c = await createCompute("stalled", { branchId: branches[8], type: "read_only" });
    expect(c.id).toBe(earlier.endpoint.id);
    expect(c.outs.currentState).toBe("active");
  });

  it.each(lostAnswers)(
    "checks the compute when %s after an update, instead of sending the change again",
    async (_label, faults) => {
      const c = await createCompute("patched", { branchId: branches[5], cu: 1 });
      emulator.setFaults(faults);
      const news = { ...c.outs, cu: undefined, minCu: 2, maxCu: 2, pgSettings: { b: "2", a: "1" } };
      const updated = await impl.update(c.id, c.outs, news);
      expect(updated.outs).toMatchObject({ minCu: 2, maxCu: 2, pgSettings: { a: "1", b: "2" } });
      expect(logs.join("\n")).toMatch(
        /answer to the update request was lost; compute .* already has the change/,
      );
    },
  );

  it("finishes the compute an interrupted run created for the same resource, and only that one", async () => {
    const name = autoName(urn("resumed"), { projectId, type: "read_only" });
    const earlier = await api.endpoints.create(projectId, {
      branch_id: branches[3],
      type: "read_only",
      name,
    });
    await api.endpoints
      .create(projectId, { branch_id: branches[3], type: "read_only", name: "someone-else" })
      .catch(() => undefined);
    const c = await createCompute("resumed", { branchId: branches[3], type: "read_only" });
    expect(c.id).toBe(earlier.endpoint.id);
    expect(logs.join("\n")).toMatch(/interrupted run/);
    // A resource with an explicit name never adopts anything, nor makes a second compute of that
    // name (a killed run's leftover carries it): it fails naming the exact importId.
    await expect(createCompute("named", { branchId: branches[3], type: "read_only", name })).rejects.toThrow(
      `importId: "${projectId}/${earlier.endpoint.id}"`,
    );
    const named = (await api.endpoints.listByBranch(projectId, branches[3])).filter((e) => e.name === name);
    expect(named.map((e) => e.id)).toEqual([earlier.endpoint.id]);
  });

  it("imports an existing compute by projectId/endpointId without changing it, and refuses a mismatch", async () => {
    const made = await api.endpoints.create(projectId, {
      branch_id: branches[4],
      type: "read_only",
      autoscaling_limit_min_cu: 1,
      autoscaling_limit_max_cu: 1,
    });
    await api.waitForOperations(
      projectId,
      made.operations.map((o) => o.id),
    );
    const importId = `${projectId}/${made.endpoint.id}`;
    const mismatch = await impl.check(
      {},
      { projectId, branchId: branches[4], type: "read_only", cu: 2, importId },
    );
    await expect(impl.create(mismatch.inputs)).rejects.toThrow(
      /minCu: declared 2, actual 1; maxCu: declared 2, actual 1/,
    );

    const c = await createCompute("imported", { branchId: branches[4], type: "read_only", cu: 1, importId });
    expect(c.id).toBe(made.endpoint.id);
    expect(c.outs).toMatchObject({ host: made.endpoint.host, importId });
    expect(await api.endpoints.listByBranch(projectId, branches[4])).toHaveLength(1);
    expect((await impl.diff(c.id, c.outs, { ...c.outs })).changes).toBe(false);

    const missing = await impl.check(
      {},
      { projectId, branchId: branches[4], importId: `${projectId}/ep-nope-123` },
    );
    await expect(impl.create(missing.inputs)).rejects.toThrow(/does not exist/);
  });

  it("refuses an operation timeout that is not a positive number, naming the setting", async () => {
    const config = (values: Record<string, string>) => ({
      config: { get: (k: string) => values[k], require: (k: string) => values[k] },
    });
    await expect(
      dynamicCompute.configure(config({ "neon:operationTimeoutSeconds": "soon" })),
    ).rejects.toThrow(/neon:operationTimeoutSeconds is "soon"; set it to a number of seconds/);
    await expect(
      dynamicCompute.configure(
        config({ "neon:apiKey": emulator.apiKey, "neon:operationTimeoutSeconds": "1800" }),
      ),
    ).resolves.toBeUndefined();
  });

  it("fails with one clear error when no API key is configured", async () => {
    const saved = process.env.NEON_API_KEY;
    delete process.env.NEON_API_KEY;
    try {
      impl = boundResource("Compute", {});
      await expect(impl.read("ep-x", { projectId })).rejects.toThrow(/neon:apiKey.*NEON_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.NEON_API_KEY = saved;
    }
  });
});

describe("requests per compute (a guard against extra reads; disabled computes start no operation)", () => {
  it("creates with one listing per project and one POST each, deletes with one DELETE each", async () => {
    const before = emulator.requestCount();
    const made = [];
    for (let i = 1; i <= 5; i++) {
      made.push(await createCompute(`quiet-${i}`, { branchId: branches[i], disabled: true }));
    }
    // One listing of the project for all five, then the POSTs; nothing is read back.
    expect(emulator.requestCount() - before).toBe(1 + 5);
    expect(made.every((c) => c.outs.currentState === "idle")).toBe(true);
    const beforeDelete = emulator.requestCount();
    for (const c of made) await impl.delete(c.id, c.outs);
    expect(emulator.requestCount() - beforeDelete).toBe(5);
    // Only the project's seeded primary compute (on the default branch) is left.
    expect((await api.endpoints.list(projectId)).map((e) => e.id)).toEqual([emulator.seed.primaryEndpointId]);
  });
});

describe("the project's listing, read once per process", () => {
  it("still finishes a read_only compute an interrupted run left, after other creates read the listing", async () => {
    const leftover = await api.endpoints.create(projectId, {
      branch_id: branches[2],
      type: "read_only",
      name: autoName(urn("replica-x"), { projectId, type: "read_only" }),
    });
    await createCompute("other", { branchId: branches[1], type: "read_only" });
    const x = await createCompute("replica-x", { branchId: branches[2], type: "read_only" });
    expect(x.id).toBe(leftover.endpoint.id);
    expect((await api.endpoints.listByBranch(projectId, branches[2])).length).toBe(1);
  });

  it("a read_write slot taken after the listing was read: reads again and says what holds it", async () => {
    await createCompute("first", { branchId: branches[1], type: "read_only" });
    const taken = await api.endpoints.create(projectId, { branch_id: branches[3], type: "read_write" });
    await api.waitForOperations(projectId, taken.operations);
    await expect(createCompute("late", { branchId: branches[3] })).rejects.toThrow(
      `already has read_write compute ${taken.endpoint.id}`,
    );
    const adopted = await createCompute("adopter", { branchId: branches[3], adoptExistingPrimary: true });
    expect(adopted.id).toBe(taken.endpoint.id);
  });
});

it("the retired pooler settings: a warning at preview, nothing sent, and a state that has them changes nothing", async () => {
  const made = await createCompute("pooled", {
    branchId: branches[4],
    poolerEnabled: true,
    poolerMode: "transaction",
  });
  expect(logs.join("\n")).toMatch(/poolerEnabled is deprecated: Neon retired the compute's pooler settings/);
  expect(made.outs).toMatchObject({ poolerEnabled: true, poolerMode: "transaction" });
  // A state written before the change (the service's values among the outputs), the program unchanged.
  const before = { ...made.outs, poolerEnabled: true, poolerMode: "transaction" };
  const news = (
    await impl.check(before, { projectId, branchId: branches[4], poolerEnabled: true, __urn: urn("pooled") })
  ).inputs;
  expect(await impl.diff(made.id, before, news)).toMatchObject({ changes: false, replaces: [] });
  // Removing it is no change either; and a change elsewhere sends no pooler field.
  const without = (await impl.check(before, { projectId, branchId: branches[4], __urn: urn("pooled") }))
    .inputs;
  expect(await impl.diff(made.id, before, without)).toMatchObject({ changes: false });
  const resized = (
    await impl.check(before, {
      projectId,
      branchId: branches[4],
      poolerEnabled: true,
      cu: 1,
      __urn: urn("pooled"),
    })
  ).inputs;
  await impl.update(made.id, before, resized);
  expect(emulator.retiredFieldsReceived()).toEqual({});
});
