/** `Database`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { DatabaseInputs } from "./types";
import { DATABASE_DEFINITION } from "./definition";
import type * as lifecycle from "./lifecycle";

export const database: ResourceKind<DatabaseInputs> = {
  definition: DATABASE_DEFINITION,
  // Loaded at the first step: a program's process only makes classes (and the steps load the API client).
  get steps() {
    return (require("./lifecycle") as typeof lifecycle).databaseSteps;
  },
  noun: "database",
  adoptInput: "adopt",
  // Database names are unique in a branch: a replacement deletes the old database first.
  classes: { deleteBeforeReplace: true },
  unknownAtCreate: ["name"],
  targets: [
    { property: "projectId", kind: "project" },
    { property: "branchId", kind: "branch" },
  ],
};
