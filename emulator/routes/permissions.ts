/**
 * Project access (`/projects/{project_id}/permissions`): the accounts a project is shared with, by
 * email. A grant and a revoke start no operation, so they are neither locked by a running one nor
 * waited for. The service's answer to a second grant for an email that already has access is not
 * documented: the emulator refuses it with 409, so that a client never counts on a second grant.
 *
 * The whole resource: its records (kept per project in grant order; a revoked grant is removed; the
 * state file's `permissions`), its request body and its routes. Nothing is seeded.
 */
import { z } from "zod";
import { collection, resource } from "../collection";
import { conflict } from "../errors";
import { iso } from "../ids";

/** A grant of access to a project (`ProjectPermission`): an account's email. */
export const PermissionSchema = z.object({
  id: z.string(),
  granted_to_email: z.string(),
  granted_at: z.string(),
});
export type Permission = z.infer<typeof PermissionSchema>;

/** `GrantPermissionToProjectRequest`: an email address (1–256 characters). */
export const PermissionGrantBody = z
  .object({
    email: z
      .string()
      .min(1, "must not be empty")
      .max(256, "must be at most 256 characters")
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "must be an email address"),
  })
  .strict();

export const permissions = collection({
  name: "permissions",
  noun: "permission",
  scope: "project",
  schema: PermissionSchema,
  id: (g) => g.id,
});

export const projectPermissions = resource({
  name: "project permissions",
  collections: [permissions],
  routes(r) {
    r.get("/projects/:project_id/permissions", (ctx) => {
      const grants = permissions.at(ctx, "list project access");
      return { body: { project_permissions: grants.list() } };
    });

    r.post("/projects/:project_id/permissions", (ctx) => {
      const what = "grant project access";
      const grants = permissions.at(ctx, what);
      const { email } = ctx.body(PermissionGrantBody, what);
      if (grants.list().some((g) => g.granted_to_email.toLowerCase() === email.toLowerCase())) {
        throw conflict(`Failed to ${what}: ${email} already has access to project ${grants.project.id}`);
      }
      const grant = { id: ctx.store.rngIds.uuid(), granted_to_email: email, granted_at: iso(ctx.now()) };
      return { body: grants.add(grant) };
    });

    r.delete("/projects/:project_id/permissions/:permission_id", (ctx) => {
      const grants = permissions.at(ctx, "revoke project access");
      const g = grants.one(ctx.params().permission_id);
      grants.remove(g.id);
      // The revoked grant, with its revocation time, as the service answers it.
      return { body: { ...g, revoked_at: iso(ctx.now()) } };
    });
  },
});
