/**
 * End to end: the real Pulumi CLI (Automation API, local file backend) drives the ApiKey provider
 * against the emulator over real HTTP. The tests run in order and share one stack. The key `ci` is
 * made through an explicit `Provider` with `apiKeyEnv`: its key is only in the CLI's environment.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, type TempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";

// A budget per test that holds at many times its idle duration (tests/support/budgets.ts).
useStepBudgets();

type Spec = { resource: string; name: string } & Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let temp: TempStack;
let stackKey: string;
/** The key of the explicit provider, only ever in the environment variable {@link KEY_ENV}. */
let envKey: string;
const KEY_ENV = "NEON_E2E_KEYS_PROVIDER_KEY";
let transcript = "";
const seenTokens = new Set<string>();
let specs: Spec[];

const capture = (s: string) => {
  transcript += s;
};

/** The HTTP status of reading the seeded project with `token` (401 once revoked). */
async function statusWith(token: string): Promise<number> {
  const res = await fetch(`${emulator.url}/projects/${emulator.seed.projectId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return res.status;
}

async function up(next: Spec[], onEvent?: (e: EngineEvent) => void) {
  specs = next;
  await temp.stack.setConfig("keys", { value: JSON.stringify(specs) });
  const result = await temp.stack.up({ onOutput: capture, onError: capture, onEvent });
  for (const t of Object.values(await tokens())) seenTokens.add(t);
  return result;
}

async function tokens(): Promise<Record<string, string>> {
  return ((await temp.stack.outputs()).tokens?.value ?? {}) as Record<string, string>;
}

async function ids(): Promise<Record<string, string>> {
  return ((await temp.stack.outputs()).ids?.value ?? {}) as Record<string, string>;
}

/** The outputs of one resource as the state holds them (secrets decrypted), or undefined if absent. */
async function stateOf(name: string): Promise<Record<string, unknown> | undefined> {
  const resources = (await temp.stack.exportStack()).deployment.resources as {
    urn: string;
    outputs: Record<string, unknown>;
  }[];
  const r = resources.find((x) => x.urn.endsWith(`::${name}`));
  if (!r) return undefined;
  const plain = (v: unknown) =>
    v && typeof v === "object" && "plaintext" in v ? JSON.parse((v as { plaintext: string }).plaintext) : v;
  return Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, plain(v)]));
}

/** The engine's steps for one resource, in the order the engine finished them. */
function stepsOf(events: EngineEvent[], name: string): string[] {
  return events
    .map((e) => e.resOutputsEvent?.metadata)
    .filter((m) => m?.urn.endsWith(`::${name}`))
    .map((m) => m!.op);
}

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 50, seed: 17 });
  const bootstrap = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  // The provider's own key: a personal key of the organization's admin, made for this stack.
  stackKey = (await bootstrap.apiKeys.create("e2e-keys-stack")).key;
  envKey = (await bootstrap.apiKeys.create("e2e-keys-env-provider")).key;
  api = createNeonClient({ apiKey: stackKey, baseUrl: emulator.url });
  temp = await createTempStack({
    programDir: path.join(__dirname, "apikey-program"),
    config: {
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: stackKey, secret: true },
      keyEnv: { value: KEY_ENV },
    },
    env: { [KEY_ENV]: envKey },
  });
});

afterAll(async () => {
  await temp?.dispose();
  await emulator?.stop();
});

test("1. up creates a personal, an organization and a project-scoped key; each token works", async () => {
  const { orgId, projectId } = emulator.seed;
  const result = await up([
    { resource: "laptop", name: "laptop" },
    { resource: "ops", name: "ops", orgId },
    { resource: "ci", name: "ci", projectId, rotationTrigger: "1", viaKeyEnv: true },
  ]);
  expect(result.summary.result).toBe("succeeded");
  const t = await tokens();
  expect(Object.keys(t).sort()).toEqual(["ci", "laptop", "ops"]);
  for (const token of Object.values(t)) expect(await statusWith(token)).toBe(200);
  const i = await ids();
  expect(i.ops).toMatch(new RegExp(`^${orgId}/\\d+$`));
  expect(i.laptop).toMatch(/^\d+$/);
  const scoped = (await api.apiKeys.listOrg(orgId)).find((k) => String(k.id) === i.ci.split("/")[1]);
  expect(scoped?.project_id).toBe(projectId);
});

test("2. a rotationTrigger change creates the new key before revoking the old one", async () => {
  const before = await tokens();
  const events: EngineEvent[] = [];
  const result = await up(
    specs.map((s) => (s.resource === "ci" ? { ...s, rotationTrigger: "2" } : s)),
    (e) => events.push(e),
  );
  expect(result.summary.resourceChanges).toMatchObject({ replace: 1 });
  const steps = stepsOf(events, "ci");
  expect(steps.indexOf("create-replacement")).toBeGreaterThanOrEqual(0);
  expect(steps.indexOf("create-replacement")).toBeLessThan(steps.indexOf("delete-replaced"));
  const after = await tokens();
  expect(after.ci).not.toBe(before.ci);
  expect([await statusWith(before.ci), await statusWith(after.ci)]).toEqual([401, 200]);
  // The other keys were left alone.
  expect(after.laptop).toBe(before.laptop);
  expect(after.ops).toBe(before.ops);
});

test("3. a key revoked out of band is dropped by refresh and made again by up", async () => {
  const gone = (await ids()).laptop;
  await api.apiKeys.revoke(Number(gone));
  const refreshed = await temp.stack.refresh({ onOutput: capture, onError: capture });
  expect(refreshed.summary.resourceChanges).toMatchObject({ delete: 1 });
  expect(await stateOf("laptop")).toBeUndefined();
  // The tokens of the keys still there survive the refresh (the service never shows them again).
  const ci = await stateOf("ci");
  expect(ci?.token).toBe((await tokens()).ci);
  expect(await statusWith(String(ci?.token))).toBe(200);

  const result = await up(specs);
  expect(result.summary.resourceChanges).toMatchObject({ create: 1 });
  const again = await ids();
  expect(again.laptop).not.toBe(gone);
  expect(await statusWith((await tokens()).laptop)).toBe(200);
});

test("4. tokens are secret outputs; neither the stack export, the state files nor any CLI output contains a token or the API keys", async () => {
  const bin = temp.env.PATH.split(path.delimiter)[0];
  // `pulumi stack export` as a user runs it (the Automation API's exportStack adds --show-secrets).
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
  expect(exported).toContain("pulumi-nodejs:dynamic/neon:ApiKey");
  // With --show-secrets too: the explicit provider's inputs hold the variable's name, not its key
  // (the default provider's `neon:apiKey`, a secret, is shown there: the scan would see a key).
  const shown = execFileSync(
    path.join(bin, "pulumi"),
    ["stack", "export", "--show-secrets", "--stack", "dev"],
    { cwd: temp.workDir, env: { ...process.env, ...temp.env }, encoding: "utf8" },
  );
  const resources = JSON.parse(shown).deployment.resources as {
    urn: string;
    inputs: Record<string, unknown>;
    provider?: string;
  }[];
  const provider = resources.find((r) => r.urn.endsWith("::key-from-env"));
  expect(resources.find((r) => r.urn.endsWith("::ci"))?.provider).toMatch(/::key-from-env::/);
  expect(provider?.inputs["neon:apiKeyEnv"]).toBe(KEY_ENV);
  expect(Object.keys(provider?.inputs ?? {})).not.toContain("neon:apiKey");
  expect({ stackKeyShown: shown.includes(stackKey), envKeyShown: shown.includes(envKey) }).toEqual({
    stackKeyShown: true,
    envKeyShown: false,
  });
  // The token output is there, encrypted.
  expect(exported).toMatch(
    /"token":\s*\{\s*"4dabf18193072939515e22adb298388d":\s*"1b47061264138c4ac30d75fd1eb44270",\s*"ciphertext"/,
  );
  expect(stateFiles.length).toBeGreaterThan(0);
  // The stack outputs show the tokens only as secrets.
  const masked = JSON.parse(
    execFileSync(path.join(bin, "pulumi"), ["stack", "output", "--json", "--stack", "dev"], {
      cwd: temp.workDir,
      env: { ...process.env, ...temp.env },
      encoding: "utf8",
    }),
  );
  expect(Object.values(masked.tokens)).toEqual(["[secret]", "[secret]", "[secret]"]);
  expect(transcript.length).toBeGreaterThan(0);
  expect(seenTokens.size).toBe(5);
  for (const secret of [...seenTokens, stackKey, envKey, emulator.apiKey]) {
    expect(exported).not.toContain(secret);
    expect(stateFiles).not.toContain(secret);
    expect(transcript).not.toContain(secret);
  }
});

test("5. destroy revokes every key; the explicit provider uses the key its variable holds then", async () => {
  const live = await tokens();
  // The key the state's provider was made with is revoked, and its variable names another: destroy
  // reads the environment of this command, not anything saved by the last update.
  const nextKey = (
    await createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url }).apiKeys.create(
      "e2e-keys-env-next",
    )
  ).key;
  const personal = await api.apiKeys.list();
  await api.apiKeys.revoke(Number(personal.find((k) => k.name === "e2e-keys-env-provider")!.id));
  expect(await statusWith(envKey)).toBe(401);
  temp.stack.workspace.envVars[KEY_ENV] = nextKey;
  await temp.stack.destroy({ onOutput: capture, onError: capture });
  expect(transcript).not.toContain(nextKey);
  for (const token of Object.values(live)) expect(await statusWith(token)).toBe(401);
  expect((await api.apiKeys.listOrg(emulator.seed.orgId)).map((k) => k.name)).toEqual([]);
  expect((await api.apiKeys.list()).map((k) => k.name)).not.toContain("laptop");
});
