/**
 * `getSchemaDiff` against the emulator with real Postgres behind it, over real HTTP: a preview branch
 * made from the default branch, a migration run through the connection string `getConnectionUri`
 * gives, and the schema difference against the parent (the default base) or a named base; an
 * unchanged branch gives an empty difference; the base is always sent; wrong arguments, and 404s, fail
 * naming what is wrong, found by reads.
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
  const branchId = await previewBranch("schema-only-here");
  const made = await api.databases.create(projectId, branchId, { name: "prdb", owner_name: "neondb_owner" });
  await api.waitForOperations(projectId, made.operations);
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
  await expect(lookup(() => getSchemaDiff({ projectId, branchId, databaseName: "prdb" }))).rejects.toThrow(
    new RegExp(`its parent ${main} has no database "prdb": it exists on this branch only`),
  );
  await expect(
    lookup(() =>
      getSchemaDiff({ projectId, branchId, databaseName: "neondb", baseBranchId: "br-nope-123456" }),
    ),
  ).rejects.toThrow(/the base branch br-nope-123456 does not exist in project .* \(check baseBranchId\)/);
});
