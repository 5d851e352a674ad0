/**
 * Postgres roles and databases of branches, and the connection details built from them. A project is
 * created with one owner role and one database on its default branch; a new branch gets copies of its
 * parent's (same names; same passwords, except under a protected parent, whose children get new ones).
 * Also whether a password logs a role in (`POST /_emulator/login`), across a password reset.
 */
import { timingSafeEqual } from "node:crypto";
import { iso, newPassword } from "./ids";
import type { Store } from "./store";
import { TERMINAL_STATUSES, type Database, type Endpoint, type RoleRecord } from "./state";

/** The database a project gets when the create request names none. */
export const DEFAULT_DATABASE_NAME = "neondb";

/** The owner role a project gets when the create request names none: `{database_name}_owner`. */
export const ownerRoleName = (databaseName: string): string => `${databaseName}_owner`;

/** A new role record with a fresh password, or none with `noLogin` (not yet stored). */
export function newRole(branchId: string, name: string, at: string, noLogin = false): RoleRecord {
  return {
    branch_id: branchId,
    name,
    protected: false,
    ...(noLogin ? {} : { password: newPassword() }),
    no_login: noLogin,
    created_at: at,
    updated_at: at,
  };
}

/** A new database record with the next id (not yet stored). */
export function newDatabase(
  store: Store,
  branchId: string,
  name: string,
  owner: string,
  at: string,
): Database {
  const id = store.state.next_database_id++;
  store.dirty = true;
  return { id, branch_id: branchId, name, owner_name: owner, created_at: at, updated_at: at };
}

/**
 * Gives a new branch copies of its parent's roles and databases, created at `atMs`: the same names and
 * owners; the same passwords, or new ones when the parent is protected.
 */
export function inheritRolesAndDatabases(
  store: Store,
  parentId: string,
  childId: string,
  atMs: number,
  newPasswords: boolean,
): { roles: RoleRecord[]; databases: Database[] } {
  const at = iso(atMs);
  // A copy carries no password rotation: the parent's last reset has finished (the project was not locked).
  const roles = store.rolesOf(parentId).map(({ password_rotation: _rotation, ...r }): RoleRecord => ({
    ...r,
    branch_id: childId,
    ...(r.password !== undefined ? { password: newPasswords ? newPassword() : r.password } : {}),
    created_at: at,
    updated_at: at,
  }));
  const databases = store
    .databasesOf(parentId)
    .map((d) => newDatabase(store, childId, d.name, d.owner_name, at));
  store.state.roles[childId] = roles;
  store.state.databases[childId] = databases;
  store.dirty = true;
  return { roles, databases };
}

/** A role as the API shows it in GET and list answers: never with its password. */
export function roleView(r: RoleRecord): Record<string, unknown> {
  return {
    branch_id: r.branch_id,
    name: r.name,
    protected: r.protected,
    authentication_method: r.no_login ? "no_login" : "password",
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/**
 * A role as create and reset answers show it: with its password (the only times the API shows it
 * unasked); a `no_login` role has none.
 */
export function roleWithPassword(r: RoleRecord): Record<string, unknown> {
  return r.password === undefined ? roleView(r) : { ...roleView(r), password: r.password };
}

/**
 * True while the password a reset replaced still works: some operation of the reset is not terminal
 * (the project must be brought up to date first). Drops the rotation once it is over.
 */
export function previousPasswordValid(store: Store, projectId: string, r: RoleRecord): boolean {
  const rotation = r.password_rotation;
  if (!rotation) return false;
  const valid = rotation.operation_ids.some((id) => {
    const rec = store.operation(projectId, id);
    return rec !== undefined && !TERMINAL_STATUSES.has(rec.op.status);
  });
  if (!valid) {
    delete r.password_rotation;
    store.dirty = true;
  }
  return valid;
}

/**
 * Whether a client connecting as role `r` with `password` gets in: the role may log in and the password
 * is its current one, or the one a reset replaced while the reset's operations run. The reasons are
 * Postgres's own messages; none of them contains a password.
 */
export function tryLogin(
  store: Store,
  projectId: string,
  r: RoleRecord,
  password: string,
): { ok: boolean; reason?: string } {
  if (r.no_login || r.password === undefined)
    return { ok: false, reason: `role "${r.name}" is not permitted to log in` };
  if (same(password, r.password)) {
    // The spec: a reset's new password is ready to use when its last operation finishes.
    if (r.password_rotation && previousPasswordValid(store, projectId, r)) {
      return {
        ok: false,
        reason: `password authentication failed for user "${r.name}" (a password reset is still being applied; the previous password works until it finishes)`,
      };
    }
    return { ok: true };
  }
  if (r.password_rotation && same(password, r.password_rotation.previous_password)) {
    if (previousPasswordValid(store, projectId, r)) return { ok: true };
    return {
      ok: false,
      reason: `password authentication failed for user "${r.name}" (the password was replaced by a reset whose operations have finished)`,
    };
  }
  return { ok: false, reason: `password authentication failed for user "${r.name}"` };
}

/** Compares two passwords in constant time. */
function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The pooled host of a compute: `-pooler` after the endpoint id. */
export function poolerHost(ep: Endpoint): string {
  return ep.host.startsWith(`${ep.id}.`) ? `${ep.id}-pooler${ep.host.slice(ep.id.length)}` : ep.host;
}

/** `postgresql://<role>:<password>@<host>/<database>?sslmode=require` (a role that can log in). */
export function connectionUri(host: string, role: RoleRecord, database: string): string {
  const e = encodeURIComponent;
  return `postgresql://${e(role.name)}:${e(role.password ?? "")}@${host}/${e(database)}?sslmode=require`;
}

/** `ConnectionDetails` of a role and database on a compute. */
export function connectionDetails(
  ep: Endpoint,
  role: RoleRecord,
  database: Database,
): Record<string, unknown> {
  return {
    connection_uri: connectionUri(ep.host, role, database.name),
    connection_parameters: {
      database: database.name,
      password: role.password ?? "",
      role: role.name,
      host: ep.host,
      pooler_host: poolerHost(ep),
    },
  };
}
