/**
 * End to end (issue 59): `examples/state-free` in both faces under the real CLI, against the emulator
 * with real Postgres. The key comes from NEON_API_KEY only; the role has `passwordInState: false`. After
 * each `up`, `pulumi stack export --show-secrets` and every file of the backend are scanned for every
 * password the role had, every connection string and the key — the values the service knows; the
 * connection string the shipped `neon-connection-string` command prints logs in with `psql`; a rotation
 * changes what it prints and Postgres refuses the old password; switching the role into the state and
 * out again neither resets the password nor breaks a login.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, repoRoot, type TempStack } from "../../scripts/lib/pulumi";
import { psql, withPassword } from "../../scripts/lib/psql";
import { useStepBudgets } from "../support/budgets";
import { cli, pluginPath } from "./plugin-helpers";

useStepBudgets();

let emulator: EmulatorHandle;
let api: NeonClient;

const RESET = "POST /projects/:project_id/branches/:branch_id/roles/:role_name/reset_password";
const resets = () => emulator.requestsByRoute()[RESET] ?? 0;

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 60, seed: 59, postgres: true });
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
});

afterAll(async () => {
  await emulator?.stop();
});

/** The key and URL as a CI job has them: in the environment, never in the stack's config. */
const keyEnv = () => ({ NEON_API_KEY: emulator.apiKey, NEON_API_URL: emulator.url });

/** What `neon-connection-string` prints for the stack's role and database, as a CI step runs it. */
function connectionString(out: Record<string, string>): Promise<string> {
  const args = ["--project", out.projectId, "--branch", out.branchId, "--role", out.roleName];
  return new Promise((resolve, reject) => {
    execFile(
      path.join(repoRoot, "bin", "neon-connection-string"),
      [...args, "--database", out.databaseName],
      { env: { ...process.env, ...keyEnv() }, encoding: "utf8" },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout.trim()),
    );
  });
}

/** The stack's outputs as plain values (none of them is a secret). */
async function outputs(temp: TempStack): Promise<Record<string, string>> {
  const all = await temp.stack.outputs();
  for (const [k, v] of Object.entries(all)) expect([k, v.secret]).toEqual([k, false]);
  return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, String(v.value)]));
}

/** Every file of the stack's backend, and its export with secrets shown, as one text. */
async function everything(temp: TempStack): Promise<string> {
  const files = fs
    .readdirSync(temp.backendDir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(temp.backendDir, f))
    .filter((f) => fs.statSync(f).isFile())
    .map((f) => fs.readFileSync(f, "utf8"));
  return [...files, await cli(temp, ["stack", "export", "--show-secrets"])].join("\n");
}

const passwordOf = (uri: string) => decodeURIComponent(new URL(uri).password);
const logsIn = async (uri: string) => (await psql(uri, "SELECT current_user")).out.trim();

test("TypeScript: the state holds no password, string or key; the command's string logs in; rotation; switching both ways", async () => {
  const temp = await createTempStack({
    programDir: path.join(repoRoot, "examples", "state-free"),
    config: {
      "neon-state-free:projectId": { value: emulator.seed.projectId },
      // Today's default first: the password in the state, encrypted.
      "neon-state-free:passwordInState": { value: "true" },
    },
    env: keyEnv(),
  });
  try {
    await temp.stack.up();
    const out = await outputs(temp);
    const first = await api.roles.revealPassword(out.projectId, out.branchId, "app");
    expect(await cli(temp, ["stack", "export", "--show-secrets"])).toContain(first);

    // Switched out of the state: dropped at this up, not reset; it still logs in.
    await temp.stack.setConfig("neon-state-free:passwordInState", { value: "false" });
    const before = resets();
    const off = await temp.stack.up();
    expect(off.summary.resourceChanges).toMatchObject({ update: 1 });
    const uri = await connectionString(out);
    expect(passwordOf(uri)).toBe(first);
    expect(await logsIn(uri)).toBe("app");
    const dropped = await everything(temp);
    for (const secret of [first, uri, emulator.apiKey]) expect(dropped).not.toContain(secret);

    // A rotation is made and waited for: the command prints the new string; the old password is refused.
    await temp.stack.setConfig("neon-state-free:passwordRotationTrigger", { value: "2" });
    await temp.stack.up();
    const rotated = await connectionString(out);
    const second = passwordOf(rotated);
    expect(second).not.toBe(first);
    expect(await logsIn(rotated)).toBe("app");
    expect((await psql(withPassword(rotated, first), "SELECT 1")).ok).toBe(false);
    const text = await everything(temp);
    for (const secret of [second, rotated, uri, emulator.apiKey]) expect(text).not.toContain(secret);
    expect(resets()).toBe(before + 1);

    // Back into the state: read once, not reset.
    await temp.stack.setConfig("neon-state-free:passwordInState", { value: "true" });
    await temp.stack.up();
    expect(await cli(temp, ["stack", "export", "--show-secrets"])).toContain(second);
    expect(resets()).toBe(before + 1);
    expect(await logsIn(rotated)).toBe("app");
    await temp.stack.destroy();
    await expect(api.branches.get(out.projectId, out.branchId)).rejects.toMatchObject({ kind: "not_found" });
  } finally {
    await temp.dispose();
  }
});

test("YAML (examples/state-free/yaml) through the plugin: no password, string or key in the state; the command's string logs in", async () => {
  const temp = await createTempStack({
    programDir: path.join(repoRoot, "examples", "state-free", "yaml"),
    config: { projectId: { value: emulator.seed.projectId } },
    env: { ...keyEnv(), PATH: pluginPath() },
  });
  try {
    await temp.stack.up();
    const out = await outputs(temp);
    const uri = await connectionString(out);
    expect(await logsIn(uri)).toBe("app");
    const text = await everything(temp);
    for (const secret of [passwordOf(uri), uri, emulator.apiKey]) expect(text).not.toContain(secret);
    await temp.stack.destroy();
    await expect(api.branches.get(out.projectId, out.branchId)).rejects.toMatchObject({ kind: "not_found" });
  } finally {
    await temp.dispose();
  }
});
