/**
 * `Branch`'s TypeScript face: its args and outputs types (generated from its definition into `types.ts`,
 * with the definition's docs) and its dynamic class, made from its registry entry; the plugin's class
 * is in `plugin.ts`.
 */
import { dynamicClass, dynamicTypeToken } from "../../dynamic/class";
import { BRANCH_DEFINITION } from "./definition";
import { branch } from "./kind";
import type { BranchArgs, BranchOutputs } from "./types";

export type { BranchComputeArgs, BranchArgs, BranchOutputs } from "./types";

/** The type token of the dynamic class: `pulumi-nodejs:dynamic/neon:Branch`. */
export const BRANCH_TYPE_TOKEN = dynamicTypeToken(BRANCH_DEFINITION);

/** A Neon branch, optionally with its read_write compute (a Pulumi dynamic resource); see `docs/api/Branch.md`. */
export const Branch = dynamicClass<BranchArgs, BranchOutputs>(branch);
export type Branch = InstanceType<typeof Branch>;
