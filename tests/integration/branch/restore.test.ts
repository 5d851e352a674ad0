/**
 * A restore declared on a `Branch` (`restoreFrom`, docs/decisions/0021) against the emulator with real
 * Postgres, the steps called in the engine's order for a create-first replacement of the Branch with a
 * Role, a Database, a Compute and a Snapshot that name it: the rows dropped after the snapshot are back
 * through the same compute, one restore and one finalize, the dependents taken over (no role or database
 * created, no compute moved by a request), the original deleted or kept; a run killed after the restore
 * or after the finalize finished by the next without a second restore; an unknown snapshot refused at
 * preview with nothing sent.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { restoreNames } from "../../../provider/resources/branch/restore";
import { options } from "../../../provider/resources/classes";
import { resourceKind } from "../../../provider/registry";
import { boundProgram, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";
import { psql, withPassword } from "../../../scripts/lib/psql";

jest.setTimeout(240_000);

type Props = Record<string, unknown>;
type Program = ReturnType<typeof boundProgram>;

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let logs: string[] = [];

withEmulator({ opMs: 40, seed: 55, postgres: true }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
});

const program = (): Program =>
  boundProgram(
    ["Branch", "Role", "Database", "Compute", "Snapshot"],
    { apiKey: emulator.apiKey, apiUrl: emulator.url },
    (l) => logs.push(l),
  );

const routes = () => emulator.requestsByRoute();
const count = (route: string) => routes()[route] ?? 0;
const RESTORE = "POST /projects/:project_id/snapshots/:snapshot_id/restore";
const FINALIZE = "POST /projects/:project_id/branches/:branch_id/finalize_restore";

/** A resource as the engine makes it: check, then create. */
async function make(p: Program, type: string, name: string, inputs: Props) {
  const c = await p[type].check({}, { projectId, __provider: "shim", __urn: urnOf(type, name), ...inputs });
  expect(c.failures ?? []).toEqual([]);
  const r = await p[type].create(c.inputs);
  return { id: r.id, outs: r.outs as Props, inputs: c.inputs };
}

/** The Branch's part of the plan of a restore: check and diff against its state (nothing sent). */
async function planBranch(p: Program, name: string, state: { id: string; outs: Props }, news: Props) {
  const c = await p.Branch.check(state.outs, { __provider: "shim", __urn: urnOf("Branch", name), ...news });
  expect(c.failures ?? []).toEqual([]);
  return { checked: c.inputs, diff: await p.Branch.diff(state.id, state.outs, c.inputs) };
}

/** The replacement's create, as the engine asks for it: its check without olds, then create. */
async function createReplacement(p: Program, name: string, news: Props) {
  const c = await p.Branch.check({}, { __provider: "shim", __urn: urnOf("Branch", name), ...news });
  expect(c.failures ?? []).toEqual([]);
  const r = await p.Branch.create(c.inputs);
  return { id: r.id, outs: r.outs as Props };
}

/** A dependent whose branchId changed: check, diff, then the create (replaced) or update the diff asks for. */
async function follow(p: Program, type: string, name: string, old: { id: string; outs: Props }, news: Props) {
  const c = await p[type].check(old.outs, { __provider: "shim", __urn: urnOf(type, name), ...news });
  expect(c.failures ?? []).toEqual([]);
  const diff = await p[type].diff(old.id, old.outs, c.inputs);
  if ((diff.replaces ?? []).length > 0) {
    const again = await p[type].check({}, { __provider: "shim", __urn: urnOf(type, name), ...news });
    const r = await p[type].create(again.inputs);
    return { diff, id: r.id, outs: r.outs as Props };
  }
  const r = await p[type].update(old.id, old.outs, c.inputs);
  return { diff, id: old.id, outs: r.outs as Props };
}

async function rows(uri: string, sql: string): Promise<string> {
  const r = await psql(uri, sql);
  expect(r.error).toBe("");
  return r.out.trim();
}

beforeEach(() => {
  logs = [];
});

test("a restore brings back dropped rows through the same compute; dependents follow; the original is deleted", async () => {
  let p = program();
  const branchInputs = { projectId, name: "app", compute: { minCu: 0.25, maxCu: 0.25 } };
  const branch = await make(p, "Branch", "app", branchInputs);
  const b = branch.id;
  const role = await make(p, "Role", "owner", { projectId, branchId: b, name: "app_owner" });
  const db = await make(p, "Database", "appdb", {
    projectId,
    branchId: b,
    name: "appdb",
    ownerName: "app_owner",
  });
  const replica = await make(p, "Compute", "replica", { projectId, branchId: b, type: "read_only" });
  const uri = withPassword(
    await api.projects.connectionUri(projectId, {
      branchId: b,
      databaseName: "appdb",
      roleName: "app_owner",
    }),
    String(role.outs.password),
  );
  await rows(uri, "CREATE TABLE orders (id int PRIMARY KEY); INSERT INTO orders VALUES (1), (2), (3)");
  const snap = await make(p, "Snapshot", "before", { projectId, branchId: b, name: "before-migration" });
  const snapshotId = String(snap.outs.snapshotId);
  await rows(uri, "DROP TABLE orders");

  // The next `up`: one provider process.
  p = program();
  const news = { ...branchInputs, restoreFrom: { snapshotId } };
  const before = mutationCount(emulator);
  const plan = await planBranch(p, "app", branch, news);
  expect(plan.diff).toMatchObject({ changes: true, replaces: ["restoreFrom"], deleteBeforeReplace: false });
  expect(mutationCount(emulator)).toBe(before);
  const warned = logs.find((l) => l.includes("restored from snapshot")) ?? "";
  expect(warned).toContain(`branch ${b} ("app") will be restored from snapshot ${snapshotId}`);
  expect(warned).toContain("taken over on the new branch");
  expect(warned).toContain("then deleted with its data");

  const restored = await createReplacement(p, "app", news);
  const n = restored.id;
  expect(n).not.toBe(b);
  expect([count(RESTORE), count(FINALIZE)]).toEqual([1, 1]);
  // The branch's own compute moved to it: same id and host.
  expect(restored.outs).toMatchObject({
    name: "app",
    computeId: branch.outs.computeId,
    host: branch.outs.host,
  });
  const { kept } = restoreNames("app", urnOf("Branch", "app"), snapshotId);
  expect((await api.branches.get(projectId, b)).name).toBe(kept);

  const createdRoles = count("POST /projects/:project_id/branches/:branch_id/roles");
  const createdDbs = count("POST /projects/:project_id/branches/:branch_id/databases");
  const patches = count("PATCH /projects/:project_id/endpoints/:endpoint_id");
  const r2 = await follow(p, "Role", "owner", role, { projectId, branchId: n, name: "app_owner" });
  expect(r2.diff).toMatchObject({ replaces: ["branchId"], deleteBeforeReplace: false });
  expect(r2.id).toBe(`${projectId}/${n}/app_owner`);
  const d2 = await follow(p, "Database", "appdb", db, {
    projectId,
    branchId: n,
    name: "appdb",
    ownerName: "app_owner",
  });
  expect(d2.diff).toMatchObject({ replaces: ["branchId"], deleteBeforeReplace: false });
  const c2 = await follow(p, "Compute", "replica", replica, { projectId, branchId: n, type: "read_only" });
  expect(c2.diff.replaces ?? []).toEqual([]);
  expect(c2.outs.branchId).toBe(n);
  const s2 = await follow(p, "Snapshot", "before", snap, {
    projectId,
    branchId: n,
    name: "before-migration",
  });
  expect(s2.diff.replaces ?? []).toEqual([]);
  expect(s2.outs.branchId).toBe(n);
  // Taken over, not created; the compute's move recorded, not sent.
  expect(count("POST /projects/:project_id/branches/:branch_id/roles")).toBe(createdRoles);
  expect(count("POST /projects/:project_id/branches/:branch_id/databases")).toBe(createdDbs);
  expect(count("PATCH /projects/:project_id/endpoints/:endpoint_id")).toBe(patches);
  expect((await api.endpoints.get(projectId, replica.id.split("/").pop() as string)).branch_id).toBe(n);

  // The old halves, in the engine's order: dependents first, then the original branch.
  const deletes = count("DELETE /projects/:project_id/branches/:branch_id/databases/:database_name");
  await p.Database.delete(db.id, db.outs);
  await p.Role.delete(role.id, role.outs);
  expect(count("DELETE /projects/:project_id/branches/:branch_id/databases/:database_name")).toBe(deletes);
  await p.Branch.delete(branch.id, branch.outs);
  expect((await api.branches.list(projectId)).map((x) => x.id)).not.toContain(b);

  // The stack's own connection: the restored branch's role and database, through the moved compute.
  const after = withPassword(
    await api.projects.connectionUri(projectId, {
      branchId: n,
      databaseName: "appdb",
      roleName: "app_owner",
    }),
    String(r2.outs.password),
  );
  expect(await rows(after, "SELECT count(*) FROM orders")).toBe("3");
  expect([count(RESTORE), count(FINALIZE)]).toEqual([1, 1]);

  // Done: the same program plans no change.
  const settled = await planBranch(program(), "app", restored, news);
  expect(settled.diff.changes).toBe(false);
});

test("a run killed after the restore, then after the finalize: the next runs finish it with one restore; keep leaves the original", async () => {
  let p = program();
  const inputs = { projectId, name: "keepme" };
  const branch = await make(p, "Branch", "keepme", inputs);
  const snap = await api.snapshots.create(projectId, branch.id, { name: "keepme-snap" });
  const snapshotId = snap.snapshot.id;
  const news = { ...inputs, restoreFrom: { snapshotId, original: "keep" } };
  const names = restoreNames("keepme", urnOf("Branch", "keepme"), snapshotId);
  const restores = count(RESTORE);
  // Killed after the restore request: the restored branch exists under its derived name, not finalized.
  const half = await api.snapshots.restore(projectId, snapshotId, {
    name: names.restored,
    target_branch_id: branch.id,
    finalize_restore: false,
  });
  await api.waitForOperations(projectId, half.operations);

  const plan = await planBranch(p, "keepme", branch, news);
  expect(plan.diff).toMatchObject({ replaces: ["restoreFrom"], deleteBeforeReplace: false });
  expect(logs.join("\n")).toContain("is kept, renamed");
  const first = await createReplacement(p, "keepme", news);
  expect(first.id).toBe(half.branch.id);
  expect(count(RESTORE)).toBe(restores + 1);
  expect(logs.join("\n")).toContain("not finalized yet; finalizing it");

  // Killed after the finalize (its answer never recorded): the next run finds it finalized.
  p = program();
  logs = [];
  await planBranch(p, "keepme", branch, news);
  const second = await createReplacement(p, "keepme", news);
  expect(second.id).toBe(first.id);
  expect(count(RESTORE)).toBe(restores + 1);
  expect(logs.join("\n")).toContain("finalized by an earlier run");

  const deletes = count("DELETE /projects/:project_id/branches/:branch_id");
  await p.Branch.delete(branch.id, branch.outs);
  expect(count("DELETE /projects/:project_id/branches/:branch_id")).toBe(deletes);
  expect((await api.branches.get(projectId, branch.id)).name).toBe(names.kept);
  expect(logs.join("\n")).toContain("this stack no longer manages it");
});

test("a run killed once the restored Branch was recorded: the next run's dependents follow it, the kept original stays", async () => {
  let p = program();
  const branchInputs = { projectId, name: "later", compute: { minCu: 0.25, maxCu: 0.25 } };
  const branch = await make(p, "Branch", "later", branchInputs);
  const b = branch.id;
  const role = await make(p, "Role", "later-owner", { projectId, branchId: b, name: "later_owner" });
  const db = await make(p, "Database", "laterdb", {
    projectId,
    branchId: b,
    name: "laterdb",
    ownerName: "later_owner",
  });
  const snap = await api.snapshots.create(projectId, b, { name: "later-snap" });
  const news = { ...branchInputs, restoreFrom: { snapshotId: snap.snapshot.id, original: "keep" } };
  p = program();
  await planBranch(p, "later", branch, news);
  const restored = await createReplacement(p, "later", news);
  const n = restored.id;

  // Killed here: the state holds the restored Branch, the dependents still name b, b awaits its delete.
  p = program();
  logs = [];
  const posts = () => count("POST /projects/:project_id/branches/:branch_id/roles");
  const [rolePosts, dbPosts] = [posts(), count("POST /projects/:project_id/branches/:branch_id/databases")];
  const again = await p.Branch.check(restored.outs, {
    __provider: "shim",
    __urn: urnOf("Branch", "later"),
    ...news,
  });
  expect((await p.Branch.diff(n, restored.outs, again.inputs)).changes).toBe(false);
  const r = await follow(p, "Role", "later-owner", role, { projectId, branchId: n, name: "later_owner" });
  const d = await follow(p, "Database", "laterdb", db, {
    projectId,
    branchId: n,
    name: "laterdb",
    ownerName: "later_owner",
  });
  expect([r.id, d.outs.branchId]).toEqual([`${projectId}/${n}/later_owner`, n]);
  expect([posts(), count("POST /projects/:project_id/branches/:branch_id/databases")]).toEqual([
    rolePosts,
    dbPosts,
  ]);
  const deletes = count("DELETE /projects/:project_id/branches/:branch_id");
  await p.Database.delete(db.id, db.outs);
  await p.Role.delete(role.id, role.outs);
  await p.Branch.delete(b, branch.outs);
  expect(count("DELETE /projects/:project_id/branches/:branch_id")).toBe(deletes);
  const names = restoreNames("later", urnOf("Branch", "later"), snap.snapshot.id);
  expect((await api.branches.get(projectId, b)).name).toBe(names.kept);
  expect(logs.join("\n")).toMatch(/stays with that branch, which a restore replaced with/);
  expect(logs.join("\n")).toContain("is the original an earlier run's restore replaced; it is kept");
});

test("an unknown snapshot is refused at preview, with nothing sent", async () => {
  const p = program();
  const inputs = { projectId, name: "refused" };
  const branch = await make(p, "Branch", "refused", inputs);
  const before = mutationCount(emulator);
  const c = await p.Branch.check(branch.outs, {
    __provider: "shim",
    __urn: urnOf("Branch", "refused"),
    ...inputs,
    restoreFrom: { snapshotId: "snap-nothing-here" },
  });
  await expect(p.Branch.diff(branch.id, branch.outs, c.inputs)).rejects.toThrow(
    `Failed to restore branch ${branch.id}: restoreFrom.snapshotId snap-nothing-here is not a snapshot of project ${projectId}`,
  );
  expect(mutationCount(emulator)).toBe(before);
});

test("the Branch classes leave delete-before-replace to the diff only for a Branch that declares restoreFrom", () => {
  const kind = resourceKind("Branch");
  expect(options(kind, undefined, false, { projectId }).deleteBeforeReplace).toBe(true);
  const restoring = options(kind, undefined, false, { projectId, restoreFrom: { snapshotId: "s" } });
  expect(restoring.deleteBeforeReplace).toBeUndefined();
  // The program's own option still wins.
  expect(options(kind, { deleteBeforeReplace: true }, false, { restoreFrom: {} }).deleteBeforeReplace).toBe(
    true,
  );
});
