/**
 * Request-body and query validation with zod. Every refusal is a 400 whose
 * message names the field and what is allowed.
 */
import { EndpointSettingsSchema, ProjectSettingsSchema } from "./state";
import { z } from "zod";
import { badRequest, type ApiFault } from "./errors";

const idPattern = z.string().regex(/^[a-z0-9-]{1,60}$/, "must match ^[a-z0-9-]{1,60}$");
const computeUnit = z.number().min(0.25, "must be at least 0.25");
const provisioner = z.enum(["k8s-pod", "k8s-neonvm", "serverless-platform"]);
const suspendTimeout = z
  .number()
  .int("must be an integer")
  .min(-1, "must be -1 (never), 0 (default 300 s) or 60 to 604800")
  .max(604800, "must be at most 604800 (one week)")
  .refine((s) => s <= 0 || s >= 60, "must be -1 (never), 0 (default 300 s) or 60 to 604800");

// Requests carry the same settings object as stored endpoints, minus unknown fields.
const settings = EndpointSettingsSchema.strict();

const endpointCommon = {
  autoscaling_limit_min_cu: computeUnit.optional(),
  autoscaling_limit_max_cu: computeUnit.optional(),
  provisioner: provisioner.optional(),
  settings: settings.optional(),
  pooler_enabled: z.boolean().optional(),
  pooler_mode: z.literal("transaction").optional(),
  disabled: z.boolean().optional(),
  passwordless_access: z.boolean().optional(),
  suspend_timeout_seconds: suspendTimeout.optional(),
  name: z.string().min(1, "must not be empty").max(64, "must be at most 64 characters").optional(),
};

export const EndpointCreateBody = z
  .object({
    endpoint: z
      .object({
        branch_id: idPattern,
        type: z.enum(["read_write", "read_only"]),
        region_id: z.string().optional(),
        ...endpointCommon,
      })
      .strict(),
  })
  .strict();
export type EndpointCreate = z.infer<typeof EndpointCreateBody>["endpoint"];

export const EndpointUpdateBody = z
  .object({ endpoint: z.object({ branch_id: idPattern.optional(), ...endpointCommon }).strict() })
  .strict();
export type EndpointUpdate = z.infer<typeof EndpointUpdateBody>["endpoint"];

export const BranchEndpointOptions = z
  .object({
    type: z.enum(["read_write", "read_only"]),
    settings: settings.optional(),
    autoscaling_limit_min_cu: computeUnit.optional(),
    autoscaling_limit_max_cu: computeUnit.optional(),
    provisioner: provisioner.optional(),
    suspend_timeout_seconds: suspendTimeout.optional(),
  })
  .strict();

export const BranchCreateBody = z
  .object({
    branch: z
      .object({
        parent_id: idPattern.optional(),
        name: z.string().min(1).max(256).optional(),
        parent_lsn: z.string().optional(),
        parent_timestamp: z.string().datetime().optional(),
        protected: z.boolean().optional(),
        archived: z.boolean().optional(),
        init_source: z.enum(["schema-only", "parent-data"]).optional(),
        expires_at: z.string().datetime().optional(),
      })
      .strict()
      .optional(),
    endpoints: z.array(BranchEndpointOptions).optional(),
    annotation_value: z
      .record(z.string(), z.string())
      .refine((a) => Object.keys(a).length <= 50, "must have at most 50 properties")
      .optional(),
  })
  .strict();

export const BranchUpdateBody = z
  .object({
    branch: z
      .object({
        name: z.string().min(1).max(256).optional(),
        protected: z.boolean().optional(),
        expires_at: z.string().datetime().nullable().optional(),
      })
      .strict(),
  })
  .strict();

export const BranchRestoreBody = z
  .object({
    source_branch_id: idPattern,
    source_lsn: z.string().optional(),
    source_timestamp: z.string().datetime().optional(),
    // "If not empty": an empty name keeps nothing.
    preserve_under_name: z.string().max(256).optional(),
  })
  .strict();

/** Postgres identifiers (role and database names) are at most 63 bytes. */
const pgName = z
  .string()
  .min(1, "must not be empty")
  .refine((n) => Buffer.byteLength(n) <= 63, "must be at most 63 bytes (a Postgres identifier)");

export const RoleCreateBody = z
  .object({ role: z.object({ name: pgName, no_login: z.boolean().optional() }).strict() })
  .strict();

export const DatabaseCreateBody = z
  .object({ database: z.object({ name: pgName, owner_name: pgName }).strict() })
  .strict();

export const DatabaseUpdateBody = z
  .object({
    database: z.object({ name: pgName.optional(), owner_name: pgName.optional() }).strict(),
  })
  .strict();

/** `POST /_emulator/login`: a client connecting as a role with a password. */
export const LoginBody = z
  .object({
    project_id: z.string().min(1, "must not be empty"),
    branch_id: z.string().min(1, "must not be empty"),
    role_name: z.string().min(1, "must not be empty"),
    password: z.string(),
  })
  .strict();
const projectName = z.string().min(1, "must not be empty").max(256, "must be at most 256 characters");
const historyRetention = z
  .number()
  .int("must be an integer")
  .min(0, "must be 0 to 2592000 (30 days)")
  .max(2_592_000, "must be 0 to 2592000 (30 days)");

export const DefaultEndpointSettingsBody = z
  .object({
    pg_settings: z.record(z.string(), z.string()).optional(),
    pgbouncer_settings: z.record(z.string(), z.string()).optional(),
    autoscaling_limit_min_cu: computeUnit.optional(),
    autoscaling_limit_max_cu: computeUnit.optional(),
    suspend_timeout_seconds: suspendTimeout.optional(),
  })
  .strict();

const projectSettings = ProjectSettingsSchema.strict();

export const ProjectCreateBody = z
  .object({
    project: z
      .object({
        settings: projectSettings.optional(),
        name: projectName.optional(),
        branch: z
          .object({
            name: z
              .string()
              .min(1, "must not be empty")
              .max(256, "must be at most 256 characters")
              .optional(),
            role_name: pgName.optional(),
            database_name: pgName.optional(),
            annotations: z
              .record(z.string(), z.string())
              .refine((a) => Object.keys(a).length <= 50, "must have at most 50 properties")
              .optional(),
          })
          .strict()
          .optional(),
        /** Deprecated in favour of default_endpoint_settings (still accepted). */
        autoscaling_limit_min_cu: computeUnit.optional(),
        autoscaling_limit_max_cu: computeUnit.optional(),
        provisioner: provisioner.optional(),
        region_id: z.string().optional(),
        default_endpoint_settings: DefaultEndpointSettingsBody.optional(),
        pg_version: z
          .number()
          .int("must be an integer")
          .min(14, "must be 14 to 19")
          .max(19, "must be 14 to 19")
          .optional(),
        store_passwords: z.boolean().optional(),
        history_retention_seconds: historyRetention.optional(),
        org_id: idPattern.optional(),
      })
      .strict(),
  })
  .strict();
export type ProjectCreate = z.infer<typeof ProjectCreateBody>["project"];

export const ProjectUpdateBody = z
  .object({
    project: z
      .object({
        settings: projectSettings.optional(),
        name: projectName.optional(),
        default_endpoint_settings: DefaultEndpointSettingsBody.optional(),
        history_retention_seconds: historyRetention.optional(),
      })
      .strict(),
  })
  .strict();

export const ApiKeyCreateBody = z
  .object({ key_name: z.string().min(1, "must not be empty").max(64, "must be at most 64 characters") })
  .strict();
export const OrgApiKeyCreateBody = z
  .object({
    key_name: z.string().min(1, "must not be empty").max(64, "must be at most 64 characters"),
    project_id: idPattern.optional(),
  })
  .strict();

/** Parses a body or throws a 400 whose message names every offending field. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body === undefined ? {} : body);
  if (r.success) return r.data;
  throw invalid(what, r.error, body);
}

function invalid(what: string, error: z.ZodError, input: unknown): ApiFault {
  const parts = error.issues.map((i) => {
    const path = i.path.map(String).join(".") || "body";
    if (i.code === "unrecognized_keys") {
      const where = i.path.length ? `${path}: ` : "";
      return `${where}unknown field${i.keys.length > 1 ? "s" : ""} ${i.keys.map((k) => `"${k}"`).join(", ")}`;
    }
    if (valueAt(input, i.path) === undefined) {
      return `${path} is required (${i.message.replace(/^Invalid (input|option): /, "").replace(/, received undefined/, "")})`;
    }
    return `${path}: ${i.message.replace(/^Invalid input: /, "")}`;
  });
  return badRequest(`Failed to ${what}: invalid request: ${parts.join("; ")}`);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const k of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** An optional integer query parameter within bounds; 400 naming it otherwise. */
export function intQuery(value: unknown, name: string, min: number, max: number, dflt: number): number {
  if (value === undefined || value === "") return dflt;
  if (typeof value !== "string" || !/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw badRequest(
      `Invalid query parameter ${name}=${String(value)}: must be an integer from ${min} to ${max}`,
    );
  }
  return Number(value);
}

/** An optional string query parameter (given once); `required` makes a missing one a 400 too. */
export function stringQuery(value: unknown, name: string, required: true): string;
export function stringQuery(value: unknown, name: string, required?: false): string | undefined;
export function stringQuery(value: unknown, name: string, required = false): string | undefined {
  if (value === undefined || value === "") {
    if (required) throw badRequest(`Missing query parameter ${name}: it is required`);
    return undefined;
  }
  if (typeof value !== "string")
    throw badRequest(`Invalid query parameter ${name}: give it once, as a string`);
  return value;
}

/** An optional query parameter that is one of `allowed`. */
export function enumQuery<T extends string>(value: unknown, name: string, allowed: readonly T[], dflt: T): T {
  const s = stringQuery(value, name);
  if (s === undefined) return dflt;
  if (!(allowed as readonly string[]).includes(s)) {
    throw badRequest(`Invalid query parameter ${name}=${s}: must be one of ${allowed.join(", ")}`);
  }
  return s as T;
}

/** An optional identifier query parameter (`^[a-z0-9-]{1,60}$`). */
export function idQuery(value: unknown, name: string): string | undefined {
  const s = stringQuery(value, name);
  if (s !== undefined && !/^[a-z0-9-]{1,60}$/.test(s)) {
    throw badRequest(`Invalid query parameter ${name}=${s}: must match ^[a-z0-9-]{1,60}$`);
  }
  return s;
}

/** An optional boolean query parameter: `true` or `false`. */
export function boolQuery(value: unknown, name: string, dflt: boolean): boolean {
  const s = stringQuery(value, name);
  if (s === undefined) return dflt;
  if (s !== "true" && s !== "false") {
    throw badRequest(`Invalid query parameter ${name}=${s}: must be true or false`);
  }
  return s === "true";
}
