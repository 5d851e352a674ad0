/** `ProjectPermission` as the provider plugin serves it (`neoncompute:index:ProjectPermission`); see `docs/api/ProjectPermission.md`. */
import { pluginClass } from "../../plugin/class";
import { projectPermission } from "./kind";
import type { ProjectPermissionArgs, ProjectPermissionOutputs } from "./resource";

/** Access to a project for another Neon account, served by the plugin. Inputs and outputs: see `docs/api/ProjectPermission.md`. */
export const ProjectPermission = pluginClass<ProjectPermissionArgs, ProjectPermissionOutputs>(
  projectPermission,
);
export type ProjectPermission = InstanceType<typeof ProjectPermission>;
