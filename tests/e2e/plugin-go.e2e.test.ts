/**
 * End to end: a Pulumi Go program (`plugin-go-program`, over the generated Go SDK in `sdk/go`) run by
 * the real CLI and the Go language host that `scripts/ensure-pulumi` builds, through the provider
 * plugin `pulumi-resource-neoncompute`, against the emulator: create, update in place, `pulumi import`
 * of an existing compute, adoption through the `importId` input, destroy. The tests run in order and
 * share one stack; each checks the emulator's computes, not only the CLI's exit.
 *
 * The program is compiled once per run (the host then runs the binary: `runtime.options.binary`),
 * with the go tool's caches in ensure-pulumi's cache folder: minutes the first time on a loaded
 * machine, seconds afterwards.
 */
import * as fs from "fs";
import * as path from "path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { GO_COMPILE_BUDGET_MS, goBinDir, goEnv, runGo } from "../../scripts/lib/go";
import { createTempStack, repoRoot, type TempStack } from "../../scripts/lib/pulumi";
import { cli, persisted, pluginPath, stackOutputs, stepsOf } from "./plugin-helpers";
import { useStepBudgets } from "../support/budgets";

const SDK_MODULE = "github.com/neon-labs-unofficial/pulumi-neon-compute/sdk/go";
const PULUMI_SDK = "github.com/pulumi/pulumi/sdk/v3";
const programDir = path.join(__dirname, "plugin-go-program");

// A budget per test that holds at many times its idle duration, and room for a cold Go compile in
// beforeAll (GO_COMPILE_BUDGET_MS): tests/support/budgets.ts.
useStepBudgets(1800);

let emulator: EmulatorHandle;
let api: NeonClient;
let temp: TempStack;
let stackKey: string;
let transcript = "";
const capture = (s: string) => {
  transcript += s;
};
const existing: { legacy?: string; adopted?: string } = {};
let seeded: string[] = [];

/** The version of a module that a go.mod requires. */
function required(goMod: string, module: string): string | undefined {
  const text = fs.readFileSync(goMod, "utf8");
  const escaped = module.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`^\\s*(?:require\\s+)?${escaped}\\s+(v\\S+)`, "m").exec(text)?.[1];
}

/** Creates a compute outside the stack and waits for its operations. */
async function createOutside(body: {
  branch_id: string;
  type: "read_only" | "read_write";
  min: number;
  max: number;
}) {
  const { projectId } = emulator.seed;
  const created = await api.endpoints.create(projectId, {
    branch_id: body.branch_id,
    type: body.type,
    autoscaling_limit_min_cu: body.min,
    autoscaling_limit_max_cu: body.max,
  });
  await api.waitForOperations(
    projectId,
    created.operations.map((o) => o.id),
  );
  return created.endpoint.id;
}

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 50, seed: 29 });
  const bootstrap = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  stackKey = (await bootstrap.apiKeys.create("e2e-plugin-go")).key;
  api = createNeonClient({ apiKey: stackKey, baseUrl: emulator.url });
  seeded = (await api.endpoints.list(emulator.seed.projectId)).map((e) => e.id);
  temp = await createTempStack({
    programDir,
    config: {
      projectId: { value: emulator.seed.projectId },
      // Not the default branch: the emulator seeds a read_write compute there.
      branchId: { value: emulator.seed.branchIds[1] },
    },
    // The plugin's settings from the environment (the YAML test uses the stack's config); the go
    // tool's settings because the Go language host runs `go list -m all` to find the plugins.
    env: {
      ...goEnv(),
      PATH: [pluginPath(), goBinDir()].join(path.delimiter),
      NEON_API_URL: emulator.url,
      NEON_API_KEY: stackKey,
    },
  });
  // The copy's go.mod points at the SDK by a path relative to the program's own folder.
  await runGo(["mod", "edit", `-replace=${SDK_MODULE}=${path.join(repoRoot, "sdk/go")}`], {
    cwd: temp.workDir,
    budgetMs: 60_000,
  });
  const started = Date.now();
  // -v: the packages compiled so far are the output a budget overrun shows.
  await runGo(["build", "-v", "-o", path.join("bin", "neon-go-program"), "."], {
    cwd: temp.workDir,
    budgetMs: GO_COMPILE_BUDGET_MS,
  });
  console.log(`plugin-go: the Go program compiled in ${Math.round((Date.now() - started) / 1000)}s`);
}, GO_COMPILE_BUDGET_MS + 120_000);

afterAll(async () => {
  await temp?.dispose();
  await emulator?.stop();
});

test("0. the program builds against the Pulumi Go SDK version the generated SDK requires", () => {
  const sdkVersion = required(path.join(repoRoot, "sdk/go/go.mod"), PULUMI_SDK);
  expect(sdkVersion).toMatch(/^v3\.\d+\.\d+$/);
  expect(required(path.join(programDir, "go.mod"), PULUMI_SDK)).toBe(sdkVersion);
  expect(fs.statSync(path.join(temp.workDir, "bin", "neon-go-program")).isFile()).toBe(true);
});

test("1. up creates the compute through the Go program and the plugin", async () => {
  const events: EngineEvent[] = [];
  const result = await temp.stack.up({ onOutput: capture, onError: capture, onEvent: (e) => events.push(e) });
  expect(result.summary.resourceChanges).toEqual({ create: 2 });
  const out = await stackOutputs(temp);
  const ep = await api.endpoints.get(emulator.seed.projectId, String(out.endpointId));
  expect(ep).toMatchObject({
    branch_id: emulator.seed.branchIds[1],
    type: "read_only",
    autoscaling_limit_min_cu: 0.25,
    autoscaling_limit_max_cu: 0.25,
    suspend_timeout_seconds: 300,
  });
  expect(out.host).toBe(ep.host);
  expect(stepsOf(events, "replica")).toEqual(["create"]);
});

test("2. a changed config value updates the compute in place", async () => {
  const before = await stackOutputs(temp);
  await temp.stack.setConfig("suspendTimeoutSeconds", { value: "600" });
  const preview = await temp.stack.preview({ diff: true, onOutput: capture, onError: capture });
  expect(preview.changeSummary).toEqual({ update: 1, same: 1 });
  const result = await temp.stack.up({ onOutput: capture, onError: capture });
  expect(result.summary.resourceChanges).toEqual({ update: 1, same: 1 });
  const after = await stackOutputs(temp);
  expect(after.endpointId).toBe(before.endpointId);
  expect(after.suspendTimeoutSeconds).toBe(600);
  const ep = await api.endpoints.get(emulator.seed.projectId, String(after.endpointId));
  expect(ep.suspend_timeout_seconds).toBe(600);
});

test("3. pulumi import adopts an existing compute; once the program declares it, nothing changes", async () => {
  const { projectId, branchIds } = emulator.seed;
  const branch = branchIds[2];
  existing.legacy = await createOutside({ branch_id: branch, type: "read_write", min: 0.5, max: 1 });
  const count = (await api.endpoints.list(projectId)).length;
  // The Go language host of this CLI cannot generate code (no GenerateProgram): import only.
  capture(
    await cli(temp, [
      "import",
      "neoncompute:index:Compute",
      "legacy",
      `${projectId}/${existing.legacy}`,
      "--yes",
      "--non-interactive",
      "--protect=false",
      "--generate-code=false",
    ]),
  );
  const state = (await temp.stack.exportStack()).deployment as {
    resources: { urn: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[];
  };
  const legacy = state.resources.find((r) => r.urn.endsWith("neoncompute:index:Compute::legacy"));
  expect(legacy?.outputs).toMatchObject({ endpointId: existing.legacy, minCu: 0.5, maxCu: 1 });
  expect(legacy?.inputs).toMatchObject({
    projectId,
    branchId: branch,
    type: "read_write",
    minCu: 0.5,
    maxCu: 1,
  });

  // Not in the program yet: the preview would delete it.
  expect((await temp.stack.preview({ onOutput: capture, onError: capture })).changeSummary).toEqual({
    delete: 1,
    same: 2,
  });
  await temp.stack.setConfig("legacy", {
    value: JSON.stringify({ branchId: branch, type: "read_write", minCu: 0.5, maxCu: 1 }),
  });
  const preview = await temp.stack.preview({ diff: true, onOutput: capture, onError: capture });
  expect(preview.changeSummary).toEqual({ same: 3 });
  const result = await temp.stack.up({ onOutput: capture, onError: capture });
  expect(result.summary.resourceChanges).toEqual({ same: 3 });
  expect((await stackOutputs(temp)).legacyEndpointId).toBe(existing.legacy);
  // Adopted as it was: no compute created, none changed.
  expect((await api.endpoints.list(projectId)).length).toBe(count);
  expect(await api.endpoints.get(projectId, existing.legacy)).toMatchObject({
    branch_id: branch,
    type: "read_write",
    autoscaling_limit_min_cu: 0.5,
    autoscaling_limit_max_cu: 1,
  });
});

test("4. the importId input adopts an existing compute instead of creating one", async () => {
  const { projectId, branchIds } = emulator.seed;
  existing.adopted = await createOutside({ branch_id: branchIds[2], type: "read_only", min: 0.25, max: 0.5 });
  const count = (await api.endpoints.list(projectId)).length;
  await temp.stack.setConfig("adopted", {
    value: JSON.stringify({
      branchId: branchIds[2],
      type: "read_only",
      minCu: 0.25,
      maxCu: 0.5,
      importId: `${projectId}/${existing.adopted}`,
    }),
  });
  const result = await temp.stack.up({ onOutput: capture, onError: capture });
  expect(result.summary.resourceChanges).toEqual({ create: 1, same: 3 });
  expect((await stackOutputs(temp)).adoptedEndpointId).toBe(existing.adopted);
  expect((await api.endpoints.list(projectId)).length).toBe(count);
});

test("5. destroy deletes the stack's computes, the imported and adopted ones too, and nothing else", async () => {
  const out = await stackOutputs(temp);
  const ours = [out.endpointId, existing.legacy, existing.adopted];
  expect(ours.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
  const result = await temp.stack.destroy({ onOutput: capture, onError: capture });
  expect(result.summary.resourceChanges).toEqual({ delete: 4 });
  const left = (await api.endpoints.list(emulator.seed.projectId)).map((e) => e.id);
  for (const id of ours) expect(left).not.toContain(id);
  expect(left.sort()).toEqual([...seeded].sort());
});

test("6. neither the state, the stack export nor any CLI output holds the API key", async () => {
  const stored = await persisted(temp);
  expect(transcript).toMatch(/neoncompute:index:Compute/);
  for (const secret of [stackKey, emulator.apiKey]) {
    expect(stored).not.toContain(secret);
    expect(transcript).not.toContain(secret);
  }
});
