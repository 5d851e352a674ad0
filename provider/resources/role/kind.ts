/** `Role`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { RoleInputs } from "./types";
import { ROLE_DEFINITION } from "./definition";
import type * as lifecycle from "./lifecycle";

export const role: ResourceKind<RoleInputs> = {
  definition: ROLE_DEFINITION,
  // Loaded at the first step: a program's process only makes classes (and the steps load the API client).
  get steps() {
    return (require("./lifecycle") as typeof lifecycle).roleSteps;
  },
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
