/**
 * End to end: two explicit `pulumi:providers:neoncompute` resources with different keys and URLs
 * (two emulators standing for two Neon accounts) in one stack, through the plugin. Each compute must
 * land in its own account, each invoke must answer for its own provider, and neither key may leak.
 * Account B's provider names the environment variable its key is in (`apiKeyEnv`): its key is never
 * in the program, the state or an export with `--show-secrets`, and each command reads the variable.
 * No default provider is configured (no `neoncompute:apiKey`, no NEON_API_KEY).
 */
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, type TempStack } from "../../scripts/lib/pulumi";
import { cli, cliRun, persisted, pluginPath } from "./plugin-helpers";
import { useStepBudgets } from "../support/budgets";

// A budget per test that holds at many times its idle duration (tests/support/budgets.ts).
useStepBudgets();

let a: EmulatorHandle;
let b: EmulatorHandle;
let apiA: NeonClient;
let apiB: NeonClient;
let keyA: string;
let keyB: string;
/** Account B's second key: what its variable holds by the destroy, after `keyB` was revoked. */
let nextKeyB: string;
const KEY_ENV_B = "NEON_E2E_ACCOUNT_B_KEY";
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
      keyEnvB: { value: KEY_ENV_B },
      urlB: { value: b.url },
      projectB: { value: b.seed.projectId },
      branchB: { value: b.seed.branchIds[1] },
    },
    env: { PATH: pluginPath(), NEON_API_KEY: "", NEON_API_URL: "", [KEY_ENV_B]: keyB },
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

  // `--show-secrets` shows account A's key (so the scan can see a key) but account B's provider holds
  // only its variable's name. Booleans, so that a failure never prints the state.
  const shown = await cli(temp, ["stack", "export", "--show-secrets"]);
  const providerB = (
    JSON.parse(shown).deployment.resources as { urn: string; inputs: Record<string, unknown> }[]
  ).find((r) => r.urn.endsWith("::accountB"));
  expect(providerB?.inputs.apiKeyEnv).toBe(KEY_ENV_B);
  expect(Object.keys(providerB?.inputs ?? {})).not.toContain("apiKey");
  expect({ keyA: shown.includes(keyA), keyB: shown.includes(keyB) }).toEqual({ keyA: true, keyB: false });
});

test("2. a second up changes nothing; destroy removes each compute from its own account", async () => {
  const out = await temp.stack.outputs();
  const again = await temp.stack.preview({ onOutput: capture, onError: capture });
  expect(again.changeSummary).toEqual({ same: 5 });

  // With account B's variable empty, preview refuses the provider, naming the variable and the remedy.
  const refused = await cliRun({ ...temp, env: { ...temp.env, [KEY_ENV_B]: "" } }, ["preview"]);
  transcript += refused.out;
  expect(refused.code).not.toBe(0);
  expect(refused.out).toMatch(
    new RegExp(
      `apiKeyEnv names the environment variable ${KEY_ENV_B}, which is not set or is empty\\. Set ${KEY_ENV_B} to the API key`,
    ),
  );

  // Account B's first key is revoked and its variable names a new one: destroy reads the variable
  // then, not anything the last update saved.
  const bootstrapB = createNeonClient({ apiKey: b.apiKey, baseUrl: b.url });
  nextKeyB = (await bootstrapB.apiKeys.create("account-b-next")).key;
  await bootstrapB.apiKeys.revoke(
    Number((await bootstrapB.apiKeys.list()).find((k) => k.name === "account-b")!.id),
  );
  await expect(apiB.apiKeys.list()).rejects.toMatchObject({ status: 401 });
  temp.stack.workspace.envVars[KEY_ENV_B] = nextKeyB;
  await temp.stack.destroy({ onOutput: capture, onError: capture });
  expect((await apiA.endpoints.list(a.seed.projectId)).map((e) => e.id)).not.toContain(out.endpointA.value);
  expect((await bootstrapB.endpoints.list(b.seed.projectId)).map((e) => e.id)).not.toContain(
    out.endpointB.value,
  );
});

test("3. neither key appears in plain text in the state, the export or the CLI output", async () => {
  const stored = await persisted(temp);
  expect(transcript.length).toBeGreaterThan(0);
  for (const secret of [keyA, keyB, nextKeyB, a.apiKey, b.apiKey]) {
    expect(stored).not.toContain(secret);
    expect(transcript).not.toContain(secret);
  }
});
