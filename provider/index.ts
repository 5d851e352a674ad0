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
export { ApiKey, type ApiKeyArgs, APIKEY_TYPE_TOKEN, APIKEY_OUTPUT_KEYS } from "./resources/apikey/resource";
export {
  getProjects,
  getProjectsOutput,
  getOperations,
  getOperationsOutput,
  getCompute,
  getComputeOutput,
  getComputes,
  getComputesOutput,
  type GetProjectsArgs,
  type GetOperationsArgs,
  type GetComputeArgs,
  type GetComputesArgs,
  type OutputArgs,
  type ProjectInfo,
  type OperationInfo,
  type ComputeInfo,
} from "./lookups";
export { Provider, type ProviderArgs } from "./resources/account";
/** Classes and lookups served by the provider plugin `pulumi-resource-neoncompute` (see the README). */
export * as plugin from "./plugin/sdk";
