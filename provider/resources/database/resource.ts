/**
 * `Database`'s TypeScript face: its args and outputs types (generated from its definition into `types.ts`,
 * with the definition's docs) and its dynamic class, made from its registry entry; the plugin's class
 * is in `plugin.ts`.
 */
import { dynamicClass, dynamicTypeToken } from "../../dynamic/class";
import { DATABASE_DEFINITION } from "./definition";
import { database } from "./kind";
import type { DatabaseArgs, DatabaseOutputs } from "./types";

export type { DatabaseArgs, DatabaseOutputs } from "./types";

/** The type token of the dynamic class: `pulumi-nodejs:dynamic/neon:Database`. */
export const DATABASE_TYPE_TOKEN = dynamicTypeToken(DATABASE_DEFINITION);

/** A Postgres database of a branch (a Pulumi dynamic resource); see `docs/api/Database.md`. */
export const Database = dynamicClass<DatabaseArgs, DatabaseOutputs>(database);
export type Database = InstanceType<typeof Database>;
