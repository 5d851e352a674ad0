// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `Database`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link Database}. */
export interface DatabaseArgs {
  /** The project. Changing it replaces the database (its data is lost: the preview says so). */
  projectId: pulumi.Input<string>;
  /**
   * The branch that holds the database. Changing it replaces the database (its data is lost: the preview says
   * so).
   */
  branchId: pulumi.Input<string>;
  /** The database's name, 1–63 bytes, unique in the branch. Renamed in place: id and data stay. */
  name: pulumi.Input<string>;
  /**
   * The role that owns the database (a role of the same branch; `role.name` of a `Role` orders the two).
   * Changed in place.
   */
  ownerName: pulumi.Input<string>;
  /**
   * Manage the database of this name that already exists on the branch (the project's first database, or one
   * the branch inherited) instead of creating it: the declared owner is applied; destroy leaves it in place.
   */
  adopt?: pulumi.Input<boolean>;
  /**
   * Adopt an existing database instead of creating one: `"<projectId>/<branchId>/<databaseName>"`; the
   * declared inputs must describe it as it is. Deleting the resource deletes the database.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link Database}. */
export interface DatabaseOutputs {
  /** The project. Changing it replaces the database (its data is lost: the preview says so). */
  projectId: string;
  /**
   * The branch that holds the database. Changing it replaces the database (its data is lost: the preview says
   * so).
   */
  branchId: string;
  /** The database's name, 1–63 bytes, unique in the branch. Renamed in place: id and data stay. */
  name: string;
  /**
   * The role that owns the database (a role of the same branch; `role.name` of a `Role` orders the two).
   * Changed in place.
   */
  ownerName: string;
  /**
   * Manage the database of this name that already exists on the branch (the project's first database, or one
   * the branch inherited) instead of creating it: the declared owner is applied; destroy leaves it in place.
   */
  adopt?: boolean;
  /**
   * Adopt an existing database instead of creating one: `"<projectId>/<branchId>/<databaseName>"`; the
   * declared inputs must describe it as it is. Deleting the resource deletes the database.
   */
  importId?: string;
  /** The service's id of the database: it stays the same through renames. */
  databaseId: number;
  /** When the database was created (ISO 8601 UTC). */
  createdAt?: string;
  /** `true` for a database taken over with `adopt` (destroy leaves it in place). */
  adopted?: boolean;
}

/** Inputs of a {@link Database} after `check`: what its steps receive. */
export interface DatabaseInputs {
  /** The project. Changing it replaces the database (its data is lost: the preview says so). */
  projectId: string;
  /**
   * The branch that holds the database. Changing it replaces the database (its data is lost: the preview says
   * so).
   */
  branchId: string;
  /** The database's name, 1–63 bytes, unique in the branch. Renamed in place: id and data stay. */
  name: string;
  /**
   * The role that owns the database (a role of the same branch; `role.name` of a `Role` orders the two).
   * Changed in place.
   */
  ownerName: string;
  /**
   * Manage the database of this name that already exists on the branch (the project's first database, or one
   * the branch inherited) instead of creating it: the declared owner is applied; destroy leaves it in place.
   */
  adopt?: boolean;
  /**
   * Adopt an existing database instead of creating one: `"<projectId>/<branchId>/<databaseName>"`; the
   * declared inputs must describe it as it is. Deleting the resource deletes the database.
   */
  importId?: string;
}
