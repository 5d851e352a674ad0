/**
 * `Project`'s TypeScript face: its inputs and outputs as types, held equal to its definition at
 * compile time, and its dynamic class, made by the kit from its registry entry; the plugin's class is
 * in `plugin.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { dynamicClass, dynamicTypeToken } from "../classes";
import { type Agree, type InputsAgree, type OutputName } from "../definition";
import { PROJECT_DEFINITION } from "./definition";
import { project } from "./kind";

/** The settings computes created in the project get unless they set their own (see {@link ProjectArgs.defaultCompute}). */
export interface ProjectDefaultComputeArgs {
  /** A fixed size in compute units (sets `minCu` and `maxCu` to it). */
  cu?: pulumi.Input<number>;
  /** Autoscaling lower bound in compute units (with `maxCu`). */
  minCu?: pulumi.Input<number>;
  /** Autoscaling upper bound in compute units (with `minCu`). */
  maxCu?: pulumi.Input<number>;
  /** Seconds of inactivity before a compute suspends: `-1` never, `0` the service's default (300 s), 60–604800. */
  suspendTimeoutSeconds?: pulumi.Input<number>;
}

/** Inputs of a {@link Project}. */
export interface ProjectArgs {
  /** The project's name; renamed in place. Default: `<resource name>-<hash>`. */
  name?: pulumi.Input<string>;
  /** The region, e.g. `aws-us-east-2`. Set at creation; a change fails at preview (never replaced). */
  regionId?: pulumi.Input<string>;
  /** The Postgres major version, 14–18. Set at creation; a change fails at preview. */
  pgVersion?: pulumi.Input<number>;
  /** The default branch's name at creation (default `main`). A change fails at preview. */
  defaultBranchName?: pulumi.Input<string>;
  /** The database created with the project (default `neondb`). A change fails at preview. */
  databaseName?: pulumi.Input<string>;
  /** The role that owns the database (default `<databaseName>_owner`). A change fails at preview. */
  roleName?: pulumi.Input<string>;
  /** The organization that owns the project. A change fails at preview. */
  orgId?: pulumi.Input<string>;
  /** How far back the history is kept, 0–2592000 seconds; changed in place. */
  historyRetentionSeconds?: pulumi.Input<number>;
  /** The settings computes created in the project get unless they set their own; changed in place. */
  defaultCompute?: pulumi.Input<ProjectDefaultComputeArgs>;
  /** Adopt an existing project: its id. Deleting the resource then deletes the project. */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link Project} (its id is the project id). */
export interface ProjectOutputs {
  name: string;
  regionId: string;
  pgVersion: number;
  defaultBranchName?: string;
  databaseName: string;
  roleName: string;
  orgId?: string;
  historyRetentionSeconds: number;
  defaultCompute?: { minCu?: number; maxCu?: number; suspendTimeoutSeconds?: number };
  importId?: string;
  /** The id of the project's default branch. */
  defaultBranchId: string;
  /** The id of the default branch's read_write compute. */
  primaryComputeId?: string;
  /** The host name of the default branch's read_write compute. */
  host?: string;
  /** A `postgresql://` URI for `roleName` on `databaseName` (a secret). */
  connectionUri?: string;
  /** When the project was created (ISO 8601 UTC). */
  createdAt?: string;
  /** What deleting this resource does (shown by `pulumi preview --diff` of a delete). */
  onDelete: string;
}

// Compile-time: the types above and the definition name the same inputs (and required ones) and outputs.
const argsAgree: InputsAgree<ProjectArgs, typeof PROJECT_DEFINITION> = true;
const outputsAgree: Agree<keyof ProjectOutputs, OutputName<typeof PROJECT_DEFINITION>> = true;
void argsAgree;
void outputsAgree;

/** The type token of the dynamic class: `pulumi-nodejs:dynamic/neon:Project`. */
export const PROJECT_TYPE_TOKEN = dynamicTypeToken(PROJECT_DEFINITION);

/** A Neon project (a Pulumi dynamic resource); see `docs/api/Project.md`. */
export const Project = dynamicClass<ProjectArgs, ProjectOutputs>(project);
export type Project = InstanceType<typeof Project>;
