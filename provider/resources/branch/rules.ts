/**
 * `Branch`'s rules the service enforces — judged before anything is sent (a replacement of a default,
 * protected or parent branch, a reset of a protected branch, an expiry where children stand in the way,
 * a delete of a branch its state says is protected or the default) or said plainly once the service
 * refused (any other delete) — and small reads of the branch's surroundings (its children, its
 * read_write compute, its unfinished operations).
 */
import { ApiError, type Branch, type Endpoint, type NeonClient } from "../../api";
import { pendingOperations, UNKNOWN, type Checked, type Stated } from "../kit";
import { describeBranch, NEVER_STARTED_KEY } from "./mapping";
import type { BranchComputeInputs, BranchComputeOutputs, BranchInputs, BranchOutputs } from "./types";

/**
 * At preview, what the service would refuse of an update: a reset of a branch that stays protected,
 * an expiry on a branch with children. Reads the branches only for an expiry change.
 */
export async function refuseServiceRules(
  api: NeonClient,
  projectId: string,
  id: string,
  updates: string[],
  news: Checked<BranchInputs>,
): Promise<void> {
  if (updates.includes("resetTrigger") && news.protected === true) {
    throw new Error(
      `Failed to reset branch ${id}: it is protected, and the service does not reset a protected branch; set ` +
        "protected: false (in this update or an earlier one) to reset it. Nothing was changed.",
    );
  }
  if (updates.includes("expiresAt") && typeof news.expiresAt === "string" && news.expiresAt !== UNKNOWN) {
    const children = await childrenOf(api, projectId, id);
    if (children.length > 0) {
      throw new Error(
        `Failed to set expiresAt on branch ${id}: it has child branches (${children.map((c) => c.id).join(", ")}), ` +
          "and the service expires only branches without children; remove expiresAt or delete the children " +
          "first. Nothing was changed.",
      );
    }
  }
}

/** The branches whose parent is `id`. */
export async function childrenOf(api: NeonClient, projectId: string, id: string): Promise<Branch[]> {
  return (await api.branches.list(projectId)).filter((b) => b.parent_id === id);
}

/** The name a reset keeps a branch's previous state under: `<name>-before-reset-<UTC time>` (≤ 256). */
export function preservedName(name: string, nowMs: number): string {
  const stamp = new Date(nowMs).toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
  return `${name.slice(0, 256 - 14 - stamp.length)}-before-reset-${stamp}`;
}

/** A branch's compute as a Compute's size inputs (`cu` is equal bounds). */
export function sizeOf(c: BranchComputeInputs | BranchComputeOutputs | undefined): {
  minCu?: number;
  maxCu?: number;
} {
  const v: BranchComputeInputs = c && typeof c === "object" ? c : {};
  return v.cu !== undefined ? { minCu: v.cu, maxCu: v.cu } : { minCu: v.minCu, maxCu: v.maxCu };
}

/** True when the branch's declared compute is missing or has never started (per the outputs). */
export function computeToFinish(olds: Stated<BranchOutputs>): boolean {
  return olds.computeId === undefined || olds[NEVER_STARTED_KEY] === true;
}

/** The branch's read_write compute, when it has one. */
export async function readWriteCompute(
  api: NeonClient,
  projectId: string,
  branchId: string,
): Promise<Endpoint | undefined> {
  return (await api.endpoints.listByBranch(projectId, branchId)).find((e) => e.type === "read_write");
}

/**
 * Fails saying why when the service refuses (or would refuse) to delete the branch: the project's
 * default branch, a protected one, one with children. A replacement asks before anything is sent; a
 * delete asks first only when the branch's state says it is protected or the default, else once the
 * service refused it.
 */
export async function refuseUndeletable(
  api: NeonClient,
  projectId: string,
  id: string,
  verb: "delete" | "replace",
): Promise<void> {
  // One listing (every page) answers both: the branch itself, and whether others start from it.
  let all: Branch[];
  try {
    all = await api.branches.list(projectId);
  } catch (err) {
    if (err instanceof ApiError && err.kind === "not_found") return;
    throw err;
  }
  const b = all.find((x) => x.id === id);
  if (!b) return; // already gone: the delete says so
  const children = all.filter((x) => x.parent_id === id);
  const why = b.default
    ? "it is the project's default branch (set another branch as default first, or manage it with adoptDefault, which destroy leaves in place)"
    : b.protected
      ? "it is protected (set protected: false first)"
      : children.length > 0
        ? `it has child branches (${children.map((c) => c.id).join(", ")}); delete them first`
        : undefined;
  if (why) throw new Error(`Failed to ${verb} ${describeBranch(b)}: ${why}. Nothing was deleted.`);
}

/**
 * The operations of a branch found by name to wait for. A branch still being made (`init`): every one,
 * failures included — they belong to its creation, and waiting on them fails. An older branch taken
 * over (a rerun whose state was lost): only the unfinished ones, not its history's failures.
 */
export async function pendingOps(
  api: NeonClient,
  projectId: string,
  b: Pick<Branch, "id" | "current_state">,
) {
  return pendingOperations(api, projectId, (o) => o.branch_id === b.id, {
    includeFailed: b.current_state === "init",
  });
}
