/** `Branch`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import { BRANCH_COMPUTE_TYPE, BRANCH_DEFINITION } from "./definition";
import { branchSteps } from "./lifecycle";

export const branch: ResourceKind = {
  definition: BRANCH_DEFINITION,
  steps: branchSteps,
  noun: "branch",
  adoptInput: "adoptDefault",
  objectTypes: [BRANCH_COMPUTE_TYPE],
  dynamic: {
    module: "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/branch/impl",
    label: "branch",
  },
  // Branch names are unique in a project: a replacement deletes the old branch first.
  classes: { deleteBeforeReplace: true },
  targets: [
    { property: "projectId", kind: "project" },
    { property: "parentId", kind: "branch" },
  ],
};
