/** `Project` as the provider plugin serves it (`neoncompute:index:Project`); see `docs/api/Project.md`. */
import { pluginClass } from "../../plugin/class";
import { project } from "./kind";
import type { ProjectArgs, ProjectOutputs } from "./resource";

/** A Neon project, served by the plugin. Inputs and outputs: see `docs/api/Project.md`. */
export const Project = pluginClass<ProjectArgs, ProjectOutputs>(project);
export type Project = InstanceType<typeof Project>;
