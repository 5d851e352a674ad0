/**
 * The programs in examples/ as a user runs them: the real Pulumi CLI against the emulator.
 */
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, repoRoot, type TempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";

// A budget per test that holds at many times its idle duration (tests/support/budgets.ts).
useStepBudgets();

let emulator: EmulatorHandle;
let api: NeonClient;
const stacks: TempStack[] = [];

async function exampleStack(name: string, branchId: string, extra: Record<string, string> = {}) {
  const project = `neon-${name}`;
  const config: Record<string, { value: string; secret?: boolean }> = {
    [`${project}:projectId`]: { value: emulator.seed.projectId },
    [`${project}:branchId`]: { value: branchId },
    "neon:apiUrl": { value: emulator.url },
    "neon:apiKey": { value: emulator.apiKey, secret: true },
  };
  for (const [k, v] of Object.entries(extra)) config[`${project}:${k}`] = { value: v };
  const temp = await createTempStack({ programDir: path.join(repoRoot, "examples", name), config });
  stacks.push(temp);
  return temp;
}

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 100, seed: 21 });
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
});

afterAll(async () => {
  for (const s of stacks) await s.dispose();
  await emulator?.stop();
});

test("basic: adopts the default branch's primary, adds two replicas, and destroy leaves the primary", async () => {
  const { projectId, defaultBranchId, primaryEndpointId } = emulator.seed;
  const { stack } = await exampleStack("basic", defaultBranchId);
  const up = await stack.up();
  expect(up.outputs.primaryAdopted.value).toBe(true);
  expect(up.outputs.primarySizing.value).toEqual({
    ramGb: 4,
    lfcGb: 3,
    maxConnections: 450,
    tempDiskGiB: 20,
  });
  expect(up.outputs.replicaHosts.value).toHaveLength(2);
  const onBranch = await api.endpoints.listByBranch(projectId, defaultBranchId);
  expect(onBranch).toHaveLength(3);
  expect(onBranch.find((e) => e.type === "read_write")).toMatchObject({
    id: primaryEndpointId,
    autoscaling_limit_min_cu: 1,
    autoscaling_limit_max_cu: 1,
    name: "primary",
  });
  await stack.destroy();
  expect((await api.endpoints.listByBranch(projectId, defaultBranchId)).map((e) => e.id)).toEqual([
    primaryEndpointId,
  ]);
});

test("basic on a branch without a compute creates its primary, and destroy removes it", async () => {
  const branchId = emulator.seed.branchIds[4];
  const { stack } = await exampleStack("basic", branchId);
  const up = await stack.up();
  // An output that is undefined is left out of the stack outputs.
  expect(up.outputs.primaryAdopted?.value).toBeUndefined();
  expect(await api.endpoints.listByBranch(emulator.seed.projectId, branchId)).toHaveLength(3);
  await stack.destroy();
  expect(await api.endpoints.listByBranch(emulator.seed.projectId, branchId)).toEqual([]);
});

test("autoscaling: bounds, suspend timeout and pg settings, then a resize in place", async () => {
  const { stack } = await exampleStack("autoscaling", emulator.seed.branchIds[1]);
  const first = await stack.up();
  expect(first.outputs.bounds.value).toBe("0.5–4 CU");
  const [ep] = await api.endpoints.listByBranch(emulator.seed.projectId, emulator.seed.branchIds[1]);
  expect(ep).toMatchObject({
    suspend_timeout_seconds: 600,
    settings: { pg_settings: { work_mem: "65536" } },
  });

  await stack.setConfig("neon-autoscaling:maxCu", { value: "8" });
  const resized = await stack.up();
  expect(resized.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(resized.outputs.bounds.value).toBe("0.5–8 CU");
  expect((await api.endpoints.get(emulator.seed.projectId, ep.id)).autoscaling_limit_max_cu).toBe(8);
  await stack.destroy();
});

test("branch-move: the compute moves between branches in place", async () => {
  const [from, to] = [emulator.seed.branchIds[2], emulator.seed.branchIds[3]];
  const { stack } = await exampleStack("branch-move", from);
  const first = await stack.up();
  await stack.setConfig("neon-branch-move:branchId", { value: to });
  const moved = await stack.up();
  expect(moved.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(moved.outputs.endpointId.value).toBe(first.outputs.endpointId.value);
  expect(moved.outputs.host.value).toBe(first.outputs.host.value);
  expect((await api.endpoints.get(emulator.seed.projectId, moved.outputs.endpointId.value)).branch_id).toBe(
    to,
  );
  await stack.destroy();
});

test("api-keys: a project-scoped CI key (secret token), rotated new-before-old, and a compute lookup", async () => {
  // A compute on a seeded non-default branch, for the lookup to find.
  const branchId = emulator.seed.branchIds[5];
  const made = await api.endpoints.create(emulator.seed.projectId, {
    branch_id: branchId,
    type: "read_only",
  });
  await api.waitForOperations(
    emulator.seed.projectId,
    made.operations.map((o) => o.id),
  );
  const works = async (token: string) =>
    (
      await fetch(`${emulator.url}/projects/${emulator.seed.projectId}`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).status;

  const { stack } = await exampleStack("api-keys", branchId);
  const first = await stack.up();
  expect(first.outputs.ciToken.secret).toBe(true);
  const oldToken = first.outputs.ciToken.value as string;
  expect(await works(oldToken)).toBe(200);
  expect(first.outputs.computes.value).toEqual([
    { endpointId: made.endpoint.id, branchId, type: "read_only", host: made.endpoint.host },
  ]);

  await stack.setConfig("neon-api-keys:rotation", { value: "2" });
  const rotated = await stack.up();
  expect(rotated.summary.resourceChanges).toMatchObject({ replace: 1 });
  const newToken = rotated.outputs.ciToken.value as string;
  expect(newToken).not.toBe(oldToken);
  expect([await works(oldToken), await works(newToken)]).toEqual([401, 200]);

  await stack.destroy();
  expect(await works(newToken)).toBe(401);
  await api.endpoints.delete(emulator.seed.projectId, made.endpoint.id);
});
