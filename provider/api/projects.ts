/**
 * The project calls of the client (`ProjectCalls`) and the schemas of their answers, with
 * the role and database shapes (their calls are in `roles.ts`). A project's create answer carries a connection URI with
 * a password: it is parsed here and handed to the resource, never logged.
 */
import { z } from "zod";
import { route } from "../http";
import { paginate } from "./pager";
import type { Call } from "./call";
import {
  BranchSchema,
  EndpointSchema,
  OperationSchema,
  ProjectResponseSchema,
  ProjectSchema,
  ProjectsPageSchema,
  type Project,
  type ProjectDetails,
} from "./schemas";

/** A role of a branch as listed (the password is never listed). */
export const RoleSchema = z.object({
  branch_id: z.string(),
  name: z.string(),
  protected: z.boolean().optional(),
  /** `password`, `oauth` or `no_login`. */
  authentication_method: z.string().optional(),
  created_at: z.string().optional(),
});
/** A role of a branch. */
export type Role = z.infer<typeof RoleSchema>;

/** A database of a branch. */
export const DatabaseSchema = z.object({
  id: z.number(),
  branch_id: z.string(),
  name: z.string(),
  owner_name: z.string(),
  created_at: z.string().optional(),
});
/** A database of a branch. */
export type Database = z.infer<typeof DatabaseSchema>;

/** `{ project, connection_uris, roles, databases, operations, branch, endpoints }` from create. */
export const ProjectCreatedSchema = z.object({
  project: ProjectSchema,
  connection_uris: z.array(z.object({ connection_uri: z.string() })).optional(),
  roles: z.array(RoleSchema),
  databases: z.array(DatabaseSchema),
  operations: z.array(OperationSchema),
  branch: BranchSchema,
  endpoints: z.array(EndpointSchema),
});
/** The answer to creating a project; `connection_uris` carry a password. */
export type ProjectCreated = z.infer<typeof ProjectCreatedSchema>;

/** `{ project, operations }` from update. */
export const ProjectOperationsSchema = z.object({
  project: ProjectSchema,
  operations: z.array(OperationSchema),
});
/** The answer to updating a project. */
export type ProjectOperations = z.infer<typeof ProjectOperationsSchema>;

/** The compute settings a project gives the computes created in it. */
export interface DefaultEndpointSettingsBody {
  autoscaling_limit_min_cu?: number;
  autoscaling_limit_max_cu?: number;
  suspend_timeout_seconds?: number;
}

/** The `project` object of `POST /projects`. */
export interface ProjectCreateBody {
  name?: string;
  region_id?: string;
  pg_version?: number;
  org_id?: string;
  history_retention_seconds?: number;
  default_endpoint_settings?: DefaultEndpointSettingsBody;
  branch?: { name?: string; role_name?: string; database_name?: string };
}

/** The `project` object of `PATCH /projects/{project_id}`. */
export interface ProjectUpdateBody {
  name?: string;
  history_retention_seconds?: number;
  default_endpoint_settings?: DefaultEndpointSettingsBody;
}

/** What `GET /projects/{project_id}/connection_uri` is asked for. */
export interface ConnectionUriQuery {
  branchId?: string;
  endpointId?: string;
  databaseName: string;
  roleName: string;
  pooled?: boolean;
}

/** The project calls of the client. */
export interface ProjectCalls {
  list(opts?: { limit?: number; orgId?: string; search?: string }): AsyncIterable<Project>;
  /**
   * One project by id (its `org_id` names the organization that owns it, `owner` its plan); 404
   * when it does not exist or the key cannot see it.
   */
  get(projectId: string): Promise<ProjectDetails>;
  /** Creates a project with its default branch, primary compute, role and database. */
  create(body: ProjectCreateBody): Promise<ProjectCreated>;
  update(projectId: string, body: ProjectUpdateBody): Promise<ProjectOperations>;
  /** Deletes the project with every branch, compute and database; 404 when already gone. */
  delete(projectId: string): Promise<ProjectDetails>;
  /** A connection URI (it carries the role's password: a secret). */
  connectionUri(projectId: string, q: ConnectionUriQuery): Promise<string>;
}

export function projectCalls(call: Call, pageSize: number): ProjectCalls {
  return {
    list: (o = {}) => {
      const limit = o.limit ?? pageSize;
      return paginate(limit, (cursor) =>
        call(route("GET /projects"), "list", "projects", ProjectsPageSchema, {
          query: { limit, cursor, org_id: o.orgId, search: o.search },
          map: (r) => ({ items: r.projects, cursor: r.pagination?.cursor || undefined }),
        }),
      );
    },
    get: (p) =>
      call(
        route("GET /projects/{project_id}", { project_id: p }),
        "read",
        `project ${p}`,
        ProjectResponseSchema,
        { map: (r) => r.project },
      ),
    create: (body) =>
      call(
        route("POST /projects"),
        "create",
        `project${body.name ? ` "${body.name}"` : ""}`,
        ProjectCreatedSchema,
        { body: { project: body } },
      ),
    update: (p, body) =>
      call(
        route("PATCH /projects/{project_id}", { project_id: p }),
        "update",
        `project ${p}`,
        ProjectOperationsSchema,
        { body: { project: body } },
      ),
    delete: (p) =>
      call(
        route("DELETE /projects/{project_id}", { project_id: p }),
        "delete",
        `project ${p}`,
        ProjectResponseSchema,
        { map: (r) => r.project },
      ),
    connectionUri: (p, q) =>
      call(
        route("GET /projects/{project_id}/connection_uri", { project_id: p }),
        "read",
        `the connection URI of database ${q.databaseName} in project ${p}`,
        z.object({ uri: z.string() }),
        {
          query: {
            branch_id: q.branchId,
            endpoint_id: q.endpointId,
            database_name: q.databaseName,
            role_name: q.roleName,
            pooled: q.pooled,
          },
          map: (r) => r.uri,
        },
      ),
  };
}
