/**
 * Roles and databases of a branch (read-only here: list, get) and the connection URI of a role and
 * database on a compute. Roles are shown without their passwords.
 */
import { notFound } from "../errors";
import type { Ctx, Router } from "../server";
import type { Branch, Project } from "../state";
import { connectionUri, poolerHost, roleView } from "../roles";
import { boolQuery, idQuery, stringQuery } from "../validation";
import { readWriteOf } from "./endpoints";

function branchOr404(ctx: Ctx, p: Project, id: string, what: string): Branch {
  const b = ctx.store.branch(p.id, id);
  if (!b) throw notFound(`Failed to ${what}: branch ${id} not found in project ${p.id}`);
  return b;
}

export function roleRoutes(r: Router): void {
  r.get("/projects/:project_id/branches/:branch_id/roles", (ctx) => {
    const what = "list roles";
    const { project_id, branch_id } = ctx.params();
    const b = branchOr404(ctx, ctx.project(project_id, what), branch_id, what);
    return { body: { roles: ctx.store.rolesOf(b.id).map(roleView) } };
  });

  r.get("/projects/:project_id/branches/:branch_id/roles/:role_name", (ctx) => {
    const what = "get role";
    const { project_id, branch_id, role_name } = ctx.params();
    const b = branchOr404(ctx, ctx.project(project_id, what), branch_id, what);
    const role = ctx.store.rolesOf(b.id).find((x) => x.name === role_name);
    if (!role) throw notFound(`Failed to ${what}: role "${role_name}" not found on branch ${b.id}`);
    return { body: { role: roleView(role) } };
  });

  r.get("/projects/:project_id/branches/:branch_id/databases", (ctx) => {
    const what = "list databases";
    const { project_id, branch_id } = ctx.params();
    const b = branchOr404(ctx, ctx.project(project_id, what), branch_id, what);
    return { body: { databases: ctx.store.databasesOf(b.id) } };
  });

  r.get("/projects/:project_id/branches/:branch_id/databases/:database_name", (ctx) => {
    const what = "get database";
    const { project_id, branch_id, database_name } = ctx.params();
    const b = branchOr404(ctx, ctx.project(project_id, what), branch_id, what);
    const db = ctx.store.databasesOf(b.id).find((x) => x.name === database_name);
    if (!db) throw notFound(`Failed to ${what}: database "${database_name}" not found on branch ${b.id}`);
    return { body: { database: db } };
  });

  r.get("/projects/:project_id/connection_uri", (ctx) => {
    const what = "get connection URI";
    const p = ctx.project(ctx.params().project_id, what);
    const q = ctx.query();
    const branchId = idQuery(q.branch_id, "branch_id") ?? p.default_branch_id;
    const endpointId = idQuery(q.endpoint_id, "endpoint_id");
    const databaseName = stringQuery(q.database_name, "database_name", true);
    const roleName = stringQuery(q.role_name, "role_name", true);
    const pooled = boolQuery(q.pooled, "pooled", false);
    const b = branchOr404(ctx, p, branchId, what);
    // The compute: the one named (it must be on the branch), else the branch's read_write compute.
    let ep = endpointId === undefined ? readWriteOf(ctx, p.id, b.id) : ctx.store.endpoint(p.id, endpointId);
    if (ep && ep.branch_id !== b.id) ep = undefined;
    if (!ep) {
      throw notFound(
        endpointId === undefined
          ? `Failed to ${what}: branch ${b.id} has no read_write endpoint; create one or pass endpoint_id`
          : `Failed to ${what}: endpoint ${endpointId} not found on branch ${b.id} in project ${p.id}`,
      );
    }
    const role = ctx.store.rolesOf(b.id).find((x) => x.name === roleName);
    if (!role) throw notFound(`Failed to ${what}: role "${roleName}" not found on branch ${b.id}`);
    if (!ctx.store.databasesOf(b.id).some((x) => x.name === databaseName))
      throw notFound(`Failed to ${what}: database "${databaseName}" not found on branch ${b.id}`);
    return { body: { uri: connectionUri(pooled ? poolerHost(ep) : ep.host, role, databaseName) } };
  });
}
