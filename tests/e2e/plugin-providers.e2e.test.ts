/**
 * End to end: two explicit `pulumi:providers:neoncompute` resources with different keys and URLs
 * (two emulators standing for two Neon accounts) in one stack, through the plugin. Each compute must
 * land in its own account, each invoke must answer for its own provider, and neither key may leak.
 * No default provider is configured (no `neoncompute:apiKey`, no NEON_API_KEY).
 */
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, type TempStack } from "../../scripts/lib/pulumi";
import { persisted, pluginPath } from "./plugin-helpers";
import { useStepBudgets } from "../support/budgets";

// A budget per test that holds at many times its idle duration (tests/support/budgets.ts).
useStepBudgets();

let a: EmulatorHandle;
let b: EmulatorHandle;
let apiA: NeonClient;
let apiB: NeonClient;
let keyA: string;
let keyB: string;
let temp: TempStack;
let transcript = "";
const capture = (s: string) => {
  transcript += s;
};

beforeAll(async () => {
  [a, b] = await Promise.all([startEmulator({ opMs: 50, seed: 31 }), startEmulator({ opMs: 50, seed: 32 })]);
  keyA = (await createNeonClient({ apiKey: a.apiKey, baseUrl: a.url }).apiKeys.create("account-a")).key;
  keyB = (await createNeonClient({ apiKey: b.apiKey, baseUrl: b.url }).apiKeys.create("account-b")).key;
  apiA = createNeonClient({ apiKey: keyA, baseUrl: a.url });
  apiB = createNeonClient({ apiKey: keyB, baseUrl: b.url });
  temp = await createTempStack({
    programDir: path.join(__dirname, "plugin-providers-program"),
    config: {
      keyA: { value: keyA, secret: true },
      urlA: { value: a.url },
      projectA: { value: a.seed.projectId },
      branchA: { value: a.seed.branchIds[1] },
      keyB: { value: keyB, secret: true },
      urlB: { value: b.url },
      projectB: { value: b.seed.projectId },
      branchB: { value: b.seed.branchIds[1] },
    },
    env: { PATH: pluginPath(), NEON_API_KEY: "", NEON_API_URL: "" },
  });
});

afterAll(async () => {
  await temp?.dispose();
  await Promise.all([a?.stop(), b?.stop()]);
});

test("1. each provider creates its compute in its own account, and its invoke reads its own account", async () => {
  expect(a.seed.projectId).not.toBe(b.seed.projectId);
  const result = await temp.stack.up({ onOutput: capture, onError: capture });
  expect(result.summary.resourceChanges).toMatchObject({ create: 5 });
  const out = await temp.stack.outputs();
  const epA = String(out.endpointA.value);
  const epB = String(out.endpointB.value);
  expect((await apiA.endpoints.get(a.seed.projectId, epA)).autoscaling_limit_max_cu).toBe(0.25);
  expect((await apiB.endpoints.get(b.seed.projectId, epB)).autoscaling_limit_max_cu).toBe(0.5);
  expect((await apiA.endpoints.list(a.seed.projectId)).map((e) => e.id)).not.toContain(epB);
  expect((await apiB.endpoints.list(b.seed.projectId)).map((e) => e.id)).not.toContain(epA);
  const seen = (out.projectsSeenByB.value as { id: string }[]).map((p) => p.id);
  expect(seen).toContain(b.seed.projectId);
  expect(seen).not.toContain(a.seed.projectId);
});

test("2. a second up changes nothing; destroy removes each compute from its own account", async () => {
  const out = await temp.stack.outputs();
  const again = await temp.stack.preview({ onOutput: capture, onError: capture });
  expect(again.changeSummary).toEqual({ same: 5 });
  await temp.stack.destroy({ onOutput: capture, onError: capture });
  expect((await apiA.endpoints.list(a.seed.projectId)).map((e) => e.id)).not.toContain(out.endpointA.value);
  expect((await apiB.endpoints.list(b.seed.projectId)).map((e) => e.id)).not.toContain(out.endpointB.value);
});

test("3. neither key appears in plain text in the state, the export or the CLI output", async () => {
  const stored = await persisted(temp);
  expect(transcript.length).toBeGreaterThan(0);
  for (const secret of [keyA, keyB, a.apiKey, b.apiKey]) {
    expect(stored).not.toContain(secret);
    expect(transcript).not.toContain(secret);
  }
});
