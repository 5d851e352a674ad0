/**
 * Postgres roles and databases of branches, and the connection details built from them. A project is
 * created with one owner role and one database on its default branch; a new branch gets copies of its
 * parent's (same names; same passwords, except under a protected parent, whose children get new ones).
 */
import { iso, newPassword } from "./ids";
import type { Store } from "./store";
import type { Database, Endpoint, RoleRecord } from "./state";

/** The database a project gets when the create request names none. */
export const DEFAULT_DATABASE_NAME = "neondb";

/** The owner role a project gets when the create request names none: `{database_name}_owner`. */
export const ownerRoleName = (databaseName: string): string => `${databaseName}_owner`;

/** A new role record with a fresh password (not yet stored). */
export function newRole(branchId: string, name: string, at: string): RoleRecord {
  return {
    branch_id: branchId,
    name,
    protected: false,
    password: newPassword(),
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
  const roles = store.rolesOf(parentId).map((r) => ({
    ...r,
    branch_id: childId,
    password: newPasswords ? newPassword() : r.password,
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
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** A role as create answers show it: with its password (the only time the API shows it unasked). */
export function roleWithPassword(r: RoleRecord): Record<string, unknown> {
  return { ...roleView(r), password: r.password };
}

/** The pooled host of a compute: `-pooler` after the endpoint id. */
export function poolerHost(ep: Endpoint): string {
  return ep.host.startsWith(`${ep.id}.`) ? `${ep.id}-pooler${ep.host.slice(ep.id.length)}` : ep.host;
}

/** `postgresql://<role>:<password>@<host>/<database>?sslmode=require` */
export function connectionUri(host: string, role: RoleRecord, database: string): string {
  const e = encodeURIComponent;
  return `postgresql://${e(role.name)}:${e(role.password)}@${host}/${e(database)}?sslmode=require`;
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
      password: role.password,
      role: role.name,
      host: ep.host,
      pooler_host: poolerHost(ep),
    },
  };
}
