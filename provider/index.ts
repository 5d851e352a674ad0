/**
 * Pulumi resources for the Neon control API v2.
 *
 * @packageDocumentation
 */
export {
  Compute,
  type ComputeArgs,
  COMPUTE_TYPE_TOKEN,
  COMPUTE_OUTPUT_KEYS,
} from "./resources/compute/resource";
export { COMPUTE_SIZES, deriveSizing, type ComputeSizing } from "./resources/compute/sizing";
