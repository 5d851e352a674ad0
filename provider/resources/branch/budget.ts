/**
 * The branch budget at preview (issue 27): a new branch that would take the project past its plan's
 * branch limit (`owner.branches_limit`: Free 10, paid plans thousands) fails at preview with the
 * count, the limit and the oldest branches this package made (what a sweep would remove) — not at
 * `up`, after other resources of the program changed. The branches this program adds to the project
 * count too; those this run's creates already made count once (an adopted, imported or taken-over
 * branch was there before, and counts as one of the project's).
 */
import { ApiError } from "../../api";
import { MAX_BRANCHES } from "../../api/branches";
import type { CheckFailure } from "../check";
import { annotatedStack } from "../kit";
import type { Runtime } from "../runtime";
import { describeBranch } from "./mapping";
import type { Named } from "./ownership";

/** The project's branch limit, when it has one, and every branch with its annotation (all pages). */
export interface BudgetRead {
  limit?: number;
  listed?: Named[];
}

/**
 * Reads what the budget judges: the plan's branch limit (the project as this process read it) and
 * the whole listing — which also answers whether the declared name is held, with or without a limit.
 * Both at once: read one after the other, they put a round trip more before a new branch's create
 * (the project's read is this process's first request; issue 28). Nothing when the key cannot see
 * the project (the kit's target check says so, naming projectId).
 */
export async function readBudget(rt: Runtime, projectId: string): Promise<BudgetRead> {
  const listing = rt.client().branches.listAnnotated(projectId);
  // Judged below, with the project's read; not an unhandled rejection while that one is awaited.
  listing.catch(() => undefined);
  try {
    const [project, listed] = await Promise.all([rt.projectFacts(projectId), listing]);
    const limit = project.owner?.branches_limit;
    if (limit) return { limit, listed };
    // Without a limit the listing answers the name only when it is whole (else a search does).
    return listed.length < MAX_BRANCHES ? { listed } : {};
  } catch (err) {
    if (err instanceof ApiError && (err.kind === "not_found" || err.kind === "forbidden")) return {};
    throw err;
  }
}

/** Failures of a new branch (`urn`) of project `projectId` against the project's branch limit. */
export async function budgetFailures(
  rt: Runtime,
  projectId: string,
  urn: string | undefined,
  read: BudgetRead,
): Promise<CheckFailure[]> {
  // The new branches this program declares per project, this one included.
  const planned = rt.ledger.branchesPlanned;
  const mine = planned.get(projectId) ?? new Set<string>();
  planned.set(projectId, mine.add(urn ?? `anonymous-${mine.size}`));
  const { limit, listed } = read;
  if (!limit || !listed) return [];
  // Made anew by this run's creates: already among `mine`, so not counted twice.
  const madeNow = listed.filter((x) => rt.ledger.branchesMadeAnew.has(x.branch.id)).length;
  const before = listed.length - madeNow;
  if (before + mine.size <= limit) return [];
  const sweepable = listed
    .filter((x) => annotatedStack(x.annotation) && !x.branch.default && !x.branch.protected)
    .sort((a, b) => ((a.branch.created_at ?? "") < (b.branch.created_at ?? "") ? -1 : 1))
    .slice(0, 3)
    .map(
      (x) =>
        `${describeBranch(x.branch)} made by stack ${annotatedStack(x.annotation)} on ${x.branch.created_at}`,
    );
  return [
    {
      property: "projectId",
      reason:
        `project ${projectId} holds ${before} branches and its plan allows ${limit}` +
        (mine.size > 1 ? `; this program adds ${mine.size}` : "") +
        ", so this branch would exceed the limit. Delete branches the project no longer needs" +
        (sweepable.length > 0
          ? ` (the oldest this package made: ${sweepable.join("; ")}; examples/sweep/sweep.ts deletes ` +
            "those whose stack no longer exists)"
          : "") +
        ", or upgrade the plan",
    },
  ];
}
