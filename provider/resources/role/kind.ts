/** `Role`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import { ROLE_DEFINITION } from "./definition";
import { roleSteps } from "./lifecycle";

export const role: ResourceKind = {
  definition: ROLE_DEFINITION,
  steps: roleSteps,
  noun: "role",
  adoptInput: "adopt",
  dynamic: {
    module: "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/role/impl",
    label: "role",
  },
  // Role names are unique in a branch: a replacement deletes the old role first.
  classes: { deleteBeforeReplace: true },
  targets: [
    { property: "projectId", kind: "project" },
    { property: "branchId", kind: "branch" },
  ],
};
