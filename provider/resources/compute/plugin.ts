/** `Compute` as the provider plugin serves it (`neoncompute:index:Compute`); see `docs/api/Compute.md`. */
import { pluginClass } from "../../plugin/class";
import { compute } from "./kind";
import type { ComputeArgs, ComputeOutputs } from "./resource";

/** A Neon compute endpoint, served by the plugin. Inputs and outputs: see `docs/api/Compute.md`. */
export const Compute = pluginClass<ComputeArgs, ComputeOutputs>(compute);
export type Compute = InstanceType<typeof Compute>;
