/**
 * The service's transient refusals, waited out by the provider within its deadline: 422 "branch not
 * ready yet" on a branch still being created, and 423 "endpoint is in some transitive state" on a
 * compute in transition. The operations that cause them take 30 s of emulator time, and the test
 * moves the emulator's clock only after it has seen the provider retry: no race with real time.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { boundResource, urnOf } from "../../support/provider";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;

const urn = (name: string) => urnOf("Compute", name);

let impl: ReturnType<typeof boundResource>;

withEmulator(
  {
    seed: 13,
    opMs: 50,
    opDurations: { create_branch: 30_000, start_compute: 30_000 },
  },
  (e, client) => {
    emulator = e;
    api = client;
    projectId = emulator.seed.projectId;
  },
  { resetEach: true },
);

beforeEach(() => {
  impl = boundResource("Compute", { apiKey: emulator.apiKey, apiUrl: emulator.url });
});

/** Waits (in real time) until the emulator has served `n` more requests than `from`. */
async function served(from: number, n: number): Promise<void> {
  while (emulator.requestCount() < from + n) await new Promise((r) => setTimeout(r, 10));
}

it("waits out 422 'branch not ready yet' on a branch whose creation has not finished", async () => {
  const res = await fetch(`${emulator.url}/projects/${projectId}/branches`, {
    method: "POST",
    headers: { Authorization: `Bearer ${emulator.apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ branch: { name: "fresh" } }),
  });
  expect(res.status).toBe(201);
  const branchId = ((await res.json()) as { branch: { id: string } }).branch.id;
  const checked = await impl.check({}, { projectId, branchId, type: "read_only", __urn: urn("early") });
  const before = emulator.requestCount();
  const created = impl.create(checked.inputs);
  // The listing, then the create refused (422) and sent again at least twice: the branch is not ready.
  await served(before, 4);
  expect((await api.branches.get(projectId, branchId)).current_state).not.toBe("ready");
  emulator.clock.advance(30_000);
  // Once the create went through, its compute's start takes 30 s too.
  while ((await api.endpoints.listByBranch(projectId, branchId)).length === 0) {
    await new Promise((r) => setTimeout(r, 10));
  }
  emulator.clock.advance(30_000);
  const done = await created;
  expect(done.id).toMatch(/^ep-/);
  expect((await api.endpoints.listByBranch(projectId, branchId)).map((e) => e.id)).toEqual([done.id]);
});

it("waits out 423 'endpoint is in some transitive state' on a compute that is starting", async () => {
  const branchId = emulator.seed.branchIds[1];
  // Created out of band: its start takes 30 s (emulator time), so it stays in transition.
  const made = await api.endpoints.create(projectId, { branch_id: branchId, type: "read_only" });
  const checked = await impl.check({}, { projectId, branchId, type: "read_only", __urn: urn("busy") });
  const outs = {
    ...checked.inputs,
    endpointId: made.endpoint.id,
    currentState: "active",
    minCu: 0.25,
    maxCu: 0.25,
  };
  const news = { ...checked.inputs, suspendTimeoutSeconds: 600 };
  const before = emulator.requestCount();
  const updated = impl.update(made.endpoint.id, outs, news);
  // The PATCH refused (423) and sent again at least twice while the compute is starting.
  await served(before, 3);
  expect((await api.endpoints.get(projectId, made.endpoint.id)).pending_state).toBe("active");
  emulator.clock.advance(30_000);
  // The PATCH's own operations then run (50 ms each) and the update finishes.
  const result = await updated;
  expect(result.outs).toMatchObject({ suspendTimeoutSeconds: 600 });
  expect((await api.endpoints.get(projectId, made.endpoint.id)).suspend_timeout_seconds).toBe(600);
});
