/**
 * Project access (`/projects/{project_id}/permissions`): the accounts a project is shared with, by
 * email. A grant and a revoke start no operation, so they are neither locked by a running one nor
 * waited for. The service's answer to a second grant for an email that already has access is not
 * documented: the emulator refuses it with 409, so that a client never counts on a second grant.
 */
import { conflict, notFound } from "../errors";
import type { Router } from "../server";
import { PermissionGrantBody } from "../validation";

export function permissionRoutes(r: Router): void {
  r.get("/projects/:project_id/permissions", (ctx) => {
    const p = ctx.project(ctx.params().project_id, "list project access");
    return { body: { project_permissions: ctx.store.permissionsOf(p.id) } };
  });

  r.post("/projects/:project_id/permissions", (ctx) => {
    const what = "grant project access";
    const p = ctx.project(ctx.params().project_id, what);
    const { email } = ctx.body(PermissionGrantBody, what);
    if (ctx.store.permissionsOf(p.id).some((g) => g.granted_to_email.toLowerCase() === email.toLowerCase())) {
      throw conflict(`Failed to ${what}: ${email} already has access to project ${p.id}`);
    }
    return { body: ctx.store.grant(p.id, email) };
  });

  r.delete("/projects/:project_id/permissions/:permission_id", (ctx) => {
    const what = "revoke project access";
    const { project_id, permission_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const g = ctx.store.permissionsOf(p.id).find((x) => x.id === permission_id);
    if (!g) throw notFound(`Failed to ${what}: permission ${permission_id} not found in project ${p.id}`);
    return { body: ctx.store.revokePermission(p.id, g) };
  });
}
