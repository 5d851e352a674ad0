/**
 * The sweep of leaked preview branches: of a project's branches, those this package made for a stack
 * that no longer exists in the backend (a pipeline died before its destroy, a stack was removed with
 * `--force`), or — when the backend's stacks are not given — that are older than an age. Never the
 * project's default branch, a protected branch, a branch other branches start from, a branch of a
 * stack that still exists, or a branch without this package's annotation. `examples/sweep` runs it
 * against a backend; dry run unless asked to delete.
 */
// First: an import the declarations keep, so that the comment above stays on sweep.d.ts.
import type { BranchInfo } from "./lookups";
import { ApiError } from "./http/errors";
import { lookupClient } from "./lookups/client";
import { branchInfo } from "./lookups/types";

/** What decides that a branch has leaked. */
export interface SweepCriteria {
  /**
   * The stacks the backend holds, as `<project>/<stack>`: an annotated branch whose stack is not among
   * them has leaked. A branch of a stack among them is never swept (destroy the stack instead).
   */
  liveStacks?: readonly string[];
  /**
   * Sweep the branches of a Pulumi project of which the backend lists no stack at all. Left out, those
   * are kept: a wrong or empty backend (another `PULUMI_BACKEND_URL`, a login that failed) lists none,
   * and would make every branch of the project look leaked.
   */
  allowEmptyProjects?: boolean;
  /** With no `liveStacks`: an annotated branch created longer ago than this has leaked. */
  olderThanSeconds?: number;
  /** Now, in milliseconds since the epoch (the service's clock where it is known). */
  now: number;
}

/** One branch and what the sweep does with it, and why. */
export interface SweepVerdict {
  branch: BranchInfo;
  sweep: boolean;
  reason: string;
}

const DAY_S = 86_400;

function age(createdAt: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(createdAt)) / 1000));
  return s >= DAY_S ? `${Math.floor(s / DAY_S)} d` : s >= 3600 ? `${Math.floor(s / 3600)} h` : `${s} s`;
}

/** The verdict on each branch, in the order given. Pure: the caller lists and deletes. */
export function planSweep(branches: readonly BranchInfo[], c: SweepCriteria): SweepVerdict[] {
  if (c.liveStacks === undefined && c.olderThanSeconds === undefined) {
    throw new Error(
      "A sweep needs the backend's stacks (liveStacks) or an age (olderThanSeconds) to decide what has leaked.",
    );
  }
  const live = c.liveStacks ? new Set(c.liveStacks) : undefined;
  // The Pulumi projects of which the backend holds at least one stack.
  const seen = new Set(c.liveStacks?.map((s) => s.slice(0, s.lastIndexOf("/"))));
  const parents = new Set(branches.map((b) => b.parentId).filter((p): p is string => p !== undefined));
  return branches.map((branch): SweepVerdict => {
    const keep = (reason: string) => ({ branch, sweep: false, reason });
    const sweep = (reason: string) => ({ branch, sweep: true, reason });
    if (branch.default) return keep("the project's default branch");
    if (!branch.stack) return keep("not made by this package (no pulumi-project/pulumi-stack annotation)");
    if (branch.protected) return keep(`protected (made by stack ${branch.stack})`);
    if (parents.has(branch.branchId))
      return keep(`other branches start from it (made by stack ${branch.stack})`);
    if (live) {
      if (live.has(branch.stack))
        return keep(`its stack ${branch.stack} exists: destroy that stack to delete it`);
      const project = branch.stack.slice(0, branch.stack.lastIndexOf("/"));
      if (!seen.has(project) && !c.allowEmptyProjects) {
        return keep(
          `the backend lists no stack of Pulumi project ${project} at all (is it the pipelines' backend?); ` +
            `kept, as a wrong backend would make every branch look leaked (allow it with allowEmptyProjects, ` +
            "--allow-empty-projects in examples/sweep)",
        );
      }
      return sweep(`its stack ${branch.stack} no longer exists in the backend`);
    }
    const limit = c.olderThanSeconds as number;
    const created = Date.parse(branch.createdAt);
    if (Number.isFinite(created) && c.now - created > limit * 1000) {
      return sweep(
        `made by stack ${branch.stack} ${age(branch.createdAt, c.now)} ago, older than ${limit} s`,
      );
    }
    return keep(`made by stack ${branch.stack} ${age(branch.createdAt, c.now)} ago`);
  });
}

/** What {@link sweepBranches} did: each branch's verdict, and the ids it deleted. */
export interface SweepResult {
  verdicts: SweepVerdict[];
  deleted: string[];
}

/** Arguments of {@link sweepBranches}. */
export interface SweepArgs extends Partial<SweepCriteria> {
  /** The project whose branches to sweep. */
  projectId: string;
  /** Delete the leaked branches; left out or `false`, a dry run that only says what it would do. */
  delete?: boolean;
}

/**
 * Lists every branch of the project (all pages, with annotations), plans the sweep, and — when asked
 * to delete — deletes the leaked branches one by one, waiting for each delete's operations (a branch
 * already gone counts as deleted). The client is the lookups' (`neon:apiKey` / `neon:apiUrl`, else
 * `NEON_API_KEY` / `NEON_API_URL`).
 */
export async function sweepBranches(args: SweepArgs): Promise<SweepResult> {
  const api = lookupClient();
  const listed = await api.branches.listAnnotated(args.projectId);
  const verdicts = planSweep(
    listed.map((x) => branchInfo(x.branch, x.annotation)),
    {
      liveStacks: args.liveStacks,
      allowEmptyProjects: args.allowEmptyProjects,
      olderThanSeconds: args.olderThanSeconds,
      now: args.now ?? Date.now(),
    },
  );
  const deleted: string[] = [];
  if (!args.delete) return { verdicts, deleted };
  for (const v of verdicts.filter((x) => x.sweep)) {
    try {
      const r = await api.branches.delete(args.projectId, v.branch.branchId);
      if (r)
        await api.waitForOperations(
          args.projectId,
          r.operations.map((o) => o.id),
        );
    } catch (err) {
      if (!(err instanceof ApiError && err.kind === "not_found")) throw err;
    }
    deleted.push(v.branch.branchId);
  }
  return { verdicts, deleted };
}
