/** `ProjectPermission`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { ProjectPermissionInputs } from "./types";
import { PROJECT_PERMISSION_DEFINITION } from "./definition";
import type * as lifecycle from "./lifecycle";

/** What messages and the kit call the resource (its registry entry's `noun`). */
export const projectPermissionNoun = "project access";

export const projectPermission: ResourceKind<ProjectPermissionInputs> = {
  definition: PROJECT_PERMISSION_DEFINITION,
  // Loaded at the first step: a program's process only makes classes (and the steps load the API client).
  get steps() {
    return (require("./lifecycle") as typeof lifecycle).projectPermissionSteps;
  },
  noun: projectPermissionNoun,
  adoptInput: "importId",
  // A changed address or project is granted before the old grant is revoked: no deleteBeforeReplace.
  targets: [{ property: "projectId", kind: "project" }],
};
