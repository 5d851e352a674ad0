/**
 * The emulator's whole state: plain, JSON-serializable data described by zod
 * schemas. The schemas validate a state file when it is loaded; in memory the
 * records are mutated in place by the store and the operation engine.
 *
 * Records that the API returns as they are (endpoints, branches, operations'
 * `op` part) are kept in their API shape, so a GET needs no copy.
 */
import { z } from "zod";

const iso = z.string();
const id = z.string().regex(/^[a-z0-9-]{1,60}$/);

export const EndpointStateSchema = z.enum(["init", "active", "idle"]);
export const OperationStatusSchema = z.enum([
  "scheduling",
  "running",
  "finished",
  "failed",
  "error",
  "cancelling",
  "cancelled",
  "skipped",
]);
export type OperationStatus = z.infer<typeof OperationStatusSchema>;

/** The actions the emulator creates (a subset of the API's `OperationAction`). */
export const OperationActionSchema = z.enum([
  "start_compute",
  "suspend_compute",
  "apply_config",
  "check_availability",
  "create_branch",
  "create_timeline",
  "delete_timeline",
  "apply_storage_config",
]);
export type OperationAction = z.infer<typeof OperationActionSchema>;

export const PlanSchema = z.enum(["free", "launch", "scale"]);

export const UserSchema = z.object({
  id: z.string(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  image: z.string(),
  /** Plan of the user's personal account (for personal projects). */
  plan: PlanSchema,
});
export type User = z.infer<typeof UserSchema>;

export const OrgSchema = z.object({
  id,
  name: z.string(),
  handle: z.string(),
  plan: PlanSchema,
  created_at: iso,
  updated_at: iso,
  members: z.array(z.object({ user_id: z.string(), role: z.enum(["admin", "member"]) })),
});
export type Org = z.infer<typeof OrgSchema>;

/** Settings for new computes of a project (`DefaultEndpointSettings`). */
export const DefaultEndpointSettingsSchema = z.object({
  pg_settings: z.record(z.string(), z.string()).optional(),
  pgbouncer_settings: z.record(z.string(), z.string()).optional(),
  autoscaling_limit_min_cu: z.number().optional(),
  autoscaling_limit_max_cu: z.number().optional(),
  suspend_timeout_seconds: z.number().int().optional(),
});
export type DefaultEndpointSettings = z.infer<typeof DefaultEndpointSettingsSchema>;

const count = z.number().int("must be an integer").nonnegative("must be at least 0");

/** A project's settings (`ProjectSettingsData`); stored as given. */
export const ProjectSettingsSchema = z.object({
  quota: z
    .object({
      active_time_seconds: count.optional(),
      compute_time_seconds: count.optional(),
      written_data_bytes: count.optional(),
      data_transfer_bytes: count.optional(),
      logical_size_bytes: count.optional(),
    })
    .strict()
    .optional(),
  allowed_ips: z
    .object({ ips: z.array(z.string()).optional(), protected_branches_only: z.boolean().optional() })
    .strict()
    .optional(),
  enable_logical_replication: z.boolean().optional(),
  maintenance_window: z
    .object({
      weekdays: z.array(z.number().int().min(1, "must be 1 (Monday) to 7").max(7, "must be 1 to 7 (Sunday)")),
      start_time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM (UTC)"),
      end_time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM (UTC)"),
    })
    .strict()
    .optional(),
  block_public_connections: z.boolean().optional(),
  block_vpc_connections: z.boolean().optional(),
  audit_log_level: z.enum(["base", "extended", "full"]).optional(),
  hipaa: z.boolean().optional(),
  preload_libraries: z
    .object({ use_defaults: z.boolean().optional(), enabled_libraries: z.array(z.string()).optional() })
    .strict()
    .optional(),
});
export type ProjectSettings = z.infer<typeof ProjectSettingsSchema>;

/** The default restore window of a project (`history_retention_seconds`): one day. */
export const DEFAULT_HISTORY_RETENTION_SECONDS = 86_400;

export const ProjectSchema = z.object({
  id,
  name: z.string(),
  /** Set for organization projects; personal projects have only `owner_id`. */
  org_id: id.optional(),
  owner_id: z.string(),
  region_id: z.string(),
  platform_id: z.string(),
  pg_version: z.number().int(),
  proxy_host: z.string(),
  provisioner: z.string(),
  created_at: iso,
  updated_at: iso,
  default_branch_id: id,
  // Defaults: state files written before projects could be created or updated lack these fields.
  history_retention_seconds: z.number().int().default(DEFAULT_HISTORY_RETENTION_SECONDS),
  store_passwords: z.boolean().default(true),
  settings: ProjectSettingsSchema.default({}),
  default_endpoint_settings: DefaultEndpointSettingsSchema.optional(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const BranchSchema = z.object({
  id,
  project_id: id,
  parent_id: id.optional(),
  parent_lsn: z.string().optional(),
  parent_timestamp: iso.optional(),
  name: z.string(),
  current_state: z.string(),
  pending_state: z.string().optional(),
  state_changed_at: iso,
  creation_source: z.string(),
  default: z.boolean(),
  protected: z.boolean(),
  cpu_used_sec: z.number().int(),
  active_time_seconds: z.number().int(),
  compute_time_seconds: z.number().int(),
  written_data_bytes: z.number().int(),
  data_transfer_bytes: z.number().int(),
  logical_size: z.number().int(),
  init_source: z.string(),
  expires_at: iso.optional(),
  created_at: iso,
  updated_at: iso,
  /** A branch a snapshot was restored into: `restored`, then `finalized` (`BranchRestoreStatus`). */
  restore_status: z.string().optional(),
  /** The snapshot it was restored from. */
  restored_from: z.string().optional(),
  /** The branch it replaces (or will replace, at its finalize). */
  restored_as: id.optional(),
});
export type Branch = z.infer<typeof BranchSchema>;

export const EndpointSettingsSchema = z.object({
  pg_settings: z.record(z.string(), z.string()).optional(),
  pgbouncer_settings: z.record(z.string(), z.string()).optional(),
  preload_libraries: z
    .object({ use_defaults: z.boolean().optional(), enabled_libraries: z.array(z.string()).optional() })
    .strict()
    .optional(),
});

export const EndpointSchema = z.object({
  host: z.string(),
  id,
  name: z.string().optional(),
  project_id: id,
  branch_id: id,
  autoscaling_limit_min_cu: z.number(),
  autoscaling_limit_max_cu: z.number(),
  region_id: z.string(),
  type: z.enum(["read_write", "read_only"]),
  current_state: EndpointStateSchema,
  pending_state: EndpointStateSchema.optional(),
  settings: EndpointSettingsSchema,
  pooler_enabled: z.boolean(),
  pooler_mode: z.literal("transaction"),
  disabled: z.boolean(),
  passwordless_access: z.boolean(),
  last_active: iso.optional(),
  creation_source: z.string(),
  created_at: iso,
  updated_at: iso,
  started_at: iso.optional(),
  suspended_at: iso.optional(),
  proxy_host: z.string(),
  suspend_timeout_seconds: z.number().int(),
  provisioner: z.string(),
  compute_release_version: z.string().optional(),
});
export type Endpoint = z.infer<typeof EndpointSchema>;

/**
 * A Postgres role of a branch: the API's `Role` plus the password, which the emulator keeps (connection
 * URIs carry it; it is shown in create and reset answers and by `reveal_password`, never in the role's
 * GET or list).
 */
export const RoleRecordSchema = z.object({
  branch_id: id,
  name: z.string(),
  /** Roles the service manages itself; user roles are never protected. */
  protected: z.boolean(),
  /** None for a role created with `no_login`. */
  password: z.string().optional(),
  // Defaults: state files written before roles could be created lack the fields below.
  /** Created with `no_login: true`: it cannot log in (`authentication_method` `no_login`). */
  no_login: z.boolean().default(false),
  /**
   * After `reset_password`: the password it replaced, which keeps working until every operation of
   * the reset is terminal (the service: "the old password remains valid until last operation finishes").
   */
  password_rotation: z
    .object({ previous_password: z.string(), operation_ids: z.array(z.string()) })
    .optional(),
  created_at: iso,
  updated_at: iso,
});
export type RoleRecord = z.infer<typeof RoleRecordSchema>;

/** A database of a branch, in its API shape (`Database`). */
export const DatabaseSchema = z.object({
  id: z.number().int(),
  branch_id: id,
  name: z.string(),
  owner_name: z.string(),
  created_at: iso,
  updated_at: iso,
});
export type Database = z.infer<typeof DatabaseSchema>;

/** The API-visible part of an operation. */
export const OperationSchema = z.object({
  id: z.string(),
  project_id: id,
  branch_id: id.optional(),
  endpoint_id: id.optional(),
  action: OperationActionSchema,
  status: OperationStatusSchema,
  error: z.string().optional(),
  failures_count: z.number().int(),
  retry_at: iso.optional(),
  created_at: iso,
  updated_at: iso,
  total_duration_ms: z.number().int(),
});
export type Operation = z.infer<typeof OperationSchema>;

export const OpFaultSchema = z.enum(["none", "failed", "error", "cancelled"]);
export type OpFault = z.infer<typeof OpFaultSchema>;

/** An operation plus what the engine needs to derive its status from the clock. */
export const OperationRecordSchema = z.object({
  op: OperationSchema,
  sim: z.object({
    /** Creation time in microseconds: unique and increasing per emulator, the list's keyset. */
    created_us: z.number().int(),
    duration_ms: z.number().int().nonnegative(),
    fault: OpFaultSchema,
    /** apply_config on an active compute whose size or branch changed: it restarts it. */
    restart: z.boolean().optional(),
  }),
});
export type OperationRecord = z.infer<typeof OperationRecordSchema>;

export const ApiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(["personal", "organization", "project"]),
  /** sha256 of the token, hex. The token itself is never stored. */
  token_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  created_by: z.string(),
  org_id: id.optional(),
  project_id: id.optional(),
  created_at: iso,
  last_used_at: iso.nullable(),
  last_used_from_addr: z.string(),
  revoked: z.boolean(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** Per-project bookkeeping of the operation engine. */
export const ProjectSimSchema = z.object({
  /** Index into the project's operation list of the first operation not yet terminal. */
  pending: z.number().int().nonnegative(),
  /** Emulator time (ms) when the last terminal operation ended. */
  last_end_ms: z.number(),
  /** Next background check_availability (ms), when enabled. */
  next_check_ms: z.number().optional(),
});
export type ProjectSim = z.infer<typeof ProjectSimSchema>;

export const StateSchema = z.object({
  /** 2: the seed has primary computes (state files of version 1 are refused: delete them). */
  version: z.literal(2),
  seed: z.number().int(),
  /** States of the seeded random streams: ids, faults, jitter. */
  rng: z.object({ ids: z.number().int(), faults: z.number().int(), jitter: z.number().int() }),
  clock_offset_ms: z.number(),
  next_key_id: z.number().int(),
  last_created_us: z.number().int(),
  seed_info: z.object({
    orgId: z.string(),
    projectId: z.string(),
    defaultBranchId: z.string(),
    branchIds: z.array(z.string()),
    primaryEndpointId: z.string(),
    freeProjectId: z.string(),
    freeProjectBranchId: z.string(),
    freeProjectBranchIds: z.array(z.string()),
    freeProjectPrimaryEndpointId: z.string(),
    adminUserId: z.string(),
    memberUserId: z.string(),
  }),
  users: z.record(z.string(), UserSchema),
  orgs: z.record(z.string(), OrgSchema),
  projects: z.record(z.string(), ProjectSchema),
  branches: z.record(z.string(), BranchSchema),
  endpoints: z.record(z.string(), EndpointSchema),
  /** Per project, in creation order. */
  operations: z.record(z.string(), z.array(OperationRecordSchema)),
  sim: z.record(z.string(), ProjectSimSchema),
  api_keys: z.record(z.string(), ApiKeySchema),
  // Defaults: state files of version 2 written before roles and databases were kept load with none.
  /** Per branch id, in creation order. */
  roles: z.record(z.string(), z.array(RoleRecordSchema)).default({}),
  /** Per branch id, in creation order. */
  databases: z.record(z.string(), z.array(DatabaseSchema)).default({}),
  /** Per branch id: the annotation a create gave (`annotation_value`), as GET and list answer it. */
  annotations: z.record(z.string(), z.record(z.string(), z.string())).default({}),
  /** Next `Database.id` (integers, unique per emulator). */
  next_database_id: z.number().int().default(1),
  // The resources' collections (`collection.ts`, e.g. `permissions`) are kept beside these keys, each
  // under its name, and validated by its own schema (`Store.load`).
});
export type State = z.infer<typeof StateSchema>;
export type SeedInfo = State["seed_info"];

/** Operation statuses after which nothing more happens. `failed` is not one: it is retried. */
export const TERMINAL_STATUSES: ReadonlySet<OperationStatus> = new Set([
  "finished",
  "skipped",
  "cancelled",
  "error",
]);
