/**
 * End to end: the real Pulumi CLI (Automation API, local file backend) drives the Compute provider
 * against the emulator over real HTTP. The tests run in order and share one stack, as a user's
 * successive `pulumi up`s would.
 */
import { execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, trackProcess, type TempStack } from "../../scripts/lib/pulumi";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { descendants, killAll, useStepBudgets } from "../support/budgets";
import { changedCounts, waitWhileRunning, watchCli } from "./plugin-helpers";

// A budget per test that holds at many times its idle duration (tests/support/budgets.ts).
useStepBudgets();

type Spec = { name: string } & Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let temp: TempStack;
let transcript = "";
let projectId: string;
let branches: string[];
// A key made for this stack, so the test can also prove the bootstrap token never shows up.
let stackKey: string;

const capture = (s: string) => {
  transcript += s;
};

async function endpointsInEmulator() {
  // The seeded primary compute of the default branch is not the stack's: leave it out.
  return (await api.endpoints.list(projectId)).filter((e) => e.id !== emulator.seed.primaryEndpointId);
}

async function setComputes(specs: Spec[]) {
  await temp.stack.setConfig("computes", { value: JSON.stringify(specs) });
}

async function up(specs: Spec[]) {
  await setComputes(specs);
  return temp.stack.up({ onOutput: capture, onError: capture });
}

async function preview(specs: Spec[]) {
  await setComputes(specs);
  const result = await temp.stack.preview({ onOutput: capture, onError: capture, diff: true });
  lastPreview = result.stdout;
  return result;
}

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 150, opDurations: { start_compute: 400 }, seed: 7 });
  projectId = emulator.seed.projectId;
  // dev-01 …: the default branch already has the seeded primary compute.
  branches = emulator.seed.branchIds.slice(1);
  const bootstrap = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  stackKey = (await bootstrap.apiKeys.create("e2e-stack")).key;
  api = createNeonClient({ apiKey: stackKey, baseUrl: emulator.url });
  temp = await createTempStack({
    programDir: path.join(__dirname, "program"),
    config: {
      "neon-e2e:projectId": { value: projectId },
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: stackKey, secret: true },
    },
  });
});

afterAll(async () => {
  await temp?.dispose();
  await emulator?.stop();
});

const primary = (extra: Record<string, unknown> = {}): Spec => ({
  name: "primary",
  branchId: branches[0],
  cu: 1,
  ...extra,
});
const replica = (n: number, extra: Record<string, unknown> = {}): Spec => ({
  name: `replica-${n}`,
  branchId: branches[0],
  type: "read_only",
  cu: 0.5,
  ...extra,
});

let specs: Spec[];
let lastPreview = "";

test("1. up creates a read_write compute and two replicas; a second preview shows no changes", async () => {
  specs = [primary(), replica(1), replica(2)];
  const result = await up(specs);
  expect(result.summary.result).toBe("succeeded");
  const eps = await endpointsInEmulator();
  expect(eps.map((e) => e.type).sort()).toEqual(["read_only", "read_only", "read_write"]);
  expect(eps.every((e) => e.current_state === "active")).toBe(true);
  const outputs = result.outputs.endpoints.value as Record<string, { host: string }>;
  expect(new Set(Object.values(outputs).map((o) => o.host)).size).toBe(3);

  const again = await preview(specs);
  expect(changedCounts(again.changeSummary)).toEqual({});
});

test("2. a resize is an in-place update with a restart warning", async () => {
  specs = [primary({ cu: 2 }), replica(1), replica(2)];
  const before = transcript.length;
  const pre = await preview(specs);
  expect(changedCounts(pre.changeSummary)).toEqual({ update: 1 });
  expect(transcript.slice(before)).toMatch(/restarts the compute and drops its open connections/);

  await up(specs);
  const rw = (await endpointsInEmulator()).find((e) => e.type === "read_write");
  expect([rw?.autoscaling_limit_min_cu, rw?.autoscaling_limit_max_cu]).toEqual([2, 2]);
});

test("3. a branch move is in place; moving a read_write compute onto a branch that has one fails and loses nothing", async () => {
  const replicaId = (await temp.stack.outputs()).endpoints.value["replica-1"].endpointId;
  specs = [
    primary({ cu: 2 }),
    replica(1, { branchId: branches[1] }),
    replica(2),
    { name: "other", branchId: branches[1], cu: 0.25 },
  ];
  const pre = await preview(specs);
  expect({ changes: changedCounts(pre.changeSummary), lastPreview }).toEqual({
    changes: { update: 1, create: 1 },
    lastPreview: expect.any(String),
  });
  await up(specs);
  const moved = (await endpointsInEmulator()).find((e) => e.id === replicaId);
  expect(moved?.branch_id).toBe(branches[1]);

  const countBefore = (await endpointsInEmulator()).length;
  const bad = specs.map((s) => (s.name === "primary" ? { ...s, branchId: branches[1] } : s));
  await expect(up(bad)).rejects.toThrow(/read_write/);
  const after = await endpointsInEmulator();
  expect(after).toHaveLength(countBefore);
  expect(after.find((e) => e.type === "read_write" && e.branch_id === branches[0])).toBeDefined();
  // The stack still describes what runs: the good spec applies cleanly.
  const back = await preview(specs);
  expect(changedCounts(back.changeSummary)).toEqual({});
});

/** True when the engine finished deleting the original before it finished creating the replacement. */
function deletedBeforeCreated(steps: string[]): boolean {
  const del = steps.indexOf("delete-replaced");
  const create = steps.indexOf("create-replacement");
  return del >= 0 && create >= 0 && del < create;
}

/** The engine's steps for one resource, in the order the engine finished them. */
function stepsOf(events: EngineEvent[], name: string): string[] {
  return events
    .map((e) => e.resOutputsEvent?.metadata)
    .filter((m) => m?.urn.endsWith(`::${name}`))
    .map((m) => m!.op);
}

test("4. changing type replaces the compute, deleting the old one first", async () => {
  const oldId = (await temp.stack.outputs()).endpoints.value.other.endpointId;
  specs = specs.map((s) => (s.name === "other" ? { ...s, type: "read_only" } : s));
  const events: EngineEvent[] = [];
  await setComputes(specs);
  const result = await temp.stack.up({ onOutput: capture, onError: capture, onEvent: (e) => events.push(e) });
  expect(changedCounts(result.summary.resourceChanges ?? {})).toEqual({ replace: 1 });
  expect(stepsOf(events, "other")).toContain("replace");
  expect(deletedBeforeCreated(stepsOf(events, "other"))).toBe(true);
  const eps = await endpointsInEmulator();
  expect(eps.find((e) => e.id === oldId)).toBeUndefined();
  expect(eps.filter((e) => e.branch_id === branches[1]).map((e) => e.type)).toEqual([
    "read_only",
    "read_only",
  ]);

  // A forced replacement (the engine does not ask diff) of a read_write compute: deleted first too,
  // and the new compute is a new one, not the old one found again by its name.
  const primaryId = (await temp.stack.outputs()).endpoints.value.primary.endpointId;
  const forced: EngineEvent[] = [];
  const urn = (await temp.stack.exportStack()).deployment.resources.find((r: { urn: string }) =>
    r.urn.endsWith("::primary"),
  ).urn;
  await temp.stack.up({
    onOutput: capture,
    onError: capture,
    replace: [urn],
    onEvent: (e) => forced.push(e),
  });
  expect(deletedBeforeCreated(stepsOf(forced, "primary"))).toBe(true);
  const newPrimary = (await temp.stack.outputs()).endpoints.value.primary.endpointId;
  expect(newPrimary).not.toBe(primaryId);
  const rw = (await endpointsInEmulator()).filter(
    (e) => e.branch_id === branches[0] && e.type === "read_write",
  );
  expect(rw.map((e) => e.id)).toEqual([newPrimary]);
});

test("5. a restartTrigger change restarts an active compute", async () => {
  const id = (await temp.stack.outputs()).endpoints.value.primary.endpointId;
  await api.endpoints.start(projectId, id).catch(() => undefined);
  specs = specs.map((s) => (s.name === "primary" ? { ...s, restartTrigger: "rotate-1" } : s));
  const before = transcript.length;
  await up(specs);
  expect(transcript.slice(before)).toMatch(/restarting compute/);
  const ops = [];
  for await (const op of api.operations.list(projectId, { limit: 50 })) {
    if (op.endpoint_id === id) ops.push(op.action);
    if (ops.length >= 2) break;
  }
  expect(ops).toEqual(["start_compute", "suspend_compute"]);
});

test("6. an out-of-band delete is dropped by refresh and recreated by up", async () => {
  const gone = (await temp.stack.outputs()).endpoints.value["replica-2"].endpointId;
  const del = await api.endpoints.delete(projectId, gone);
  if (del)
    await api.waitForOperations(
      projectId,
      del.operations.map((o) => o.id),
    );
  const refreshed = await temp.stack.refresh({ onOutput: capture, onError: capture });
  expect(refreshed.summary.resourceChanges?.delete).toBe(1);
  const result = await up(specs);
  expect(result.summary.resourceChanges?.create).toBe(1);
  const recreated = (await temp.stack.outputs()).endpoints.value["replica-2"].endpointId;
  expect(recreated).not.toBe(gone);
  expect((await endpointsInEmulator()).map((e) => e.id)).toContain(recreated);
});

test("7. importing an existing compute by projectId/endpointId yields no diff afterwards", async () => {
  const made = await api.endpoints.create(projectId, {
    branch_id: branches[4],
    type: "read_only",
    autoscaling_limit_min_cu: 0.5,
    autoscaling_limit_max_cu: 0.5,
  });
  await api.waitForOperations(
    projectId,
    made.operations.map((o) => o.id),
  );
  const count = (await endpointsInEmulator()).length;
  specs = [...specs, replica(9, { branchId: branches[4], importId: `${projectId}/${made.endpoint.id}` })];
  await up(specs);
  expect((await temp.stack.outputs()).endpoints.value["replica-9"].endpointId).toBe(made.endpoint.id);
  expect(await endpointsInEmulator()).toHaveLength(count);
  const after = await preview(specs);
  expect(changedCounts(after.changeSummary)).toEqual({});
});

test("8. a run killed mid-create leaves no orphan and no duplicate after the next up", async () => {
  specs = [...specs, replica(3, { branchId: branches[2] })];
  await setComputes(specs);
  const bin = temp.env.PATH.split(path.delimiter)[0];
  const args = ["up", "--yes", "--non-interactive", "--stack", "dev"];
  const child = spawn(path.join(bin, "pulumi"), args, {
    cwd: temp.workDir,
    env: { ...process.env, ...temp.env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so the kill takes the language host and provider processes too,
    // as when a CI runner kills a job.
    detached: true,
  });
  trackProcess(args, child);
  child.stdout.on("data", (d) => capture(String(d)));
  child.stderr.on("data", (d) => capture(String(d)));
  const run = watchCli(child, args);
  // Kill as soon as the control plane has the new compute; a run that ends first fails with its output.
  const seen = await waitWhileRunning(
    run,
    async () => (await endpointsInEmulator()).find((e) => e.branch_id === branches[2]),
    "replica-3's compute in the emulator",
  );
  const stateAtKill = seen.current_state;
  // The CLI starts its plugins in process groups of their own: kill the whole tree, as a CI runner
  // that kills a job's processes would.
  killAll([child.pid as number, ...descendants(child.pid as number)]);
  await run.exited;
  // The kill landed while its start_compute still ran: the compute was not ready yet.
  expect(stateAtKill).toBe("init");
  // A killed CLI leaves its lock behind; `pulumi cancel` is what a CI job does next.
  await temp.stack.cancel();
  const before = transcript.length;
  const result = await up(specs);
  expect(result.summary.result).toBe("succeeded");
  expect(transcript.slice(before)).toMatch(/created for this resource by an interrupted run; finishing it/);
  const onBranch = (await endpointsInEmulator()).filter((e) => e.branch_id === branches[2]);
  expect(onBranch).toHaveLength(1);
  expect((await temp.stack.outputs()).endpoints.value["replica-3"].endpointId).toBe(onBranch[0].id);
  // The engine keeps the killed run's pending create on record (and warns) until it is cleared; the
  // compute itself is in the stack now, so clearing the record loses nothing.
  expect((await temp.stack.exportStack()).deployment.pending_operations ?? []).toHaveLength(1);
  await temp.stack.refresh({ clearPendingCreates: true, onOutput: capture, onError: capture });
  expect((await temp.stack.exportStack()).deployment.pending_operations ?? []).toHaveLength(0);
  expect((await temp.stack.outputs()).endpoints.value["replica-3"].endpointId).toBe(onBranch[0].id);
  expect((await endpointsInEmulator()).filter((e) => e.branch_id === branches[2])).toHaveLength(1);
});

test("9. with faults on (423 storms, 429, 503, dropped connections) up converges to exactly the declared computes", async () => {
  emulator.setFaults({
    rate423: 0.3,
    rate429: 0.1,
    rate503: 0.1,
    retryAfterSeconds: 1,
    dropAfterCommitRate: 0.15,
  });
  try {
    specs = [...specs, replica(4, { branchId: branches[3] }), replica(5, { branchId: branches[3], cu: 1 })];
    specs = specs.map((s) => (s.name === "primary" ? { ...s, cu: 4 } : s));
    const result = await up(specs);
    expect(result.summary.result).toBe("succeeded");
  } finally {
    emulator.setFaults({});
  }
  const declared = Object.values(
    (await temp.stack.outputs()).endpoints.value as Record<string, { endpointId: string }>,
  )
    .map((o) => o.endpointId)
    .sort();
  expect(declared).toHaveLength(specs.length);
  expect((await endpointsInEmulator()).map((e) => e.id).sort()).toEqual(declared);
});

test("10. destroy leaves the emulator without computes", async () => {
  await temp.stack.destroy({ onOutput: capture, onError: capture });
  expect(await endpointsInEmulator()).toEqual([]);
});

test("11. neither the stack export nor any CLI output contains the API key or the bootstrap token", async () => {
  await up([primary()]);
  // `pulumi stack export` as a user runs it (the Automation API's exportStack adds --show-secrets).
  const bin = temp.env.PATH.split(path.delimiter)[0];
  const exported = execFileSync(path.join(bin, "pulumi"), ["stack", "export", "--stack", "dev"], {
    cwd: temp.workDir,
    env: { ...process.env, ...temp.env },
    encoding: "utf8",
  });
  const stateFiles = fs
    .readdirSync(temp.backendDir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .map((f) => fs.readFileSync(path.join(temp.backendDir, f), "utf8"))
    .join("\n");
  expect(exported).toContain("pulumi-nodejs:dynamic/neon:Compute");
  expect(stateFiles.length).toBeGreaterThan(0);
  for (const secret of [stackKey, emulator.apiKey]) {
    expect(exported).not.toContain(secret);
    expect(stateFiles).not.toContain(secret);
    expect(transcript).not.toContain(secret);
  }
  await temp.stack.destroy({ onOutput: capture, onError: capture });
});
