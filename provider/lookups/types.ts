/**
 * What the lookups return: plain, camelCase copies of the API's objects (no client, no key).
 */
import type { Branch, Endpoint, Operation, Project } from "../api";
import type { BranchInfo, ComputeInfo, OperationInfo, ProjectInfo } from "./shapes";

export type { BranchInfo, ComputeInfo, OperationInfo, ProjectInfo } from "./shapes";

// Plain data without `undefined` values, so that results export cleanly as stack outputs.
function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * A project in camelCase.
 * @internal
 */
export function projectInfo(p: Project): ProjectInfo {
  return stripUndefined({
    id: p.id,
    name: p.name,
    regionId: p.region_id,
    orgId: p.org_id,
    pgVersion: p.pg_version,
    platformId: p.platform_id,
    provisioner: p.provisioner,
    proxyHost: p.proxy_host,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
  });
}

/**
 * An operation in camelCase.
 * @internal
 */
export function operationInfo(o: Operation): OperationInfo {
  return stripUndefined({
    id: o.id,
    projectId: o.project_id,
    branchId: o.branch_id,
    endpointId: o.endpoint_id,
    action: o.action,
    status: o.status,
    failuresCount: o.failures_count,
    error: o.error,
    createdAt: o.created_at,
    updatedAt: o.updated_at,
    totalDurationMs: o.total_duration_ms,
  });
}

/**
 * A compute in camelCase.
 * @internal
 */
export function computeInfo(e: Endpoint): ComputeInfo {
  return stripUndefined({
    endpointId: e.id,
    projectId: e.project_id,
    branchId: e.branch_id,
    type: e.type,
    host: e.host,
    regionId: e.region_id,
    currentState: e.current_state,
    pendingState: e.pending_state,
    minCu: e.autoscaling_limit_min_cu,
    maxCu: e.autoscaling_limit_max_cu,
    suspendTimeoutSeconds: e.suspend_timeout_seconds,
    pgSettings: { ...(e.settings?.pg_settings ?? {}) },
    poolerEnabled: e.pooler_enabled,
    disabled: e.disabled,
    name: e.name,
    provisioner: e.provisioner,
    createdAt: e.created_at,
    updatedAt: e.updated_at,
    lastActive: e.last_active,
  });
}

/**
 * A branch and its annotation in camelCase; `stack` from the provider's annotation keys.
 * @internal
 */
export function branchInfo(b: Branch, annotation: Record<string, string>): BranchInfo {
  const project = annotation["pulumi-project"];
  const stack = annotation["pulumi-stack"];
  return stripUndefined({
    branchId: b.id,
    projectId: b.project_id,
    name: b.name,
    parentId: b.parent_id,
    default: b.default ?? false,
    protected: b.protected ?? false,
    currentState: b.current_state,
    expiresAt: b.expires_at,
    createdAt: b.created_at ?? "",
    annotations: { ...annotation },
    stack: project && stack ? `${project}/${stack}` : undefined,
  });
}
