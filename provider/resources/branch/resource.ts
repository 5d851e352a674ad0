/**
 * `Branch`'s TypeScript face: its inputs and outputs as types, held equal to its definition at compile
 * time, and its dynamic class, made by the kit from its registry entry; the plugin's class is in `plugin.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { dynamicClass, dynamicTypeToken } from "../classes";
import { type Agree, type InputsAgree, type OutputName } from "../definition";
import { BRANCH_DEFINITION } from "./definition";
import { branch } from "./kind";

/** The branch's read_write compute (see {@link BranchArgs.compute}). */
export interface BranchComputeArgs {
  /** A fixed size in compute units (sets `minCu` and `maxCu` to it). */
  cu?: pulumi.Input<number>;
  /** Autoscaling lower bound in compute units (with `maxCu`). */
  minCu?: pulumi.Input<number>;
  /** Autoscaling upper bound in compute units (with `minCu`). */
  maxCu?: pulumi.Input<number>;
  /** Seconds of inactivity before the compute suspends: `-1` never, `0` the project's default, 60–604800. */
  suspendTimeoutSeconds?: pulumi.Input<number>;
}

/** Inputs of a {@link Branch}. */
export interface BranchArgs {
  /** The project. Changing it replaces the branch (the old one is deleted first). */
  projectId: pulumi.Input<string>;
  /** The branch this one starts from; default: the project's default branch. Changing it replaces the branch. */
  parentId?: pulumi.Input<string>;
  /** The branch's name, unique in the project; renamed in place. Default: `<resource name>-<hash>`. */
  name?: pulumi.Input<string>;
  /** A protected branch cannot be deleted or reset (paid plans). */
  protected?: pulumi.Input<boolean>;
  /** RFC 3339 time at which the service deletes the branch (at most 30 days ahead). */
  expiresAt?: pulumi.Input<string>;
  /** The branch's read_write compute, created in the same request as the branch. */
  compute?: pulumi.Input<BranchComputeArgs>;
  /** Any string; a change resets the branch to its parent's latest data, keeping its id. */
  resetTrigger?: pulumi.Input<string>;
  /** Manage the project's default branch instead of creating one; destroy leaves it in place. */
  adoptDefault?: pulumi.Input<boolean>;
  /** Adopt an existing branch: `"<projectId>/<branchId>"`. */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link Branch} (its id is the branch id). */
export interface BranchOutputs {
  projectId: string;
  parentId?: string;
  name: string;
  protected: boolean;
  expiresAt?: string;
  compute?: { minCu?: number; maxCu?: number; suspendTimeoutSeconds?: number };
  resetTrigger?: string;
  adoptDefault?: boolean;
  importId?: string;
  /** Whether this is the project's default branch. */
  default: boolean;
  /** `init`, `resetting`, `ready` or `archived`, as of the last read. */
  currentState?: string;
  /** When the branch was created (ISO 8601 UTC). */
  createdAt?: string;
  /** The id of the branch's read_write compute, when it has one. */
  computeId?: string;
  /** The state of the branch's read_write compute as of the last read (`init`: never started). */
  computeState?: string;
  /** The host name of the branch's read_write compute, when it has one. */
  host?: string;
  /** `true` for the default branch taken over with `adoptDefault`. */
  adopted?: boolean;
}

// Compile-time: the types above and the definition name the same inputs (and required ones) and outputs.
const argsAgree: InputsAgree<BranchArgs, typeof BRANCH_DEFINITION> = true;
const outputsAgree: Agree<keyof BranchOutputs, OutputName<typeof BRANCH_DEFINITION>> = true;
void argsAgree;
void outputsAgree;

/** The type token of the dynamic class: `pulumi-nodejs:dynamic/neon:Branch`. */
export const BRANCH_TYPE_TOKEN = dynamicTypeToken(BRANCH_DEFINITION);

/** A Neon branch, optionally with its read_write compute (a Pulumi dynamic resource); see `docs/api/Branch.md`. */
export const Branch = dynamicClass<BranchArgs, BranchOutputs>(branch);
export type Branch = InstanceType<typeof Branch>;
