/**
 * Where a new object is made (a resource's {@link TargetDef}s): read by `check` when the resource is
 * new or a target changed, so that a delete-first replacement never deletes what it cannot
 * recreate; and whether a branch's creation will never finish. Part of the kit (`kit.ts`).
 */
import { ApiError, type Branch, type NeonClient } from "../api";
import { isTerminal } from "../operations";
import type { CheckFailure } from "./check";
import { UNKNOWN, type TargetDef, type Bag } from "./definition";
import type { Runtime } from "./runtime";
import { isNewResource } from "./steps";

const knownString = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;

/**
 * Reads where a new object would be made and returns a failure per target that is not there: a
 * project the key cannot see, a branch not in the project. Runs when the resource is new or a
 * target changed (a replacement, which deletes first); never for a value not known yet. One read
 * when everything is there (the branch, which proves its project); a second only to say which is
 * missing. Other errors (an invalid key: 401) are thrown, so the preview fails with them.
 */
export async function targetFailures(
  rt: Runtime,
  targets: readonly TargetDef[],
  olds: Bag,
  news: Bag,
): Promise<CheckFailure[]> {
  const project = targets.find((t) => t.kind === "project");
  if (!project) return [];
  const projectId = news[project.property];
  if (!knownString(projectId)) return [];
  const isNew = isNewResource(olds);
  if (!isNew && !targets.some((t) => news[t.property] !== undefined && olds[t.property] !== news[t.property]))
    return [];
  const branch = targets.find((t) => t.kind === "branch" && news[t.property] !== undefined);
  const branchId = branch ? news[branch.property] : undefined;
  if (branch && !knownString(branchId)) return [];
  // A branch this process created in this run, and waited for until ready: it is there.
  if (branch && rt.ledger.madeThisRun("branch-in", `${projectId}/${String(branchId)}`)) return [];
  const api = rt.client();
  if (branch && knownString(branchId)) {
    let found: Branch | undefined;
    try {
      found = await api.branches.get(projectId, branchId);
    } catch (err) {
      if (!(err instanceof ApiError && err.kind === "not_found")) throw err;
    }
    if (found) {
      // A branch whose creation was cancelled never becomes ready: say so now, instead of retrying
      // "branch not ready yet" until the deadline.
      const why =
        found.current_state === "init"
          ? await unfinishedCreation(api, projectId, branchId, found)
          : undefined;
      if (!why) return [];
      return [
        {
          property: branch.property,
          reason:
            `${branch.property} ${branchId}: the branch's creation did not finish (${why}), and nothing running will ` +
            "make it ready; run `pulumi up` again so that the Branch resource that made it replaces it (it holds no " +
            `data of its own yet), or give ${branch.property} another branch`,
        },
      ];
    }
  }
  try {
    await rt.projectFacts(projectId);
  } catch (err) {
    if (!(err instanceof ApiError && err.kind === "not_found")) throw err;
    return [
      {
        property: project.property,
        reason:
          `${project.property} ${projectId}: the API key cannot see this project (it does not exist, or the key is ` +
          `scoped to another project); check ${project.property}, or use a key with access to it`,
      },
    ];
  }
  if (!branch) return [];
  const byName = await branchNamed(rt, projectId, String(branchId));
  return [
    {
      property: branch.property,
      reason:
        `${branch.property} ${String(branchId)}: project ${projectId} has no such branch` +
        (byName ? ` (${byName})` : "") +
        `; check ${branch.property}`,
    },
  ];
}

/**
 * Why a branch in `init` will never become ready — its `create_branch` operation ended cancelled or
 * in error and nothing runs on it — or `undefined` when it is ready, gone or still being made.
 */
export async function unfinishedCreation(
  api: NeonClient,
  projectId: string,
  id: string,
  read?: Branch,
): Promise<string | undefined> {
  let b = read;
  if (!b) {
    try {
      b = await api.branches.get(projectId, id);
    } catch (err) {
      if (err instanceof ApiError && err.kind === "not_found") return undefined;
      throw err;
    }
  }
  if (b.current_state !== "init" || b.pending_state) return undefined;
  const ops = (await api.operations.listPage(projectId, { limit: 100 })).operations.filter(
    (o) => o.branch_id === id,
  );
  if (ops.some((o) => !isTerminal(o.status))) return undefined;
  // Only on evidence: its create_branch ended cancelled or in error (a branch whose operations are not
  // among the newest, or whose create finished, is not judged).
  const create = ops.find((o) => o.action === "create_branch");
  if (!create || !["cancelled", "error"].includes(create.status)) return undefined;
  return `its create_branch operation ${create.id} ended ${create.status}`;
}

/** "`main` is a branch name; its id is br-…", when `value` is the name of a branch of the project. */
async function branchNamed(rt: Runtime, projectId: string, value: string): Promise<string | undefined> {
  const found = (await rt.client().branches.list(projectId)).find((b) => b.name === value);
  return found ? `"${value}" is the name of a branch; its id is ${found.id}` : undefined;
}

/**
 * A check failure for a branch target that is no branch id (`parentId: "main"`): when the value is
 * the name of a branch of the project, the failure says its id. One read, only when it failed.
 */
export async function namedWhereIdWanted(
  rt: Runtime,
  targets: readonly TargetDef[],
  news: Bag,
  failures: CheckFailure[],
): Promise<CheckFailure[]> {
  const project = targets.find((t) => t.kind === "project");
  const projectId = project ? news[project.property] : undefined;
  const branch = targets.find((t) => t.kind === "branch" && failures.some((f) => f.property === t.property));
  const value = branch ? news[branch.property] : undefined;
  if (!branch || !knownString(projectId) || !knownString(value) || value.startsWith("br-")) return failures;
  if (failures.some((f) => f.property === project?.property)) return failures;
  let hint: string | undefined;
  try {
    hint = await branchNamed(rt, projectId, value);
  } catch {
    return failures; // only a hint: the failure stands without it
  }
  if (!hint) return failures;
  return failures.map((f) =>
    f.property === branch.property ? { ...f, reason: `${f.reason} (${hint})` } : f,
  );
}
