/**
 * The Data API of a branch's database (`/projects/{project_id}/branches/{branch_id}/data-api/{database_name}`,
 * tag `DataAPI`): create (201, its URL), read, change its settings (the document's PATCH answers 201),
 * delete. Nothing here starts an operation: the document's answers carry none.
 *
 * Its URL answers, as the service's PostgREST-style interface does for the simplest read: `GET
 * <url>/<table>` with `Authorization: Bearer <JWT>` returns the table's rows from the branch's real
 * Postgres as a JSON array (at most `db_max_rows`, from the first of `db_schemas`); without a token, or
 * with one that does not verify against the auth provider's JWKS (the branch's Neon Auth key, or the
 * `jwks_url` of an external provider, fetched), 401.
 *
 * What the document does not say, the emulator chooses, and the README lists: a second create for a
 * database is refused 409; `neon_auth` on a branch without Neon Auth is refused 400; `external` without
 * `jwks_url` is refused 400; the read runs as the superuser (no role switch, no row-level security).
 *
 * The whole resource: its records (one per database of a branch; the state file's `data_apis`), its
 * request bodies and its routes. Nothing is seeded.
 */
import { z } from "zod";
import { collection, resource } from "../collection";
import { originOf, type ServiceRequest } from "../context";
import { ApiFault, Codes, badRequest, conflict, notFound } from "../errors";
import { iso } from "../ids";
import { jwksOf, verifyJwt, type PublicJwk } from "../jwt";
import { neonAuthOf } from "./neonauth";

/** `DataAPISettings`. */
const SettingsSchema = z
  .object({
    db_aggregates_enabled: z.boolean(),
    db_anon_role: z.string(),
    db_extra_search_path: z.string(),
    db_max_rows: z.number().int().positive(),
    db_schemas: z.array(z.string().min(1)),
    jwt_role_claim_key: z.string(),
    jwt_cache_max_lifetime: z.number().int().nonnegative(),
    openapi_mode: z.enum(["ignore-privileges", "disabled"]),
    server_cors_allowed_origins: z.string(),
    server_timing_enabled: z.boolean(),
  })
  .partial()
  .strict();
type Settings = z.infer<typeof SettingsSchema>;

/** The document's defaults (`@default`), as a new Data API holds them. */
const DEFAULTS: Settings = {
  db_aggregates_enabled: true,
  db_anon_role: "anonymous",
  db_schemas: ["public"],
  jwt_role_claim_key: ".role",
  openapi_mode: "disabled",
};

export const DataApiSchema = z.object({
  database_name: z.string(),
  url: z.string(),
  status: z.string(),
  auth_provider: z.enum(["neon_auth", "external"]),
  jwks_url: z.string().optional(),
  provider_name: z.string().optional(),
  jwt_audience: z.string().optional(),
  settings: SettingsSchema,
  created_at: z.string(),
});
type DataApi = z.infer<typeof DataApiSchema>;

/** `DataAPICreateRequest`. */
const CreateBody = z
  .object({
    auth_provider: z.enum(["neon_auth", "external"]).optional(),
    jwks_url: z.string().url("must be a URI").optional(),
    provider_name: z.string().optional(),
    jwt_audience: z.string().optional(),
    add_default_grants: z.boolean().optional(),
    skip_auth_schema: z.boolean().optional(),
    settings: SettingsSchema.optional(),
  })
  .strict();
const UpdateBody = z.object({ settings: SettingsSchema.optional() }).strict();

export const dataApis = collection({
  name: "data_apis",
  noun: "Data API",
  scope: "branch",
  schema: DataApiSchema,
  id: (d) => d.database_name,
});

/** `DataAPIReponse`. */
const answer = (d: DataApi) => ({
  url: d.url,
  status: d.status,
  settings: d.settings,
  available_schemas: d.settings.db_schemas ?? ["public"],
});

const TABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The JWKS tokens for a Data API are checked against; `undefined` when it cannot be had. */
async function jwksFor(
  req: ServiceRequest,
  d: DataApi,
  branchId: string,
): Promise<{ keys: Partial<PublicJwk>[] } | undefined> {
  if (d.auth_provider === "neon_auth") {
    const auth = neonAuthOf(req.emu.store, branchId);
    return auth ? jwksOf(auth.signing_key) : undefined;
  }
  try {
    const r = await fetch(d.jwks_url ?? "", { signal: AbortSignal.timeout(5000) });
    return r.ok ? ((await r.json()) as { keys: Partial<PublicJwk>[] }) : undefined;
  } catch {
    return undefined;
  }
}

const unauthorized = (why: string) => new ApiFault(401, Codes.unauthorized, `Unauthorized: ${why}`);

export const dataApiResource = resource({
  name: "Data API",
  collections: [dataApis],
  routes(r) {
    const path = "/projects/:project_id/branches/:branch_id/data-api/:database_name";
    const scopedOf = (ctx: Parameters<Parameters<typeof r.get>[1]>[0], what: string) => {
      const scoped = dataApis.at(ctx, what);
      const name = ctx.params().database_name;
      if (!ctx.store.databasesOf(scoped.branch!.id).some((d) => d.name === name)) {
        throw notFound(`Failed to ${what}: database ${name} not found on branch ${scoped.branch!.id}`);
      }
      return { scoped, name };
    };

    r.get(path, (ctx) => {
      const { scoped, name } = scopedOf(ctx, "get Data API");
      return { body: answer(scoped.one(name)) };
    });

    r.post(path, (ctx) => {
      const what = "create Data API";
      const { scoped, name } = scopedOf(ctx, what);
      const branch = scoped.branch!;
      const body = ctx.body(CreateBody, what);
      ctx.ready(branch);
      if (scoped.get(name)) throw conflict(`Failed to ${what}: database ${name} already has a Data API`);
      const provider = body.auth_provider ?? "neon_auth";
      if (provider === "external" && !body.jwks_url) {
        throw badRequest(`Failed to ${what}: jwks_url is required with auth_provider external`);
      }
      if (provider === "neon_auth" && !neonAuthOf(ctx.store, branch.id)) {
        throw badRequest(`Failed to ${what}: Neon Auth is not enabled on branch ${branch.id}`);
      }
      const url = `${originOf(ctx.req)}/data-api/${scoped.project.id}/${branch.id}/${encodeURIComponent(name)}/rest/v1`;
      scoped.add({
        database_name: name,
        url,
        status: "ready",
        auth_provider: provider,
        ...(body.jwks_url !== undefined ? { jwks_url: body.jwks_url } : {}),
        ...(body.provider_name !== undefined ? { provider_name: body.provider_name } : {}),
        ...(body.jwt_audience !== undefined ? { jwt_audience: body.jwt_audience } : {}),
        settings: { ...DEFAULTS, ...body.settings },
        created_at: iso(ctx.now()),
      });
      return { status: 201, body: { url } };
    });

    r.patch(path, (ctx) => {
      const what = "update Data API";
      const { scoped, name } = scopedOf(ctx, what);
      const d = scoped.one(name);
      const body = ctx.body(UpdateBody, what);
      scoped.replace({ ...d, settings: { ...d.settings, ...body.settings } });
      return { status: 201, body: {} };
    });

    r.delete(path, (ctx) => {
      const what = "delete Data API";
      const { scoped, name } = scopedOf(ctx, what);
      scoped.one(name);
      scoped.remove(name);
      return { body: {} };
    });
  },

  service(s) {
    s.get("/data-api/:project_id/:branch_id/:database/rest/v1/:table", async (req) => {
      const { project_id, branch_id, database, table } = req.params;
      const store = req.emu.store;
      const d = store.branch(project_id, branch_id) ? dataApis.in(store).get(branch_id, database) : undefined;
      if (!d) throw notFound(`No Data API for database ${database} of branch ${branch_id}`);
      if (!req.bearer) throw unauthorized("send the header Authorization: Bearer <JWT>");
      const jwks = await jwksFor(req, d, branch_id);
      if (!jwks) throw unauthorized("the auth provider's JWKS cannot be read");
      const verified = verifyJwt(req.bearer, jwks, Math.floor(store.now() / 1000), d.jwt_audience);
      if (!verified.ok) throw unauthorized(verified.reason);
      if (!TABLE.test(table)) throw badRequest(`"${table}" is not a table name`);
      const pg = req.emu.realPg;
      if (!pg) {
        throw new ApiFault(
          503,
          Codes.unavailable,
          "The emulator runs without real Postgres: the Data API has no data",
        );
      }
      const schema = d.settings.db_schemas?.[0] ?? "public";
      const rows = await pg.rowsOf(branch_id, database, schema, table, d.settings.db_max_rows);
      if (!rows) throw notFound(`Could not find the table ${schema}.${table} in the schema cache`);
      return { body: rows };
    });
  },
});
