/**
 * A project's JWKS URLs (`/projects/{project_id}/jwks`): the key sets that JWTs used to authenticate to
 * the project's computes are checked against. The document has a list, an add and a delete, no update
 * and no read of one: a JWKS is replaced, never changed.
 *
 * As the document says: an add answers 201 with the JWKS and operations; a delete answers 200 with the
 * deleted JWKS and no operations; `jwks_url` must be an HTTPS URL; a `branch_id` scopes the JWKS to one
 * branch (without it, every branch); `role_names` holds at most 10 names, and without it the JWKS
 * applies to the default roles (`authenticator`, `authenticated`, `anonymous`), which the list reports.
 *
 * What the document leaves open, and the emulator's choice (a client must not lean on these):
 * - the operations of an add: one `apply_config` per compute of the branches the JWKS applies to (as a
 *   role's create), so an add is refused with 423 while the project's operations run; a delete starts
 *   none and is not locked;
 * - a second JWKS of the same URL on the same branch scope is refused with 409;
 * - the roles: recorded as named; the emulator creates none (`skip_role_creation` is accepted, and
 *   names the branch lacks are not refused);
 * - the refusals' statuses: 400 for bad input, 404 for an unknown branch or JWKS.
 *
 * The whole resource: its records (kept per project in creation order; a deleted one is removed; the
 * state file's `jwks`), its request body and its routes. Nothing is seeded.
 */
import { z } from "zod";
import { collection, resource } from "../collection";
import { badRequest, conflict, notFound } from "../errors";
import { iso } from "../ids";
import { applyConfigToBranch } from "./endpoints";

const idPattern = z.string().regex(/^[a-z0-9-]{1,60}$/, "must match ^[a-z0-9-]{1,60}$");

/** The roles a JWKS applies to when the add names none (the document's default). */
export const DEFAULT_JWKS_ROLES = ["authenticator", "authenticated", "anonymous"] as const;

/** A JWKS as the API shows it (`JWKS`). */
export const JwksSchema = z.object({
  id: z.string(),
  project_id: idPattern,
  branch_id: idPattern.optional(),
  jwks_url: z.string(),
  provider_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  jwt_audience: z.string().optional(),
  role_names: z.array(z.string()).optional(),
});
export type Jwks = z.infer<typeof JwksSchema>;

/** `AddProjectJWKSRequest`. */
export const JwksAddBody = z
  .object({
    jwks_url: z
      .string()
      .refine((u) => URL.canParse(u) && new URL(u).protocol === "https:", "must be an HTTPS URL"),
    provider_name: z.string().min(1, "must not be empty"),
    branch_id: idPattern.optional(),
    jwt_audience: z.string().optional(),
    role_names: z
      .array(z.string().min(1, "must not be empty"))
      .max(10, "must hold at most 10 names")
      .optional(),
    skip_role_creation: z.boolean().optional(),
  })
  .strict();

export const jwksRecords = collection({
  name: "jwks",
  noun: "JWKS",
  scope: "project",
  schema: JwksSchema,
  id: (j) => j.id,
});

export const projectJwks = resource({
  name: "project JWKS",
  collections: [jwksRecords],
  routes(r) {
    r.get("/projects/:project_id/jwks", (ctx) => {
      const all = jwksRecords.at(ctx, "list JWKS");
      return { body: { jwks: all.list() } };
    });

    r.post("/projects/:project_id/jwks", (ctx) => {
      const what = "add JWKS";
      const all = jwksRecords.at(ctx, what);
      const p = all.project;
      const body = ctx.body(JwksAddBody, what);
      const branches = body.branch_id ? [ctx.store.branch(p.id, body.branch_id)] : ctx.store.branchesOf(p.id);
      if (branches.some((b) => !b))
        throw notFound(`Failed to ${what}: branch ${body.branch_id} not found in project ${p.id}`);
      if (new Set(body.role_names).size !== (body.role_names ?? []).length)
        throw badRequest(`Failed to ${what}: role_names names a role twice`);
      if (all.list().some((j) => j.jwks_url === body.jwks_url && j.branch_id === body.branch_id)) {
        const where = body.branch_id ? `branch ${body.branch_id}` : `project ${p.id}`;
        throw conflict(`Failed to ${what}: ${body.jwks_url} is already a JWKS of ${where}`);
      }
      ctx.lock(p);
      const now = iso(ctx.now());
      const jwks = all.add({
        id: ctx.store.rngIds.uuid(),
        project_id: p.id,
        branch_id: body.branch_id,
        jwks_url: body.jwks_url,
        provider_name: body.provider_name,
        created_at: now,
        updated_at: now,
        jwt_audience: body.jwt_audience,
        role_names: body.role_names ?? [...DEFAULT_JWKS_ROLES],
      });
      const specs = branches.flatMap((b) => (b ? applyConfigToBranch(ctx, p.id, b.id) : []));
      return { status: 201, body: { jwks, operations: ctx.operations(p.id, specs) } };
    });

    r.delete("/projects/:project_id/jwks/:jwks_id", (ctx) => {
      const all = jwksRecords.at(ctx, "delete JWKS");
      const j = all.one(ctx.params().jwks_id);
      all.remove(j.id);
      return { body: j };
    });
  },
});
