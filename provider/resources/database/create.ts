/**
 * `Database`'s create: a name the stack did not create refused with its importId, a lost answer or a
 * killed run's database reconciled, an existing database adopted (the declared owner applied; destroy
 * gives it back) or imported (as it is).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Database, type DatabaseOperations, type NeonClient } from "../../api";
import { createOnce, keptInStack, waitingLine, type Checked, type TakeOverStep } from "../kit";
import type { Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import {
  knownAbsent,
  leftByThisStack,
  parseImportId,
  pendingBranchOps,
  refOf,
  refuseTaken,
  type BranchObjectRef,
} from "../branch-objects";
import { throughCompute } from "../needs-compute";
import type { DatabaseInputs } from "./types";
import { ADOPTED_OWNER_KEY, describeDatabase, toOutputs } from "./mapping";
import { explainOwner } from "./owner";
import { applyChanges } from "./update";

type Props = Record<string, unknown>;

export async function create(rt: Runtime, i: Checked<DatabaseInputs>): Promise<pulumi.dynamic.CreateResult> {
  const inputs: Props = i;
  if (i.importId || i.adopt) return takeOver(rt, inputs, i);
  const api = rt.client();
  const log = rt.logger(inputs);
  const ref = refOf(inputs);
  let made: Database | undefined;
  try {
    await throughCompute(rt, ref, `create database "${ref.name}" on branch ${ref.branchId}`, log, attempt);
  } catch (err) {
    if (!made) throw err;
    throw keptInStack(describeDatabase(made), err, String(made.id), toOutputs(inputs, ref.projectId, made));
  }
  const db = made as Database;
  return { id: String(db.id), outs: toOutputs(inputs, ref.projectId, db) };

  function attempt(): Promise<void> {
    return rt.serialized(ref.projectId, async () => {
      // A branch this run made holds only what its create's answer named: no look needed then.
      // A retry after a refusal for want of a compute (throughCompute) may find the database its first
      // try made: this run's own.
      const ownFirstTry = made !== undefined;
      const existing =
        !made && knownAbsent(rt, "databases", ref)
          ? undefined
          : (await api.databases.list(ref.projectId, ref.branchId)).find((d) => d.name === ref.name);
      if (
        existing &&
        !ownFirstTry &&
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
      if (existing && !ownFirstTry) {
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
  }
}

/**
 * Sends the create. The name was free before it was sent, so after a lost answer a database of that
 * name is this one — also when the resent create answers 409 "already exists".
 */
export async function createOrReconcile(
  api: NeonClient,
  i: DatabaseInputs,
  ref: BranchObjectRef,
  log: ResourceLogger,
  onFound: (db: Database) => void,
): Promise<DatabaseOperations> {
  return createOnce<DatabaseOperations, Database>({
    log,
    send: () => api.databases.create(ref.projectId, ref.branchId, { name: i.name, owner_name: i.ownerName }),
    find: async () => (await api.databases.list(ref.projectId, ref.branchId)).find((d) => d.name === i.name),
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
  (await api.databases.list(projectId, branchId)).map((d) => d.name);

/** A database a killed run of this stack created: the branch's unfinished operations to wait for. */
export async function finishFound(
  api: NeonClient,
  ref: BranchObjectRef,
  found: Database,
): Promise<DatabaseOperations> {
  return { database: found, operations: await pendingBranchOps(api, ref.projectId, ref.branchId) };
}

/** `adopt` (applies the declared owner; destroy leaves it) or `importId` (must match as it is). */
export const takeOver: TakeOverStep<DatabaseInputs> = async (rt, inputs, i) => {
  const api = rt.client();
  const log = rt.logger(inputs);
  const ref = (i.importId ? parseImportId(i.importId) : undefined) ?? refOf(inputs);
  const db = (await api.databases.list(ref.projectId, ref.branchId)).find((d) => d.name === ref.name);
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
};
