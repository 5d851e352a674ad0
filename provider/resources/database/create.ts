/**
 * `Database`'s create: a name the stack did not create refused with its importId, a lost answer or a
 * killed run's database reconciled, an existing database adopted (the declared owner applied; destroy
 * gives it back) or imported (as it is).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Database, type NeonClient } from "../../api";
import type { Checked, TakeOverStep, Bag } from "../kit";
import type { Runtime } from "../runtime";
import {
  parseImportId,
  pendingBranchOps,
  refOf,
  refuseTaken,
  type BranchObjectRef,
} from "../branch-objects/objects";
import { createOnBranch, type Made } from "../branch-objects/create";
import type { DatabaseInputs } from "./types";
import { ADOPTED_OWNER_KEY, describeDatabase, toOutputs } from "./mapping";
import { explainOwner } from "./owner";
import { applyChanges } from "./update";

export async function create(rt: Runtime, i: Checked<DatabaseInputs>): Promise<pulumi.dynamic.CreateResult> {
  const inputs: Bag = i;
  if (i.importId || i.adopt) return takeOver(rt, i, i);
  return createOnBranch<Database>(rt, inputs, (api, ref) => ({
    noun: "database",
    describe: (db) => describeDatabase(db ?? { name: ref.name, branch_id: ref.branchId }),
    id: (db) => String(db.id),
    outputs: (db) => toOutputs(inputs, ref.projectId, db),
    find: () => findDatabase(api, ref),
    names: databaseNames(api),
    unlike: (existing) =>
      existing.owner_name === i.ownerName
        ? undefined
        : new Error(
            `Failed to create ${describeDatabase(existing)}: the branch already has a database of that name, ` +
              `owned by "${existing.owner_name}", not the declared "${i.ownerName}"; make ownerName match it (then ` +
              "change it in a later update), or choose another name. Nothing was changed.",
          ),
    finishFound: (existing) => finishFound(api, ref, existing),
    send: async () => {
      const r = await api.databases.create(ref.projectId, ref.branchId, {
        name: i.name,
        owner_name: i.ownerName,
      });
      return { object: r.database, operations: r.operations };
    },
    refused: async (err) => {
      if (!(err instanceof ApiError)) throw err;
      // A 409 here: someone else took the name since it was found free (by a look, or in the branch's create answer).
      if (err.kind === "conflict") throw refuseTaken("database", ref);
      throw await explainOwner(api, ref, i.ownerName, err);
    },
  }));
}

/** The database of `ref`'s name on its branch, if there is one. */
const findDatabase = async (api: NeonClient, ref: BranchObjectRef): Promise<Database | undefined> =>
  (await api.databases.list(ref.projectId, ref.branchId)).find((d) => d.name === ref.name);

/** The names of a branch's databases. */
const databaseNames = (api: NeonClient) => async (projectId: string, branchId: string) =>
  (await api.databases.list(projectId, branchId)).map((d) => d.name);

/** A database a killed run of this stack created: the branch's unfinished operations to wait for. */
export async function finishFound(
  api: NeonClient,
  ref: BranchObjectRef,
  found: Database,
): Promise<Made<Database>> {
  return { object: found, operations: await pendingBranchOps(api, ref.projectId, ref.branchId) };
}

/** `adopt` (applies the declared owner; destroy leaves it) or `importId` (must match as it is). */
export const takeOver: TakeOverStep<DatabaseInputs, DatabaseInputs> = async (rt, inputs, i) => {
  const api = rt.client();
  const log = rt.logger(inputs);
  const ref = (i.importId ? parseImportId(i.importId) : undefined) ?? refOf(inputs);
  const db = await findDatabase(api, ref);
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
  const extra: Bag = i.adopt ? { adopted: true } : {};
  if (i.adopt && db.owner_name !== i.ownerName) {
    current = await applyChanges(rt, ref.projectId, db, { ownerName: i.ownerName }, log);
    extra[ADOPTED_OWNER_KEY] = db.owner_name;
  }
  // An imported object is this resource's to delete: no other delete of this update may (an adopted
  // one is never deleted, only released).
  if (!i.adopt) rt.ledger.noteTakenOver("database", String(current.id));
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
