/**
 * Whose a branch of the declared name is (issue 27's safe rerun): a branch carries annotations naming
 * the stack and resource that made it, so a rerun whose state is gone (a fresh backend, a killed run)
 * finds its own branch and manages it, and a name another stack's branch (or an unannotated one)
 * holds is refused at preview naming that stack and the `importId`. Never the default or a protected
 * branch by name.
 */
import { ApiError, type Branch, type NeonClient } from "../../api";
import type { CheckFailure } from "../check";
import { annotatedStack, createdByStack, madeForResource, UNKNOWN, type Checked } from "../kit";
import type { Runtime } from "../runtime";
import { autoName, describeBranch } from "./mapping";
import type { BranchInputs } from "./types";

/**
 * At preview, a new branch's name (declared, or derived from the URN) as the project holds it: a
 * branch this resource's earlier run left (killed, or its state gone) is said to be managed by `up`;
 * one made by another stack, or by no stack the annotation names, fails here, before anything changes.
 */
export async function previewName(
  rt: Runtime,
  i: Checked<BranchInputs>,
  /** The project's whole listing when the budget read it: the name is looked up there. */
  listed?: readonly Named[],
): Promise<{ failures: CheckFailure[]; exists: boolean }> {
  const urn = typeof i.__urn === "string" ? i.__urn : undefined;
  const name = i.name ?? (urn ? autoName(urn, i.projectId) : undefined);
  if (!name || [i.projectId, name].includes(UNKNOWN)) return { failures: [], exists: false };
  let found: Named | undefined;
  try {
    found = listed
      ? listed.find((x) => x.branch.name === name)
      : await branchNamed(rt.client(), i.projectId, name);
  } catch (err) {
    // A project the key cannot see is reported by the kit's target check, naming projectId.
    if (err instanceof ApiError && (err.kind === "not_found" || err.kind === "forbidden")) {
      return { failures: [], exists: false };
    }
    throw err;
  }
  // The engine checks a replacement again as a new resource: its old branch, deleted first, is no holder.
  if (!found || (urn && rt.ledger.branchesReplaced.get(urn) === found.branch.id)) {
    return { failures: [], exists: false };
  }
  rt.ledger.branchNamesHeld.add(`${i.projectId}/${name}`);
  if (!isOwnLeftover(found, urn)) {
    // An auto-named branch has no name input to blame: the engine then reports the resource itself.
    const property = i.name === undefined ? "" : "name";
    return { failures: [{ property, reason: strangerReason(i, found, urn) }], exists: true };
  }
  rt.logger(i).info(
    `${describeBranch(found.branch)} was made for this resource by an earlier run of this stack ` +
      `(${annotatedStack(found.annotation)}, its annotation says): \`pulumi up\` manages it instead of creating one`,
  );
  return { failures: [], exists: true };
}

/** A branch of the project with this name, and its annotation (every page of the listing, by search). */
export type Named = { branch: Branch; annotation: Record<string, string> };

export async function branchNamed(
  api: NeonClient,
  projectId: string,
  name: string,
): Promise<Named | undefined> {
  return (await api.branches.listAnnotated(projectId, { search: name })).find((x) => x.branch.name === name);
}

/**
 * Whether a branch of the declared name is this resource's own, left by an earlier run of this stack
 * (killed, or whose state is gone): its annotation names this stack and this resource. Never the
 * default or a protected branch.
 */
export function isOwnLeftover(found: Named, urn: string | undefined): boolean {
  return !found.branch.default && !found.branch.protected && madeForResource(found.annotation, urn);
}

/** Why a branch of the declared name is not this resource's to take (names its maker, and the remedy). */
function strangerReason(i: BranchInputs, found: Named, urn: string | undefined): string {
  const b = found.branch;
  const maker = annotatedStack(found.annotation);
  const importId = `importId: "${i.projectId}/${b.id}"`;
  // An auto-named branch's name comes from its URN: the remedy is a name of its own.
  const rename =
    i.name === undefined ? "set name to give this branch a name of its own" : "give this branch another name";
  if (madeForResource(found.annotation, urn)) {
    return (
      `${describeBranch(b)} has this name and was made for this resource by an earlier run of this stack, but it ` +
      `is ${b.default ? "the project's default branch" : "protected"}, which is never taken over by name: set ` +
      `${importId} to manage it, or ${rename}`
    );
  }
  if (maker) {
    return (
      `${describeBranch(b)} already has this name; its annotation says stack ${maker} made it` +
      `${createdByStack(found.annotation, urn) ? " (for another resource of this stack)" : ""}, so this stack does ` +
      `not take it over: ${rename}, or set ${importId} to manage it from here (the other ` +
      "stack must then let go of it)"
    );
  }
  return (
    `${describeBranch(b)} already has this name (a name is unique in a project) and no annotation says which ` +
    `stack made it. To manage it from this stack set ${importId}; otherwise ${rename}`
  );
}

export function refuseStranger(i: BranchInputs, found: Named, urn: string | undefined): Error {
  return new Error(
    `Failed to create branch "${found.branch.name}" in project ${i.projectId}: ${strangerReason(i, found, urn)}. ` +
      "Nothing was changed.",
  );
}
