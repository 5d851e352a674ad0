/**
 * `getSchemaDiff`'s request and its failures. The base is always sent (`base_branch_id`): the
 * document does not say which base `compare_schema` takes without one, so the branch's parent is read
 * and named. A 404 of the comparison can mean a missing branch, base or database on either side; which
 * one is found by reads, never by the answer's words.
 */
import type { NeonClient } from "../api";
import { isNotFound } from "../http/errors";
import type { GetSchemaDiffArgs } from "./shapes";

/** The comparison's unified diff ("" when the schemas agree). */
export async function compareWithBase(api: NeonClient, args: GetSchemaDiffArgs): Promise<string> {
  const { projectId, branchId, databaseName } = args;
  const what = `Failed to compare the schema of database "${databaseName}" of branch ${branchId}`;
  let base = args.baseBranchId;
  if (!base) {
    const branch = await api.branches.get(projectId, branchId).catch(async (err: unknown) => {
      if (!isNotFound(err)) throw err;
      throw new Error(`${what}: ${await missing(api, projectId, branchId)}`, { cause: err });
    });
    if (!branch.parent_id) {
      throw new Error(
        `${what}: the branch has no parent (it is the project's root branch); give baseBranchId, the branch to compare with`,
      );
    }
    base = branch.parent_id;
  }
  try {
    return await api.branches.compareSchema(projectId, branchId, {
      databaseName,
      baseBranchId: base,
      lsn: args.lsn,
      timestamp: args.timestamp,
      baseLsn: args.baseLsn,
      baseTimestamp: args.baseTimestamp,
    });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    const why = await whyNotFound(
      api,
      projectId,
      branchId,
      base,
      databaseName,
      args.baseBranchId === undefined,
    );
    throw why ? new Error(`${what}: ${why}`, { cause: err }) : err;
  }
}

/** What a 404 about `branchId` of `projectId` is: the project (or the key's view of it), or the branch. */
async function missing(api: NeonClient, projectId: string, branchId: string): Promise<string> {
  const project = await api.projects.get(projectId).then(
    () => true,
    (err: unknown) => (isNotFound(err) ? false : true),
  );
  return project
    ? `branch ${branchId} does not exist in project ${projectId} (check branchId, or whether the branch was deleted)`
    : `project ${projectId} does not exist, or the API key cannot see it (check projectId and the key)`;
}

/** What the 404 was about, read from the service; undefined when every read finds what it looked for. */
async function whyNotFound(
  api: NeonClient,
  projectId: string,
  branchId: string,
  base: string,
  databaseName: string,
  baseIsParent: boolean,
): Promise<string | undefined> {
  const baseName = baseIsParent ? `its parent ${base}` : `the base branch ${base}`;
  const names = async (b: string) => (await api.databases.list(projectId, b)).map((d) => d.name);
  const onBranch = await names(branchId).catch((err: unknown) =>
    isNotFound(err) ? undefined : Promise.reject(err),
  );
  if (!onBranch) return missing(api, projectId, branchId);
  const onBase = await names(base).catch((err: unknown) =>
    isNotFound(err) ? undefined : Promise.reject(err),
  );
  if (!onBase) {
    return `${baseName} does not exist in project ${projectId}${baseIsParent ? "" : " (check baseBranchId)"}`;
  }
  if (!onBranch.includes(databaseName)) {
    return `the branch has no database "${databaseName}" (its databases: ${onBranch.join(", ") || "none"})`;
  }
  if (!onBase.includes(databaseName)) {
    return (
      `${baseName} has no database "${databaseName}": it exists on this branch only, so there is no schema ` +
      `to compare it with (its databases: ${onBase.join(", ") || "none"})`
    );
  }
  return undefined;
}
