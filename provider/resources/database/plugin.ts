/** `Database` as the provider plugin serves it (`neoncompute:index:Database`); see `docs/api/Database.md`. */
import { pluginClass } from "../../plugin/class";
import { database } from "./kind";
import type { DatabaseArgs, DatabaseOutputs } from "./resource";

/** A Postgres database of a branch, served by the plugin. Inputs and outputs: see `docs/api/Database.md`. */
export const Database = pluginClass<DatabaseArgs, DatabaseOutputs>(database);
export type Database = InstanceType<typeof Database>;
