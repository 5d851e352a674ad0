/**
 * `getSchemaDiff` against the emulator with real Postgres behind it, over real HTTP: a preview branch
 * made from the default branch, a migration run through the connection string `getConnectionUri`
 * gives, and the schema difference against the parent (the default base) or a named base; an
 * unchanged branch gives an empty difference; the base is always sent; wrong arguments, and 404s, fail
 * naming what is wrong, found by reads. A database the PR's role owns and its parent lacks: its whole
 * schema as added lines once its role migrated it, none before.
 */
import * as pulumi from "@pulumi/pulumi";
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import {
  getConnectionUri,
  getSchemaDiff,
  getSchemaDiffOutput,
  withLookupClient,
} from "../../../provider/lookups";
import { psql } from "../../../scripts/lib/psql";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(180_000);

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let main: string;

withEmulator({ opMs: 100, seed: 95, postgres: true }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
  main = emulator.seed.defaultBranchId;
});
/** A branch of the default branch with its read_write compute, its operations finished. */
async function previewBranch(name: string): Promise<string> {
  const made = await api.branches.create(projectId, {
    branch: { name, parent_id: main },
    endpoints: [{ type: "read_write" }],
  });
  await api.waitForOperations(projectId, made.operations);
  return made.branch.id;
}

const lookup = <T>(fn: () => Promise<T>) => withLookupClient(api, fn);

test("a migration on the preview branch shows in the difference against its parent; an unchanged branch gives none", async () => {
  const base = await lookup(() =>
    getConnectionUri({ projectId, branchId: main, databaseName: "neondb", roleName: "neondb_owner" }),
  );
  expect((await psql(base.uri, "CREATE TABLE users (id bigint primary key, email text)")).error).toBe("");

  const pr = await previewBranch("pr-101");
  const untouched = await previewBranch("pr-102");
  const { uri } = await lookup(() =>
    getConnectionUri({ projectId, branchId: pr, databaseName: "neondb", roleName: "neondb_owner" }),
  );
  const migration = await psql(
    uri,
    "ALTER TABLE users ADD COLUMN name text NOT NULL DEFAULT ''; CREATE INDEX users_email ON users (email)",
  );
  expect(migration.error).toBe("");

  const changed = await lookup(() => getSchemaDiff({ projectId, branchId: pr, databaseName: "neondb" }));
  expect(changed.changed).toBe(true);
  expect(changed.diff).toMatch(/^\+    name text DEFAULT ''::text NOT NULL$/m);
  expect(changed.diff).toMatch(/^\+CREATE INDEX users_email ON public\.users USING btree \(email\);$/m);
  expect(changed.diff).not.toMatch(/^[-+]CREATE TABLE public\.users/m);

  const same = await lookup(() => getSchemaDiff({ projectId, branchId: untouched, databaseName: "neondb" }));
  expect(same).toEqual({ diff: "", changed: false });

  // Against another branch named as the base: the reverse of the migration, through the Output variant.
  const reverse = await lookup(
    () =>
      new Promise<{ diff: string; changed: boolean }>((resolve) =>
        getSchemaDiffOutput({
          projectId: pulumi.output(projectId),
          branchId: untouched,
          databaseName: "neondb",
          baseBranchId: pr,
        }).apply(resolve),
      ),
  );
  expect(reverse.changed).toBe(true);
  expect(reverse.diff).toMatch(/^-CREATE INDEX users_email/m);
});

test("wrong arguments fail naming the argument or the missing database, and a root branch needs a base", async () => {
  await expect(
    lookup(() => getSchemaDiff({ projectId, branchId: "", databaseName: "neondb" })),
  ).rejects.toThrow(/getSchemaDiff: branchId is required/);
  await expect(
    lookup(() => getSchemaDiff({ projectId, branchId: emulator.seed.branchIds[1], databaseName: "nope" })),
  ).rejects.toThrow(/the branch has no database "nope" \(its databases: neondb\)/);
  await expect(
    lookup(() => getSchemaDiff({ projectId, branchId: main, databaseName: "neondb" })),
  ).rejects.toThrow(/the branch has no parent \(it is the project's root branch\); give baseBranchId/);
  await expect(
    lookup(() => getSchemaDiff({ projectId, branchId: "br-gone-123456", databaseName: "neondb" })),
  ).rejects.toThrow(/branch br-gone-123456 does not exist in project/);
  await expect(
    lookup(() => getSchemaDiff({ projectId: "no-such-project-1", branchId: main, databaseName: "neondb" })),
  ).rejects.toThrow(/project no-such-project-1 does not exist, or the API key cannot see it/);
});

test("the base is named in the request, and a 404 is told apart by reads", async () => {
  const branchId = await previewBranch("schema-named-base");
  const compare = jest.spyOn(api.branches, "compareSchema");
  try {
    expect(await lookup(() => getSchemaDiff({ projectId, branchId, databaseName: "neondb" }))).toEqual({
      diff: "",
      changed: false,
    });
    // The parent, read and sent: not the service's unstated default.
    expect(compare.mock.calls[0][2]).toMatchObject({ databaseName: "neondb", baseBranchId: main });
  } finally {
    compare.mockRestore();
  }
  await expect(
    lookup(() =>
      getSchemaDiff({ projectId, branchId, databaseName: "neondb", baseBranchId: "br-nope-123456" }),
    ),
  ).rejects.toThrow(/the base branch br-nope-123456 does not exist in project .* \(check baseBranchId\)/);
});

test("the PR's role migrates the database it owns, which its parent lacks: the whole schema is new, and none before the migration", async () => {
  const branchId = await previewBranch("pr-own-db");
  const role = await api.roles.create(projectId, branchId, { name: "app" });
  await api.waitForOperations(projectId, role.operations);
  const db = await api.databases.create(projectId, branchId, { name: "app", owner_name: "app" });
  await api.waitForOperations(projectId, db.operations);
  const compare = jest.spyOn(api.branches, "compareSchema");
  const schema = jest.spyOn(api.branches, "schema");
  try {
    // A new database no migration touched: nothing to show.
    expect(await lookup(() => getSchemaDiff({ projectId, branchId, databaseName: "app" }))).toEqual({
      diff: "",
      changed: false,
    });
    const { uri } = await lookup(() =>
      getConnectionUri({ projectId, branchId, databaseName: "app", roleName: "app" }),
    );
    const migration = await psql(uri, "CREATE TABLE orders (id bigint PRIMARY KEY, total numeric(10,2))");
    expect(migration.error).toBe("");

    const { diff, changed } = await lookup(() => getSchemaDiff({ projectId, branchId, databaseName: "app" }));
    expect(changed).toBe(true);
    expect(diff).toMatch(/^--- a\/app\n\+\+\+ b\/app\n@@ -0,0 \+1,\d+ @@\n/);
    expect(diff).toMatch(/^\+CREATE TABLE public\.orders \($/m);
    expect(diff).toMatch(/^\+    total numeric\(10,2\)$/m);
    expect(diff).toMatch(/^\+    ADD CONSTRAINT orders_pkey PRIMARY KEY \(id\);$/m);
    // Every line after the headers is added: there is nothing on the parent's side.
    expect(
      diff
        .trimEnd()
        .split("\n")
        .slice(3)
        .filter((l) => !l.startsWith("+")),
    ).toEqual([]);
    // Decided by a read of the parent's databases; the comparison, which would answer 404, is not asked.
    expect(compare).not.toHaveBeenCalled();
    expect(schema.mock.calls.map((c) => [c[1], c[2].databaseName])).toEqual([
      [branchId, "app"],
      [branchId, "app"],
    ]);
  } finally {
    compare.mockRestore();
    schema.mockRestore();
  }
  // The same database on both sides: against a sibling that has one too, the change (a comparison).
  const sibling = await previewBranch("pr-own-db-sibling");
  const other = await api.roles.create(projectId, sibling, { name: "app" });
  await api.waitForOperations(projectId, other.operations);
  const siblingDb = await api.databases.create(projectId, sibling, { name: "app", owner_name: "app" });
  await api.waitForOperations(projectId, siblingDb.operations);
  const against = await lookup(() =>
    getSchemaDiff({ projectId, branchId, databaseName: "app", baseBranchId: sibling }),
  );
  expect(against.diff).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/m);
  expect(against.diff).toMatch(/^\+CREATE TABLE public\.orders \($/m);
  expect(against.diff).toMatch(/^ SET row_security = off;$/m);

  // A database on neither the branch nor its parent: the branch's read explains the 404.
  await expect(lookup(() => getSchemaDiff({ projectId, branchId, databaseName: "nope" }))).rejects.toThrow(
    /the branch has no database "nope" \(its databases: neondb, app\)/,
  );
});
