/**
 * Roles and databases of a branch: list, get, create, delete (and rename or re-own a database); a role's
 * password (reveal, reset); and the connection URI of a role and database on a compute. Roles are shown
 * without their passwords except in the answers of create, reset and `reveal_password`. Every change runs
 * a configuration change on each compute of the branch (see {@link applyConfigToBranch}).
 */
import { badRequest, conflict, notFound, preconditionFailed, unprocessable } from "../errors";
import type { Ctx, Router } from "../server";
import type { Branch, Database, Project, RoleRecord } from "../state";
import { iso } from "../store";
import { connectionUri, newDatabase, newRole, poolerHost, roleView, roleWithPassword } from "../roles";
import { newPassword } from "../ids";
import {
  DatabaseCreateBody,
  DatabaseUpdateBody,
  RoleCreateBody,
  boolQuery,
  idQuery,
  stringQuery,
} from "../validation";
import { applyConfigToBranch, readWriteOf } from "./endpoints";
import { dataApis } from "./dataapi";

function branchOr404(ctx: Ctx, p: Project, id: string, what: string): Branch {
  const b = ctx.store.branch(p.id, id);
  if (!b) throw notFound(`Failed to ${what}: branch ${id} not found in project ${p.id}`);
  return b;
}

function roleOr404(ctx: Ctx, b: Branch, name: string, what: string): RoleRecord {
  const role = ctx.store.rolesOf(b.id).find((x) => x.name === name);
  if (!role) throw notFound(`Failed to ${what}: role "${name}" not found on branch ${b.id}`);
  return role;
}

function databaseOr404(ctx: Ctx, b: Branch, name: string, what: string): Database {
  const db = ctx.store.databasesOf(b.id).find((x) => x.name === name);
  if (!db) throw notFound(`Failed to ${what}: database "${name}" not found on branch ${b.id}`);
  return db;
}

/** A database's owner named in a body must be a role of the branch: 404 naming it, like other body ids. */
function ownerOr404(ctx: Ctx, b: Branch, name: string, what: string): void {
  if (!ctx.store.rolesOf(b.id).some((x) => x.name === name)) {
    throw notFound(
      `Failed to ${what}: owner role "${name}" not found on branch ${b.id}; create the role first`,
    );
  }
}

/** System roles (`protected`) are the service's own: they cannot be deleted or have their password read or reset. */
function notProtected(role: RoleRecord, what: string): void {
  if (role.protected) {
    throw badRequest(`Failed to ${what}: role "${role.name}" is a protected system role`);
  }
}

/** A `no_login` role has no password to reveal or reset. */
function mayLogIn(role: RoleRecord, what: string): void {
  if (role.no_login) {
    throw unprocessable(
      `Failed to ${what}: role "${role.name}" was created with no_login and has no password`,
    );
  }
}

/**
 * The checks every change to a branch's roles or databases passes before it is applied, in the
 * emulator's order: the branch must be ready (422), have a read_write compute when the change is made
 * through one (412), then the project unlocked (423).
 *
 * The service applies roles and databases through the branch's read_write compute: users report a role
 * create on a branch without one refused with 412 and "create a read-write endpoint" (API facts §10). The
 * emulator refuses every change that puts something in Postgres that way (a role, a password reset, a
 * database, its rename or owner) and lets deletes through: nothing says the service refuses those, and a
 * stack's destroy may remove the compute before the roles beside it.
 */
function mayChange(ctx: Ctx, p: Project, b: Branch, what: string, throughCompute: boolean): void {
  ctx.ready(b);
  if (throughCompute && !readWriteOf(ctx, p.id, b.id)) {
    throw preconditionFailed(
      `Failed to ${what}: branch ${b.id} has no read_write endpoint; create a read-write endpoint to manage roles and databases on this branch`,
    );
  }
  ctx.lock(p);
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
    return { body: { role: roleView(roleOr404(ctx, b, role_name, what)) } };
  });

  r.post("/projects/:project_id/branches/:branch_id/roles", (ctx) => {
    const what = "create role";
    const { project_id, branch_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const b = branchOr404(ctx, p, branch_id, what);
    const { name, no_login } = ctx.body(RoleCreateBody, what).role;
    mayChange(ctx, p, b, what, true);
    if (ctx.store.rolesOf(b.id).some((x) => x.name === name))
      throw conflict(`Failed to ${what}: role "${name}" already exists on branch ${b.id}`);
    const role = newRole(b.id, name, iso(ctx.now()), no_login === true);
    ctx.store.state.roles[b.id] = [...ctx.store.rolesOf(b.id), role];
    ctx.store.dirty = true;
    const operations = ctx.operations(p.id, applyConfigToBranch(ctx, p.id, b.id));
    return { status: 201, body: { role: roleWithPassword(role), operations } };
  });

  r.delete("/projects/:project_id/branches/:branch_id/roles/:role_name", (ctx) => {
    const what = "delete role";
    const { project_id, branch_id, role_name } = ctx.params();
    const p = ctx.project(project_id, what);
    const b = branchOr404(ctx, p, branch_id, what);
    const role = ctx.store.rolesOf(b.id).find((x) => x.name === role_name);
    // The API answers 204 for a role that does not exist or was already deleted.
    if (!role) return { status: 204 };
    notProtected(role, what);
    mayChange(ctx, p, b, what, false);
    const owned = ctx.store.databasesOf(b.id).filter((d) => d.owner_name === role.name);
    if (owned.length > 0) {
      throw conflict(
        `Failed to ${what}: role "${role.name}" owns the database${owned.length > 1 ? "s" : ""} ${owned
          .map((d) => `"${d.name}"`)
          .join(
            ", ",
          )} on branch ${b.id}; delete ${owned.length > 1 ? "them" : "it"} or change ${owned.length > 1 ? "their owner" : "its owner"} first`,
      );
    }
    ctx.store.state.roles[b.id] = ctx.store.rolesOf(b.id).filter((x) => x !== role);
    ctx.store.dirty = true;
    const operations = ctx.operations(p.id, applyConfigToBranch(ctx, p.id, b.id));
    return { body: { role: roleView(role), operations } };
  });

  r.get("/projects/:project_id/branches/:branch_id/roles/:role_name/reveal_password", (ctx) => {
    const what = "reveal role password";
    const { project_id, branch_id, role_name } = ctx.params();
    const p = ctx.project(project_id, what);
    const b = branchOr404(ctx, p, branch_id, what);
    const role = roleOr404(ctx, b, role_name, what);
    if (!p.store_passwords) {
      throw preconditionFailed(
        `Failed to ${what}: storing passwords is disabled for project ${p.id}; reset the password to get a new one`,
      );
    }
    notProtected(role, what);
    mayLogIn(role, what);
    return { body: { password: role.password } };
  });

  r.post("/projects/:project_id/branches/:branch_id/roles/:role_name/reset_password", (ctx) => {
    const what = "reset role password";
    const { project_id, branch_id, role_name } = ctx.params();
    const p = ctx.project(project_id, what);
    const b = branchOr404(ctx, p, branch_id, what);
    const role = roleOr404(ctx, b, role_name, what);
    notProtected(role, what);
    mayLogIn(role, what);
    mayChange(ctx, p, b, what, true);
    const previous = role.password!;
    role.password = newPassword();
    role.updated_at = iso(ctx.now());
    const operations = ctx.operations(p.id, applyConfigToBranch(ctx, p.id, b.id));
    // The old password keeps working until the reset's last operation is over (none: not at all).
    if (operations.length > 0) {
      role.password_rotation = {
        previous_password: previous,
        operation_ids: operations.map((o) => o.id),
      };
    } else {
      delete role.password_rotation;
    }
    ctx.store.dirty = true;
    return { body: { role: roleWithPassword(role), operations } };
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
    return { body: { database: databaseOr404(ctx, b, database_name, what) } };
  });

  r.post("/projects/:project_id/branches/:branch_id/databases", (ctx) => {
    const what = "create database";
    const { project_id, branch_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const b = branchOr404(ctx, p, branch_id, what);
    const { name, owner_name } = ctx.body(DatabaseCreateBody, what).database;
    ownerOr404(ctx, b, owner_name, what);
    mayChange(ctx, p, b, what, true);
    if (ctx.store.databasesOf(b.id).some((x) => x.name === name))
      throw conflict(`Failed to ${what}: database "${name}" already exists on branch ${b.id}`);
    const db = newDatabase(ctx.store, b.id, name, owner_name, iso(ctx.now()));
    ctx.store.state.databases[b.id] = [...ctx.store.databasesOf(b.id), db];
    const operations = ctx.operations(p.id, applyConfigToBranch(ctx, p.id, b.id));
    return { status: 201, body: { database: db, operations } };
  });

  r.patch("/projects/:project_id/branches/:branch_id/databases/:database_name", (ctx) => {
    const what = "update database";
    const { project_id, branch_id, database_name } = ctx.params();
    const p = ctx.project(project_id, what);
    const b = branchOr404(ctx, p, branch_id, what);
    const db = databaseOr404(ctx, b, database_name, what);
    const u = ctx.body(DatabaseUpdateBody, what).database;
    if (u.owner_name !== undefined) ownerOr404(ctx, b, u.owner_name, what);
    mayChange(ctx, p, b, what, true);
    if (
      u.name !== undefined &&
      u.name !== db.name &&
      ctx.store.databasesOf(b.id).some((x) => x.name === u.name)
    ) {
      throw conflict(`Failed to ${what}: database "${u.name}" already exists on branch ${b.id}`);
    }
    const name = u.name ?? db.name;
    const owner = u.owner_name ?? db.owner_name;
    // As for computes, a PATCH that changes nothing returns no operations.
    if (name === db.name && owner === db.owner_name) return { body: { database: db, operations: [] } };
    // A rename keeps the database (its id and data); its Data API, served under the old name, goes.
    if (name !== db.name) dataApis.in(ctx.store).remove(b.id, db.name);
    db.name = name;
    db.owner_name = owner;
    db.updated_at = iso(ctx.now());
    ctx.store.dirty = true;
    const operations = ctx.operations(p.id, applyConfigToBranch(ctx, p.id, b.id));
    return { body: { database: db, operations } };
  });

  r.delete("/projects/:project_id/branches/:branch_id/databases/:database_name", (ctx) => {
    const what = "delete database";
    const { project_id, branch_id, database_name } = ctx.params();
    const p = ctx.project(project_id, what);
    const b = branchOr404(ctx, p, branch_id, what);
    const db = ctx.store.databasesOf(b.id).find((x) => x.name === database_name);
    // The API answers 204 for a database that does not exist or was already deleted.
    if (!db) return { status: 204 };
    mayChange(ctx, p, b, what, false);
    dataApis.in(ctx.store).remove(b.id, db.name);
    ctx.store.state.databases[b.id] = ctx.store.databasesOf(b.id).filter((x) => x !== db);
    ctx.store.dirty = true;
    const operations = ctx.operations(p.id, applyConfigToBranch(ctx, p.id, b.id));
    return { body: { database: db, operations } };
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
    const role = roleOr404(ctx, b, roleName, what);
    databaseOr404(ctx, b, databaseName, what);
    if (role.no_login) {
      throw unprocessable(
        `Failed to ${what}: role "${role.name}" was created with no_login and cannot connect`,
      );
    }
    return { body: { uri: connectionUri(pooled ? poolerHost(ep) : ep.host, role, databaseName) } };
  });
}
