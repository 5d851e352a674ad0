/**
 * End to end: a stack made with the dynamic `Compute` and `ApiKey` moves to the plugin's classes
 * (`plugin.Compute`, `plugin.ApiKey`, type tokens `neoncompute:index:*`) without replacing either:
 * the aliases in the definitions match the old dynamic type tokens, and the plugin's DiffConfig
 * never asks to replace for a provider change. Then the plugin-backed TypeScript classes update,
 * look up and destroy as usual.
 */
import * as path from "path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, type TempStack } from "../../scripts/lib/pulumi";
import { persisted, pluginPath, stackOutputs, stepsOf } from "./plugin-helpers";
import { useStepBudgets } from "../support/budgets";

// A budget per test that holds at many times its idle duration (tests/support/budgets.ts).
useStepBudgets();

let emulator: EmulatorHandle;
let api: NeonClient;
let stackKey: string;
let temp: TempStack;
let transcript = "";
const capture = (s: string) => {
  transcript += s;
};
const first: Record<string, unknown> = {};

async function types(): Promise<Record<string, string>> {
  const resources = (await temp.stack.exportStack()).deployment.resources as { urn: string; type: string }[];
  return Object.fromEntries(
    resources.filter((r) => /::(db|ci)$/.test(r.urn)).map((r) => [r.urn.split("::").pop(), r.type]),
  );
}

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 50, seed: 47 });
  stackKey = (
    await createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url }).apiKeys.create("e2e-mig")
  ).key;
  api = createNeonClient({ apiKey: stackKey, baseUrl: emulator.url });
  temp = await createTempStack({
    programDir: path.join(__dirname, "plugin-migration-program"),
    config: {
      // The dynamic face reads neon:*, the plugin neoncompute:* (docs/decisions/0011).
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: stackKey, secret: true },
      "neoncompute:apiUrl": { value: emulator.url },
      "neoncompute:apiKey": { value: stackKey, secret: true },
      face: { value: "dynamic" },
      projectId: { value: emulator.seed.projectId },
      branchId: { value: emulator.seed.branchIds[1] },
      cu: { value: "0.25" },
    },
    env: { PATH: pluginPath(), NEON_API_KEY: "" },
  });
});

afterAll(async () => {
  await temp?.dispose();
  await emulator?.stop();
});

test("1. the dynamic classes create the compute and the key", async () => {
  const result = await temp.stack.up({ onOutput: capture, onError: capture });
  expect(result.summary.resourceChanges).toMatchObject({ create: 3 });
  Object.assign(first, await stackOutputs(temp));
  expect(await types()).toEqual({
    db: "pulumi-nodejs:dynamic/neon:Compute",
    ci: "pulumi-nodejs:dynamic/neon:ApiKey",
  });
});

test("2. switching to the plugin's classes replaces nothing: same compute, same key, new type tokens", async () => {
  const created = (await api.endpoints.get(emulator.seed.projectId, String(first.endpointId))).created_at;
  await temp.stack.setConfig("face", { value: "plugin" });
  const preview = await temp.stack.preview({ diff: true, onOutput: capture, onError: capture });
  for (const op of ["create", "delete", "replace", "create-replacement", "delete-replaced"]) {
    expect(preview.changeSummary[op as keyof typeof preview.changeSummary] ?? 0).toBe(0);
  }
  const events: EngineEvent[] = [];
  const result = await temp.stack.up({ onOutput: capture, onError: capture, onEvent: (e) => events.push(e) });
  expect(result.summary.resourceChanges?.create ?? 0).toBe(0);
  expect(result.summary.resourceChanges?.delete ?? 0).toBe(0);
  expect(result.summary.resourceChanges?.replace ?? 0).toBe(0);
  expect(stepsOf(events, "db")).not.toContain("create");
  expect(await types()).toEqual({ db: "neoncompute:index:Compute", ci: "neoncompute:index:ApiKey" });
  const after = await stackOutputs(temp);
  expect(after).toMatchObject({
    endpointId: first.endpointId,
    host: first.host,
    keyId: first.keyId,
    token: first.token,
  });
  const ep = await api.endpoints.get(emulator.seed.projectId, String(first.endpointId));
  expect(ep.created_at).toBe(created);
  expect((await api.apiKeys.listOrg(emulator.seed.orgId)).map((k) => k.id)).toContain(first.keyId);
  // The plugin's lookup, from TypeScript.
  expect(after.onBranch).toEqual([first.endpointId]);
});

test("3. the plugin's Compute class resizes in place; destroy removes the compute and revokes the key", async () => {
  await temp.stack.setConfig("cu", { value: "0.5" });
  const result = await temp.stack.up({ onOutput: capture, onError: capture });
  expect(result.summary.resourceChanges).toMatchObject({ update: 1 });
  expect(await stackOutputs(temp)).toMatchObject({ endpointId: first.endpointId, maxCu: 0.5 });
  await temp.stack.destroy({ onOutput: capture, onError: capture });
  expect((await api.endpoints.list(emulator.seed.projectId)).map((e) => e.id)).not.toContain(
    first.endpointId,
  );
  expect((await api.apiKeys.listOrg(emulator.seed.orgId)).map((k) => k.id)).not.toContain(first.keyId);
});

test("4. no token or key in plain text", async () => {
  const stored = await persisted(temp);
  for (const secret of [stackKey, emulator.apiKey, String(first.token)]) {
    expect(stored).not.toContain(secret);
    expect(transcript).not.toContain(secret);
  }
});
