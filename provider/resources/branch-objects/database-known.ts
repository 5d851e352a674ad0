/**
 * Whether a database a branch service names (Neon Auth's, the Data API's) is there, for their checks:
 * a preview refuses an unknown database with nothing sent. A branch this run made, or a database a
 * `Database` resource of this program declares, is not judged (it may come later in the run).
 */
import { isNotFound } from "../../api";
import type { Runtime } from "../runtime";
import { importIdOf } from "./objects";

/** The reason `databaseName` cannot be used on the branch, or `undefined` when it is there (or may be). */
export async function unknownDatabase(
  rt: Runtime,
  projectId: string,
  branchId: string,
  databaseName: string,
  property: string,
): Promise<string | undefined> {
  if (rt.ledger.madeThisRun("branch-in", `${projectId}/${branchId}`)) return undefined;
  if (rt.ledger.declaredBy(`database:${importIdOf({ projectId, branchId, name: databaseName })}`))
    return undefined;
  const dbs = await rt
    .client()
    .databases.list(projectId, branchId)
    .catch((err: unknown) => {
      // A branch or project that cannot be found: the kit's target rule names it.
      if (isNotFound(err)) return undefined;
      throw err;
    });
  if (!dbs || dbs.some((d) => d.name === databaseName)) return undefined;
  const names = dbs.map((d) => `"${d.name}"`).join(", ") || "none";
  return (
    `${property} "${databaseName}": branch ${branchId} has no such database (it has ${names}); declare a ` +
    `Database of that name on the branch, or give ${property} one of its databases`
  );
}
