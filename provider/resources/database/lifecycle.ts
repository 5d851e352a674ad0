/**
 * The lifecycle of `Database`: check, diff and delete (waits; a database already gone is deleted)
 * here; create (refusing a name the stack did not create, reconciling a lost answer or a 409 that
 * follows it) in `create.ts`; read (by the database's id, so an outside rename shows as a rename) and
 * update (rename and owner change in place: the id and data stay) in `update.ts`; the owner's rules
 * in `owner.ts`.
 */
import { isNotFound } from "../../api";
import type * as pulumi from "@pulumi/pulumi";
import type { Database } from "../../api";
import {
  confirmGone,
  deleteAndWait,
  diffResult,
  isNewResource,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import { clause, type Runtime } from "../runtime";
import {
  asAfterRestore,
  duplicateFailure,
  followsRestore,
  leftWithRestoredBranch,
  refuseTakenTarget,
  noteEarlierRestore,
  restoreComing,
} from "../branch-objects/objects";
import { NoComputeError, refuseComputeLessTarget, warnComputeLess } from "../branch-objects/needs-compute";
import { checkInputs } from "./inputs";
import type { DatabaseInputs, DatabaseOutputs } from "./types";
import { ADOPTED_OWNER_KEY, describeDatabase, diffDatabase } from "./mapping";
import { ownerFailures, refuseOwnerLeaving, withOwnerRole } from "./owner";
import { create } from "./create";
import { applyChanges, current, read, update } from "./update";

type State = Stated<DatabaseOutputs>;

async function check(
  rt: Runtime,
  olds: Stated<DatabaseInputs>,
  news: Bag,
): Promise<CheckResult<DatabaseInputs>> {
  const checked = checkInputs(news);
  const failures = [...checked.failures, ...duplicateFailure(rt, "database", news)];
  if (failures.length > 0) return { inputs: news, failures };
  const moved = ["projectId", "branchId", "ownerName"].some((k) => olds[k] !== news[k]);
  if (isNewResource(olds) || moved) failures.push(...(await ownerFailures(rt, news)));
  if (failures.length > 0) return { inputs: news, failures };
  if (isNewResource(olds) && news.adopt !== true && news.importId === undefined)
    await warnComputeLess(rt, "database", news);
  return { inputs: withOwnerRole(rt, olds, checked.inputs) };
}

async function diff(
  rt: Runtime,
  id: string,
  olds: State,
  given: Checked<DatabaseInputs>,
): Promise<pulumi.dynamic.DiffResult> {
  const news = asAfterRestore(rt, olds, given);
  const d = diffDatabase(olds, news);
  // A move to a branch an interrupted run restored from the old one is that restore's take-over.
  if (d.replaces.length > 0 && rt.ledger.isPlanning(news)) await noteEarlierRestore(rt, olds, news);
  if (rt.ledger.isPlanning(news) && d.replaces.length === 0) refuseOwnerLeaving(rt, id, olds, news);
  // Its branch restored from a snapshot: the database of this name there is taken over, and the old one
  // stays with the original branch (docs/decisions/0021).
  const restored = d.replaces.length > 0 && (followsRestore(rt, olds, news) || restoreComing(rt, olds, news));
  if (rt.ledger.isPlanning(news) && d.replaces.length > 0) {
    const what = `database "${String(olds.name)}" (id ${id}) of branch ${String(olds.branchId)}`;
    if (restored) {
      rt.logger(news).info(
        `${what} follows its branch's restore: the restored branch's database of the name (the snapshot's, with ` +
          "its data) is taken over, not recreated; the old one stays with the original branch",
      );
    } else if (olds.adopted === true) {
      rt.logger(news).warn(
        `${d.replaces.join(" and ")} changed: ${what}, adopted, is left in place, and a database is created ` +
          "(or adopted) for the new inputs",
      );
    } else {
      const api = rt.client();
      await refuseTakenTarget("database", olds, news, async (p, b) =>
        (await api.databases.list(p, b)).map((x) => x.name),
      );
      await refuseComputeLessTarget(rt, "database", olds, news);
      rt.logger(news).warn(
        `${d.replaces.join(" and ")} changed: ${what} will be deleted with its data, and a new, empty ` +
          "database created",
      );
    }
  }
  // A replacement on another branch may keep the name: the old database goes first (after a restore
  // it is left with the original branch).
  return diffResult(d, true);
}

// --- delete --------------------------------------------------------------------------------

async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  if (leftWithRestoredBranch(rt, "database", props)) return;
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
    const found = db;
    const send = () => api.databases.delete(projectId, found.branch_id, found.name);
    await deleteAndWait(rt, projectId, what, send, rt.logger(props));
  });
}

/** An adopted database is left in place; first it goes back to the owner it had, if the stack changed it. */
async function release(rt: Runtime, id: string, props: State): Promise<void> {
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
    // At destroy the branch's compute may already be gone (a Compute and this Database do not depend on
    // each other): nothing to wait for then.
    await applyChanges(rt, String(props.projectId), db, { ownerName: before }, log, {
      waitForCompute: false,
    });
  } catch (err) {
    // Its old owner is gone (deleted outside the stack), or the branch has no read_write compute left to
    // change it through: leave the database as it is rather than fail.
    if (!isNotFound(err) && !(err instanceof NoComputeError)) throw err;
    log.warn(
      `could not give ${describeDatabase(db)} back to its owner "${before}" (${clause(err)}); it stays owned by ` +
        `"${db.owner_name}", which the service will not delete while it owns the database`,
    );
  }
}

/** `Database`'s own steps (see `../kit.ts`). */
export const databaseSteps: ResourceSteps<DatabaseInputs, DatabaseOutputs> = {
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
  release,
};
