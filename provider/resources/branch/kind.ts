/** `Branch`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { BranchInputs } from "./types";
import { BRANCH_COMPUTE_TYPE, BRANCH_DEFINITION } from "./definition";
import { branchSteps } from "./lifecycle";

export const branch: ResourceKind<BranchInputs> = {
  definition: BRANCH_DEFINITION,
  steps: branchSteps,
  noun: "branch",
  adoptInput: "adoptDefault",
  objectTypes: [BRANCH_COMPUTE_TYPE],
  // Branch names are unique in a project: a replacement deletes the old branch first.
  classes: { deleteBeforeReplace: true },
  targets: [
    { property: "projectId", kind: "project" },
    { property: "parentId", kind: "branch" },
  ],
};
