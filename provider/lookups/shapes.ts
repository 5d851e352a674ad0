// Generated from definitions.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** The lookups' TypeScript types: the objects they return, their arguments and their results. */

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

/** A compute (endpoint) as a lookup returns it. */
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
  /**
   * Whether connection pooling is on, as the service still reports it: a retired setting (pooling is always
   * available through the `-pooler` host), absent when the service leaves it out.
   * @deprecated Neon retired the pooler settings (2026-06-20): use the `-pooler` host (getConnectionUri
   * `pooled`).
   */
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

/** A branch as a lookup returns it, with its annotations. */
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
  /**
   * The Pulumi stack that made it, as `<project>/<stack>`, when its annotations name one (a branch this
   * package made).
   */
  stack?: string;
}

/** Arguments of {@link getProjects}. */
export interface GetProjectsArgs {
  /** Only projects of this organization (a personal key needs it to list an organization's projects). */
  orgId?: string;
  /** Partial match on the project's name or id. */
  search?: string;
  /** At most this many projects (default 100). */
  limit?: number;
}

/** Arguments of {@link getOperations}. */
export interface GetOperationsArgs {
  /** Project whose operations to list. */
  projectId: string;
  /** Only operations of this compute (`ep-…`). */
  endpointId?: string;
  /** At most this many operations (required: a project's history can be long). */
  limit: number;
  /** Operations per request (default: `limit`, at most 100; the service serves up to 1000). */
  pageSize?: number;
}

/** Arguments of {@link getCompute}. */
export interface GetComputeArgs {
  /** Project that holds the compute. */
  projectId: string;
  /** The compute's id (`ep-…`). */
  endpointId: string;
}

/** Arguments of {@link getComputes}. */
export interface GetComputesArgs {
  /** Project whose computes to list. */
  projectId: string;
  /** Only the computes of this branch (`br-…`). */
  branchId?: string;
}

/** Arguments of {@link getBranches}. */
export interface GetBranchesArgs {
  /** Project whose branches to list. */
  projectId: string;
  /** Only branches whose name or id contains this text. */
  search?: string;
}

/** Arguments of {@link getConnectionUri}. */
export interface GetConnectionUriArgs {
  /** The project. */
  projectId: string;
  /** The branch (default: the project's default branch). */
  branchId?: string;
  /** The compute to connect to (`ep-…`, on that branch; default: the branch's read_write compute). */
  computeId?: string;
  /** The database. */
  databaseName: string;
  /** The role to connect as. */
  roleName: string;
  /** Connect through the connection pooler (`-pooler` host). Default false. */
  pooled?: boolean;
}

/** The result of {@link getConnectionUri}. */
export interface ConnectionUri {
  /**
   * `postgresql://<role>:<password>@<host>/<database>?sslmode=require`: it carries the password (a secret in
   * `getConnectionUriOutput`'s result and in the plugin's).
   */
  uri: string;
}

/** Arguments of {@link getRolePassword}. */
export interface GetRolePasswordArgs {
  /** The project. */
  projectId: string;
  /** The branch (default: the project's default branch). */
  branchId?: string;
  /** The role whose password to read. */
  roleName: string;
}

/** The result of {@link getRolePassword}. */
export interface RolePassword {
  /** The role's current password (a secret in `getRolePasswordOutput`'s result and in the plugin's). */
  password: string;
}

/** Arguments of {@link getSchemaDiff}. */
export interface GetSchemaDiffArgs {
  /** The project. */
  projectId: string;
  /** The branch whose schema is compared (`br-…`). */
  branchId: string;
  /** The database whose schema is compared (on the base too, when the base has it). */
  databaseName: string;
  /** The branch to compare with (default: the branch's parent, read and sent). */
  baseBranchId?: string;
  /** Compare the branch's schema as of this LSN (default: now). */
  lsn?: string;
  /** Compare the branch's schema as of this time (RFC 3339; default: now). */
  timestamp?: string;
  /** Compare the base's schema as of this LSN (default: now). */
  baseLsn?: string;
  /** Compare the base's schema as of this time (RFC 3339; default: now). */
  baseTimestamp?: string;
}

/** The result of {@link getSchemaDiff}. */
export interface SchemaDiff {
  /**
   * The unified difference of the two `pg_dump --schema-only` texts (`-` base, `+` branch); empty when they
   * agree.
   */
  diff: string;
  /** Whether the schemas differ (`diff` is not empty). */
  changed: boolean;
}
