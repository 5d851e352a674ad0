/**
 * Pulumi resources for the Neon control API v2.
 *
 * @packageDocumentation
 */
// Every resource of the registry, generated (`npm run types:gen`).
export * from "./dynamic/resources";
export { COMPUTE_SIZES, deriveSizing, type ComputeSizing } from "./resources/compute/sizing";
export {
  getProjects,
  getProjectsOutput,
  getOperations,
  getOperationsOutput,
  getCompute,
  getComputeOutput,
  getComputes,
  getComputesOutput,
  getBranches,
  getBranchesOutput,
  getConnectionUri,
  getConnectionUriOutput,
  getRolePassword,
  getRolePasswordOutput,
  getSchemaDiff,
  getSchemaDiffOutput,
  type GetSchemaDiffArgs,
  type SchemaDiff,
  type GetConnectionUriArgs,
  type ConnectionUri,
  type GetRolePasswordArgs,
  type RolePassword,
  type GetProjectsArgs,
  type GetOperationsArgs,
  type GetComputeArgs,
  type GetComputesArgs,
  type GetBranchesArgs,
  type BranchInfo,
  type OutputArgs,
  type ProjectInfo,
  type OperationInfo,
  type ComputeInfo,
} from "./lookups";
export {
  planSweep,
  sweepBranches,
  type SweepArgs,
  type SweepCriteria,
  type SweepResult,
  type SweepVerdict,
} from "./sweep";
export { Provider, type ProviderArgs } from "./dynamic/provider";
/** Classes and lookups served by the provider plugin `pulumi-resource-neoncompute` (see the README). */
export * as plugin from "./plugin/sdk";
