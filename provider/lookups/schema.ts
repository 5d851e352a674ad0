/**
 * `getSchemaDiff`'s requests and its failures. The base is always sent (`base_branch_id`): the
 * document does not say which base `compare_schema` takes without one, so the branch's parent is read
 * and named.
 *
 * A database the base does not have (the pull request's own, made on its branch) has no schema there to
 * compare with, and `compare_schema` answers 404 for it. That is decided by a read of the base's
 * databases, never by a failed comparison's words; the branch's schema is then read alone
 * (`GET …/schema`) and shown as wholly new: a unified diff of it against an empty schema, written as
 * `compare_schema` writes its diffs, every line added. SQL that defines nothing (comments, `SET`s) is
 * an empty schema: a new database that no migration has touched shows no difference.
 *
 * A 404 of a comparison or a read can mean a missing branch, base or database on either side; which
 * one is found by reads, never by the answer's words.
 */
import type { NeonClient } from "../api";
import { isNotFound } from "../http/errors";
import type { GetSchemaDiffArgs } from "./shapes";

/**
 * The unified diff of the base's schema of the database and the branch's ("" when they agree); for a
 * database the base does not have, the branch's schema as wholly new ({@link wholeSchemaAdded}).
 */
export async function compareWithBase(api: NeonClient, args: GetSchemaDiffArgs): Promise<string> {
  const { projectId, branchId, databaseName } = args;
  const what = `Failed to compare the schema of database "${databaseName}" of branch ${branchId}`;
  const base = args.baseBranchId || (await parentOf(api, projectId, branchId, what));
  const explained = async (err: unknown): Promise<never> => {
    if (!isNotFound(err)) throw err;
    const why = await whyNotFound(api, projectId, branchId, base, databaseName, !args.baseBranchId);
    throw why ? new Error(`${what}: ${why}`, { cause: err }) : err;
  };
  const onBase = await api.databases
    .list(projectId, base)
    .then((dbs) => dbs.some((d) => d.name === databaseName), explained);
  try {
    if (!onBase) {
      const { lsn, timestamp } = args;
      const sql = await api.branches.schema(projectId, branchId, { databaseName, lsn, timestamp });
      return wholeSchemaAdded(databaseName, sql);
    }
    return await api.branches.compareSchema(projectId, branchId, {
      databaseName,
      baseBranchId: base,
      lsn: args.lsn,
      timestamp: args.timestamp,
      baseLsn: args.baseLsn,
      baseTimestamp: args.baseTimestamp,
    });
  } catch (err) {
    return explained(err);
  }
}

// A line of SQL that defines no object: blank, a comment, a session setting, or a psql meta-command
// (pg_dump's `\restrict`). A schema of such lines only is an empty one.
const DEFINES_NOTHING = /^\s*$|^--|^SET \w+ = [^;]*;$|^SELECT pg_catalog\.set_config\([^;]*\);$|^\\/;

/**
 * `sql`, the schema of `database` on a branch whose base has no such database, as the unified diff of
 * an empty schema and it (headers `--- a/<db>`, `+++ b/<db>`, as `compare_schema` writes them, then
 * one hunk adding every line); "" when the SQL defines nothing.
 */
export function wholeSchemaAdded(database: string, sql: string): string {
  const lines = sql.split("\n");
  if (lines.every((l) => DEFINES_NOTHING.test(l))) return "";
  const endsWithNewline = sql.endsWith("\n");
  if (endsWithNewline) lines.pop();
  return (
    `--- a/${database}\n+++ b/${database}\n@@ -0,0 +1,${lines.length} @@\n` +
    lines.map((l) => `+${l}\n`).join("") +
    (endsWithNewline ? "" : "\\ No newline at end of file\n")
  );
}

/** The branch's parent, the base a comparison takes when none is given; fails for a root branch. */
async function parentOf(api: NeonClient, projectId: string, branchId: string, what: string): Promise<string> {
  const branch = await api.branches.get(projectId, branchId).catch(async (err: unknown) => {
    if (!isNotFound(err)) throw err;
    throw new Error(`${what}: ${await missing(api, projectId, branchId)}`, { cause: err });
  });
  if (!branch.parent_id) {
    throw new Error(
      `${what}: the branch has no parent (it is the project's root branch); give baseBranchId, the branch to compare with`,
    );
  }
  return branch.parent_id;
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
    return `${baseName} has no database "${databaseName}" (its databases: ${onBase.join(", ") || "none"})`;
  }
  return undefined;
}
