/** `Branch` as the provider plugin serves it (`neoncompute:index:Branch`); see `docs/api/Branch.md`. */
import { pluginClass } from "../../plugin/class";
import { branch } from "./kind";
import type { BranchArgs, BranchOutputs } from "./resource";

/** A Neon branch, served by the plugin. Inputs and outputs: see `docs/api/Branch.md`. */
export const Branch = pluginClass<BranchArgs, BranchOutputs>(branch);
export type Branch = InstanceType<typeof Branch>;
