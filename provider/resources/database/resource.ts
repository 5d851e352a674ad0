/**
 * `Database`'s TypeScript face: its inputs and outputs as types, held equal to its definition at
 * compile time, and its dynamic class, made by the kit from its registry entry; the plugin's class is
 * in `plugin.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { dynamicClass, dynamicTypeToken } from "../classes";
import { type Agree, type InputsAgree, type OutputName } from "../definition";
import { DATABASE_DEFINITION } from "./definition";
import { database } from "./kind";

/** Inputs of a {@link Database}. */
export interface DatabaseArgs {
  /** The project. Changing it replaces the database (its data is lost). */
  projectId: pulumi.Input<string>;
  /** The branch that holds the database. Changing it replaces the database (its data is lost). */
  branchId: pulumi.Input<string>;
  /** The database's name, 1–63 bytes, unique in the branch; renamed in place (id and data stay). */
  name: pulumi.Input<string>;
  /** The role that owns the database; changed in place. */
  ownerName: pulumi.Input<string>;
  /** Manage the existing database of this name on the branch; destroy leaves it in place. */
  adopt?: pulumi.Input<boolean>;
  /** Adopt an existing database: `"<projectId>/<branchId>/<databaseName>"`; destroy deletes it. */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link Database} (its id is the database's id, which a rename keeps). */
export interface DatabaseOutputs {
  projectId: string;
  branchId: string;
  name: string;
  ownerName: string;
  adopt?: boolean;
  importId?: string;
  /** The service's id of the database: the same through renames. */
  databaseId: number;
  /** When the database was created (ISO 8601 UTC). */
  createdAt?: string;
  /** `true` for a database taken over with `adopt`. */
  adopted?: boolean;
}

// Compile-time: the types above and the definition name the same inputs (and required ones) and outputs.
const argsAgree: InputsAgree<DatabaseArgs, typeof DATABASE_DEFINITION> = true;
const outputsAgree: Agree<keyof DatabaseOutputs, OutputName<typeof DATABASE_DEFINITION>> = true;
void argsAgree;
void outputsAgree;

/** The type token of the dynamic class: `pulumi-nodejs:dynamic/neon:Database`. */
export const DATABASE_TYPE_TOKEN = dynamicTypeToken(DATABASE_DEFINITION);

/** A Postgres database of a branch (a Pulumi dynamic resource); see `docs/api/Database.md`. */
export const Database = dynamicClass<DatabaseArgs, DatabaseOutputs>(database);
export type Database = InstanceType<typeof Database>;
