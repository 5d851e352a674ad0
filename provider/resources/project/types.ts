// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `Project`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** The settings a project gives each compute created in it that does not set its own (changed in place). */
export interface ProjectDefaultComputeArgs {
  /** A fixed size in compute units (sets `minCu` and `maxCu` to it). */
  cu?: pulumi.Input<number>;
  /** Autoscaling lower bound in compute units (with `maxCu`). */
  minCu?: pulumi.Input<number>;
  /** Autoscaling upper bound in compute units (with `minCu`). */
  maxCu?: pulumi.Input<number>;
  /**
   * Seconds of inactivity before a compute suspends: `-1` never, `0` the service's default (300 s),
   * 60–604800. A compute whose own `suspendTimeoutSeconds` is `0` follows this value.
   */
  suspendTimeoutSeconds?: pulumi.Input<number>;
}

/**
 * As read: The settings a project gives each compute created in it that does not set its own (changed in
 * place).
 */
export interface ProjectDefaultComputeOutputs {
  /** A fixed size in compute units (sets `minCu` and `maxCu` to it). */
  cu?: number;
  /** Autoscaling lower bound in compute units (with `maxCu`). */
  minCu?: number;
  /** Autoscaling upper bound in compute units (with `minCu`). */
  maxCu?: number;
  /**
   * Seconds of inactivity before a compute suspends: `-1` never, `0` the service's default (300 s),
   * 60–604800. A compute whose own `suspendTimeoutSeconds` is `0` follows this value.
   */
  suspendTimeoutSeconds?: number;
}

/**
 * After `check`: The settings a project gives each compute created in it that does not set its own (changed
 * in place).
 */
export interface ProjectDefaultComputeInputs {
  /** A fixed size in compute units (sets `minCu` and `maxCu` to it). */
  cu?: number;
  /** Autoscaling lower bound in compute units (with `maxCu`). */
  minCu?: number;
  /** Autoscaling upper bound in compute units (with `minCu`). */
  maxCu?: number;
  /**
   * Seconds of inactivity before a compute suspends: `-1` never, `0` the service's default (300 s),
   * 60–604800. A compute whose own `suspendTimeoutSeconds` is `0` follows this value.
   */
  suspendTimeoutSeconds?: number;
}

/** Inputs of a {@link Project}. */
export interface ProjectArgs {
  /**
   * The project's name, 1–256 characters. Renamed in place. Without it the provider names the project
   * `<resource name>-<hash>`, so that a killed run's project is found again (names are not unique in Neon).
   */
  name?: pulumi.Input<string>;
  /**
   * The region, e.g. `aws-us-east-2`. Set when the project is created; a later change fails at preview (a
   * project is never replaced: its branches and databases would go with it).
   */
  regionId?: pulumi.Input<string>;
  /**
   * The Postgres major version, 14–19 (19 is rolling out: the service accepts it only in the regions where it
   * is enabled). Set when the project is created; a later change fails at preview (a project is never
   * replaced: its branches and databases would go with it).
   */
  pgVersion?: pulumi.Input<number>;
  /**
   * The name of the default branch at creation (rename it later with a `Branch` that has `adoptDefault`). Set
   * when the project is created; a later change fails at preview (a project is never replaced: its branches
   * and databases would go with it).
   */
  defaultBranchName?: pulumi.Input<string>;
  /**
   * The database created with the project. Set when the project is created; a later change fails at preview
   * (a project is never replaced: its branches and databases would go with it).
   */
  databaseName?: pulumi.Input<string>;
  /**
   * The role that owns the database. Set when the project is created; a later change fails at preview (a
   * project is never replaced: its branches and databases would go with it).
   */
  roleName?: pulumi.Input<string>;
  /**
   * The organization that owns the project (needed with a personal key for an organization project). Set when
   * the project is created; a later change fails at preview (a project is never replaced: its branches and
   * databases would go with it).
   */
  orgId?: pulumi.Input<string>;
  /**
   * How far back the project's history is kept (point-in-time restore), 0–2592000 seconds. Changed in place.
   */
  historyRetentionSeconds?: pulumi.Input<number>;
  /**
   * The size and suspend timeout computes created in the project get unless they set their own. Changed in
   * place; computes that already exist keep their settings (except a suspend timeout of `0`, which follows
   * it).
   */
  defaultCompute?: pulumi.Input<ProjectDefaultComputeArgs>;
  /**
   * `false` keeps the owner role's password out of the stack's state: the `connectionUri` output is absent
   * (not secret: absent) and a refresh or an `importId` never reads it (`pulumi import`, which cannot see
   * this input, does; the next `up` drops it). Read the connection string when it is needed with the
   * `getConnectionUri` lookup or the `neon-connection-string` command. Switching to `false` drops the stored
   * URI at the next `up` (the password is not reset); switching back reads it once. Refused for an imported
   * project that does not store passwords (`store_passwords` off). Default `true`.
   */
  passwordInState?: pulumi.Input<boolean>;
  /**
   * Adopt an existing project instead of creating one: its id. The declared inputs must describe it as it is.
   * Deleting the resource deletes the project.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link Project}. */
export interface ProjectOutputs {
  /**
   * The project's name, 1–256 characters. Renamed in place. Without it the provider names the project
   * `<resource name>-<hash>`, so that a killed run's project is found again (names are not unique in Neon).
   */
  name: string;
  /**
   * The region, e.g. `aws-us-east-2`. Set when the project is created; a later change fails at preview (a
   * project is never replaced: its branches and databases would go with it).
   */
  regionId: string;
  /**
   * The Postgres major version, 14–19 (19 is rolling out: the service accepts it only in the regions where it
   * is enabled). Set when the project is created; a later change fails at preview (a project is never
   * replaced: its branches and databases would go with it).
   */
  pgVersion: number;
  /**
   * The name of the default branch at creation (rename it later with a `Branch` that has `adoptDefault`). Set
   * when the project is created; a later change fails at preview (a project is never replaced: its branches
   * and databases would go with it).
   */
  defaultBranchName?: string;
  /**
   * The database created with the project. Set when the project is created; a later change fails at preview
   * (a project is never replaced: its branches and databases would go with it).
   */
  databaseName: string;
  /**
   * The role that owns the database. Set when the project is created; a later change fails at preview (a
   * project is never replaced: its branches and databases would go with it).
   */
  roleName: string;
  /**
   * The organization that owns the project (needed with a personal key for an organization project). Set when
   * the project is created; a later change fails at preview (a project is never replaced: its branches and
   * databases would go with it).
   */
  orgId?: string;
  /**
   * How far back the project's history is kept (point-in-time restore), 0–2592000 seconds. Changed in place.
   */
  historyRetentionSeconds: number;
  /**
   * The size and suspend timeout computes created in the project get unless they set their own. Changed in
   * place; computes that already exist keep their settings (except a suspend timeout of `0`, which follows
   * it).
   */
  defaultCompute?: ProjectDefaultComputeOutputs;
  /**
   * `false` keeps the owner role's password out of the stack's state: the `connectionUri` output is absent
   * (not secret: absent) and a refresh or an `importId` never reads it (`pulumi import`, which cannot see
   * this input, does; the next `up` drops it). Read the connection string when it is needed with the
   * `getConnectionUri` lookup or the `neon-connection-string` command. Switching to `false` drops the stored
   * URI at the next `up` (the password is not reset); switching back reads it once. Refused for an imported
   * project that does not store passwords (`store_passwords` off). Default `true`.
   */
  passwordInState?: boolean;
  /**
   * Adopt an existing project instead of creating one: its id. The declared inputs must describe it as it is.
   * Deleting the resource deletes the project.
   */
  importId?: string;
  /** The id of the project's default branch. */
  defaultBranchId: string;
  /** The id of the default branch's read_write compute. */
  primaryComputeId?: string;
  /** The host name of the default branch's read_write compute. */
  host?: string;
  /**
   * A `postgresql://` URI for `roleName` on `databaseName` through the primary compute. A secret: stored
   * encrypted, shown as `[secret]`. Absent with `passwordInState: false`.
   */
  connectionUri?: string;
  /** When the project was created (ISO 8601 UTC). */
  createdAt?: string;
  /**
   * What deleting this resource does (the project with all its branches, computes and databases), so that
   * `pulumi preview --diff` of a delete shows it.
   */
  onDelete: string;
}

/** Inputs of a {@link Project} after `check`: what its steps receive. */
export interface ProjectInputs {
  /**
   * The project's name, 1–256 characters. Renamed in place. Without it the provider names the project
   * `<resource name>-<hash>`, so that a killed run's project is found again (names are not unique in Neon).
   */
  name?: string;
  /**
   * The region, e.g. `aws-us-east-2`. Set when the project is created; a later change fails at preview (a
   * project is never replaced: its branches and databases would go with it).
   */
  regionId?: string;
  /**
   * The Postgres major version, 14–19 (19 is rolling out: the service accepts it only in the regions where it
   * is enabled). Set when the project is created; a later change fails at preview (a project is never
   * replaced: its branches and databases would go with it).
   */
  pgVersion?: number;
  /**
   * The name of the default branch at creation (rename it later with a `Branch` that has `adoptDefault`). Set
   * when the project is created; a later change fails at preview (a project is never replaced: its branches
   * and databases would go with it).
   */
  defaultBranchName?: string;
  /**
   * The database created with the project. Set when the project is created; a later change fails at preview
   * (a project is never replaced: its branches and databases would go with it).
   */
  databaseName?: string;
  /**
   * The role that owns the database. Set when the project is created; a later change fails at preview (a
   * project is never replaced: its branches and databases would go with it).
   */
  roleName?: string;
  /**
   * The organization that owns the project (needed with a personal key for an organization project). Set when
   * the project is created; a later change fails at preview (a project is never replaced: its branches and
   * databases would go with it).
   */
  orgId?: string;
  /**
   * How far back the project's history is kept (point-in-time restore), 0–2592000 seconds. Changed in place.
   */
  historyRetentionSeconds?: number;
  /**
   * The size and suspend timeout computes created in the project get unless they set their own. Changed in
   * place; computes that already exist keep their settings (except a suspend timeout of `0`, which follows
   * it).
   */
  defaultCompute?: ProjectDefaultComputeInputs;
  /**
   * `false` keeps the owner role's password out of the stack's state: the `connectionUri` output is absent
   * (not secret: absent) and a refresh or an `importId` never reads it (`pulumi import`, which cannot see
   * this input, does; the next `up` drops it). Read the connection string when it is needed with the
   * `getConnectionUri` lookup or the `neon-connection-string` command. Switching to `false` drops the stored
   * URI at the next `up` (the password is not reset); switching back reads it once. Refused for an imported
   * project that does not store passwords (`store_passwords` off). Default `true`.
   */
  passwordInState?: boolean;
  /**
   * Adopt an existing project instead of creating one: its id. The declared inputs must describe it as it is.
   * Deleting the resource deletes the project.
   */
  importId?: string;
}
