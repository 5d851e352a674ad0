/**
 * `Database`'s read (refresh, by the database's id, so an outside rename shows as a rename) and update
 * (rename and owner change in place: the id and data stay).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Database, type DatabaseOperations, type NeonClient, isNotFound } from "../../api";
import { confirmGone, refreshInputs, waitingLine, type UpdateStep, type Bag, type Stated } from "../kit";
import type { Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import { importIdOf, parseImportId, pendingBranchOps } from "../branch-objects/objects";
import { throughCompute } from "../branch-objects/needs-compute";
import { DATABASE_DEFINITION } from "./definition";
import type { DatabaseInputs, DatabaseOutputs } from "./types";
import { ADOPTED_OWNER_KEY, describeDatabase, toOutputs } from "./mapping";
import { explainOwner, OWNER_ROLE_KEY } from "./owner";

/** Where `read` looks: the state's project and branch, or an import id's. */
function locate(id: string, props?: Bag): { projectId: string; branchId: string; key: string } | undefined {
  if (props?.projectId && props.branchId) {
    return { projectId: String(props.projectId), branchId: String(props.branchId), key: id };
  }
  const ref = parseImportId(id);
  return ref && { projectId: ref.projectId, branchId: ref.branchId, key: ref.name };
}

export async function read(
  rt: Runtime,
  id: string,
  props?: Stated<DatabaseOutputs>,
): Promise<pulumi.dynamic.ReadResult> {
  const api = rt.client();
  const where = locate(id, props);
  if (!where)
    throw new Error(`Failed to read database ${id}: give it as "<projectId>/<branchId>/<databaseName>"`);
  let all: Database[];
  try {
    all = await api.databases.list(where.projectId, where.branchId);
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
  const inputs = refreshInputs(DATABASE_DEFINITION, old, outs);
  // Which Role made the owner is no fact of the service: a refresh keeps it (see owner.ts).
  if (old[OWNER_ROLE_KEY] !== undefined) inputs[OWNER_ROLE_KEY] = old[OWNER_ROLE_KEY];
  return { id: String(db.id), props: outs, inputs };
}

/** Renames the database or changes its owner and waits; a lost answer is checked before a resend. */
export async function applyChanges(
  rt: Runtime,
  projectId: string,
  db: Database,
  change: { name?: string; ownerName?: string },
  log: ResourceLogger,
  opts: { waitForCompute?: boolean } = {},
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
  const send = () =>
    rt.serialized(projectId, async () => {
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
        const now = (await api.databases.list(projectId, db.branch_id)).find((d) => d.id === db.id);
        const done =
          now && (body.name ?? db.name) === now.name && (body.owner_name ?? db.owner_name) === now.owner_name;
        if (!now || !done) throw err;
        log.info(`the answer to the update was lost; ${describeDatabase(now)} shows the change`);
        r = { database: now, operations: await pendingBranchOps(api, projectId, db.branch_id) };
      }
      if (body.owner_name !== undefined) {
        const owner = importIdOf({ projectId, branchId: db.branch_id, name: body.owner_name });
        const given = rt.ledger.ownershipsGiven;
        given.set(owner, [...(given.get(owner) ?? []), r.database.name]);
      }
      log.progress(waitingLine(`updating ${describeDatabase(db)}`, r.operations));
      await rt.waitFor(projectId, r.operations, log);
      return r.database;
    });
  return throughCompute(rt, ref, `update ${describeDatabase(db)}`, log, send, {
    wait: opts.waitForCompute,
  });
}

/** The database by its id in the state, wherever its name now is; `undefined` when gone. */
export async function current(api: NeonClient, id: string, props: Bag): Promise<Database | undefined> {
  return (await api.databases.list(String(props.projectId), String(props.branchId))).find(
    (d) => String(d.id) === id,
  );
}

export const update: UpdateStep<DatabaseInputs, DatabaseOutputs> = async (rt, id, olds, news) => {
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
  const extra: Bag = olds.adopted === true ? { adopted: true } : {};
  if (olds[ADOPTED_OWNER_KEY] !== undefined) extra[ADOPTED_OWNER_KEY] = olds[ADOPTED_OWNER_KEY];
  // An adopted database given another owner now: remember whose it was, to give it back on release.
  else if (olds.adopted === true && after.owner_name !== db.owner_name)
    extra[ADOPTED_OWNER_KEY] = db.owner_name;
  return { outs: toOutputs(news, String(olds.projectId), after, extra) };
};
