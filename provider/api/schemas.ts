/**
 * zod schemas of the Neon API v2 objects and envelopes this provider reads,
 * with the TypeScript types inferred from them. Field names are the API's
 * (snake_case). Unknown extra fields are dropped (zod's default), so a newer
 * API that adds fields keeps working; a missing required field is an error
 * that names the field.
 */
import { z } from "zod";

// The API documents `type`, `current_state` and `status` as enums, but parsing them as plain strings
// keeps the provider working when the service adds a value.
/** Known values of `Endpoint.type`. */
export type EndpointType = "read_write" | "read_only";

/** `EndpointSettingsData`: `pg_settings` values are strings in the API. */
export const EndpointSettingsSchema = z.object({
  pg_settings: z.record(z.string(), z.string()).optional(),
  pgbouncer_settings: z.record(z.string(), z.string()).optional(),
  preload_libraries: z
    .object({ use_defaults: z.boolean().optional(), enabled_libraries: z.array(z.string()).optional() })
    .optional(),
});

/** A compute endpoint as the API returns it. */
export const EndpointSchema = z.object({
  id: z.string(),
  host: z.string(),
  project_id: z.string(),
  branch_id: z.string(),
  type: z.string(),
  autoscaling_limit_min_cu: z.number(),
  autoscaling_limit_max_cu: z.number(),
  region_id: z.string(),
  current_state: z.string(),
  pending_state: z.string().optional(),
  settings: EndpointSettingsSchema,
  // Deprecated (pooler_mode sunsets 2026-06-20; proxy_host: "use host"): still required by the OpenAPI
  // document, but the service may drop them, so their absence must not fail a read.
  pooler_enabled: z.boolean().optional(),
  pooler_mode: z.string().optional(),
  disabled: z.boolean(),
  passwordless_access: z.boolean(),
  last_active: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  proxy_host: z.string().optional(),
  suspend_timeout_seconds: z.number(),
  provisioner: z.string(),
  name: z.string().optional(),
  creation_source: z.string(),
  started_at: z.string().optional(),
  suspended_at: z.string().optional(),
  compute_release_version: z.string().optional(),
});
/** A compute endpoint. */
export type Endpoint = z.infer<typeof EndpointSchema>;

/** A system operation. */
export const OperationSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  branch_id: z.string().optional(),
  endpoint_id: z.string().optional(),
  action: z.string(),
  status: z.string(),
  error: z.string().optional(),
  failures_count: z.number(),
  retry_at: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  // Required in the OpenAPI document but absent from the product spec; only
  // the waiter's duration estimate uses it, so its absence is tolerated.
  total_duration_ms: z.number().optional(),
});
/** A system operation. */
export type Operation = z.infer<typeof OperationSchema>;

/** A project as listed by `GET /projects`. */
export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  platform_id: z.string().optional(),
  region_id: z.string(),
  provisioner: z.string().optional(),
  pg_version: z.number().optional(),
  locked: z.boolean().optional(),
  cpu_used_sec: z.number().optional(),
  branch_logical_size_limit: z.number().optional(),
  proxy_host: z.string().optional(),
  org_id: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  history_retention_seconds: z.number().optional(),
  store_passwords: z.boolean().optional(),
  default_endpoint_settings: z
    .object({
      autoscaling_limit_min_cu: z.number().optional(),
      autoscaling_limit_max_cu: z.number().optional(),
      suspend_timeout_seconds: z.number().optional(),
    })
    .optional(),
});
/** A project (list item). */
export type Project = z.infer<typeof ProjectSchema>;

/** The caller of `GET /users/me` (a personal key's owner); only its id is read. */
export const CurrentUserSchema = z.object({ id: z.string(), email: z.string().optional() });
/** The owner of the personal API key in use. */
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

const PaginationSchema = z.object({ cursor: z.string().optional() });

/** `{ endpoint }` */
export const EndpointResponseSchema = z.object({ endpoint: EndpointSchema });
/** `{ endpoints }` */
export const EndpointsResponseSchema = z.object({ endpoints: z.array(EndpointSchema) });
/** `{ endpoint, operations }` from create, update, delete, start, suspend and restart. */
export const EndpointOperationsSchema = z.object({
  endpoint: EndpointSchema,
  operations: z.array(OperationSchema),
});
/** `{ operation }` */
export const OperationResponseSchema = z.object({ operation: OperationSchema });
/** `{ operations, pagination? }` */
export const OperationsPageSchema = z.object({
  operations: z.array(OperationSchema),
  pagination: PaginationSchema.optional(),
});
/** `{ projects, pagination? }` */
export const ProjectsPageSchema = z.object({
  projects: z.array(ProjectSchema),
  pagination: PaginationSchema.optional(),
});

// The creator is a uuid string in create/revoke answers but an object in list items.
const CreatedBySchema = z.union([
  z.string(),
  z.object({ id: z.string(), name: z.string().optional(), image: z.string().optional() }),
]);

/** An API key as listed (the secret is never listed). */
export const ApiKeySchema = z.object({
  id: z.number(),
  name: z.string(),
  created_at: z.string(),
  created_by: CreatedBySchema.optional(),
  last_used_at: z.string().nullable().optional(),
  last_used_from_addr: z.string().optional(),
  project_id: z.string().optional(),
});
/** An API key (list item). */
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** The answer to creating a key: the only time its secret `key` is shown. */
export const ApiKeyCreatedSchema = z.object({
  id: z.number(),
  key: z.string(),
  name: z.string(),
  created_at: z.string(),
  created_by: CreatedBySchema.optional(),
  project_id: z.string().optional(),
});
/** A newly created API key, secret included. */
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

/** The answer to revoking a key. */
export const ApiKeyRevokedSchema = z.object({
  id: z.number(),
  name: z.string(),
  revoked: z.boolean(),
  created_at: z.string().optional(),
  created_by: CreatedBySchema.optional(),
  last_used_at: z.string().nullable().optional(),
  last_used_from_addr: z.string().optional(),
  project_id: z.string().optional(),
});
/** A revoked API key. */
export type ApiKeyRevoked = z.infer<typeof ApiKeyRevokedSchema>;

/** `GET /api_keys` answers with a bare array. */
export const ApiKeyListSchema = z.array(ApiKeySchema);

/**
 * The endpoint fields a create or an update may set, typed as the API reads them back. Not the
 * pooler settings: retired by Neon (sunset 2026-06-20), never sent.
 */
type EndpointSettable = Pick<
  Endpoint,
  | "branch_id"
  | "region_id"
  | "settings"
  | "autoscaling_limit_min_cu"
  | "autoscaling_limit_max_cu"
  | "provisioner"
  | "disabled"
  | "passwordless_access"
  | "suspend_timeout_seconds"
  | "name"
>;

/**
 * The `endpoint` object of `POST /projects/{project_id}/endpoints`: `branch_id` and `type` are
 * required, every other settable field is optional (the platform picks a default).
 */
export type EndpointCreateBody = Partial<EndpointSettable> & {
  branch_id: string;
  type: EndpointType | (string & {});
};

/**
 * The `endpoint` object of `PATCH /projects/{project_id}/endpoints/{endpoint_id}`: only the fields
 * to change. A compute's `type` and `region_id` are fixed at creation.
 */
export type EndpointUpdateBody = Partial<Omit<EndpointSettable, "region_id">>;

/**
 * Lists the problems of a failed parse as `field.path: what`, e.g.
 * `endpoints.0.host: missing required field`.
 */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.slice(0, 10).map((i) => {
    const where = i.path.length ? i.path.map(String).join(".") : "(body)";
    const missing = i.code === "invalid_type" && /received undefined/.test(i.message);
    return `${where}: ${missing ? "missing required field" : i.message}`;
  });
}

/** `{ project }` from `GET /projects/{project_id}`: the list item plus its owner's plan. */
export const ProjectResponseSchema = z.object({
  project: ProjectSchema.extend({
    // `subscription_type` names the owner's plan (e.g. `free_v3`, `launch`, `scale`); `branches_limit`
    // is how many branches a project of that plan may hold.
    owner: z
      .object({ subscription_type: z.string().optional(), branches_limit: z.number().optional() })
      .optional(),
  }),
});
/** A project as read by id. */
export type ProjectDetails = z.infer<typeof ProjectResponseSchema>["project"];

/** A branch: the fields the provider reads. */
export const BranchSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  name: z.string(),
  parent_id: z.string().optional(),
  parent_timestamp: z.string().optional(),
  parent_lsn: z.string().optional(),
  // Documented values: init, resetting, ready, archived (a string, no enum).
  current_state: z.string().optional(),
  pending_state: z.string().optional(),
  default: z.boolean().optional(),
  protected: z.boolean().optional(),
  expires_at: z.string().optional(),
  init_source: z.string().optional(),
  created_at: z.string().optional(),
  // A branch restored from a snapshot: the snapshot, and the branch it replaced (Beta).
  restored_from: z.string().optional(),
  restored_as: z.string().optional(),
});

/** A branch's annotation as the service answers it (only the string values matter). */
const AnnotationSchema = z.object({ value: z.record(z.string(), z.unknown()).nullish() });

/** `{ branch, annotation }` from `GET /projects/{project_id}/branches/{branch_id}`. */
export const BranchResponseSchema = z.object({
  branch: BranchSchema,
  // Schema-required by the service; read leniently (only the string values matter).
  annotation: AnnotationSchema.nullish(),
});
/** A branch. */
export type Branch = z.infer<typeof BranchSchema>;

/** `{ branches, annotations, pagination }` from `GET /projects/{project_id}/branches` (one page). */
export const BranchesResponseSchema = z.object({
  branches: z.array(BranchSchema),
  /** The listed branches' annotations, by branch id. */
  annotations: z.record(z.string(), AnnotationSchema.nullish()).nullish(),
  pagination: z.object({ next: z.string().nullish() }).nullish(),
});

/**
 * `{ branch, endpoints?, operations }` from branch create, update, restore and delete; a create's
 * answer also names the roles and databases the branch has (its parent's): only their names are read
 * (the roles carry passwords).
 */
export const BranchOperationsSchema = z.object({
  branch: BranchSchema,
  endpoints: z.array(EndpointSchema).optional(),
  operations: z.array(OperationSchema),
  roles: z.array(z.object({ name: z.string() })).optional(),
  databases: z.array(z.object({ name: z.string() })).optional(),
});
/** A branch call's answer. */
export type BranchOperations = z.infer<typeof BranchOperationsSchema>;

/** The `branch` object of `POST /projects/{project_id}/branches` (and `endpoints[]` beside it). */
export interface BranchCreateBody {
  branch: {
    name?: string;
    parent_id?: string;
    /** The parent's state at this time (inside the project's history retention). */
    parent_timestamp?: string;
    /** The parent's state at this write-ahead log position. */
    parent_lsn?: string;
    /** `schema-only`: the parent's schema, none of its data (a root branch); `parent-data` (default). */
    init_source?: "parent-data" | "schema-only";
    protected?: boolean;
    expires_at?: string;
  };
  /** Key/value pairs the branch carries (`annotation_value`, at most 50). */
  annotation_value?: Record<string, string>;
  endpoints?: Array<{
    type: "read_write" | "read_only";
    autoscaling_limit_min_cu?: number;
    autoscaling_limit_max_cu?: number;
    suspend_timeout_seconds?: number;
  }>;
}

/** The `branch` object of `PATCH /projects/{project_id}/branches/{branch_id}`. */
export interface BranchUpdateBody {
  name?: string;
  protected?: boolean;
  /** `null` clears the expiration. */
  expires_at?: string | null;
}

/** `GET …/branches/{branch_id}/compare_schema` (`BranchSchemaCompareResponse`): a unified diff, "" when none. */
export const SchemaCompareSchema = z.object({ diff: z.string().optional() });

/**
 * `GET …/branches/{branch_id}/schema` (`BranchSchemaResponse`) with format `sql` (the default): one
 * database's schema as SQL (its `json` form is not asked for).
 */
export const BranchSchemaSchema = z.object({ sql: z.string().optional() });

/** A table of a database as `GET …/schema?format=json` answers it (`BranchSchemaJSON`): its columns by name. */
export const SchemaTableSchema = z.object({
  schema: z.string(),
  name: z.string(),
  columns: z.array(z.object({ name: z.string() })),
});
export type SchemaTable = z.infer<typeof SchemaTableSchema>;
export const BranchTablesSchema = z.object({
  json: z.object({ tables: z.array(SchemaTableSchema) }).optional(),
});
