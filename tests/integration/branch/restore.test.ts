/**
 * A restore declared on a `Branch` (`restoreFrom`, docs/decisions/0021) against the emulator with real
 * Postgres, the steps called in the engine's order for a delete-first replacement of the Branch: its diff,
 * the diffs of what depends on it with the branch's outputs unknown (the engine's cascade), the deletes of
 * the dependents it replaces and of the Branch, the Branch's create, then the dependents registered with
 * the new id. The rows dropped after the snapshot are back through the same compute, one restore and one
 * finalize; nothing of the dependents is deleted or recreated; a killed run at each step is finished by
 * the next without a second restore, from what the service shows (a new process, an empty ledger).
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { restoreNames } from "../../../provider/resources/branch/restore";
import { UNKNOWN } from "../../../provider/resources/kit";
import { boundProgram, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";
import { psql, withPassword } from "../../../scripts/lib/psql";

jest.setTimeout(240_000);

type Props = Record<string, unknown>;
type Program = ReturnType<typeof boundProgram>;
type Made = { id: string; outs: Props; inputs: Props };

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

const count = (route: string) => emulator.requestsByRoute()[route] ?? 0;
const RESTORE = "POST /projects/:project_id/snapshots/:snapshot_id/restore";
const FINALIZE = "POST /projects/:project_id/branches/:branch_id/finalize_restore";
const ROLE_POST = "POST /projects/:project_id/branches/:branch_id/roles";
const DB_POST = "POST /projects/:project_id/branches/:branch_id/databases";
const DELETES = [
  "DELETE /projects/:project_id/branches/:branch_id",
  "DELETE /projects/:project_id/branches/:branch_id/roles/:role_name",
  "DELETE /projects/:project_id/branches/:branch_id/databases/:database_name",
  "DELETE /projects/:project_id/endpoints/:endpoint_id",
];
const deletes = () => DELETES.map(count);
const shim = (type: string, name: string) => ({ __provider: "shim", __urn: urnOf(type, name) });

/** A resource as the engine makes it: check, then create. */
async function make(p: Program, type: string, name: string, inputs: Props): Promise<Made> {
  const c = await p[type].check({}, { projectId, ...shim(type, name), ...inputs });
  expect(c.failures ?? []).toEqual([]);
  const r = await p[type].create(c.inputs);
  return { id: r.id, outs: r.outs as Props, inputs: c.inputs };
}

/** The Branch's part of the plan: check against its state, then diff (nothing sent). */
async function planBranch(p: Program, name: string, state: Made, news: Props) {
  const c = await p.Branch.check(state.inputs, { ...shim("Branch", name), ...news });
  expect(c.failures ?? []).toEqual([]);
  return p.Branch.diff(state.id, state.outs, c.inputs);
}

/** The engine's cascade: a dependent's diff with its old inputs, those taken from the Branch unknown. */
const cascade = (p: Program, type: string, old: Made, keys: string[]) =>
  p[type].diff(old.id, old.outs, { ...old.inputs, ...Object.fromEntries(keys.map((k) => [k, UNKNOWN])) });

/** A dependent registered again with the new branch id: check, diff, then update (its replacement is refused here). */
async function followed(p: Program, type: string, name: string, old: Made, news: Props) {
  const c = await p[type].check(old.inputs, { ...shim(type, name), ...news });
  expect(c.failures ?? []).toEqual([]);
  const diff = await p[type].diff(old.id, old.outs, c.inputs);
  expect(diff.replaces ?? []).toEqual([]);
  const r = await p[type].update(old.id, old.outs, c.inputs);
  return { diff, id: old.id, outs: r.outs as Props };
}

async function rows(uri: string, sql: string): Promise<string> {
  const r = await psql(uri, sql);
  expect(r.error).toBe("");
  return r.out.trim();
}

const uriOf = async (branchId: string, db: string, role: string, password: unknown) =>
  withPassword(
    await api.projects.connectionUri(projectId, { branchId, databaseName: db, roleName: role }),
    String(password),
  );

beforeEach(() => {
  logs = [];
});

test("a restore in the engine's order: rows back through the same compute, dependents follow, the original deleted", async () => {
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
  const child = await make(p, "Branch", "child", { projectId, name: "app-child", parentId: b });
  const uri = await uriOf(b, "appdb", "app_owner", role.outs.password);
  await rows(uri, "CREATE TABLE orders (id int PRIMARY KEY); INSERT INTO orders VALUES (1), (2), (3)");
  const snap = await make(p, "Snapshot", "before", { projectId, branchId: b, name: "before-migration" });
  const snapshotId = String(snap.outs.snapshotId);
  await rows(uri, "DROP TABLE orders");

  // The next `up`, in one provider process: the plan sends nothing.
  p = program();
  const news = { ...branchInputs, restoreFrom: { snapshotId } };
  const before = mutationCount(emulator);
  const plan = await planBranch(p, "app", branch, news);
  expect(plan).toMatchObject({ changes: true, replaces: ["restoreFrom"], deleteBeforeReplace: true });
  const warned = logs.find((l) => l.includes("will be restored from snapshot")) ?? "";
  expect(warned).toContain(`branch ${b} ("app") will be restored from snapshot ${snapshotId}`);
  expect(warned).toContain("then deleted with its data");
  // The cascade: roles and databases are replaced (their ids name the branch), nothing else is.
  expect((await cascade(p, "Role", role, ["branchId", "projectId"])).replaces).toEqual(["branchId"]);
  expect((await cascade(p, "Database", db, ["branchId", "projectId"])).replaces).toEqual(["branchId"]);
  expect((await cascade(p, "Compute", replica, ["branchId", "projectId"])).replaces ?? []).toEqual([]);
  expect((await cascade(p, "Snapshot", snap, ["branchId", "projectId"])).replaces ?? []).toEqual([]);
  expect((await cascade(p, "Branch", child, ["parentId", "projectId"])).replaces ?? []).toEqual([]);
  expect(mutationCount(emulator)).toBe(before);

  // The deletes, dependents first: each leaves its object to the restore.
  const gone = deletes();
  await p.Database.delete(db.id, db.outs);
  await p.Role.delete(role.id, role.outs);
  await p.Branch.delete(b, branch.outs);
  expect(deletes()).toEqual(gone);

  const restored = await make(p, "Branch", "app", news);
  const n = restored.id;
  expect(n).not.toBe(b);
  expect([count(RESTORE), count(FINALIZE)]).toEqual([1, 1]);
  // Its own compute moved to it: same id and host. The original is deleted by the create.
  expect(restored.outs).toMatchObject({
    name: "app",
    computeId: branch.outs.computeId,
    host: branch.outs.host,
  });
  expect((await api.branches.list(projectId)).map((x) => x.id)).not.toContain(b);
  expect(deletes()[0]).toBe(gone[0] + 1);

  // The dependents with the new id: taken over, moved as recorded, nothing sent to make them.
  const [roles, dbs] = [count(ROLE_POST), count(DB_POST)];
  const patches = count("PATCH /projects/:project_id/endpoints/:endpoint_id");
  const r2 = await make(p, "Role", "owner", { projectId, branchId: n, name: "app_owner" });
  expect(r2.id).toBe(`${projectId}/${n}/app_owner`);
  await make(p, "Database", "appdb", { projectId, branchId: n, name: "appdb", ownerName: "app_owner" });
  const c2 = await followed(p, "Compute", "replica", replica, { projectId, branchId: n, type: "read_only" });
  expect(c2.outs.branchId).toBe(n);
  const s2 = await followed(p, "Snapshot", "before", snap, {
    projectId,
    branchId: n,
    name: "before-migration",
  });
  expect(s2.outs.branchId).toBe(n);
  const ch2 = await followed(p, "Branch", "child", child, { projectId, name: "app-child", parentId: n });
  expect(ch2.outs.parentId).toBe(n);
  expect([count(ROLE_POST), count(DB_POST)]).toEqual([roles, dbs]);
  expect(count("PATCH /projects/:project_id/endpoints/:endpoint_id")).toBe(patches);
  expect((await api.endpoints.get(projectId, replica.id.split("/").pop() as string)).branch_id).toBe(n);
  expect((await api.branches.get(projectId, child.id)).parent_id).toBe(n);

  // The stack's own connection: the restored role and database, through the moved compute.
  expect(
    await rows(await uriOf(n, "appdb", "app_owner", r2.outs.password), "SELECT count(*) FROM orders"),
  ).toBe("3");
  expect([count(RESTORE), count(FINALIZE)]).toEqual([1, 1]);

  // Done: the same program plans no change, also for the child.
  const settled = program();
  expect((await planBranch(settled, "app", restored, news)).changes).toBe(false);
  const childNow = { ...child, ...ch2, inputs: { ...child.inputs, parentId: n } };
  expect(
    (await planBranch(settled, "child", childNow, { projectId, name: "app-child", parentId: n })).changes,
  ).toBe(false);
});

test("killed at each step of a restore that keeps the original: each next run goes on, one restore in all", async () => {
  let p = program();
  const inputs = { projectId, name: "keepme", compute: { minCu: 0.25, maxCu: 0.25 } };
  const branch = await make(p, "Branch", "keepme", inputs);
  const b = branch.id;
  const role = await make(p, "Role", "keep-owner", { projectId, branchId: b, name: "keep_owner" });
  const db = await make(p, "Database", "keepdb", {
    projectId,
    branchId: b,
    name: "keepdb",
    ownerName: "keep_owner",
  });
  const snap = await api.snapshots.create(projectId, b, { name: "keepme-snap" });
  const snapshotId = snap.snapshot.id;
  const news = { ...inputs, restoreFrom: { snapshotId, original: "keep" } };
  const names = restoreNames("keepme", urnOf("Branch", "keepme"), snapshotId, b);
  const restores = count(RESTORE);

  // Run 1: the plan, the cascade's deletes and the Branch's delete, then killed.
  expect(await planBranch(p, "keepme", branch, news)).toMatchObject({ replaces: ["restoreFrom"] });
  expect(logs.join("\n")).toContain(`is kept, renamed "${names.kept}"`);
  await p.Database.delete(db.id, db.outs);
  await p.Role.delete(role.id, role.outs);
  await p.Branch.delete(b, branch.outs);
  // Killed while its create's restore was in flight: the restored branch exists, not finalized.
  const half = await api.snapshots.restore(projectId, snapshotId, {
    name: names.restored,
    target_branch_id: b,
    finalize_restore: false,
  });
  await api.waitForOperations(projectId, half.operations);

  // Run 2 (a new process; the state holds none of the three): the Branch is new, its check passes, and
  // its create finalizes the half-made restore.
  p = program();
  logs = [];
  const second = await make(p, "Branch", "keepme", news);
  expect(second.id).toBe(half.branch.id);
  expect(count(RESTORE)).toBe(restores + 1);
  expect(logs.join("\n")).toContain("not finalized yet; finalizing it");
  expect((await api.branches.get(projectId, b)).name).toBe(names.kept);

  // Killed before the Role and Database were made: run 3 (a new process) takes them over from what the
  // service shows (the branch names its snapshot and the branch it replaced).
  p = program();
  logs = [];
  const [roles, dbs] = [count(ROLE_POST), count(DB_POST)];
  expect(await make(p, "Branch", "keepme", news)).toMatchObject({ id: second.id });
  expect(logs.join("\n")).toContain("made by an earlier run");
  const r = await make(p, "Role", "keep-owner", { projectId, branchId: second.id, name: "keep_owner" });
  await make(p, "Database", "keepdb", {
    projectId,
    branchId: second.id,
    name: "keepdb",
    ownerName: "keep_owner",
  });
  expect([count(ROLE_POST), count(DB_POST)]).toEqual([roles, dbs]);
  expect(r.outs.password).toBeTruthy();
  expect(count(RESTORE)).toBe(restores + 1);
  // The kept original keeps its role and database: nothing of it was deleted.
  const original = await api.branches.get(projectId, b);
  expect(original.name).toBe(names.kept);
  expect((await api.databases.list(projectId, b)).map((d) => d.name)).toContain("keepdb");
  expect((await api.roles.list(projectId, b)).map((x) => x.name)).toContain("keep_owner");
});

test("the Branch's create restores first: onto the branch importId names; anew under --replace, its role taken over", async () => {
  const p = program();
  const source = await make(p, "Branch", "source", {
    projectId,
    name: "imported-one",
    compute: { minCu: 0.25, maxCu: 0.25 },
  });
  const role = await make(p, "Role", "rp", { projectId, branchId: source.id, name: "rp_owner" });
  const snap = await api.snapshots.create(projectId, source.id, { name: "imported-snap" });
  const restores = count(RESTORE);
  // A new resource that imports a branch and restores it: the restore is not skipped for the import,
  // and the check says what becomes of the imported branch.
  logs = [];
  const imported = await make(program(), "Branch", "imported", {
    projectId,
    name: "imported-one",
    compute: { minCu: 0.25, maxCu: 0.25 },
    importId: `${projectId}/${source.id}`,
    restoreFrom: { snapshotId: snap.snapshot.id },
  });
  expect(logs.join("\n")).toMatch(
    new RegExp(
      `branch ${source.id} \\("imported-one"\\)[^\\n]* will be restored from snapshot[^\\n]*then deleted`,
    ),
  );
  expect(imported.id).not.toBe(source.id);
  expect(count(RESTORE)).toBe(restores + 1);
  expect((await api.branches.list(projectId)).map((x) => x.id)).not.toContain(source.id);

  // `pulumi up --replace` (not diffed): the role and the branch are deleted first, then the branch is made
  // from the snapshot again, and the role the snapshot holds is taken over, not refused.
  const q = program();
  const roleNow = await make(q, "Role", "rp", { projectId, branchId: imported.id, name: "rp_owner" });
  expect(roleNow.outs.password).toBeTruthy();
  await q.Role.delete(roleNow.id, roleNow.outs);
  await q.Branch.delete(imported.id, imported.outs);
  const again = await make(q, "Branch", "imported", {
    projectId,
    name: "imported-one",
    compute: { minCu: 0.25, maxCu: 0.25 },
    restoreFrom: { snapshotId: snap.snapshot.id },
  });
  expect(again.outs.name).toBe("imported-one");
  expect(count(RESTORE)).toBe(restores + 2);
  expect((await api.branches.get(projectId, again.id)).restored_from).toBe(snap.snapshot.id);
  const posts = count(ROLE_POST);
  const r = await make(q, "Role", "rp", { projectId, branchId: again.id, name: "rp_owner" });
  expect(r.id).toBe(`${projectId}/${again.id}/rp_owner`);
  expect(count(ROLE_POST)).toBe(posts);
  expect(role.id).not.toBe(r.id);

  // A database someone made on the restored branch since is no snapshot's: refused, never taken over.
  await api.databases.create(projectId, again.id, { name: "theirs", owner_name: "rp_owner" });
  const c = await q.Database.check(
    {},
    {
      ...shim("Database", "theirs"),
      projectId,
      branchId: again.id,
      name: "theirs",
      ownerName: "rp_owner",
    },
  );
  expect(c.failures ?? []).toEqual([]);
  await expect(q.Database.create(c.inputs)).rejects.toThrow(/did not create it/);
});

test("create first (deleteBeforeReplace: false), killed before the pending delete: the kept original stays", async () => {
  const p = program();
  const inputs = { projectId, name: "firstly" };
  const branch = await make(p, "Branch", "firstly", inputs);
  const snap = await api.snapshots.create(projectId, branch.id, { name: "firstly-snap" });
  const news = { ...inputs, restoreFrom: { snapshotId: snap.snapshot.id, original: "keep" } };
  await planBranch(p, "firstly", branch, news);
  // The engine's create-first order: the replacement's create before the old one's delete.
  const restored = await make(p, "Branch", "firstly", news);
  const kept = restoreNames("firstly", urnOf("Branch", "firstly"), snap.snapshot.id, branch.id).kept;
  expect((await api.branches.get(projectId, branch.id)).name).toBe(kept);
  // Killed: the next run (a new process) deletes what the state holds as a pending delete before any
  // check, and so would a destroy: the renamed original is left.
  logs = [];
  const gone = deletes();
  await program().Branch.delete(branch.id, branch.outs);
  expect(deletes()).toEqual(gone);
  expect((await api.branches.get(projectId, branch.id)).name).toBe(kept);
  expect(logs.join("\n")).toContain(
    "is the original a restore replaced (its finalize renamed it): left in place",
  );
  // A branch of the stack's own name is deleted as ever.
  await program().Branch.delete(restored.id, restored.outs);
  expect(deletes()[0]).toBe(gone[0] + 1);
});

test("the same snapshot restored again after keep gets names of its own", async () => {
  let p = program();
  const inputs = { projectId, name: "twice" };
  const branch = await make(p, "Branch", "twice", inputs);
  const s1 = (await api.snapshots.create(projectId, branch.id, { name: "twice-1" })).snapshot.id;
  const restore = async (state: Made, snapshotId: string) => {
    p = program();
    const news = { ...inputs, restoreFrom: { snapshotId, original: "keep" } };
    expect(await planBranch(p, "twice", state, news)).toMatchObject({ replaces: ["restoreFrom"] });
    await p.Branch.delete(state.id, state.outs);
    return make(p, "Branch", "twice", news);
  };
  const first = await restore(branch, s1);
  const s2 = (await api.snapshots.create(projectId, first.id, { name: "twice-2" })).snapshot.id;
  const second = await restore(first, s2);
  const third = await restore(second, s1);
  const named = (await api.branches.list(projectId)).map((x) => x.name);
  expect(named).toContain(restoreNames("twice", urnOf("Branch", "twice"), s1, branch.id).kept);
  expect(named).toContain(restoreNames("twice", urnOf("Branch", "twice"), s1, second.id).kept);
  expect(third.outs.name).toBe("twice");
});

test("an unknown snapshot is refused at preview, with nothing sent", async () => {
  const p = program();
  const inputs = { projectId, name: "refused" };
  const branch = await make(p, "Branch", "refused", inputs);
  const before = mutationCount(emulator);
  const c = await p.Branch.check(branch.inputs, {
    ...shim("Branch", "refused"),
    ...inputs,
    restoreFrom: { snapshotId: "snap-nothing-here" },
  });
  await expect(p.Branch.diff(branch.id, branch.outs, c.inputs)).rejects.toThrow(
    `Failed to restore branch ${branch.id}: restoreFrom.snapshotId snap-nothing-here is not a snapshot of project ${projectId}`,
  );
  // A new Branch declared with it: its check names the property.
  const fresh = await p.Branch.check(
    {},
    {
      ...shim("Branch", "fresh"),
      projectId,
      name: "fresh",
      restoreFrom: { snapshotId: "snap-nothing-here" },
    },
  );
  expect(fresh.failures).toEqual([expect.objectContaining({ property: "restoreFrom.snapshotId" })]);
  expect(mutationCount(emulator)).toBe(before);
});
