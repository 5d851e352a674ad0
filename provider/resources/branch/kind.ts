/** `Branch`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { BranchInputs } from "./types";
import { BRANCH_COMPUTE_TYPE, BRANCH_DEFINITION } from "./definition";
import type * as lifecycle from "./lifecycle";

export const branch: ResourceKind<BranchInputs> = {
  definition: BRANCH_DEFINITION,
  // Loaded at the first step: a program's process only makes classes (and the steps load the API client).
  get steps() {
    return (require("./lifecycle") as typeof lifecycle).branchSteps;
  },
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
