/**
 * The role and database calls of the client (`RoleCalls`, `DatabaseCalls`).
 * Create and reset answers, and `reveal_password`, carry a role's password: it is parsed here and
 * handed to the resource, which returns it as a secret output; it is never logged or put in a message.
 */
import { z } from "zod";
import { route, type HttpClient } from "../http";
import { deleteOr204 } from "./deletes";
import type { Call } from "./call";
import { DatabaseSchema, RoleSchema, type Database, type Role } from "./projects";
import { OperationSchema } from "./schemas";

/** A role as create and reset_password answer it: with its password (absent for a `no_login` role). */
export const RoleWithPasswordSchema = RoleSchema.extend({
  password: z.string().optional(),
});

/** `{ role, operations }` from create, reset_password and delete. */
export const RoleOperationsSchema = z.object({
  role: RoleWithPasswordSchema,
  operations: z.array(OperationSchema),
});
/** The answer to creating a role, resetting its password or deleting it; `role.password` is a secret. */
export type RoleOperations = z.infer<typeof RoleOperationsSchema>;

/** `{ database, operations }` from create, update and delete. */
export const DatabaseOperationsSchema = z.object({
  database: DatabaseSchema,
  operations: z.array(OperationSchema),
});
/** The answer to creating, changing or deleting a database. */
export type DatabaseOperations = z.infer<typeof DatabaseOperationsSchema>;

/** The `role` object of `POST …/roles`. */
export interface RoleCreateBody {
  name: string;
  no_login?: boolean;
}

/** The `database` object of `PATCH …/databases/{database_name}`. */
export interface DatabaseUpdateBody {
  name?: string;
  owner_name?: string;
}

/** The role calls of the client. */
export interface RoleCalls {
  /** The roles of a branch (without passwords). */
  list(projectId: string, branchId: string): Promise<Role[]>;
  /** One role (without its password); 404 when the branch has no role of that name. */
  get(projectId: string, branchId: string, name: string): Promise<Role>;
  /** Creates a role; the answer carries its password (a secret). */
  create(projectId: string, branchId: string, body: RoleCreateBody): Promise<RoleOperations>;
  /** The role's password (a secret); 412 when the project does not store passwords. */
  revealPassword(projectId: string, branchId: string, name: string): Promise<string>;
  /** A new password; the old one works until the answer's operations finish. */
  resetPassword(projectId: string, branchId: string, name: string): Promise<RoleOperations>;
  /** `undefined` when the API answers 204 (the role does not exist or is already deleted). */
  delete(projectId: string, branchId: string, name: string): Promise<RoleOperations | undefined>;
}

/** The database calls of the client. */
export interface DatabaseCalls {
  /** The databases of a branch. */
  list(projectId: string, branchId: string): Promise<Database[]>;
  create(
    projectId: string,
    branchId: string,
    body: { name: string; owner_name: string },
  ): Promise<DatabaseOperations>;
  /** Renames it or changes its owner (its id and data stay). */
  update(
    projectId: string,
    branchId: string,
    name: string,
    body: DatabaseUpdateBody,
  ): Promise<DatabaseOperations>;
  /** `undefined` when the API answers 204 (the database does not exist or is already deleted). */
  delete(projectId: string, branchId: string, name: string): Promise<DatabaseOperations | undefined>;
}

type Params = { project_id: string; branch_id: string };
const at = (p: string, b: string): Params => ({ project_id: p, branch_id: b });
const roleOf = (p: string, b: string, n: string) => `role "${n}" of branch ${b} in project ${p}`;
const databaseOf = (p: string, b: string, n: string) => `database "${n}" of branch ${b} in project ${p}`;

export function roleCalls(call: Call, http: HttpClient): RoleCalls {
  return {
    list: (p, b) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/roles", at(p, b)),
        "list",
        `the roles of branch ${b} in project ${p}`,
        z.object({ roles: z.array(RoleSchema) }),
        { map: (r) => r.roles },
      ),
    get: (p, b, n) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}", {
          ...at(p, b),
          role_name: n,
        }),
        "read",
        roleOf(p, b, n),
        z.object({ role: RoleWithPasswordSchema }),
        { map: (r) => r.role },
      ),
    create: (p, b, body) =>
      call(
        route("POST /projects/{project_id}/branches/{branch_id}/roles", at(p, b)),
        "create",
        roleOf(p, b, body.name),
        RoleOperationsSchema,
        { body: { role: body } },
      ),
    revealPassword: (p, b, n) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password", {
          ...at(p, b),
          role_name: n,
        }),
        "read the password of",
        roleOf(p, b, n),
        z.object({ password: z.string() }),
        { map: (r) => r.password },
      ),
    resetPassword: (p, b, n) =>
      call(
        route("POST /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password", {
          ...at(p, b),
          role_name: n,
        }),
        "reset the password of",
        roleOf(p, b, n),
        RoleOperationsSchema,
      ),
    delete: (p, b, n) =>
      deleteOr204(
        http,
        route("DELETE /projects/{project_id}/branches/{branch_id}/roles/{role_name}", {
          ...at(p, b),
          role_name: n,
        }),
        roleOf(p, b, n),
        RoleOperationsSchema,
      ),
  };
}

export function databaseCalls(call: Call, http: HttpClient): DatabaseCalls {
  return {
    list: (p, b) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/databases", at(p, b)),
        "list",
        `the databases of branch ${b} in project ${p}`,
        z.object({ databases: z.array(DatabaseSchema) }),
        { map: (r) => r.databases },
      ),
    create: (p, b, body) =>
      call(
        route("POST /projects/{project_id}/branches/{branch_id}/databases", at(p, b)),
        "create",
        databaseOf(p, b, body.name),
        DatabaseOperationsSchema,
        { body: { database: body } },
      ),
    update: (p, b, n, body) =>
      call(
        route("PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}", {
          ...at(p, b),
          database_name: n,
        }),
        "update",
        databaseOf(p, b, n),
        DatabaseOperationsSchema,
        { body: { database: body } },
      ),
    delete: (p, b, n) =>
      deleteOr204(
        http,
        route("DELETE /projects/{project_id}/branches/{branch_id}/databases/{database_name}", {
          ...at(p, b),
          database_name: n,
        }),
        databaseOf(p, b, n),
        DatabaseOperationsSchema,
      ),
  };
}
