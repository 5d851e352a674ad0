/** `Database`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { DatabaseInputs } from "./types";
import { DATABASE_DEFINITION } from "./definition";
import { databaseSteps } from "./lifecycle";

export const database: ResourceKind<DatabaseInputs> = {
  definition: DATABASE_DEFINITION,
  steps: databaseSteps,
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
