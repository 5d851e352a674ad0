/**
 * End to end, where the engine's behaviour decides whether a compute is lost: a replacement the
 * service would refuse, a refresh with a key that cannot see the project, and the up after a
 * refresh of a compute whose start failed. Real Pulumi CLI (Automation API, local file backend)
 * against the emulator over real HTTP; the tests share one stack and run in order.
 */
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, type TempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { changedCounts } from "./plugin-helpers";

// A budget per test that holds at many times its idle duration (tests/support/budgets.ts).
useStepBudgets();

type Spec = { name: string } & Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let temp: TempStack;
let transcript = "";
let branches: string[];
let freeProject: string;
let stackKey: string;

const capture = (s: string) => {
  transcript += s;
};

async function up(specs: Spec[]) {
  await temp.stack.setConfig("computes", { value: JSON.stringify(specs) });
  return temp.stack.up({ onOutput: capture, onError: capture });
}

async function preview(specs: Spec[]) {
  await temp.stack.setConfig("computes", { value: JSON.stringify(specs) });
  return temp.stack.preview({ onOutput: capture, onError: capture });
}

async function stateIds(): Promise<string[]> {
  const d = (await temp.stack.exportStack()).deployment as { resources?: { type: string; id?: string }[] };
  return (d.resources ?? [])
    .filter((r) => r.type.endsWith("neon:Compute"))
    .map((r) => r.id as string)
    .sort();
}

beforeAll(async () => {
  // With the service's rate limits on: the provider must stay under them on its own.
  emulator = await startEmulator({ opMs: 150, seed: 23, rateLimit: true });
  branches = emulator.seed.branchIds.slice(1);
  freeProject = emulator.seed.freeProjectId;
  const bootstrap = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  stackKey = (await bootstrap.apiKeys.create("e2e-safety")).key;
  api = createNeonClient({ apiKey: stackKey, baseUrl: emulator.url });
  temp = await createTempStack({
    programDir: path.join(__dirname, "program"),
    config: {
      "neon-e2e:projectId": { value: emulator.seed.projectId },
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: stackKey, secret: true },
    },
  });
});

afterAll(async () => {
  await temp?.dispose();
  await emulator?.stop();
});

const primary: Spec = { name: "primary", branchId: "", cu: 1 };
const elsewhere: Spec = { name: "elsewhere", projectId: "", branchId: "", type: "read_only", cu: 0.5 };
let specs: Spec[];

test("1. a replacement into a project the key cannot see fails at preview and at up, deleting nothing", async () => {
  primary.branchId = branches[0];
  Object.assign(elsewhere, { projectId: freeProject, branchId: emulator.seed.freeProjectBranchId });
  specs = [primary, elsewhere];
  expect((await up(specs)).summary.result).toBe("succeeded");
  const ids = await stateIds();
  expect(ids).toHaveLength(2);

  const moved = [{ ...primary, projectId: "no-such-project-42" }, elsewhere];
  await expect(preview(moved)).rejects.toThrow(
    /projectId no-such-project-42: the API key cannot see this project/,
  );
  await expect(up(moved)).rejects.toThrow(/Nothing was deleted or changed/);
  const primaryId = (await temp.stack.outputs()).endpoints.value.primary.endpointId as string;
  expect((await api.endpoints.get(emulator.seed.projectId, primaryId)).id).toBe(primaryId);
  expect(await stateIds()).toEqual(ids);
  // The stack still describes what runs.
  expect(changedCounts((await preview(specs)).changeSummary)).toEqual({});
});

test("2. a refresh with a key scoped to another project fails and leaves the state untouched", async () => {
  const before = await stateIds();
  const scoped = await createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url }).apiKeys.createOrg(
    emulator.seed.orgId,
    "scoped-to-main",
    emulator.seed.projectId,
  );
  await temp.stack.setConfig("neon:apiKey", { value: scoped.key, secret: true });
  const from = transcript.length;
  try {
    // --run-program: the refresh uses the program's (new) configuration, not the one saved in the state.
    await expect(
      temp.stack.refresh({ onOutput: capture, onError: capture, runProgram: true }),
    ).rejects.toThrow(new RegExp(`cannot see project ${freeProject}`));
  } finally {
    await temp.stack.setConfig("neon:apiKey", { value: stackKey, secret: true });
  }
  // An expected API error is reported by the engine alone: no stack trace, no echo on stderr.
  const shown = transcript.slice(from);
  expect(shown).not.toMatch(/\n\s+at \S+ \(/);
  expect(shown).not.toMatch(/ApiError: Failed to/);
  expect(await stateIds()).toEqual(before);
  expect(changedCounts((await preview(specs)).changeSummary)).toEqual({});
  expect(transcript).not.toContain(scoped.key);
});

test("3. a compute whose start failed ends started after refresh and up", async () => {
  emulator.setFaults({ opErrorRate: 1 });
  const stuck: Spec = { name: "stuck", branchId: branches[1], cu: 0.5 };
  specs = [primary, elsewhere, stuck];
  await expect(up(specs)).rejects.toThrow(/start_compute\) of project .*: it ended in error/);
  expect(await stateIds()).toHaveLength(3);
  emulator.setFaults({});
  await temp.stack.refresh({ onOutput: capture, onError: capture });
  const pre = await preview(specs);
  expect(changedCounts(pre.changeSummary)).toEqual({ update: 1 });
  await up(specs);
  const onBranch = await api.endpoints.listByBranch(emulator.seed.projectId, branches[1]);
  expect(onBranch).toHaveLength(1);
  expect(onBranch[0].current_state).toBe("active");
  expect(changedCounts((await preview(specs)).changeSummary)).toEqual({});
});

test("4. destroy removes every compute the stack created; no request was ever refused by the rate limits", async () => {
  await temp.stack.destroy({ onOutput: capture, onError: capture });
  expect(emulator.rateLimitedCount()).toBe(0);
  expect(await stateIds()).toEqual([]);
  for (const b of branches.slice(0, 2)) {
    expect(await api.endpoints.listByBranch(emulator.seed.projectId, b)).toEqual([]);
  }
});
