/**
 * `Project`'s TypeScript face: its args and outputs types (generated from its definition into `types.ts`,
 * with the definition's docs) and its dynamic class, made from its registry entry; the plugin's class
 * is in `plugin.ts`.
 */
import { dynamicClass, dynamicTypeToken } from "../../dynamic/class";
import { PROJECT_DEFINITION } from "./definition";
import { project } from "./kind";
import type { ProjectArgs, ProjectOutputs } from "./types";

export type { ProjectDefaultComputeArgs, ProjectArgs, ProjectOutputs } from "./types";

/** The type token of the dynamic class: `pulumi-nodejs:dynamic/neon:Project`. */
export const PROJECT_TYPE_TOKEN = dynamicTypeToken(PROJECT_DEFINITION);

/** A Neon project (a Pulumi dynamic resource); see `docs/api/Project.md`. */
export const Project = dynamicClass<ProjectArgs, ProjectOutputs>(project);
export type Project = InstanceType<typeof Project>;
