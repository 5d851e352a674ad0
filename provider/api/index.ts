/**
 * The Neon API v2 client: typed calls, zod schemas and pagers. Errors are
 * {@link ApiError}s; waits that fail are {@link OperationError}s.
 */
export {
  createNeonClient,
  buildClient,
  classifyPollError,
  DEFAULT_PAGE_SIZE,
  type NeonClient,
  type NeonClientOptions,
  type EndpointOperations,
  type OperationsPage,
} from "./client";
export * from "./schemas";
export * from "./projects";
export * from "./roles";
export { type ProjectPermission, type PermissionCalls } from "./permissions";
export {
  type Snapshot,
  type BackupScheduleItem,
  type SnapshotCalls,
  type SnapshotCreateQuery,
} from "./snapshots";
export {
  anonymizationPhase,
  MASKING_RULE_SENSITIVE_FIELDS,
  type AnonymizationPhase,
  type AnonymizationWaitOptions,
  type AnonymizedBranchCreateBody,
  type AnonymizedCalls,
  type AnonymizedStatus,
  type MaskingRule,
} from "./anonymized";
export {
  type Organization,
  type OrganizationCalls,
  type Region,
  type VpcEndpoint,
  type VpcEndpointDetails,
  type VpcEndpointRef,
} from "./organizations";
export {
  type NeonAuthCalls,
  type NeonAuthCreated,
  type NeonAuthIntegration,
  type NeonAuthOauthProvider,
} from "./neonauth";
export { type DataApi, type DataApiCalls, type DataApiCreateBody, type DataApiSettings } from "./dataapi";
export { type Jwks, type JwksAddBody, type JwksCalls } from "./jwks";
export { paginate, collectAll, type Page } from "./pager";
export { ApiError, isNotFound, type ApiErrorKind, type RetryInfo } from "../http";
export { OperationError, type WaitOptions, type WaitProgress } from "../operations";
