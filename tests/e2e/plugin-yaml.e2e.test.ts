/**
 * End to end: the Pulumi YAML example (`examples/yaml`) run by the real CLI and the YAML language
 * host through the provider plugin `pulumi-resource-neoncompute`, against the emulator: CheckConfig
 * at preview, create, update, `pulumi import` of a compute and of an API key (code generated, next
 * preview without changes), destroy. The tests run in order and share one stack.
 */
import * as path from "path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, repoRoot, type TempStack } from "../../scripts/lib/pulumi";
import {
  addResources,
  cli,
  diagnosticsOf,
  persisted,
  pluginPath,
  stackOutputs,
  stepsOf,
} from "./plugin-helpers";
import { useStepBudgets } from "../support/budgets";

// A budget per test that holds at many times its idle duration (tests/support/budgets.ts).
useStepBudgets();

let emulator: EmulatorHandle;
let api: NeonClient;
let temp: TempStack;
let stackKey: string;
let transcript = "";
const capture = (s: string) => {
  transcript += s;
};
const imported: { endpointId?: string; keyId?: number; token?: string } = {};
let stackToken = "";

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 50, seed: 23 });
  const bootstrap = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  stackKey = (await bootstrap.apiKeys.create("e2e-plugin-yaml")).key;
  api = createNeonClient({ apiKey: stackKey, baseUrl: emulator.url });
  temp = await createTempStack({
    programDir: path.join(repoRoot, "examples/yaml"),
    config: {
      "neoncompute:apiUrl": { value: emulator.url },
      // Misspelled on purpose: CheckConfig must stop the first preview (test 1).
      "neoncompute:apiKye": { value: stackKey, secret: true },
      projectId: { value: emulator.seed.projectId },
      // Not the default branch: the emulator seeds a read_write compute there.
      branchId: { value: emulator.seed.branchIds[1] },
    },
    env: { PATH: pluginPath(), NEON_API_KEY: "" },
  });
});

afterAll(async () => {
  await temp?.dispose();
  await emulator?.stop();
});

test("1. CheckConfig fails the preview on a misspelled key, naming the right one", async () => {
  const failure = await temp.stack.preview({ onOutput: capture, onError: capture }).then(
    () => "preview succeeded",
    (err: Error) => err.message,
  );
  expect(failure).toMatch(
    /neoncompute:apiKye is not a setting of the neoncompute provider; did you mean neoncompute:apiKey\?/,
  );
  expect(failure).toMatch(/no API key is set/);
  await temp.stack.removeConfig("neoncompute:apiKye");
  await temp.stack.setConfig("neoncompute:apiKey", { value: stackKey, secret: true });
});

test("2. up creates the compute and the key through the plugin; the provider's messages reach the engine", async () => {
  const events: EngineEvent[] = [];
  const result = await temp.stack.up({ onOutput: capture, onError: capture, onEvent: (e) => events.push(e) });
  expect(result.summary.resourceChanges).toMatchObject({ create: 3 });
  const out = await stackOutputs(temp);
  const ep = await api.endpoints.get(emulator.seed.projectId, String(out.endpointId));
  expect(ep).toMatchObject({
    branch_id: emulator.seed.branchIds[1],
    type: "read_only",
    suspend_timeout_seconds: 300,
  });
  expect(out.host).toBe(ep.host);
  // The invoke answered (it runs before the compute exists, so the branch is still empty).
  expect(Array.isArray(out.computesOnBranch)).toBe(true);
  const key = (await api.apiKeys.listOrg(emulator.seed.orgId)).find((k) => k.id === out.keyId);
  expect(key).toMatchObject({ name: "ci", project_id: emulator.seed.projectId });
  stackToken = String(out.token);
  expect(stackToken.length).toBeGreaterThan(20);
  expect(diagnosticsOf(events, "ciKey").join("\n")).toMatch(/created project-scoped API key \d+/);
  expect(stepsOf(events, "replica")).toEqual(["create"]);
});

test("3. a changed input updates the compute in place", async () => {
  const before = await stackOutputs(temp);
  await temp.stack.setConfig("suspendTimeoutSeconds", { value: "600" });
  const preview = await temp.stack.preview({ diff: true, onOutput: capture, onError: capture });
  expect(preview.changeSummary).toMatchObject({ update: 1, same: 2 });
  const result = await temp.stack.up({ onOutput: capture, onError: capture });
  expect(result.summary.resourceChanges).toMatchObject({ update: 1, same: 2 });
  const after = await stackOutputs(temp);
  expect(after.endpointId).toBe(before.endpointId);
  expect(after.suspendTimeoutSeconds).toBe(600);
  expect(
    (await api.endpoints.get(emulator.seed.projectId, String(after.endpointId))).suspend_timeout_seconds,
  ).toBe(600);
});

test("4. pulumi import adopts an existing compute and key, prints their code, and the next preview changes nothing", async () => {
  const { projectId, orgId, branchIds } = emulator.seed;
  const created = await api.endpoints.create(projectId, {
    branch_id: branchIds[2],
    type: "read_write",
    autoscaling_limit_min_cu: 0.5,
    autoscaling_limit_max_cu: 1,
    settings: { pg_settings: { work_mem: "1024" } },
  });
  await api.waitForOperations(
    projectId,
    created.operations.map((o) => o.id),
  );
  imported.endpointId = created.endpoint.id;
  const key = await api.apiKeys.createOrg(orgId, "ops");
  imported.keyId = key.id;
  imported.token = key.key;

  const computeCode = await cli(temp, [
    "import",
    "neoncompute:index:Compute",
    "legacyDb",
    `${projectId}/${created.endpoint.id}`,
    "--yes",
    "--non-interactive",
    "--out",
    path.join(temp.workDir, "compute.gen.yaml"),
  ]);
  capture(computeCode);
  const keyCode = await cli(temp, [
    "import",
    "neoncompute:index:ApiKey",
    "opsKey",
    `${orgId}/${key.id}`,
    "--yes",
    "--non-interactive",
    "--out",
    path.join(temp.workDir, "key.gen.yaml"),
  ]);
  capture(keyCode);
  const fs = await import("fs");
  const computeYaml = fs.readFileSync(path.join(temp.workDir, "compute.gen.yaml"), "utf8");
  const keyYaml = fs.readFileSync(path.join(temp.workDir, "key.gen.yaml"), "utf8");
  // The generated code describes the compute as it is.
  expect(addResources(temp, computeYaml)).toEqual({
    legacyDb: {
      type: "neoncompute:Compute",
      properties: expect.objectContaining({
        projectId,
        branchId: branchIds[2],
        type: "read_write",
        minCu: 0.5,
        maxCu: 1,
        pgSettings: { work_mem: "1024" },
      }),
      options: { protect: true },
    },
  });
  expect(addResources(temp, keyYaml)).toEqual({
    opsKey: { type: "neoncompute:ApiKey", properties: { name: "ops", orgId }, options: { protect: true } },
  });

  const preview = await temp.stack.preview({ diff: true, onOutput: capture, onError: capture });
  expect(preview.changeSummary).toEqual({ same: 5 });
  // Unprotected so that destroy (test 5) removes them like the rest.
  capture(await cli(temp, ["state", "unprotect", "--all", "--yes"]));
});

test("5. destroy deletes the computes and revokes the keys, the imported ones too", async () => {
  const out = await stackOutputs(temp);
  await temp.stack.destroy({ onOutput: capture, onError: capture });
  const left = (await api.endpoints.list(emulator.seed.projectId)).map((e) => e.id);
  expect(left).not.toContain(out.endpointId);
  expect(left).not.toContain(imported.endpointId);
  const keys = (await api.apiKeys.listOrg(emulator.seed.orgId)).map((k) => k.id);
  expect(keys).not.toContain(out.keyId);
  expect(keys).not.toContain(imported.keyId);
});

test("6. neither the state, the stack export nor any CLI output holds a token or API key in plain text", async () => {
  const stored = await persisted(temp);
  expect(transcript).toMatch(/neoncompute:index:Compute/);
  for (const secret of [stackKey, emulator.apiKey, imported.token!, stackToken]) {
    expect(stored).not.toContain(secret);
    expect(transcript).not.toContain(secret);
  }
});
