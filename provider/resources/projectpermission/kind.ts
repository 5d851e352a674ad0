/** `ProjectPermission`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { ProjectPermissionInputs } from "./types";
import { PROJECT_PERMISSION_DEFINITION } from "./definition";
import { projectPermissionSteps } from "./lifecycle";
import { projectPermissionNoun } from "./rules";

export const projectPermission: ResourceKind<ProjectPermissionInputs> = {
  definition: PROJECT_PERMISSION_DEFINITION,
  steps: projectPermissionSteps,
  noun: projectPermissionNoun,
  adoptInput: "importId",
  // A changed address or project is granted before the old grant is revoked: no deleteBeforeReplace.
  targets: [{ property: "projectId", kind: "project" }],
};
