/**
 * What the lookups return: plain, camelCase copies of the API's objects (no client, no key).
 */
import type { Branch, Endpoint, Operation, Project } from "../api";

// Plain data without `undefined` values, so that results export cleanly as stack outputs.
function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** A project as listed by the API. */
export interface ProjectInfo {
  /** Project id. */
  id: string;
  /** Project name. */
  name: string;
  /** Region, e.g. `aws-us-east-2`. */
  regionId: string;
  /** Organization that owns the project; absent for a personal project. */
  orgId?: string;
  /** Postgres major version. */
  pgVersion?: number;
  /** Platform, e.g. `aws`. */
  platformId?: string;
  /** Default provisioner of the project's computes. */
  provisioner?: string;
  /** Proxy host name of the project's computes. */
  proxyHost?: string;
  /** When the project was created (ISO 8601 UTC). */
  createdAt: string;
  /** When the project was last changed (ISO 8601 UTC). */
  updatedAt: string;
}

/** A system operation. */
export interface OperationInfo {
  /** Operation id (UUID). */
  id: string;
  /** Project of the operation. */
  projectId: string;
  /** Branch it concerns, when it concerns one. */
  branchId?: string;
  /** Compute it concerns, when it concerns one. */
  endpointId?: string;
  /** Kind, e.g. `start_compute`, `apply_config`. */
  action: string;
  /** `scheduling`, `running`, `finished`, `failed`, `error`, `cancelling`, `cancelled` or `skipped`. */
  status: string;
  /** Times it failed (a `failed` operation is retried). */
  failuresCount: number;
  /** The last error, when the API reports one. */
  error?: string;
  /** When it was created (ISO 8601 UTC). */
  createdAt: string;
  /** When it last changed (ISO 8601 UTC). */
  updatedAt: string;
  /** Total duration in milliseconds, when reported. */
  totalDurationMs?: number;
}

/** A compute (endpoint). */
export interface ComputeInfo {
  /** Endpoint id (`ep-…`). */
  endpointId: string;
  /** Project that holds it. */
  projectId: string;
  /** Branch it is attached to. */
  branchId: string;
  /** `read_write` (the branch's primary) or `read_only` (a read replica). */
  type: string;
  /** Connection host name. */
  host: string;
  /** Region. */
  regionId: string;
  /** `init`, `active` or `idle`. */
  currentState: string;
  /** The state a change under way leads to. */
  pendingState?: string;
  /** Lower autoscaling bound in CU. */
  minCu: number;
  /** Upper autoscaling bound in CU (equal to `minCu` for a fixed size). */
  maxCu: number;
  /** Seconds of inactivity before it scales to zero (`-1` never, `0` the platform default). */
  suspendTimeoutSeconds: number;
  /** Postgres settings of the compute. */
  pgSettings: Record<string, string>;
  /** Whether connection pooling is on (a deprecated field: absent when the service leaves it out). */
  poolerEnabled?: boolean;
  /** Whether the compute is disabled. */
  disabled: boolean;
  /** Display name, when it has one. */
  name?: string;
  /** Provisioner, e.g. `k8s-neonvm`. */
  provisioner: string;
  /** When it was created (ISO 8601 UTC). */
  createdAt: string;
  /** When it was last changed (ISO 8601 UTC). */
  updatedAt: string;
  /** When it was last active, when known. */
  lastActive?: string;
}

/** A project in camelCase. */
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

/** An operation in camelCase. */
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

/** A compute in camelCase. */
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

/** A branch with its annotations. */
export interface BranchInfo {
  /** Branch id (`br-…`). */
  branchId: string;
  /** Project that holds it. */
  projectId: string;
  /** Branch name. */
  name: string;
  /** The branch it was made from; absent for the root branch. */
  parentId?: string;
  /** Whether it is the project's default branch. */
  default: boolean;
  /** Whether it is protected. */
  protected: boolean;
  /** `init`, `ready`, `resetting` or `archived`, when the service says. */
  currentState?: string;
  /** When the service deletes it, when set (ISO 8601 UTC). */
  expiresAt?: string;
  /** When it was created (ISO 8601 UTC). */
  createdAt: string;
  /** Its annotations (`{}` when none), the provider's own included. */
  annotations: Record<string, string>;
  /** The Pulumi stack that made it (`<project>/<stack>`), when its annotations name one. */
  stack?: string;
}

/** A branch and its annotation in camelCase; `stack` from the provider's annotation keys. */
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
