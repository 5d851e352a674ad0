/**
 * Before a replacement deletes a compute, or a move sends its PATCH: can the new compute exist?
 *
 * A replacement deletes first (a branch holds one read_write compute), so a create the service then
 * refuses would leave nothing. These reads find every refusal the service would give — a project
 * the key cannot see, a branch not in it, another region, a size above the plan, a taken
 * read_write slot — and the one the provider's create gives (another compute of the branch already
 * carries the explicit name and type) while nothing has been touched yet. `diff` runs them, at preview and again at
 * the start of the update, before the engine deletes anything.
 */
import { ApiError, type NeonClient, type ProjectDetails } from "../../api";
import { UNKNOWN, type CheckFailure } from "./inputs";

/** What the compute will be after the change. */
export interface PreflightTarget {
  projectId: string;
  branchId: string;
  type: string;
  /** The explicit name the program gives (none when auto-named): unique per branch and type. */
  name?: string;
  regionId?: string;
  maxCu?: number;
  /** The compute being replaced or moved: it does not take the slot it frees. */
  currentEndpointId?: string;
  /** `adoptExistingPrimary`: a replacement takes over a read_write compute it finds, so a taken slot is fine. */
  adoptExistingPrimary?: boolean;
}

/** The largest size a free-plan project may run (product spec, Limits). */
export const FREE_PLAN_MAX_CU = 2;

/** Which checks apply: a replacement checks everything, a move only the target branch. */
export type PreflightScope = "replace" | "move";

/**
 * Reads what the service would check and returns one failure per refusal (empty when the change can
 * go ahead). Errors other than "not found" (401, network…) are thrown: nothing can be concluded.
 */
export async function preflight(
  api: NeonClient,
  t: PreflightTarget,
  scope: PreflightScope,
): Promise<CheckFailure[]> {
  const failures: CheckFailure[] = [];
  const project = await orNotFound(api.projects.get(t.projectId));
  if (!project) {
    return [
      {
        property: "projectId",
        reason:
          `projectId ${t.projectId}: the API key cannot see this project (it does not exist, or the key is ` +
          "scoped to another project); check projectId, or use a key with access to it",
      },
    ];
  }
  const branch = await orNotFound(api.branches.get(t.projectId, t.branchId));
  if (!branch) {
    return [
      {
        property: "branchId",
        reason: `branchId ${t.branchId}: project ${t.projectId} has no such branch; check branchId`,
      },
    ];
  }
  if (scope === "replace") {
    if (t.regionId !== undefined && t.regionId !== project.region_id) {
      failures.push({
        property: "regionId",
        reason:
          `regionId ${t.regionId}: project ${t.projectId} is in ${project.region_id}, and a compute runs in its ` +
          `project's region; remove regionId or set it to ${project.region_id}`,
      });
    }
    const plan = project.owner?.subscription_type ?? "";
    if (plan.startsWith("free") && t.maxCu !== undefined && t.maxCu > FREE_PLAN_MAX_CU) {
      failures.push({
        property: "maxCu",
        reason:
          `the size (${t.maxCu} CU) is above the free plan's ${FREE_PLAN_MAX_CU} CU for project ${t.projectId}; ` +
          `choose ${FREE_PLAN_MAX_CU} CU or less, or upgrade the plan`,
      });
    }
  }
  const holdsSlot = t.type === "read_write" && !(scope === "replace" && t.adoptExistingPrimary === true);
  if (holdsSlot || t.name !== undefined) {
    const others = (await api.endpoints.listByBranch(t.projectId, t.branchId)).filter(
      (e) => e.id !== t.currentEndpointId,
    );
    const taken = holdsSlot ? others.find((e) => e.type === "read_write") : undefined;
    if (taken) {
      failures.push({
        property: "branchId",
        reason:
          `branch ${t.branchId} already has a read_write compute (${taken.id}) and holds only one; choose ` +
          `another branch, remove ${taken.id} first, or make this compute type "read_only"`,
      });
    }
    const named = others.find((e) => e.name === t.name && e.type === t.type);
    if (named && named !== taken) {
      failures.push({
        property: "name",
        reason:
          `name ${t.name}: compute ${named.id} on branch ${t.branchId} already carries this name and type, and ` +
          "an explicit name is unique per branch and type (the provider would refuse to create a second one); " +
          "choose another name, or remove the name to let the provider name the compute",
      });
    }
  }
  return failures;
}

async function orNotFound<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError && err.kind === "not_found") return undefined;
    throw err;
  }
}

/**
 * At check, a size above the free plan's limit for a new compute or a size change: one read of the
 * project, made only when the size is above that limit (and the project id is known).
 */
export async function planFailures(
  project: (projectId: string) => Promise<ProjectDetails>,
  projectId: unknown,
  property: string,
  maxCu: unknown,
): Promise<CheckFailure[]> {
  if (typeof projectId !== "string" || typeof maxCu !== "number" || maxCu <= FREE_PLAN_MAX_CU) return [];
  if (projectId === UNKNOWN) return [];
  const plan = (await orNotFound(project(projectId)))?.owner?.subscription_type ?? "";
  if (!plan.startsWith("free")) return [];
  return [
    {
      property,
      reason:
        `the size (${maxCu} CU) is above the free plan's ${FREE_PLAN_MAX_CU} CU for project ${projectId}; ` +
        `choose ${FREE_PLAN_MAX_CU} CU or less, or upgrade the plan`,
    },
  ];
}
