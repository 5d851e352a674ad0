/**
 * End to end: `Branch` (with its read_write compute) under commit faults and a killed run, with the
 * real CLI (local file backend) against the emulator — issue "Projects and branches":
 *
 * - the create request's answer lost after the service committed it (connection dropped, or a 502
 *   from a gateway): `pulumi up` succeeds with one create request and one branch, in the stack;
 * - `pulumi up` SIGKILLed (whole process tree) after the create request was carried out and before
 *   its answer came back (the emulator's `holdAnswers`), then what a CI job does — `pulumi cancel`,
 *   `pulumi refresh --clear-pending-creates`, `pulumi up`: the branch, auto-named or explicitly
 *   named, is found again by its name and recognised by its annotation (this stack, this resource),
 *   never created twice;
 * - `pulumi import neoncompute:index:Branch <projectId>/<branchId>` through the provider plugin (a
 *   YAML program: the CLI cannot import into a dynamic provider), a preview without changes, destroy.
 *
 * After every run the branches and computes are counted through the API: zero duplicates (one branch
 * of that name, one read_write compute on it) and zero orphans (no other new branch or compute, and
 * none left after destroy). One emulator for the file, one stack per test.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import type { FaultOptions } from "../../emulator/faults";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { autoName } from "../../provider/resources/branch/mapping";
import { createTempStack, type TempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { addResources, cli, pluginPath, upKilledWhenHeld } from "./plugin-helpers";

// A budget per test that holds at many times its idle duration (tests/support/budgets.ts).
useStepBudgets();

const CREATE_ROUTE = "POST /projects/:project_id/branches";
const BRANCH_TYPE = "pulumi-nodejs:dynamic/neon:Branch";

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let transcript = "";
const capture = (s: string) => {
  transcript += s;
};

beforeAll(async () => {
  // Short operations: the tests wait for create_branch, start_compute and delete_timeline many times.
  emulator = await startEmulator({ opMs: 60, seed: 41 });
  projectId = emulator.seed.projectId;
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
});

afterAll(async () => {
  await emulator?.stop();
});

/**
 * A fresh stack of `branch-faults-program`; `branchName` unset means auto-named. Each test names its
 * stack: the auto-name derives from the URN (project, stack, resource), so a branch a failed test
 * left behind cannot be found again by a later test as its own.
 */
function programStack(stackName: string, branchName?: string): Promise<TempStack> {
  return createTempStack({
    programDir: path.join(__dirname, "branch-faults-program"),
    stackName,
    config: {
      "neon-e2e-branch-faults:projectId": { value: projectId },
      ...(branchName ? { "neon-e2e-branch-faults:branchName": { value: branchName } } : {}),
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    },
  });
}

const createRequests = () => emulator.requestsByRoute()[CREATE_ROUTE] ?? 0;

async function branchIds(): Promise<Set<string>> {
  return new Set((await api.branches.list(projectId)).map((b) => b.id));
}

/** Branches of the project that were not there in `before`. */
async function newBranches(before: Set<string>) {
  return (await api.branches.list(projectId)).filter((b) => !before.has(b.id));
}

/** Computes of the project but the seeded primary of the default branch. */
async function computes() {
  return (await api.endpoints.list(projectId)).filter((e) => e.id !== emulator.seed.primaryEndpointId);
}

async function stackBranches(temp: TempStack) {
  const { deployment } = await temp.stack.exportStack();
  const resources = (deployment.resources ?? []) as Array<{ type: string; id?: string; urn: string }>;
  return {
    branches: resources.filter((r) => r.type === BRANCH_TYPE),
    pending: (deployment.pending_operations ?? []) as unknown[],
  };
}

/**
 * Exactly one branch is new since `before`, it has exactly one compute (read_write, active) and no
 * other compute is new, and the stack holds that branch (and nothing pending). Returns the branch.
 */
async function expectOneManagedBranch(temp: TempStack, before: Set<string>, name?: string) {
  const created = await newBranches(before);
  expect(created.map((b) => b.name)).toEqual([name ?? expect.stringMatching(/^env-[0-9a-f]{7}$/)]);
  const [branch] = created;
  const eps = await computes();
  expect(eps.map((e) => [e.branch_id, e.type, e.current_state])).toEqual([
    [branch.id, "read_write", "active"],
  ]);
  const held = await stackBranches(temp);
  expect(held.branches.map((r) => r.id)).toEqual([branch.id]);
  expect(held.pending).toEqual([]);
  const out = await temp.stack.outputs();
  expect([out.branchId.value, out.branchName.value, out.computeId.value]).toEqual([
    branch.id,
    branch.name,
    eps[0].id,
  ]);
  if (!name) {
    // Auto-named: the name derives from the resource's URN, so a later run finds it again.
    expect(branch.name).toBe(autoName(held.branches[0].urn, projectId));
  }
  return branch;
}

/** Destroy removes the branch and its compute: no branch or compute of this stack is left. */
async function expectDestroyLeavesNothing(temp: TempStack, before: Set<string>) {
  await temp.stack.destroy({ onOutput: capture, onError: capture });
  expect(await newBranches(before)).toEqual([]);
  expect(await computes()).toEqual([]);
  expect((await stackBranches(temp)).branches).toEqual([]);
}

describe.each<[string, string, FaultOptions, string, string | undefined]>([
  [
    "the connection dropped after the commit",
    'named "lost-answer"',
    { dropAfterCommitRate: 1 },
    "dropped-named",
    "lost-answer",
  ],
  [
    "the connection dropped after the commit",
    "auto-named",
    { dropAfterCommitRate: 1 },
    "dropped-auto",
    undefined,
  ],
  [
    "a 502 after the commit",
    'named "bad-gateway"',
    { errorAfterCommitRate: 1 },
    "gateway-named",
    "bad-gateway",
  ],
  ["a 502 after the commit", "auto-named", { errorAfterCommitRate: 1 }, "gateway-auto", undefined],
])("the create's answer lost to %s, branch %s", (_what, _naming, fault, stackName, name) => {
  test("up succeeds with one create request: one branch with one compute, in the stack; destroy leaves none", async () => {
    const temp = await programStack(stackName, name);
    try {
      const before = await branchIds();
      const requests = createRequests();
      const mark = transcript.length;
      // Every change request loses its answer; the program's only one is the branch's create.
      emulator.setFaults(fault);
      let result;
      try {
        result = await temp.stack.up({ onOutput: capture, onError: capture });
      } finally {
        emulator.setFaults({});
      }
      expect(result.summary.result).toBe("succeeded");
      // Reconciled by the name: the create was sent once, never again.
      expect(createRequests() - requests).toBe(1);
      expect(transcript.slice(mark)).toMatch(/the answer to the create request was lost; found branch br-/);
      await expectOneManagedBranch(temp, before, name);
      // The stack describes the branch as it is.
      const again = await temp.stack.preview({ onOutput: capture, onError: capture });
      expect(again.changeSummary).toEqual({ same: 2 });
      await expectDestroyLeavesNothing(temp, before);
    } finally {
      await temp.dispose();
    }
  });
});

/** Starts `pulumi up` and SIGKILLs its whole process tree once the branch's create request was carried out. */
const upKilledAfterCreateRequest = (temp: TempStack) =>
  upKilledWhenHeld(temp, emulator.holdAnswers(CREATE_ROUTE), "the branch's create request", capture);

/** What a CI job does after a killed run: release the lock, drop the pending create. */
async function afterKill(temp: TempStack): Promise<void> {
  await temp.stack.cancel();
  await temp.stack.refresh({ clearPendingCreates: true, onOutput: capture, onError: capture });
  expect((await stackBranches(temp)).pending).toEqual([]);
}

test("a killed run's auto-named branch is found again by its name: one branch, in the stack; destroy leaves none", async () => {
  const temp = await programStack("killed-auto");
  try {
    const before = await branchIds();
    await upKilledAfterCreateRequest(temp);
    // The service has the branch (with its compute); the stack does not.
    const killed = await newBranches(before);
    expect(killed.map((b) => b.name)).toEqual([expect.stringMatching(/^env-[0-9a-f]{7}$/)]);
    expect((await computes()).map((e) => e.branch_id)).toEqual([killed[0].id]);
    expect((await stackBranches(temp)).branches).toEqual([]);

    await afterKill(temp);
    const requests = createRequests();
    const mark = transcript.length;
    const result = await temp.stack.up({ onOutput: capture, onError: capture });
    expect(result.summary.result).toBe("succeeded");
    expect(transcript.slice(mark)).toMatch(
      new RegExp(
        `found branch ${killed[0].id} .*made for this resource by an earlier run of this stack .*; managing it`,
      ),
    );
    expect(createRequests() - requests).toBe(0);
    const branch = await expectOneManagedBranch(temp, before);
    expect(branch.id).toBe(killed[0].id);
    await expectDestroyLeavesNothing(temp, before);
  } finally {
    await temp.dispose();
  }
});

test("a killed run's explicitly named branch: its annotation names this stack and resource, so the next up manages it and creates nothing", async () => {
  const name = "killed-explicit";
  const temp = await programStack("killed-named", name);
  try {
    const before = await branchIds();
    await upKilledAfterCreateRequest(temp);
    const killed = await newBranches(before);
    expect(killed.map((b) => b.name)).toEqual([name]);
    expect((await stackBranches(temp)).branches).toEqual([]);

    await afterKill(temp);
    const requests = createRequests();
    const mark = transcript.length;
    const result = await temp.stack.up({ onOutput: capture, onError: capture });
    expect(result.summary.result).toBe("succeeded");
    expect(transcript.slice(mark)).toMatch(
      new RegExp(
        `found branch ${killed[0].id} .*made for this resource by an earlier run of this stack .*; managing it`,
      ),
    );
    expect(createRequests() - requests).toBe(0);
    const branch = await expectOneManagedBranch(temp, before, name);
    expect(branch.id).toBe(killed[0].id);
    expect((await computes()).map((e) => e.branch_id)).toEqual([killed[0].id]);
    const again = await temp.stack.preview({ onOutput: capture, onError: capture });
    expect(again.changeSummary).toEqual({ same: 2 });
    await expectDestroyLeavesNothing(temp, before);
  } finally {
    await temp.dispose();
  }
});

test("pulumi import neoncompute:index:Branch adopts a branch made out of band; the next preview changes nothing; destroy deletes it", async () => {
  const made = await api.branches.create(projectId, {
    branch: { name: "made-out-of-band" },
    endpoints: [{ type: "read_write", autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 1 }],
  });
  await api.waitForOperations(
    projectId,
    made.operations.map((o) => o.id),
  );
  const before = await branchIds();
  before.delete(made.branch.id);
  const temp = await createTempStack({
    programDir: path.join(__dirname, "branch-import-yaml-program"),
    config: {
      "neoncompute:apiUrl": { value: emulator.url },
      "neoncompute:apiKey": { value: emulator.apiKey, secret: true },
    },
    env: { PATH: pluginPath(), NEON_API_KEY: "" },
  });
  try {
    const requests = createRequests();
    const out = path.join(temp.workDir, "branch.gen.yaml");
    capture(
      await cli(temp, [
        "import",
        "neoncompute:index:Branch",
        "legacy",
        `${projectId}/${made.branch.id}`,
        "--yes",
        "--non-interactive",
        "--out",
        out,
      ]),
    );
    // The generated code describes the branch as it is.
    expect(addResources(temp, fs.readFileSync(out, "utf8"))).toEqual({
      legacy: {
        type: "neoncompute:Branch",
        properties: expect.objectContaining({ projectId, name: "made-out-of-band" }),
        options: { protect: true },
      },
    });
    const { deployment } = await temp.stack.exportStack();
    const held = (deployment.resources as Array<{ type: string; id?: string }>).filter(
      (r) => r.type === "neoncompute:index:Branch",
    );
    expect(held.map((r) => r.id)).toEqual([made.branch.id]);

    const preview = await temp.stack.preview({ diff: true, onOutput: capture, onError: capture });
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(createRequests() - requests).toBe(0);
    // Still the one branch with its one compute.
    expect((await newBranches(before)).map((b) => b.id)).toEqual([made.branch.id]);
    expect((await computes()).map((e) => e.branch_id)).toEqual([made.branch.id]);

    // Imported resources are protected; unprotected, destroy deletes the branch and its compute.
    capture(await cli(temp, ["state", "unprotect", "--all", "--yes"]));
    await temp.stack.destroy({ onOutput: capture, onError: capture });
    expect(await newBranches(before)).toEqual([]);
    expect(await computes()).toEqual([]);
  } finally {
    await temp.dispose();
  }
});

test("no CLI output holds the API key", () => {
  expect(transcript).not.toContain(emulator.apiKey);
});
