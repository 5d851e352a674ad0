/**
 * `ProjectPermission`'s TypeScript face: its args and outputs types (generated from its definition into
 * `types.ts`, with the definition's docs) and its dynamic class, made from its registry entry; the
 * plugin's class is in `plugin.ts`.
 */
import { dynamicClass, dynamicTypeToken } from "../../dynamic/class";
import { PROJECT_PERMISSION_DEFINITION } from "./definition";
import { projectPermission } from "./kind";
import type { ProjectPermissionArgs, ProjectPermissionOutputs } from "./types";

export type { ProjectPermissionArgs, ProjectPermissionOutputs } from "./types";

/** The type token of the dynamic class: `pulumi-nodejs:dynamic/neon:ProjectPermission`. */
export const PROJECT_PERMISSION_TYPE_TOKEN = dynamicTypeToken(PROJECT_PERMISSION_DEFINITION);

/** Access to a project for another Neon account (a Pulumi dynamic resource); see `docs/api/ProjectPermission.md`. */
export const ProjectPermission = dynamicClass<ProjectPermissionArgs, ProjectPermissionOutputs>(
  projectPermission,
);
export type ProjectPermission = InstanceType<typeof ProjectPermission>;
