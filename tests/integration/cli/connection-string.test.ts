/**
 * The shipped command `neon-connection-string` (bin/, over the built dist/), run as a child process
 * against the emulator with real Postgres behind it: the string it prints logs in with psql, on the
 * default branch or a named one, pooled or not, and follows a rotation; an unknown role, a project that
 * does not store passwords and a missing key fail on stderr with exit 1 and nothing on stdout; wrong
 * arguments exit 2; `--help` prints the usage. No output ever carries the key, nor a password of a
 * failed run.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { psql } from "../../../scripts/lib/psql";
import { projectWithoutPasswords, withEmulator } from "../../support/emulator";

jest.setTimeout(120_000);

const command = path.resolve(__dirname, "../../../bin/neon-connection-string");

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let main: string;

withEmulator({ opMs: 100, seed: 591, postgres: true }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
  main = emulator.seed.defaultBranchId;
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command (async: the emulator's computes live in this process) with the emulator's key and URL. */
function run(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    NEON_API_KEY: emulator.apiKey,
    NEON_API_URL: emulator.url,
    // The launcher runs `node`: the one running these tests.
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
    ...env,
  };
  for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
  return new Promise((resolve) => {
    execFile(command, args, { env: childEnv, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
      const r = { code, stdout: String(stdout), stderr: String(stderr) };
      // Whatever happens, the key never shows.
      expect(`${r.stdout}${r.stderr}`).not.toContain(emulator.apiKey);
      resolve(r);
    });
  });
}

test("prints a connection string that logs in, on the default or a named branch, pooled or not; it follows a rotation", async () => {
  const plain = await run(["--project", projectId, "--role", "neondb_owner", "--database", "neondb"]);
  expect(plain).toMatchObject({ code: 0, stderr: "" });
  expect(plain.stdout).toMatch(/^postgresql:\/\/neondb_owner:[^@\s]+@[^/\s]+\/neondb\?sslmode=require\n$/);
  const uri = plain.stdout.trim();
  expect(uri).toBe(
    await api.projects.connectionUri(projectId, { databaseName: "neondb", roleName: "neondb_owner" }),
  );
  expect(await psql(uri, "SELECT current_user")).toMatchObject({ ok: true, out: "neondb_owner" });

  const named = await run([
    `--project=${projectId}`,
    `--branch=${main}`,
    "--role=neondb_owner",
    "--database=neondb",
    "--pooled",
  ]);
  expect(named.code).toBe(0);
  // With real Postgres behind it the emulator's pooler host is the compute's own (the flag's parse: unit test).
  expect(named.stdout.trim()).toBe(
    await api.projects.connectionUri(projectId, {
      branchId: main,
      databaseName: "neondb",
      roleName: "neondb_owner",
      pooled: true,
    }),
  );
  expect(await psql(named.stdout.trim(), "SELECT 1")).toMatchObject({ ok: true, out: "1" });

  // A compute named alone: the string of its own branch (the password read there, not on the default).
  const other = await api.branches.create(projectId, {
    branch: { name: "cli-other" },
    endpoints: [{ type: "read_write" }],
  });
  await api.waitForOperations(projectId, other.operations);
  const compute = String(other.endpoints?.[0]?.id);
  const alone = await run([
    "--project",
    projectId,
    "--compute",
    compute,
    "--role",
    "neondb_owner",
    "--database",
    "neondb",
  ]);
  expect(alone).toMatchObject({ code: 0, stderr: "" });
  expect(alone.stdout.trim()).toBe(
    await api.projects.connectionUri(projectId, {
      branchId: other.branch.id,
      endpointId: compute,
      databaseName: "neondb",
      roleName: "neondb_owner",
    }),
  );

  const reset = await api.roles.resetPassword(projectId, main, "neondb_owner");
  await api.waitForOperations(projectId, reset.operations);
  const rotated = await run(["--project", projectId, "--role", "neondb_owner", "--database", "neondb"]);
  expect(rotated.code).toBe(0);
  expect(rotated.stdout.trim()).not.toBe(uri);
  expect(await psql(rotated.stdout.trim(), "SELECT 1")).toMatchObject({ ok: true, out: "1" });
  expect((await psql(uri, "SELECT 1")).ok).toBe(false);
});

test("an unknown role, a project that does not store passwords, and a missing key: exit 1, the reason on stderr", async () => {
  const unknown = await run(["--project", projectId, "--role", "nope", "--database", "neondb"]);
  expect(unknown).toMatchObject({ code: 1, stdout: "" });
  expect(unknown.stderr).toMatch(
    new RegExp(
      `^neon-connection-string: Failed to .*roleName "nope" is not a role of branch ${main} \\(its roles: neondb_owner\\)\\.\\n$`,
    ),
  );

  const made = await projectWithoutPasswords(emulator, api, "nostore");
  const nostore = await run(["--project", made.projectId, "--role", "neondb_owner", "--database", "neondb"]);
  expect(nostore).toMatchObject({ code: 1, stdout: "" });
  expect(nostore.stderr).toMatch(
    new RegExp(
      `^neon-connection-string: Failed to read the password of role "neondb_owner" of branch ` +
        `${made.branchId}: project ${made.projectId} does not store role passwords .*Rotate it`,
    ),
  );
  const password = made.roles.find((r) => r.name === "neondb_owner")?.password;
  expect(password).toEqual(expect.any(String));
  expect(nostore.stderr).not.toContain(password);

  const keyless = await run(["--project", projectId, "--role", "neondb_owner", "--database", "neondb"], {
    NEON_API_KEY: undefined,
  });
  expect(keyless).toMatchObject({ code: 1, stdout: "" });
  expect(keyless.stderr).toMatch(/no API key is set\. Set the NEON_API_KEY environment variable/);
});

test("wrong arguments exit 2 naming them, with nothing sent; --help prints the usage", async () => {
  const before = emulator.requestCount();
  const missing = await run(["--project", projectId]);
  expect(missing).toMatchObject({ code: 2, stdout: "" });
  expect(missing.stderr).toMatch(/--role and --database are required\. See `neon-connection-string --help`/);
  const unknownFlag = await run(["--project", projectId, "--role", "a", "--database", "b", "--rol", "x"]);
  expect(unknownFlag.code).toBe(2);
  expect(unknownFlag.stderr).toMatch(/--rol/);
  expect(emulator.requestCount()).toBe(before);

  const help = await run(["--help"]);
  expect(help).toMatchObject({ code: 0, stderr: "" });
  expect(help.stdout).toMatch(/^Usage: neon-connection-string --project <id> \[--branch <id>\]/);
  expect(help.stdout).toMatch(/NEON_API_KEY/);
});
