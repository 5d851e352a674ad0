/**
 * `Role`'s TypeScript face: its args and outputs types (generated from its definition into `types.ts`,
 * with the definition's docs) and its dynamic class, made from its registry entry; the plugin's class
 * is in `plugin.ts`.
 */
import { dynamicClass, dynamicTypeToken } from "../../dynamic/class";
import { ROLE_DEFINITION } from "./definition";
import { role } from "./kind";
import type { RoleArgs, RoleOutputs } from "./types";

export type { RoleArgs, RoleOutputs } from "./types";

/** The type token of the dynamic class: `pulumi-nodejs:dynamic/neon:Role`. */
export const ROLE_TYPE_TOKEN = dynamicTypeToken(ROLE_DEFINITION);

/** A Postgres role of a branch with its password as a secret output (a Pulumi dynamic resource); see `docs/api/Role.md`. */
export const Role = dynamicClass<RoleArgs, RoleOutputs>(role);
export type Role = InstanceType<typeof Role>;
