/**
 * The Data API calls of the client (`DataApiCalls`, tag `DataAPI` of Neon's document): the REST
 * interface over one database of a branch, by the database's name. None starts an operation.
 */
import { z } from "zod";
import { route } from "../http";
import type { Call } from "./call";

/** `DataAPISettings`: every field optional, as the document has them. */
export const DataApiSettingsSchema = z
  .object({
    db_aggregates_enabled: z.boolean().optional(),
    db_anon_role: z.string().optional(),
    db_extra_search_path: z.string().optional(),
    db_max_rows: z.number().optional(),
    db_schemas: z.array(z.string()).optional(),
    jwt_role_claim_key: z.string().optional(),
    jwt_cache_max_lifetime: z.number().optional(),
    openapi_mode: z.string().optional(),
    server_cors_allowed_origins: z.string().optional(),
    server_timing_enabled: z.boolean().optional(),
  })
  .loose();
export type DataApiSettings = z.infer<typeof DataApiSettingsSchema>;

/** `DataAPIReponse` (sic): the Data API of a database as `GET` answers it. */
export const DataApiSchema = z.object({
  url: z.string(),
  status: z.string(),
  settings: DataApiSettingsSchema.nullish(),
  available_schemas: z.array(z.string()).nullish(),
});
export type DataApi = z.infer<typeof DataApiSchema>;

/** `DataAPICreateRequest`. */
export interface DataApiCreateBody {
  auth_provider?: "neon_auth" | "external";
  jwks_url?: string;
  provider_name?: string;
  jwt_audience?: string;
  add_default_grants?: boolean;
  skip_auth_schema?: boolean;
  settings?: DataApiSettings;
}

const CreatedSchema = z.object({ url: z.string() });
const Empty = z.unknown();

/** The Data API calls of the client. */
export interface DataApiCalls {
  /** The database's Data API; 404 when it has none (or the branch or database is not there). */
  get(projectId: string, branchId: string, databaseName: string): Promise<DataApi>;
  /** Creates it; answers its URL. */
  create(
    projectId: string,
    branchId: string,
    databaseName: string,
    body: DataApiCreateBody,
  ): Promise<{ url: string }>;
  /** Changes its settings (the schema cache is refreshed too). */
  update(projectId: string, branchId: string, databaseName: string, settings: DataApiSettings): Promise<void>;
  /** Deletes it: its URL stops answering. */
  delete(projectId: string, branchId: string, databaseName: string): Promise<void>;
}

export function dataApiCalls(call: Call): DataApiCalls {
  const at = (p: string, b: string, d: string) =>
    route("GET /projects/{project_id}/branches/{branch_id}/data-api/{database_name}", {
      project_id: p,
      branch_id: b,
      database_name: d,
    });
  const where = (p: string, b: string, d: string) => ({ project_id: p, branch_id: b, database_name: d });
  const of = (p: string, b: string, d: string) =>
    `the Data API of database "${d}" of branch ${b} in project ${p}`;
  return {
    get: (p, b, d) => call(at(p, b, d), "read", of(p, b, d), DataApiSchema),
    create: (p, b, d, body) =>
      call(
        route("POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name}", where(p, b, d)),
        "create",
        of(p, b, d),
        CreatedSchema,
        { body },
      ),
    update: async (p, b, d, settings) => {
      await call(
        route("PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name}", where(p, b, d)),
        "update",
        of(p, b, d),
        Empty,
        { body: { settings } },
      );
    },
    delete: async (p, b, d) => {
      await call(
        route("DELETE /projects/{project_id}/branches/{branch_id}/data-api/{database_name}", where(p, b, d)),
        "delete",
        of(p, b, d),
        Empty,
      );
    },
  };
}
