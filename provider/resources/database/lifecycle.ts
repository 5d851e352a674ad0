/**
 * The lifecycle of `Database`: check, diff, create (refusing a name the stack did not create,
 * reconciling a lost answer or a 409 that follows it), read (by the database's id, so an outside
 * rename shows as a rename), update (rename and owner change in place: the id and data stay) and
 * delete (waits; a database already gone is deleted).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Database, type DatabaseOperations, type NeonClient } from "../../api";
import {
  confirmGone,
  createOnce,
  isNewResource,
  keptInStack,
  refreshInputs,
  waitingLine,
  type Checked,
  type ResourceSteps,
} from "../kit";
import { definedDiff } from "../compare";
import { clause, type Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import {
  duplicateFailure,
  isNotFound,
  leftByThisStack,
  parseImportId,
  pendingBranchOps,
  refOf,
  refuseTaken,
  refuseTakenTarget,
  type BranchObjectRef,
} from "../branch-objects";
import { DATABASE_DEFINITION } from "./definition";
import { checkInputs } from "./inputs";
import type { DatabaseInputs } from "./types";
import { describeDatabase, toOutputs } from "./mapping";
import { ownerFailures, refuseOwnerLeaving, withOwnerRole } from "./owner";

type Props = Record<string, unknown>;

/** The state key of the owner an adopted database had before the stack changed it. */
const ADOPTED_OWNER_KEY = "__ownerBeforeAdoption";

export const diffDatabase = (olds: Props, news: Props) => definedDiff(DATABASE_DEFINITION, olds, news);

async function check(rt: Runtime, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const checked = checkInputs(news);
  const failures = [...checked.failures, ...duplicateFailure(rt, "database", news)];
  if (failures.length > 0) return { inputs: news, failures };
  const moved = ["projectId", "branchId", "ownerName"].some((k) => olds[k] !== news[k]);
  if (isNewResource(olds) || moved) failures.push(...(await ownerFailures(rt, news)));
  return failures.length > 0 ? { inputs: news, failures } : { inputs: withOwnerRole(rt, checked.inputs) };
}

async function diff(rt: Runtime, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const d = diffDatabase(olds, news);
  if (rt.isPlanning(news) && d.replaces.length === 0) refuseOwnerLeaving(id, olds, news);
  if (rt.isPlanning(news) && d.replaces.length > 0) {
    const what = `database "${String(olds.name)}" (id ${id}) of branch ${String(olds.branchId)}`;
    if (olds.adopted === true) {
      rt.logger(news).warn(
        `${d.replaces.join(" and ")} changed: ${what}, adopted, is left in place, and a database is created ` +
          "(or adopted) for the new inputs",
      );
    } else {
      const api = rt.client();
      await refuseTakenTarget("database", olds, news, async (p, b) =>
        (await api.databases.list(p, b)).map((x) => x.name),
      );
      rt.logger(news).warn(
        `${d.replaces.join(" and ")} changed: ${what} will be deleted with its data, and a new, empty ` +
          "database created",
      );
    }
  }
  return {
    changes: d.changes,
    replaces: d.replaces,
    stables: d.replaces.length === 0 ? ["projectId", "branchId", "databaseId", "createdAt"] : [],
    // A replacement on another branch may keep the name: the old database goes first.
    deleteBeforeReplace: true,
  };
}

// --- create ------------------------------------------------------------------------------

async function listed(api: NeonClient, projectId: string, branchId: string): Promise<Database[]> {
  return api.databases.list(projectId, branchId);
}

/** An error for a create the service refused because the owner is not a role of the branch. */
async function explainOwner(
  api: NeonClient,
  ref: BranchObjectRef,
  owner: string,
  err: ApiError,
): Promise<Error> {
  if (err.kind !== "not_found" && err.kind !== "invalid") return err;
  const roles = await api.roles.list(ref.projectId, ref.branchId).catch(() => undefined);
  if (!roles || roles.some((r) => r.name === owner)) return err;
  return err.withRemedy(
    `ownerName "${owner}" is not a role of branch ${ref.branchId} (its roles: ${roles.map((r) => r.name).join(", ") || "none"}). ` +
      "Create the role first: declare a Role and set ownerName: role.name, which also orders the two.",
  );
}

async function create(rt: Runtime, i: Checked<DatabaseInputs>): Promise<pulumi.dynamic.CreateResult> {
  const inputs: Props = i;
  if (i.importId || i.adopt) return takeOver(rt, inputs, i);
  const api = rt.client();
  const log = rt.logger(inputs);
  const ref = refOf(inputs);
  let made: Database | undefined;
  try {
    await rt.serialized(ref.projectId, async () => {
      const existing = (await listed(api, ref.projectId, ref.branchId)).find((d) => d.name === ref.name);
      if (
        existing &&
        !(await leftByThisStack(api, ref, inputs.__urn, databaseNames(api), existing.created_at))
      ) {
        throw refuseTaken("database", ref);
      }
      if (existing && existing.owner_name !== i.ownerName) {
        throw new Error(
          `Failed to create ${describeDatabase(existing)}: the branch already has a database of that name, ` +
            `owned by "${existing.owner_name}", not the declared "${i.ownerName}"; make ownerName match it (then ` +
            "change it in a later update), or choose another name. Nothing was changed.",
        );
      }
      if (existing) {
        log.info(
          `found ${describeDatabase(existing)}: this stack created the branch (its annotation names the stack) ` +
            "and the branch did not inherit the database, so an interrupted run of this stack created it; taking it over",
        );
        made = existing;
        rt.noteTakenOver("database", String(existing.id));
      }
      const r = existing
        ? await finishFound(api, ref, existing)
        : await createOrReconcile(api, i, ref, log, (db) => {
            made = db;
          });
      made = r.database;
      log.progress(waitingLine(`created ${describeDatabase(made)}`, r.operations));
      await rt.waitFor(ref.projectId, r.operations, log);
    });
  } catch (err) {
    if (!made) throw err;
    throw keptInStack(describeDatabase(made), err, String(made.id), toOutputs(inputs, ref.projectId, made));
  }
  const db = made as Database;
  return { id: String(db.id), outs: toOutputs(inputs, ref.projectId, db) };
}

/**
 * Sends the create. The name was free before it was sent, so after a lost answer a database of that
 * name is this one — also when the resent create answers 409 "already exists".
 */
async function createOrReconcile(
  api: NeonClient,
  i: DatabaseInputs,
  ref: BranchObjectRef,
  log: ResourceLogger,
  onFound: (db: Database) => void,
): Promise<DatabaseOperations> {
  return createOnce<DatabaseOperations, Database>({
    log,
    send: () => api.databases.create(ref.projectId, ref.branchId, { name: i.name, owner_name: i.ownerName }),
    find: async () => (await listed(api, ref.projectId, ref.branchId)).find((d) => d.name === i.name),
    describe: describeDatabase,
    refused: async (err) => {
      if (!(err instanceof ApiError)) throw err;
      if (err.kind === "conflict") throw refuseTaken("database", ref);
      throw await explainOwner(api, ref, i.ownerName, err);
    },
    finish: async (found) => {
      onFound(found);
      return { database: found, operations: await pendingBranchOps(api, ref.projectId, ref.branchId) };
    },
  });
}

/** The names of a branch's databases. */
const databaseNames = (api: NeonClient) => async (projectId: string, branchId: string) =>
  (await listed(api, projectId, branchId)).map((d) => d.name);

/** A database a killed run of this stack created: the branch's unfinished operations to wait for. */
async function finishFound(
  api: NeonClient,
  ref: BranchObjectRef,
  found: Database,
): Promise<DatabaseOperations> {
  return { database: found, operations: await pendingBranchOps(api, ref.projectId, ref.branchId) };
}

/** `adopt` (applies the declared owner; destroy leaves it) or `importId` (must match as it is). */
async function takeOver(rt: Runtime, inputs: Props, i: DatabaseInputs): Promise<pulumi.dynamic.CreateResult> {
  const api = rt.client();
  const log = rt.logger(inputs);
  const ref = (i.importId ? parseImportId(i.importId) : undefined) ?? refOf(inputs);
  const db = (await listed(api, ref.projectId, ref.branchId)).find((d) => d.name === ref.name);
  if (!db) {
    throw new Error(
      `Failed to take over database "${ref.name}" of branch ${ref.branchId} (${i.adopt ? "adopt" : "importId"}): it does not exist. ` +
        (i.adopt ? "Remove adopt to create it." : "Check importId, or remove it to create a new database."),
    );
  }
  if (i.importId && (db.name !== i.name || db.owner_name !== i.ownerName)) {
    throw new Error(
      `Failed to import ${describeDatabase(db)}: the declared inputs differ from the database (ownerName: declared ` +
        `${JSON.stringify(i.ownerName)}, actual ${JSON.stringify(db.owner_name)}). Import changes nothing: make the ` +
        "program match the database, import, then change it in a later update.",
    );
  }
  let current = db;
  // The owner it had before: given back when the stack lets go of it (release), so that the stack's
  // role, deleted by the same destroy, does not still own it.
  const extra: Props = i.adopt ? { adopted: true } : {};
  if (i.adopt && db.owner_name !== i.ownerName) {
    current = await applyChanges(rt, ref.projectId, db, { ownerName: i.ownerName }, log);
    extra[ADOPTED_OWNER_KEY] = db.owner_name;
  }
  // An imported object is this resource's to delete: no other delete of this update may (an adopted
  // one is never deleted, only released).
  if (!i.adopt) rt.noteTakenOver("database", String(current.id));
  log.info(
    i.adopt
      ? `adopted ${describeDatabase(current)}; destroy will leave it in place`
      : `imported ${describeDatabase(current)}; deleting this resource will delete the database`,
  );
  return {
    id: String(current.id),
    outs: toOutputs(inputs, ref.projectId, current, extra),
  };
}

// --- read / update ------------------------------------------------------------------------

/** Where `read` looks: the state's project and branch, or an import id's. */
function locate(id: string, props?: Props): { projectId: string; branchId: string; key: string } | undefined {
  if (props?.projectId && props.branchId) {
    return { projectId: String(props.projectId), branchId: String(props.branchId), key: id };
  }
  const ref = parseImportId(id);
  return ref && { projectId: ref.projectId, branchId: ref.branchId, key: ref.name };
}

async function read(rt: Runtime, id: string, props?: Props): Promise<pulumi.dynamic.ReadResult> {
  const api = rt.client();
  const where = locate(id, props);
  if (!where)
    throw new Error(`Failed to read database ${id}: give it as "<projectId>/<branchId>/<databaseName>"`);
  let all: Database[];
  try {
    all = await listed(api, where.projectId, where.branchId);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await confirmGone(api, where.projectId, `database ${id} of branch ${where.branchId}`, "refresh", err);
    return {};
  }
  // By id (a rename made outside the stack shows as a rename); an import names it by name.
  const db =
    all.find((d) => String(d.id) === where.key) ??
    (props ? undefined : all.find((d) => d.name === where.key));
  if (!db) return {};
  const old = props ?? {};
  const outs = toOutputs(old, where.projectId, db);
  return {
    id: String(db.id),
    props: outs,
    inputs: refreshInputs(DATABASE_DEFINITION, old, outs, ["projectId", "branchId", "name", "ownerName"]),
  };
}

/** Renames the database or changes its owner and waits; a lost answer is checked before a resend. */
async function applyChanges(
  rt: Runtime,
  projectId: string,
  db: Database,
  change: { name?: string; ownerName?: string },
  log: ResourceLogger,
): Promise<Database> {
  const api = rt.client();
  const body = {
    ...(change.name !== undefined && change.name !== db.name ? { name: change.name } : {}),
    ...(change.ownerName !== undefined && change.ownerName !== db.owner_name
      ? { owner_name: change.ownerName }
      : {}),
  };
  if (Object.keys(body).length === 0) return db;
  const ref = { projectId, branchId: db.branch_id, name: db.name };
  return rt.serialized(projectId, async () => {
    let r: DatabaseOperations;
    try {
      r = await api.databases.update(projectId, db.branch_id, db.name, body);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.kind === "conflict" && body.name !== undefined) {
        throw err.withRemedy(
          `Branch ${db.branch_id} already has a database named "${change.name}"; choose another name.`,
        );
      }
      if (!err.mayHaveReachedServer)
        throw await explainOwner(api, ref, change.ownerName ?? db.owner_name, err);
      const now = (await listed(api, projectId, db.branch_id)).find((d) => d.id === db.id);
      const done =
        now && (body.name ?? db.name) === now.name && (body.owner_name ?? db.owner_name) === now.owner_name;
      if (!now || !done) throw err;
      log.info(`the answer to the update was lost; ${describeDatabase(now)} shows the change`);
      r = { database: now, operations: await pendingBranchOps(api, projectId, db.branch_id) };
    }
    log.progress(waitingLine(`updating ${describeDatabase(db)}`, r.operations));
    await rt.waitFor(projectId, r.operations, log);
    return r.database;
  });
}

/** The database by its id in the state, wherever its name now is; `undefined` when gone. */
async function current(api: NeonClient, id: string, props: Props): Promise<Database | undefined> {
  return (await listed(api, String(props.projectId), String(props.branchId))).find(
    (d) => String(d.id) === id,
  );
}

async function update(
  rt: Runtime,
  id: string,
  olds: Props,
  news: Checked<DatabaseInputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  const api = rt.client();
  const db = await current(api, id, olds);
  if (!db) {
    throw new Error(
      `Failed to update database "${String(olds.name)}" (id ${id}) of branch ${String(olds.branchId)}: it no longer exists. ` +
        "Run `pulumi refresh` to drop it from the stack, then `pulumi up` to create it again.",
    );
  }
  const after = await applyChanges(
    rt,
    String(olds.projectId),
    db,
    { name: news.name, ownerName: news.ownerName },
    rt.logger(news),
  );
  const extra: Props = olds.adopted === true ? { adopted: true } : {};
  if (olds[ADOPTED_OWNER_KEY] !== undefined) extra[ADOPTED_OWNER_KEY] = olds[ADOPTED_OWNER_KEY];
  // An adopted database given another owner now: remember whose it was, to give it back on release.
  else if (olds.adopted === true && after.owner_name !== db.owner_name)
    extra[ADOPTED_OWNER_KEY] = db.owner_name;
  return { outs: toOutputs(news, String(olds.projectId), after, extra) };
}

// --- delete --------------------------------------------------------------------------------

async function remove(rt: Runtime, id: string, props: Props): Promise<void> {
  const api = rt.client();
  const projectId = String(props.projectId);
  const what = `database "${String(props.name)}" (id ${id}) of branch ${String(props.branchId)}`;
  await rt.serialized(projectId, async () => {
    let db: Database | undefined;
    try {
      db = await current(api, id, props);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await confirmGone(api, projectId, what, "delete", err);
      return;
    }
    if (!db) return; // the branch is there and the database is not: already deleted
    const r = await api.databases.delete(projectId, db.branch_id, db.name).catch(async (err: unknown) => {
      if (!isNotFound(err)) throw err;
      await confirmGone(api, projectId, what, "delete", err);
      return undefined;
    });
    if (r) await rt.waitFor(projectId, r.operations, rt.logger(props));
  });
}

/** An adopted database is left in place; first it goes back to the owner it had, if the stack changed it. */
async function release(rt: Runtime, id: string, props: Props): Promise<void> {
  const before = props[ADOPTED_OWNER_KEY];
  if (typeof before !== "string") return;
  const api = rt.client();
  const db = await current(api, id, props).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
  if (!db || db.owner_name === before) return;
  const log = rt.logger(props);
  try {
    await applyChanges(rt, String(props.projectId), db, { ownerName: before }, log);
  } catch (err) {
    // Its old owner is gone (deleted outside the stack): leave the database as it is rather than fail.
    if (!isNotFound(err)) throw err;
    log.warn(
      `could not give ${describeDatabase(db)} back to its owner "${before}" (${clause(err)}); it stays owned by ` +
        `"${db.owner_name}", which the service will not delete while it owns the database`,
    );
  }
}

/** `Database`'s own steps (see `../kit.ts`). */
export const databaseSteps: ResourceSteps<DatabaseInputs> = {
  check,
  diff,
  create,
  read,
  importInputs: (outs) => ({
    projectId: outs.projectId,
    branchId: outs.branchId,
    name: outs.name,
    ownerName: outs.ownerName,
  }),
  update,
  delete: remove,
  release,
};
