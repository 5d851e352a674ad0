/** `Role`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { RoleInputs } from "./types";
import { ROLE_DEFINITION } from "./definition";
import { roleSteps } from "./lifecycle";

export const role: ResourceKind<RoleInputs> = {
  definition: ROLE_DEFINITION,
  steps: roleSteps,
  noun: "role",
  adoptInput: "adopt",
  // No deleteBeforeReplace class option: the diff says per change (a rename creates the new role first,
  // so its databases can move to it in the same update); the kit leaves in place an object this run's
  // replacement took over.
  unknownAtCreate: ["name"],
  targets: [
    { property: "projectId", kind: "project" },
    { property: "branchId", kind: "branch" },
  ],
};
