/**
 * End to end (issue 18): a branch with its compute → a `Role` → a `Database` it owns → the
 * `getConnectionUri` lookup, under the real CLI against the emulator, through both faces: the
 * TypeScript example `examples/connect` (dynamic resources) and the YAML program that declares every
 * resource and lookup of the provider plugin (`yaml-program`: the same chain in a project it makes, with
 * a read replica, a project-scoped API key, a reviewer's permission and the other lookups beside it, and, on
 * the Scale plan, the organization's VPC endpoint, the project's restriction to it, a budget alert and a
 * JWKS for the branch's role: in one preview the alert's change is an update, the JWKS's new URL a
 * replacement (the new JWKS added before the old one goes); a refresh then reads the endpoint accepted
 * and `preview --expect-no-changes` passes; destroy removes the JWKS and leaves the organization as it
 * was; Neon Auth on the branch with a GitHub provider and a trusted domain, and the Data API of its
 * `neondb` with Neon Auth as provider: a user signed up through Neon Auth reads a table's rows from real
 * Postgres at the Data API's URL with the token it got, and without a token is refused 401; destroy
 * deletes the Data API and disables Neon Auth, each by its own resource; the OAuth client secret is
 * nowhere in plain text).
 * The emulator has real Postgres behind the compute: the exported connection string logs in with `psql`;
 * `getSchemaDiff` (an output of both programs) is empty for the new branch and, after a migration, the
 * next `up` shows the table it made: in the TypeScript program, the role's own database (which the parent
 * lacks: its whole schema, added), migrated as the role; in the YAML one, the inherited `neondb`.
 * A password rotation: the old password logs in before it, and once `up` returns only the new one
 * does (Postgres refuses the old one), with every id kept. A database rename: an update at preview,
 * not a replace, the database keeps its id and Postgres serves it under the new name. The passwords and the
 * connection URIs are secret outputs and appear nowhere else: not in `pulumi stack export`, not in any
 * state file of the backend, not in any line a command printed. A lookup the service answers 404 (the
 * schema diff of a database neither side has) fails the preview with its error once, in one line, with no
 * `PromiseRejectionHandledWarning`. In the TypeScript program, the branch then reaches an expiry set
 * outside the stack: a plain `pulumi preview` passes, each lookup of the gone branch unknown with one
 * warning (issue 53). Destroy removes the branch, the role and the database (or finds them gone with the
 * expired branch), and `pulumi stack rm` then succeeds without `--force`.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, repoRoot, type TempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { psql, withPassword } from "../../scripts/lib/psql";
import { mutationCount } from "../support/requests";
import { expectOneLineFailure, expectPassWithWarnings } from "./cli-diagnostics";
import { changedCounts, cli, cliRun, persisted, pluginPath } from "./plugin-helpers";

useStepBudgets();

let emulator: EmulatorHandle;
let api: NeonClient;

beforeAll(async () => {
  // Scale: the YAML program registers a VPC endpoint (private networking is on Scale).
  emulator = await startEmulator({ opMs: 60, seed: 43, postgres: true, plan: "scale" });
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
});

afterAll(async () => {
  await emulator?.stop();
});

/**
 * A client connecting with the stack's connection string and `password` (Postgres's answer): the
 * database it reached, or why not.
 */
async function login(
  uri: string,
  password: string,
): Promise<{ ok: boolean; reason?: string; database?: string }> {
  const r = await psql(withPassword(uri, password), "SELECT current_database()");
  return r.ok ? { ok: true, database: r.out } : { ok: false, reason: r.error };
}

const mutations = (route: string) => emulator.requestsByRoute()[route] ?? 0;
const DELETE_ROLE = "DELETE /projects/:project_id/branches/:branch_id/roles/:role_name";
const DELETE_DATABASE = "DELETE /projects/:project_id/branches/:branch_id/databases/:database_name";
const DELETE_PERMISSION = "DELETE /projects/:project_id/permissions/:permission_id";
const DELETE_DATA_API = "DELETE /projects/:project_id/branches/:branch_id/data-api/:database_name";
const DISABLE_AUTH = "DELETE /projects/:project_id/branches/:branch_id/auth";
const OAUTH_SECRET = "e2e-oauth-client-secret-7c1d9a";
const VPCE = "vpce-0123456789abcdef0";
const DELETE_JWKS = "DELETE /projects/:project_id/jwks/:jwks_id";
const JWKS_URL = "https://auth.example.com/.well-known/jwks.json";
const JWKS_URL2 = "https://auth.example.com/v2/jwks.json";

interface Outs {
  branchId: string;
  roleName: string;
  databaseName: string;
  databaseId: number;
  password: string;
  connectionUri: string;
  schemaChanged: boolean;
  schemaDiff: string;
  /** The YAML program's own project (the TypeScript example uses the seeded one). */
  projectId?: string;
  /** The YAML program's getRolePassword of the role. */
  revealedPassword?: string;
}

/** What differs between the two programs the chain runs on. */
interface Program {
  /** Resources the first `up` creates, the stack included. */
  creates: number;
  /** The types of the computes on the chain's branch, sorted. */
  computeTypes: string[];
  /** More checks on the first `up`'s outputs (in the project the chain runs in). */
  checkFirstUp?: (outputs: Record<string, unknown>, projectId: string) => Promise<void>;
  /** Roles on the chain's branch besides `app` (destroy deletes each). */
  moreRoles?: number;
  /** Secret outputs besides the password and the connection string. */
  moreSecrets: string[];
  /** Secret inputs of the program (given as secret config): nowhere in plain text either. */
  secretInputs?: string[];
  /**
   * The database `getSchemaDiff` reads: the role's own `app`, which the parent lacks (migrated as the
   * role, through the exported connection string), or `neondb`, inherited (migrated as its owner).
   */
  schemaDatabase: "app" | "neondb";
  /** Before destroy, the branch reaches an expiry set outside the stack, and a plain preview passes. */
  expires?: boolean;
  /** More steps after the rename (on the stack; `capture` takes what a command prints). */
  afterRename?: (capture: (s: string) => void) => Promise<void>;
}

/**
 * The whole story on one stack: create, rotate (to the trigger `nextRotation`), rename, scan for
 * secrets, destroy, `stack rm`. `transcript` gets every line every command printed.
 */
async function connectChain(
  temp: TempStack,
  branchName: string,
  nextRotation: string,
  program: Program,
): Promise<void> {
  let projectId = emulator.seed.projectId;
  let transcript = "";
  const capture = (s: string) => {
    transcript += s;
  };
  const run = async (args: string[]) => {
    const out = await cli(temp, args);
    transcript += out;
    return out;
  };
  const outputs = async (): Promise<Outs> => {
    const all = await temp.stack.outputs();
    // The password and the connection string are secret outputs; the ids and names are not.
    for (const name of ["password", "connectionUri", ...program.moreSecrets])
      expect(all[name]?.secret).toBe(true);
    expect([all.branchId?.secret, all.databaseId?.secret]).toEqual([false, false]);
    return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v.value])) as unknown as Outs;
  };
  /** The ids the stack keeps for the branch, the role and the database (by resource name). */
  const stackIds = async (): Promise<Record<string, string>> => {
    const { deployment } = await temp.stack.exportStack();
    const resources = (deployment.resources ?? []) as { urn: string; type: string; id?: string }[];
    const ids = resources
      .filter((r) => /(Branch|Role|Database)$/.test(r.type))
      .map((r) => [r.urn.split("::").pop() as string, String(r.id)])
      .filter(([name]) => name !== "masked" && name !== "stateless");
    expect(ids.map(([name]) => name).sort()).toEqual(["app", "appdb", "env"]);
    return Object.fromEntries(ids);
  };
  const databases = async (branchId: string) =>
    (await api.databases.list(projectId, branchId)).map((d) => ({
      id: d.id,
      name: d.name,
      owner: d.owner_name,
    }));

  // --- create: branch with its compute → role → database → connection string ---------------
  const up = await temp.stack.up({ onOutput: capture, onError: capture });
  expect(changedCounts(up.summary.resourceChanges ?? {})).toEqual({ create: program.creates }); // with the stack
  const first = await outputs();
  projectId = first.projectId ?? projectId;
  expect([first.roleName, first.databaseName]).toEqual(["app", "app"]);
  const branch = await api.branches.get(projectId, first.branchId);
  expect([branch.name, branch.current_state]).toEqual([branchName, "ready"]);
  const computes = await api.endpoints.listByBranch(projectId, branch.id);
  expect(computes.map((e) => e.type).sort()).toEqual(program.computeTypes);
  expect(computes.every((e) => e.current_state === "active")).toBe(true);
  // The first up's outputs as read above: every output of the program, not only the chain's.
  await program.checkFirstUp?.(first as unknown as Record<string, unknown>, projectId);
  expect((await api.roles.get(projectId, branch.id, "app")).name).toBe("app");
  expect(await databases(branch.id)).toContainEqual({ id: first.databaseId, name: "app", owner: "app" });
  const uri1 = new URL(first.connectionUri);
  expect([uri1.protocol, uri1.username, uri1.password, uri1.pathname]).toEqual([
    "postgresql:",
    "app",
    first.password,
    "/app",
  ]);
  expect(await login(first.connectionUri, first.password)).toEqual({ ok: true, database: "app" });
  const ids = await stackIds();
  expect([ids.env, ids.app, ids.appdb]).toEqual([
    branch.id,
    `${projectId}/${branch.id}/app`,
    String(first.databaseId),
  ]);
  const roleCreatedAt = (await api.roles.get(projectId, branch.id, "app")).created_at;
  expect(roleCreatedAt).toEqual(expect.any(String));
  const unchanged = await temp.stack.preview({ onOutput: capture, onError: capture });
  expect(unchanged.changeSummary).toEqual({ same: program.creates });

  // A lookup the service answers 404 fails the preview, as `up` would, in one line: the schema diff of a
  // database neither the branch nor its parent has. Nothing is sent that changes anything.
  await temp.stack.setConfig("schemaDatabase", { value: "nodb" });
  const sent = mutationCount(emulator);
  const noDatabase = await cliRun(temp, ["preview", "--color", "never"]);
  transcript += noDatabase.out;
  expectOneLineFailure(
    noDatabase,
    /Failed to compare the schema of database "nodb" .*: the branch has no database "nodb"/,
  );
  expect(mutationCount(emulator)).toBe(sent);
  await temp.stack.removeConfig("schemaDatabase");

  // An unchanged branch: no schema difference against its parent (for `app`: a new, empty database).
  expect([first.schemaChanged, first.schemaDiff]).toEqual([false, ""]);
  // A migration; the next up's lookup shows what it changed.
  const migrateAs =
    program.schemaDatabase === "app"
      ? first.connectionUri
      : await api.projects.connectionUri(projectId, {
          branchId: branch.id,
          databaseName: "neondb",
          roleName: "neondb_owner",
        });
  expect((await psql(migrateAs, "CREATE TABLE orders (id bigint PRIMARY KEY, note text)")).error).toBe("");

  // --- (a) password rotation: the old password worked before, only the new one after --------
  const oldPassword = first.password;
  expect((await login(first.connectionUri, oldPassword)).ok).toBe(true);
  await temp.stack.setConfig("passwordRotationTrigger", { value: nextRotation });
  const rotated = await temp.stack.up({ onOutput: capture, onError: capture });
  expect(changedCounts(rotated.summary.resourceChanges ?? {})).toEqual({ update: 1 });
  const second = await outputs();
  const newPassword = second.password;
  expect(typeof newPassword).toBe("string");
  expect(newPassword).not.toBe(oldPassword);
  expect((await login(second.connectionUri, newPassword)).ok).toBe(true);
  const refused = await login(second.connectionUri, oldPassword);
  expect(refused.ok).toBe(false);
  expect(refused.reason).toMatch(/password authentication failed for user "app"/);
  expect([second.branchId, second.roleName, second.databaseId, second.databaseName]).toEqual([
    first.branchId,
    first.roleName,
    first.databaseId,
    first.databaseName,
  ]);
  expect(await stackIds()).toEqual(ids);
  // The same role, not a new one of the same name.
  expect((await api.roles.get(projectId, branch.id, "app")).created_at).toBe(roleCreatedAt);
  // getSchemaDiff ran at this up, after the migration: the table is the branch's change.
  expect(second.schemaChanged).toBe(true);
  const db = program.schemaDatabase;
  expect(second.schemaDiff.startsWith(`--- a/${db}\n+++ b/${db}\n`)).toBe(true);
  expect(second.schemaDiff).toMatch(/^\+CREATE TABLE public\.orders \($/m);
  // The parent has no `app`: its whole schema is new, every line added.
  if (db === "app") expect(second.schemaDiff).toMatch(/^--- a\/app\n\+\+\+ b\/app\n@@ -0,0 \+1,\d+ @@\n/);
  // The lookup ran after the rotation: its connection string carries the new password.
  expect(new URL(second.connectionUri).password).toBe(newPassword);
  if (program.moreSecrets.includes("revealedPassword")) expect(second.revealedPassword).toBe(newPassword);

  // --- (b) database rename: an update in place, the id stays ---------------------------------
  await temp.stack.setConfig("databaseName", { value: "app_renamed" });
  let diff = "";
  const preview = await temp.stack.preview({
    diff: true,
    onOutput: (s) => (diff += s),
    onError: (s) => (diff += s),
  });
  transcript += diff;
  expect(changedCounts(preview.changeSummary)).toEqual({ update: 1 });
  expect(diff).toMatch(/~ .*Database: \(update\)/);
  expect(diff).toMatch(/~ name\s*: "app" => "app_renamed"/);
  expect(diff).not.toMatch(/replace|\+-|-\+/i);
  const renamed = await temp.stack.up({ onOutput: capture, onError: capture });
  expect(changedCounts(renamed.summary.resourceChanges ?? {})).toEqual({ update: 1 });
  const third = await outputs();
  expect([third.databaseId, third.databaseName, third.branchId]).toEqual([
    first.databaseId,
    "app_renamed",
    first.branchId,
  ]);
  const afterRename = await databases(branch.id);
  expect(afterRename).toContainEqual({ id: first.databaseId, name: "app_renamed", owner: "app" });
  expect(afterRename.map((d) => d.name)).not.toContain("app");
  expect(await stackIds()).toEqual(ids);
  expect(new URL(third.connectionUri).pathname).toBe("/app_renamed");
  expect(new URL(third.connectionUri).password).toBe(newPassword);
  // Postgres serves the database under its new name.
  expect(await login(third.connectionUri, newPassword)).toEqual({ ok: true, database: "app_renamed" });
  expect((await login(first.connectionUri, newPassword)).reason).toMatch(/database "app" does not exist/);

  await program.afterRename?.(capture);

  // --- (c) the secrets are nowhere but the secret outputs -----------------------------------
  const secrets = [
    ...(program.secretInputs ?? []),
    oldPassword,
    newPassword,
    first.connectionUri,
    second.connectionUri,
    third.connectionUri,
    ...program.moreSecrets.flatMap((name) => {
      const value = String((third as unknown as Record<string, unknown>)[name]);
      // A connection string's password is a secret of its own.
      return URL.canParse(value) && new URL(value).password ? [value, new URL(value).password] : [value];
    }),
  ];
  const everything = await persisted(temp);
  transcript += await run(["stack", "output"]); // as a user lists the outputs: [secret]
  expect(everything).toContain("connectionUri");
  // What is stored of the password and the connection string is ciphertext.
  expect(everything).toMatch(/"password":\s*\{[^}]*"ciphertext"/);
  expect(everything).toMatch(/"connectionUri":\s*\{[^}]*"ciphertext"/);
  for (const secret of [...secrets, emulator.apiKey]) {
    expect(everything).not.toContain(secret);
    expect(transcript).not.toContain(secret);
  }

  // --- (d) the branch expires: a plain preview passes -----------------------------------------
  if (program.expires) {
    // An expiry set outside the stack, then passed on the service's clock: the service deletes the
    // branch, its role and its database. The pull request's preview (no refresh) still passes: the
    // lookups of the gone branch are unknown, each with one warning.
    const at = new Date(emulator.clock.now() + 60_000).toISOString();
    await api.branches.update(projectId, branch.id, { expires_at: at });
    emulator.clock.advance(120_000);
    await expect(api.branches.get(projectId, branch.id)).rejects.toMatchObject({ kind: "not_found" });
    const expired = await cliRun(temp, ["preview", "--color", "never"]);
    transcript += expired.out;
    const gone = `the result is unknown in this preview: branch ${branch.id} is gone .*pulumi refresh. drops it`;
    expectPassWithWarnings(expired, [
      new RegExp(`getConnectionUri: ${gone}`),
      new RegExp(`getSchemaDiff: ${gone}`),
    ]);
  }

  // --- (e) destroy removes branch, role and database; the stack is removed -------------------
  const deletes = [mutations(DELETE_DATABASE), mutations(DELETE_ROLE)];
  await temp.stack.destroy({ onOutput: capture, onError: capture });
  // Each was deleted by its own resource, the database before the role that owns it (the service
  // refuses to delete a role that owns a database), then the branch. (After the branch expired, the
  // service had deleted them all with it: destroy finds them gone.)
  if (!program.expires) {
    expect([mutations(DELETE_DATABASE), mutations(DELETE_ROLE)]).toEqual([
      deletes[0] + 1,
      deletes[1] + 1 + (program.moreRoles ?? 0),
    ]);
  }
  await expect(api.branches.get(projectId, branch.id)).rejects.toMatchObject({ kind: "not_found" });
  await expect(api.roles.get(projectId, branch.id, "app")).rejects.toMatchObject({ kind: "not_found" });
  await expect(api.databases.list(projectId, branch.id)).rejects.toMatchObject({ kind: "not_found" });
  if (first.projectId) {
    // The program's own project went last, with everything in it.
    await expect(api.projects.get(projectId)).rejects.toMatchObject({ kind: "not_found" });
  } else {
    expect((await api.branches.list(projectId)).map((b) => b.name)).not.toContain(branchName);
  }
  expect((await login(third.connectionUri, newPassword)).ok).toBe(false);
  await run(["stack", "rm", "--yes"]); // no --force: destroy left nothing in the stack
  expect((await temp.stack.workspace.listStacks()).map((s) => s.name)).not.toContain(temp.stack.name);

  // Nothing the backend keeps (history, backups) and no line printed holds a secret.
  const left = fs
    .readdirSync(temp.backendDir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(temp.backendDir, f))
    .filter((f) => fs.statSync(f).isFile())
    .map((f) => fs.readFileSync(f, "utf8"))
    .join("\n");
  for (const secret of secrets) {
    expect(left).not.toContain(secret);
    expect(transcript).not.toContain(secret);
  }
}

test("TypeScript (examples/connect): branch → role → database → connection string; rotate, rename, secrets, destroy", async () => {
  const temp = await createTempStack({
    programDir: path.join(repoRoot, "examples", "connect"),
    config: {
      "neon-connect:projectId": { value: emulator.seed.projectId },
      "neon-connect:branchName": { value: "connect-ts" },
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    },
    env: { NEON_API_KEY: "" },
  });
  try {
    await connectChain(temp, "connect-ts", "2", {
      creates: 4,
      computeTypes: ["read_write"],
      moreSecrets: [],
      schemaDatabase: "app",
      expires: true,
    });
  } finally {
    await temp.dispose();
  }
});

test("YAML through the plugin, every resource and lookup in one program: the chain in its own project, with a replica, a key and a reviewer", async () => {
  const { orgId } = emulator.seed;
  const temp = await createTempStack({
    programDir: path.join(__dirname, "yaml-program"),
    config: {
      "neoncompute:apiUrl": { value: emulator.url },
      "neoncompute:apiKey": { value: emulator.apiKey, secret: true },
      orgId: { value: orgId },
      branchName: { value: "connect-yaml" },
      oauthClientSecret: { value: OAUTH_SECRET, secret: true },
      maskParentProjectId: { value: emulator.seed.projectId },
      maskParentBranchId: { value: emulator.seed.branchIds[0] },
    },
    env: { PATH: pluginPath(), NEON_API_KEY: "" },
  });
  // The rows the anonymized branch masks, on its parent (the seeded project's default branch).
  const seedOwner = (branchId: string) =>
    api.projects.connectionUri(emulator.seed.projectId, {
      branchId,
      databaseName: "neondb",
      roleName: "neondb_owner",
    });
  const CUSTOMERS = "SELECT string_agg(email || '|' || name, ',' ORDER BY id) FROM customers";
  expect(
    (
      await psql(
        await seedOwner(emulator.seed.branchIds[0]),
        "CREATE TABLE customers (id int PRIMARY KEY, email text, name text); " +
          "INSERT INTO customers VALUES (1, 'ada@corp.example', 'Ada'), (2, 'bob@corp.example', 'Bob')",
      )
    ).error,
  ).toBe("");
  let keyId = 0;
  let jwksId = "";
  let appProject = "";
  // The organization as it was: destroy leaves it so.
  const orgBefore = async () => ({
    vpcEndpoints: await api.organizations.vpcEndpoints(orgId),
    spendingLimit: await api.organizations.spendingLimit(orgId),
  });
  const before = await orgBefore();
  try {
    await connectChain(temp, "connect-yaml", "rotation-2", {
      // project, branch (with its compute), replica, role, database, key, permission, snapshot,
      // snapshot schedule, VPC endpoint, the project's restriction, budget alert, Neon Auth, Data API,
      // JWKS, an anonymized branch (in the seeded project), a state-free role, and the stack
      creates: 18,
      moreRoles: 1,
      computeTypes: ["read_only", "read_write"],
      moreSecrets: ["projectConnectionUri", "token", "authServerKey", "revealedPassword"],
      // The masking rules are secret inputs too (Neon's document marks them sensitive).
      secretInputs: [OAUTH_SECRET, "anon.fake_email()"],
      schemaDatabase: "neondb",
      checkFirstUp: async (out, projectId) => {
        // passwordInState: false — the role logs in with its password, which the state never held.
        const stateless = await api.roles.revealPassword(projectId, String(out.branchId), "stateless");
        expect(
          (
            await login(
              await api.projects.connectionUri(projectId, {
                branchId: String(out.branchId),
                databaseName: "neondb",
                roleName: "stateless",
              }),
              stateless,
            )
          ).ok,
        ).toBe(true);
        expect(await cli(temp, ["stack", "export", "--show-secrets"])).not.toContain(stateless);
        const named: string[] = [];
        for await (const p of api.projects.list({ search: "e2e-yaml-app" })) {
          if (p.name === "e2e-yaml-app") named.push(p.id);
        }
        expect(named).toEqual([projectId]);
        expect(out.revealedPassword).toBe(out.password);
        expect([out.pgVersion, (await api.projects.get(projectId)).pg_version]).toEqual([19, 19]);
        const replica = await api.endpoints.get(projectId, String(out.replicaId));
        expect([replica.branch_id, replica.type]).toEqual([out.branchId, "read_only"]);
        const compute = await api.endpoints.get(projectId, String(out.computeId));
        expect([compute.branch_id, compute.type, compute.autoscaling_limit_max_cu]).toEqual([
          out.branchId,
          "read_write",
          0.5,
        ]);
        expect((out.computesOnBranch as { endpointId: string }[]).map((c) => c.endpointId)).toContain(
          out.computeId,
        );
        expect((out.projectsNamed as { id: string }[]).map((p) => p.id)).toEqual([projectId]);
        expect((out.projectBranches as { branchId: string }[]).map((b) => b.branchId)).toContain(
          out.branchId,
        );
        expect(out.primaryType).toBe("read_write");
        const operations = out.primaryOperations as { endpointId?: string }[];
        expect(operations.length).toBeGreaterThan(0);
        expect(operations.every((o) => o.endpointId === out.computeId)).toBe(true);
        keyId = Number(out.keyId);
        expect((await api.apiKeys.listOrg(orgId)).map((k) => k.id)).toContain(keyId);
        expect((await api.permissions.list(projectId)).map((g) => g.granted_to_email)).toEqual([
          "reviewer@example.com",
        ]);
        const snapshots = await api.snapshots.list(projectId);
        expect(snapshots.map((x) => [x.id, x.source_branch_id])).toEqual([[out.snapshotId, out.branchId]]);
        expect(await api.snapshots.getSchedule(projectId, String(out.branchId))).toEqual([
          { frequency: "daily", hour: 3, retention_seconds: 86400 },
        ]);
        expect(await api.organizations.vpcEndpoints(orgId)).toEqual([
          { vpc_endpoint_id: VPCE, label: "app-vpc", region_id: "aws-us-east-2" },
        ]);
        // `new` until the service accepts the connection (the emulator: one operation's time later).
        expect(["new", "accepted"]).toContain(out.vpcEndpointState);
        expect(await api.organizations.projectVpcEndpoints(projectId)).toEqual([
          { vpc_endpoint_id: VPCE, label: "app only" },
        ]);
        expect([out.budgetCents, await api.organizations.spendingLimit(orgId)]).toEqual([50000, 50000]);
        const branchId = String(out.branchId);
        const auth = await api.neonAuth.get(projectId, branchId);
        expect([auth.db_name, auth.jwks_url, auth.base_url]).toEqual([
          "neondb",
          out.authJwksUrl,
          out.authBaseUrl,
        ]);
        expect(await api.neonAuth.domains(projectId, branchId)).toEqual(["https://app.example.com"]);
        expect(await api.neonAuth.oauthProviders(projectId, branchId)).toEqual([
          { id: "github", type: "standard", client_id: "e2e-github-client" },
        ]);
        const dataApi = await api.dataApi.get(projectId, branchId, "neondb");
        expect([dataApi.url, dataApi.settings?.db_max_rows]).toEqual([out.dataApiUrl, 100]);
        // The JWKS of the branch, for its role (which the service was asked not to create: the Role made it).
        expect(
          (await api.jwks.list(projectId)).map((j) => [
            j.id,
            j.jwks_url,
            j.branch_id,
            j.provider_name,
            j.role_names,
          ]),
        ).toEqual([[out.jwksId, JWKS_URL, out.branchId, "Clerk", ["app"]]]);
        [jwksId, appProject] = [String(out.jwksId), projectId];
        // The anonymized branch: its copy of the rows masked by its two rules, its parent's intact.
        const masked = (await psql(await seedOwner(String(out.maskedBranchId)), CUSTOMERS)).out
          .trim()
          .split(",");
        expect(masked.map((r) => r.split("|")[1])).toEqual(["REDACTED", "REDACTED"]);
        expect(masked.some((r) => r.includes("corp.example"))).toBe(false);
        expect((await psql(await seedOwner(emulator.seed.branchIds[0]), CUSTOMERS)).out.trim()).toBe(
          "ada@corp.example|Ada,bob@corp.example|Bob",
        );
      },
      afterRename: async (capture) => {
        // The Data API's URL serves the rows of `orders` (the migration's table in neondb) from real
        // Postgres to a user Neon Auth signed up, and refuses a request without a token.
        const out = Object.fromEntries(
          Object.entries(await temp.stack.outputs()).map(([k, v]) => [k, v.value as unknown]),
        );
        const owner = await api.projects.connectionUri(String(out.projectId), {
          branchId: String(out.branchId),
          databaseName: "neondb",
          roleName: "neondb_owner",
        });
        expect((await psql(owner, "INSERT INTO orders VALUES (1, 'first'), (2, 'second')")).error).toBe("");
        const signUp = await fetch(`${String(out.authBaseUrl)}/sign-up/email`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "user@example.com", password: "a-long-password", name: "User" }),
        });
        expect(signUp.status).toBe(200);
        const { token } = (await signUp.json()) as { token: string };
        const rows = await fetch(`${String(out.dataApiUrl)}/orders`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(rows.status).toBe(200);
        expect(await rows.json()).toEqual([
          { id: 1, note: "first" },
          { id: 2, note: "second" },
        ]);
        expect((await fetch(`${String(out.dataApiUrl)}/orders`)).status).toBe(401);

        // The budget alert changes in place: the preview shows an update, not a replacement; the JWKS's
        // new URL, a replacement (the service changes no JWKS), the new one added first.
        await temp.stack.setConfig("budgetCents", { value: "75000" });
        await temp.stack.setConfig("jwksUrl", { value: JWKS_URL2 });
        // A changed masking rule, triggered: an update of the anonymized branch, applied by the up.
        await temp.stack.setConfig("maskedName", { value: "'withheld'" });
        await temp.stack.setConfig("maskTrigger", { value: "second" });
        let diff = "";
        const preview = await temp.stack.preview({
          diff: true,
          onOutput: (s) => (diff += s),
          onError: (s) => (diff += s),
        });
        capture(diff);
        expect(changedCounts(preview.changeSummary)).toEqual({ update: 2, replace: 1 });
        expect(diff).toMatch(/~ .*SpendingLimit: \(update\)/);
        expect(diff).toMatch(/~ limitCents\s*: 50000 => 75000/);
        expect(diff).not.toMatch(/SpendingLimit: \(replace\)/);
        expect(diff).toMatch(/\+-.*ProjectJwks: \(replace\)/);
        expect(diff).toMatch(
          /~ jwksUrl\s*: "https:\/\/auth\.example\.com\/\.well-known\/jwks\.json" => "https:\/\/auth\.example\.com\/v2\/jwks\.json"/,
        );
        const deletedBefore = mutations(DELETE_JWKS);
        const changed = await temp.stack.up({ onOutput: capture, onError: capture });
        expect(changedCounts(changed.summary.resourceChanges ?? {})).toEqual({ update: 2, replace: 1 });
        expect(await api.organizations.spendingLimit(orgId)).toBe(75000);
        const maskedId = String((await temp.stack.outputs()).maskedBranchId.value);
        expect(
          (
            await psql(await seedOwner(maskedId), "SELECT string_agg(name, ',' ORDER BY id) FROM customers")
          ).out.trim(),
        ).toBe("withheld,withheld");
        const [replaced, ...more] = await api.jwks.list(appProject);
        expect(more).toEqual([]);
        expect([replaced.jwks_url, replaced.id === jwksId]).toEqual([JWKS_URL2, false]);
        expect(mutations(DELETE_JWKS)).toBe(deletedBefore + 1);
        // A refresh reads every resource (the endpoint accepted since); then nothing is left to change.
        await temp.stack.refresh({ onOutput: capture, onError: capture });
        const { deployment } = await temp.stack.exportStack();
        const appVpc = (deployment.resources as { type: string; outputs?: Record<string, unknown> }[]).find(
          (r) => r.type === "neoncompute:index:VpcEndpoint",
        );
        expect(appVpc?.outputs).toMatchObject({ endpointState: "accepted", label: "app-vpc" });
        capture(await cli(temp, ["preview", "--expect-no-changes", "--color", "never"]));
      },
    });
    // The project-scoped key was revoked and the reviewer's grant withdrawn by their own resources
    // before the project went (the project's delete would take the grant with it).
    expect(mutations(DELETE_PERMISSION)).toBe(1);
    // The Data API deleted and Neon Auth disabled by their own resources, before the project went.
    expect([mutations(DELETE_DATA_API), mutations(DISABLE_AUTH)]).toEqual([1, 1]);
    // The JWKS too: the old one after its replacement was added, then the new one by destroy.
    expect(mutations(DELETE_JWKS)).toBe(2);
    // The endpoint removed, the alert removed: the organization as it was.
    expect(await orgBefore()).toEqual(before);
    expect(keyId).toBeGreaterThan(0);
    expect((await api.apiKeys.listOrg(orgId)).map((k) => k.id)).not.toContain(keyId);
  } finally {
    await temp.dispose();
  }
});
