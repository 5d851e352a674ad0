/** `Project`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { ProjectInputs } from "./types";
import { PROJECT_DEFAULT_COMPUTE_TYPE, PROJECT_DEFINITION } from "./definition";
import type * as lifecycle from "./lifecycle";

export const project: ResourceKind<ProjectInputs> = {
  definition: PROJECT_DEFINITION,
  // Loaded at the first step: a program's process only makes classes (and the steps load the API client).
  get steps() {
    return (require("./lifecycle") as typeof lifecycle).projectSteps;
  },
  noun: "project",
  objectTypes: [PROJECT_DEFAULT_COMPUTE_TYPE],
  // Never replaced (diff refuses); a forced replacement creates first and its create takes the project
  // over, so the delete that follows leaves it: no deleteBeforeReplace.
};
