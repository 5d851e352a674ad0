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
]);
export type OperationAction = z.infer<typeof OperationActionSchema>;

export const PlanSchema = z.enum(["free", "launch"]);

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
});
export type Project = z.infer<typeof ProjectSchema>;

export const BranchSchema = z.object({
  id,
  project_id: id,
  parent_id: id.optional(),
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
