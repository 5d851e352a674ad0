/**
 * Issue 20, item 1, under the real CLI: a `pulumi up` killed (SIGKILL of the whole process tree)
 * after the create request of an explicitly named compute reached the control plane and before its
 * answer came back. The emulator carries the create out and holds its answer (`holdAnswers`), so the
 * kill lands exactly there. Then what a CI job does — `pulumi cancel`, `pulumi refresh
 * --clear-pending-creates`, `pulumi up` — must never leave two computes with that name: the next up
 * stops and names the exact `importId`; following it, the stack manages the killed run's compute.
 * For a read_only and a read_write compute.
 */
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, type TempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { upKilledWhenHeld } from "./plugin-helpers";

useStepBudgets();

type Spec = { name: string } & Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let temp: TempStack;
let projectId: string;
let branches: string[];
let transcript = "";
const capture = (s: string) => {
  transcript += s;
};

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 150, opDurations: { start_compute: 400 }, seed: 17 });
  projectId = emulator.seed.projectId;
  branches = emulator.seed.branchIds.slice(1);
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  temp = await createTempStack({
    programDir: path.join(__dirname, "program"),
    config: {
      "neon-e2e:projectId": { value: projectId },
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    },
  });
});

afterAll(async () => {
  await temp?.dispose();
  await emulator?.stop();
});

async function setComputes(specs: Spec[]) {
  await temp.stack.setConfig("computes", { value: JSON.stringify(specs) });
}

async function named(branchId: string, name: string) {
  return (await api.endpoints.listByBranch(projectId, branchId)).filter((e) => e.name === name);
}

/** Starts `pulumi up` and SIGKILLs its whole process tree once the create request was carried out. */
const upKilledAfterCreateRequest = () =>
  upKilledWhenHeld(
    temp,
    emulator.holdAnswers("POST /projects/:project_id/endpoints"),
    "its create request",
    capture,
  );

const base: Spec[] = [];

describe.each([
  ["read_only", "explicit-c9", 0],
  ["read_write", "explicit-rw", 1],
])("a killed create of a %s compute named %p", (type, displayName, branchIndex) => {
  const spec = (): Spec => ({
    name: `killed-${type}`,
    displayName,
    branchId: branches[branchIndex],
    type,
    cu: 0.5,
  });

  test("leaves one compute with that name; the next up names its importId instead of creating another", async () => {
    await setComputes([...base, spec()]);
    await upKilledAfterCreateRequest();
    const left = await named(branches[branchIndex], displayName);
    expect(left).toHaveLength(1);
    // What a CI job does next.
    await temp.stack.cancel();
    await temp.stack.refresh({ clearPendingCreates: true, onOutput: capture, onError: capture });
    const err = await temp.stack.up({ onOutput: capture, onError: capture }).then(
      () => undefined,
      (e: unknown) => String(e),
    );
    expect(err).toMatch(new RegExp(`importId: "${projectId}/${left[0].id}"`));
    expect(await named(branches[branchIndex], displayName)).toHaveLength(1);
    // Again: still no second one.
    await expect(temp.stack.up({ onOutput: capture, onError: capture })).rejects.toThrow(/importId/);
    expect(await named(branches[branchIndex], displayName)).toHaveLength(1);
  });

  test("following the message, the stack manages that very compute", async () => {
    const [left] = await named(branches[branchIndex], displayName);
    base.push({ ...spec(), importId: `${projectId}/${left.id}` });
    await setComputes(base);
    const result = await temp.stack.up({ onOutput: capture, onError: capture });
    expect(result.summary.result).toBe("succeeded");
    expect(result.outputs.endpoints.value[`killed-${type}`].endpointId).toBe(left.id);
    const now = await named(branches[branchIndex], displayName);
    expect(now.map((e) => e.id)).toEqual([left.id]);
    expect(now[0].current_state).toBe("active");
  });
});

test("destroy removes exactly the managed computes", async () => {
  await temp.stack.destroy({ onOutput: capture, onError: capture });
  const left = (await api.endpoints.list(projectId)).filter((e) => e.id !== emulator.seed.primaryEndpointId);
  expect(left).toEqual([]);
  expect(transcript).not.toContain(emulator.apiKey);
});
