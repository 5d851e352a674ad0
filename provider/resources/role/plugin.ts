/** `Role` as the provider plugin serves it (`neoncompute:index:Role`); see `docs/api/Role.md`. */
import { pluginClass } from "../../plugin/class";
import { role } from "./kind";
import type { RoleArgs, RoleOutputs } from "./resource";

/** A Postgres role of a branch, served by the plugin. Inputs and outputs: see `docs/api/Role.md`. */
export const Role = pluginClass<RoleArgs, RoleOutputs>(role);
export type Role = InstanceType<typeof Role>;
