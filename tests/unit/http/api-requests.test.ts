/**
 * Every typed call of the API client, pinned at the wire: the method, the URL with its encoded ids
 * and query string, the body, the route template reported to `onRetry` and the rate limiter, the
 * `Failed to <verb> <thing>` of its errors, and whether a request cut off mid-flight is sent again.
 * No network: an axios adapter answers from a script.
 */
import axios, { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from "axios";
import { ApiError, type RetryInfo } from "../../../provider/http";
import {
  buildClient,
  collectAll,
  type EndpointCreateBody,
  type EndpointUpdateBody,
  type NeonClient,
} from "../../../provider/api";
import { FakeClock } from "../../support/fake-clock";
import { httpOver } from "../../support/scripted-http";

// Ids with characters that must be encoded in a path.
const P = "p/1";
const E = "ep 1";
const B = "br?1";
const OP = "op#1";
const N = "r/1"; // a role or database name with a character that must be encoded
const ORG = "org/1";
// A masking rule (every field sensitive in the document): its values never reach an error's text.
const RULE = {
  database_name: "neondb",
  schema_name: "public",
  table_name: "customers",
  column_name: "email_address",
  masking_function: "anon.fake_email()",
};
const VPCE = { orgId: ORG, regionId: "aws-us-east-2", vpcEndpointId: "vpce/1" };

interface Expected {
  method: string;
  /** Path and query string, relative to the base URL. */
  url: string;
  route: string;
  /** `Failed to <verb> <thing>` of the call's errors. */
  failed: string;
  body?: unknown;
}

const cases: [string, (api: NeonClient) => Promise<unknown>, Expected][] = [
  [
    "endpoints.list",
    (api) => api.endpoints.list(P),
    {
      method: "GET",
      url: "/projects/p%2F1/endpoints",
      route: "GET /projects/{project_id}/endpoints",
      failed: "Failed to list the computes of project p/1",
    },
  ],
  [
    "endpoints.get",
    (api) => api.endpoints.get(P, E),
    {
      method: "GET",
      url: "/projects/p%2F1/endpoints/ep%201",
      route: "GET /projects/{project_id}/endpoints/{endpoint_id}",
      failed: "Failed to read compute ep 1 in project p/1",
    },
  ],
  [
    "endpoints.listByBranch",
    (api) => api.endpoints.listByBranch(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/endpoints",
      route: "GET /projects/{project_id}/branches/{branch_id}/endpoints",
      failed: "Failed to list the computes of branch br?1 in project p/1",
    },
  ],
  [
    "endpoints.create",
    (api) => api.endpoints.create(P, { branch_id: "br-1", type: "read_only" }),
    {
      method: "POST",
      url: "/projects/p%2F1/endpoints",
      route: "POST /projects/{project_id}/endpoints",
      failed: "Failed to create a read_only compute on branch br-1 in project p/1",
      body: { endpoint: { branch_id: "br-1", type: "read_only" } },
    },
  ],
  [
    "endpoints.update",
    (api) => api.endpoints.update(P, E, { name: "n" }),
    {
      method: "PATCH",
      url: "/projects/p%2F1/endpoints/ep%201",
      route: "PATCH /projects/{project_id}/endpoints/{endpoint_id}",
      failed: "Failed to update compute ep 1 in project p/1",
      body: { endpoint: { name: "n" } },
    },
  ],
  [
    "endpoints.delete",
    (api) => api.endpoints.delete(P, E),
    {
      method: "DELETE",
      url: "/projects/p%2F1/endpoints/ep%201",
      route: "DELETE /projects/{project_id}/endpoints/{endpoint_id}",
      failed: "Failed to delete compute ep 1 in project p/1",
    },
  ],
  ...(["start", "suspend", "restart"] as const).map(
    (verb): [string, (api: NeonClient) => Promise<unknown>, Expected] => [
      `endpoints.${verb}`,
      (api) => api.endpoints[verb](P, E),
      {
        method: "POST",
        url: `/projects/p%2F1/endpoints/ep%201/${verb}`,
        route: `POST /projects/{project_id}/endpoints/{endpoint_id}/${verb}`,
        failed: `Failed to ${verb} compute ep 1 in project p/1`,
      },
    ],
  ),
  [
    "operations.get",
    (api) => api.operations.get(P, OP),
    {
      method: "GET",
      url: "/projects/p%2F1/operations/op%231",
      route: "GET /projects/{project_id}/operations/{operation_id}",
      failed: "Failed to read operation op#1 of project p/1",
    },
  ],
  [
    "operations.listPage",
    (api) => api.operations.listPage(P, { limit: 5, cursor: "c 1/2" }),
    {
      method: "GET",
      url: "/projects/p%2F1/operations?limit=5&cursor=c+1%2F2",
      route: "GET /projects/{project_id}/operations",
      failed: "Failed to list the operations of project p/1",
    },
  ],
  [
    "operations.list",
    (api) => collectAll(api.operations.list(P), { limit: 1 }),
    {
      method: "GET",
      url: "/projects/p%2F1/operations?limit=100",
      route: "GET /projects/{project_id}/operations",
      failed: "Failed to list the operations of project p/1",
    },
  ],
  [
    "projects.list",
    (api) => collectAll(api.projects.list({ limit: 3, orgId: ORG, search: "a b" }), { limit: 1 }),
    {
      method: "GET",
      url: "/projects?limit=3&org_id=org%2F1&search=a+b",
      route: "GET /projects",
      failed: "Failed to list projects",
    },
  ],
  [
    "projects.list, no options",
    (api) => collectAll(api.projects.list(), { limit: 1 }),
    { method: "GET", url: "/projects?limit=100", route: "GET /projects", failed: "Failed to list projects" },
  ],
  [
    "projects.get",
    (api) => api.projects.get(P),
    {
      method: "GET",
      url: "/projects/p%2F1",
      route: "GET /projects/{project_id}",
      failed: "Failed to read project p/1",
    },
  ],
  [
    "projects.create",
    (api) => api.projects.create({ name: "app", region_id: "aws-us-east-2", branch: { role_name: "app" } }),
    {
      method: "POST",
      url: "/projects",
      route: "POST /projects",
      failed: 'Failed to create project "app"',
      body: { project: { name: "app", region_id: "aws-us-east-2", branch: { role_name: "app" } } },
    },
  ],
  [
    "projects.update",
    (api) => api.projects.update(P, { history_retention_seconds: 3600 }),
    {
      method: "PATCH",
      url: "/projects/p%2F1",
      route: "PATCH /projects/{project_id}",
      failed: "Failed to update project p/1",
      body: { project: { history_retention_seconds: 3600 } },
    },
  ],
  [
    "projects.delete",
    (api) => api.projects.delete(P),
    {
      method: "DELETE",
      url: "/projects/p%2F1",
      route: "DELETE /projects/{project_id}",
      failed: "Failed to delete project p/1",
    },
  ],
  [
    "projects.connectionUri",
    (api) =>
      api.projects.connectionUri(P, { branchId: B, databaseName: "db 1", roleName: "r", pooled: true }),
    {
      method: "GET",
      url: "/projects/p%2F1/connection_uri?branch_id=br%3F1&database_name=db+1&role_name=r&pooled=true",
      route: "GET /projects/{project_id}/connection_uri",
      failed: "Failed to read the connection URI of database db 1 in project p/1",
    },
  ],
  [
    "branches.get",
    (api) => api.branches.get(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1",
      route: "GET /projects/{project_id}/branches/{branch_id}",
      failed: "Failed to read branch br?1 of project p/1",
    },
  ],
  [
    "branches.getAnnotated",
    (api) => api.branches.getAnnotated(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1",
      route: "GET /projects/{project_id}/branches/{branch_id}",
      failed: "Failed to read branch br?1 of project p/1",
    },
  ],
  [
    "branches.list",
    (api) => api.branches.list(P),
    {
      method: "GET",
      url: "/projects/p%2F1/branches?limit=1000&sort_by=created_at",
      route: "GET /projects/{project_id}/branches",
      failed: "Failed to list the branches of project p/1",
    },
  ],
  [
    "branches.listAnnotated",
    (api) => api.branches.listAnnotated(P, { search: "pr 1" }),
    {
      method: "GET",
      url: "/projects/p%2F1/branches?limit=1000&sort_by=created_at&search=pr+1",
      route: "GET /projects/{project_id}/branches",
      failed: "Failed to list the branches of project p/1",
    },
  ],
  [
    "branches.create",
    (api) => api.branches.create(P, { branch: { name: "pr-1" }, endpoints: [{ type: "read_write" }] }),
    {
      method: "POST",
      url: "/projects/p%2F1/branches",
      route: "POST /projects/{project_id}/branches",
      failed: 'Failed to create branch "pr-1" in project p/1',
      body: { branch: { name: "pr-1" }, endpoints: [{ type: "read_write" }] },
    },
  ],
  [
    "branches.update",
    (api) => api.branches.update(P, B, { expires_at: null }),
    {
      method: "PATCH",
      url: "/projects/p%2F1/branches/br%3F1",
      route: "PATCH /projects/{project_id}/branches/{branch_id}",
      failed: "Failed to update branch br?1 of project p/1",
      body: { branch: { expires_at: null } },
    },
  ],
  [
    "branches.restore",
    (api) => api.branches.restore(P, B, "br-parent"),
    {
      method: "POST",
      url: "/projects/p%2F1/branches/br%3F1/restore",
      route: "POST /projects/{project_id}/branches/{branch_id}/restore",
      failed: "Failed to reset branch br?1 of project p/1",
      body: { source_branch_id: "br-parent" },
    },
  ],
  [
    "branches.compareSchema",
    (api) => api.branches.compareSchema(P, B, { databaseName: "db 1", baseBranchId: "br-base" }),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/compare_schema?db_name=db+1&base_branch_id=br-base",
      route: "GET /projects/{project_id}/branches/{branch_id}/compare_schema",
      failed: 'Failed to compare the schema of database "db 1" of branch br?1 of project p/1',
    },
  ],
  [
    "branches.schema",
    (api) => api.branches.schema(P, B, { databaseName: "db 1", timestamp: "2026-01-02T03:04:05Z" }),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/schema?db_name=db+1&timestamp=2026-01-02T03:04:05Z&format=sql",
      route: "GET /projects/{project_id}/branches/{branch_id}/schema",
      failed: 'Failed to read the schema of database "db 1" of branch br?1 of project p/1',
    },
  ],
  [
    "branches.tables",
    (api) => api.branches.tables(P, B, "db 1"),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/schema?db_name=db+1&format=json",
      route: "GET /projects/{project_id}/branches/{branch_id}/schema",
      failed: "Failed to read the tables of a database of branch br?1 of project p/1",
    },
  ],
  [
    "branches.delete",
    (api) => api.branches.delete(P, B),
    {
      method: "DELETE",
      url: "/projects/p%2F1/branches/br%3F1",
      route: "DELETE /projects/{project_id}/branches/{branch_id}",
      failed: "Failed to delete branch br?1 of project p/1",
    },
  ],
  [
    "roles.list",
    (api) => api.roles.list(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/roles",
      route: "GET /projects/{project_id}/branches/{branch_id}/roles",
      failed: "Failed to list the roles of branch br?1 in project p/1",
    },
  ],
  [
    "roles.get",
    (api) => api.roles.get(P, B, N),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/roles/r%2F1",
      route: "GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}",
      failed: 'Failed to read role "r/1" of branch br?1 in project p/1',
    },
  ],
  [
    "roles.create",
    (api) => api.roles.create(P, B, { name: N, no_login: true }),
    {
      method: "POST",
      url: "/projects/p%2F1/branches/br%3F1/roles",
      route: "POST /projects/{project_id}/branches/{branch_id}/roles",
      failed: 'Failed to create role "r/1" of branch br?1 in project p/1',
      body: { role: { name: N, no_login: true } },
    },
  ],
  [
    "roles.revealPassword",
    (api) => api.roles.revealPassword(P, B, N),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/roles/r%2F1/reveal_password",
      route: "GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password",
      failed: 'Failed to read the password of role "r/1" of branch br?1 in project p/1',
    },
  ],
  [
    "roles.resetPassword",
    (api) => api.roles.resetPassword(P, B, N),
    {
      method: "POST",
      url: "/projects/p%2F1/branches/br%3F1/roles/r%2F1/reset_password",
      route: "POST /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password",
      failed: 'Failed to reset the password of role "r/1" of branch br?1 in project p/1',
    },
  ],
  [
    "roles.delete",
    (api) => api.roles.delete(P, B, N),
    {
      method: "DELETE",
      url: "/projects/p%2F1/branches/br%3F1/roles/r%2F1",
      route: "DELETE /projects/{project_id}/branches/{branch_id}/roles/{role_name}",
      failed: 'Failed to delete role "r/1" of branch br?1 in project p/1',
    },
  ],
  [
    "databases.list",
    (api) => api.databases.list(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/databases",
      route: "GET /projects/{project_id}/branches/{branch_id}/databases",
      failed: "Failed to list the databases of branch br?1 in project p/1",
    },
  ],
  [
    "databases.create",
    (api) => api.databases.create(P, B, { name: N, owner_name: "o" }),
    {
      method: "POST",
      url: "/projects/p%2F1/branches/br%3F1/databases",
      route: "POST /projects/{project_id}/branches/{branch_id}/databases",
      failed: 'Failed to create database "r/1" of branch br?1 in project p/1',
      body: { database: { name: N, owner_name: "o" } },
    },
  ],
  [
    "databases.update",
    (api) => api.databases.update(P, B, N, { name: "d2" }),
    {
      method: "PATCH",
      url: "/projects/p%2F1/branches/br%3F1/databases/r%2F1",
      route: "PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
      failed: 'Failed to update database "r/1" of branch br?1 in project p/1',
      body: { database: { name: "d2" } },
    },
  ],
  [
    "databases.delete",
    (api) => api.databases.delete(P, B, N),
    {
      method: "DELETE",
      url: "/projects/p%2F1/branches/br%3F1/databases/r%2F1",
      route: "DELETE /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
      failed: 'Failed to delete database "r/1" of branch br?1 in project p/1',
    },
  ],
  [
    "users.me",
    (api) => api.users.me(),
    { method: "GET", url: "/users/me", route: "GET /users/me", failed: "Failed to read the current user" },
  ],
  [
    "apiKeys.list",
    (api) => api.apiKeys.list(),
    { method: "GET", url: "/api_keys", route: "GET /api_keys", failed: "Failed to list API keys" },
  ],
  [
    "apiKeys.create",
    (api) => api.apiKeys.create("k"),
    {
      method: "POST",
      url: "/api_keys",
      route: "POST /api_keys",
      failed: 'Failed to create API key "k"',
      body: { key_name: "k" },
    },
  ],
  [
    "apiKeys.revoke",
    (api) => api.apiKeys.revoke(7),
    {
      method: "DELETE",
      url: "/api_keys/7",
      route: "DELETE /api_keys/{key_id}",
      failed: "Failed to revoke API key 7",
    },
  ],
  [
    "apiKeys.listOrg",
    (api) => api.apiKeys.listOrg(ORG),
    {
      method: "GET",
      url: "/organizations/org%2F1/api_keys",
      route: "GET /organizations/{org_id}/api_keys",
      failed: "Failed to list the API keys of organization org/1",
    },
  ],
  [
    "apiKeys.createOrg, scoped to a project",
    (api) => api.apiKeys.createOrg(ORG, "k", "p-1"),
    {
      method: "POST",
      url: "/organizations/org%2F1/api_keys",
      route: "POST /organizations/{org_id}/api_keys",
      failed: 'Failed to create API key "k" of organization org/1',
      body: { key_name: "k", project_id: "p-1" },
    },
  ],
  [
    "apiKeys.createOrg",
    (api) => api.apiKeys.createOrg(ORG, "k"),
    {
      method: "POST",
      url: "/organizations/org%2F1/api_keys",
      route: "POST /organizations/{org_id}/api_keys",
      failed: 'Failed to create API key "k" of organization org/1',
      body: { key_name: "k" },
    },
  ],
  [
    "apiKeys.revokeOrg",
    (api) => api.apiKeys.revokeOrg(ORG, 7),
    {
      method: "DELETE",
      url: "/organizations/org%2F1/api_keys/7",
      route: "DELETE /organizations/{org_id}/api_keys/{key_id}",
      failed: "Failed to revoke API key 7 of organization org/1",
    },
  ],
  [
    "permissions.list",
    (api) => api.permissions.list(P),
    {
      method: "GET",
      url: "/projects/p%2F1/permissions",
      route: "GET /projects/{project_id}/permissions",
      failed: "Failed to list the access grants of project p/1",
    },
  ],
  [
    "permissions.grant",
    (api) => api.permissions.grant(P, "dev@example.com"),
    {
      method: "POST",
      url: "/projects/p%2F1/permissions",
      route: "POST /projects/{project_id}/permissions",
      failed: "Failed to grant access to project p/1",
      body: { email: "dev@example.com" },
    },
  ],
  [
    "permissions.revoke",
    (api) => api.permissions.revoke(P, "g/1"),
    {
      method: "DELETE",
      url: "/projects/p%2F1/permissions/g%2F1",
      route: "DELETE /projects/{project_id}/permissions/{permission_id}",
      failed: "Failed to revoke access grant g/1 of project p/1",
    },
  ],
  [
    "snapshots.create",
    (api) => api.snapshots.create(P, B, { timestamp: "2026-11-27T09:30:00Z", name: "s 1" }),
    {
      method: "POST",
      // The document declares the options as query parameters; a body would be lost on the service.
      url: "/projects/p%2F1/branches/br%3F1/snapshot?timestamp=2026-11-27T09:30:00Z&name=s+1",
      route: "POST /projects/{project_id}/branches/{branch_id}/snapshot",
      failed: "Failed to create a snapshot of branch br?1 in project p/1",
    },
  ],
  [
    "snapshots.list",
    (api) => api.snapshots.list(P),
    {
      method: "GET",
      url: "/projects/p%2F1/snapshots",
      route: "GET /projects/{project_id}/snapshots",
      failed: "Failed to list the snapshots of project p/1",
    },
  ],
  [
    "snapshots.rename",
    (api) => api.snapshots.rename(P, "s/1", "n"),
    {
      method: "PATCH",
      url: "/projects/p%2F1/snapshots/s%2F1",
      route: "PATCH /projects/{project_id}/snapshots/{snapshot_id}",
      failed: "Failed to rename snapshot s/1 of project p/1",
      body: { snapshot: { name: "n" } },
    },
  ],
  [
    "snapshots.delete",
    (api) => api.snapshots.delete(P, "s/1"),
    {
      method: "DELETE",
      url: "/projects/p%2F1/snapshots/s%2F1",
      route: "DELETE /projects/{project_id}/snapshots/{snapshot_id}",
      failed: "Failed to delete snapshot s/1 of project p/1",
    },
  ],
  [
    "snapshots.restore",
    (api) =>
      api.snapshots.restore(P, "s/1", { name: "n", target_branch_id: "br-1", finalize_restore: false }),
    {
      method: "POST",
      url: "/projects/p%2F1/snapshots/s%2F1/restore",
      route: "POST /projects/{project_id}/snapshots/{snapshot_id}/restore",
      failed: "Failed to restore snapshot s/1 of project p/1",
      body: { name: "n", target_branch_id: "br-1", finalize_restore: false },
    },
  ],
  [
    "snapshots.finalizeRestore",
    (api) => api.snapshots.finalizeRestore(P, B, "kept"),
    {
      method: "POST",
      url: "/projects/p%2F1/branches/br%3F1/finalize_restore",
      route: "POST /projects/{project_id}/branches/{branch_id}/finalize_restore",
      failed: "Failed to finalize the restore of branch br?1 in project p/1",
      body: { name: "kept" },
    },
  ],
  [
    "snapshots.getSchedule",
    (api) => api.snapshots.getSchedule(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/backup_schedule",
      route: "GET /projects/{project_id}/branches/{branch_id}/backup_schedule",
      failed: "Failed to read the backup schedule of branch br?1 in project p/1",
    },
  ],
  [
    "snapshots.setSchedule",
    (api) => api.snapshots.setSchedule(P, B, [{ frequency: "daily", hour: 3, retention_seconds: 3600 }]),
    {
      method: "PUT",
      url: "/projects/p%2F1/branches/br%3F1/backup_schedule",
      route: "PUT /projects/{project_id}/branches/{branch_id}/backup_schedule",
      failed: "Failed to set the backup schedule of branch br?1 in project p/1",
      body: { schedule: [{ frequency: "daily", hour: 3, retention_seconds: 3600 }] },
    },
  ],
  [
    "neonAuth.get",
    (api) => api.neonAuth.get(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/auth",
      route: "GET /projects/{project_id}/branches/{branch_id}/auth",
      failed: "Failed to read the Neon Auth of branch br?1 in project p/1",
    },
  ],
  [
    "neonAuth.enable",
    (api) => api.neonAuth.enable(P, B, "better_auth", "neondb"),
    {
      method: "POST",
      url: "/projects/p%2F1/branches/br%3F1/auth",
      route: "POST /projects/{project_id}/branches/{branch_id}/auth",
      failed: "Failed to enable the Neon Auth of branch br?1 in project p/1",
      body: { auth_provider: "better_auth", database_name: "neondb" },
    },
  ],
  [
    "neonAuth.disable",
    (api) => api.neonAuth.disable(P, B, true),
    {
      method: "DELETE",
      url: "/projects/p%2F1/branches/br%3F1/auth",
      route: "DELETE /projects/{project_id}/branches/{branch_id}/auth",
      failed: "Failed to disable the Neon Auth of branch br?1 in project p/1",
      body: { delete_data: true },
    },
  ],
  [
    "neonAuth.domains",
    (api) => api.neonAuth.domains(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/auth/domains",
      route: "GET /projects/{project_id}/branches/{branch_id}/auth/domains",
      failed: "Failed to list the trusted domains of the Neon Auth of branch br?1 in project p/1",
    },
  ],
  [
    "neonAuth.addDomain",
    (api) => api.neonAuth.addDomain(P, B, "better_auth", "https://a.example.com"),
    {
      method: "POST",
      url: "/projects/p%2F1/branches/br%3F1/auth/domains",
      route: "POST /projects/{project_id}/branches/{branch_id}/auth/domains",
      failed: "Failed to add a trusted domain to the Neon Auth of branch br?1 in project p/1",
      body: { domain: "https://a.example.com", auth_provider: "better_auth" },
    },
  ],
  [
    "neonAuth.removeDomains",
    (api) => api.neonAuth.removeDomains(P, B, "better_auth", ["https://a.example.com"]),
    {
      method: "DELETE",
      url: "/projects/p%2F1/branches/br%3F1/auth/domains",
      route: "DELETE /projects/{project_id}/branches/{branch_id}/auth/domains",
      failed: "Failed to remove trusted domains of the Neon Auth of branch br?1 in project p/1",
      body: { auth_provider: "better_auth", domains: [{ domain: "https://a.example.com" }] },
    },
  ],
  [
    "neonAuth.oauthProviders",
    (api) => api.neonAuth.oauthProviders(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/auth/oauth_providers",
      route: "GET /projects/{project_id}/branches/{branch_id}/auth/oauth_providers",
      failed: "Failed to list the OAuth providers of the Neon Auth of branch br?1 in project p/1",
    },
  ],
  [
    "neonAuth.addOauthProvider",
    (api) => api.neonAuth.addOauthProvider(P, B, "github", { client_id: "id" }),
    {
      method: "POST",
      url: "/projects/p%2F1/branches/br%3F1/auth/oauth_providers",
      route: "POST /projects/{project_id}/branches/{branch_id}/auth/oauth_providers",
      failed: "Failed to add OAuth provider github to the Neon Auth of branch br?1 in project p/1",
      body: { id: "github", client_id: "id" },
    },
  ],
  [
    "neonAuth.updateOauthProvider",
    (api) => api.neonAuth.updateOauthProvider(P, B, "github", { client_id: "id" }),
    {
      method: "PATCH",
      url: "/projects/p%2F1/branches/br%3F1/auth/oauth_providers/github",
      route: "PATCH /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}",
      failed: "Failed to update OAuth provider github of the Neon Auth of branch br?1 in project p/1",
      body: { client_id: "id" },
    },
  ],
  [
    "neonAuth.removeOauthProvider",
    (api) => api.neonAuth.removeOauthProvider(P, B, "github"),
    {
      method: "DELETE",
      url: "/projects/p%2F1/branches/br%3F1/auth/oauth_providers/github",
      route: "DELETE /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}",
      failed: "Failed to remove OAuth provider github of the Neon Auth of branch br?1 in project p/1",
    },
  ],
  [
    "neonAuth.emailAndPassword",
    (api) => api.neonAuth.emailAndPassword(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/auth/email_and_password",
      route: "GET /projects/{project_id}/branches/{branch_id}/auth/email_and_password",
      failed: "Failed to read the email and password sign-in of the Neon Auth of branch br?1 in project p/1",
    },
  ],
  [
    "neonAuth.setEmailAndPassword",
    (api) => api.neonAuth.setEmailAndPassword(P, B, false),
    {
      method: "PATCH",
      url: "/projects/p%2F1/branches/br%3F1/auth/email_and_password",
      route: "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_and_password",
      failed:
        "Failed to update the email and password sign-in of the Neon Auth of branch br?1 in project p/1",
      body: { enabled: false },
    },
  ],
  [
    "neonAuth.allowLocalhost",
    (api) => api.neonAuth.allowLocalhost(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/auth/allow_localhost",
      route: "GET /projects/{project_id}/branches/{branch_id}/auth/allow_localhost",
      failed: "Failed to read the localhost setting of the Neon Auth of branch br?1 in project p/1",
    },
  ],
  [
    "neonAuth.setAllowLocalhost",
    (api) => api.neonAuth.setAllowLocalhost(P, B, true),
    {
      method: "PATCH",
      url: "/projects/p%2F1/branches/br%3F1/auth/allow_localhost",
      route: "PATCH /projects/{project_id}/branches/{branch_id}/auth/allow_localhost",
      failed: "Failed to update the localhost setting of the Neon Auth of branch br?1 in project p/1",
      body: { allow_localhost: true },
    },
  ],
  [
    "dataApi.get",
    (api) => api.dataApi.get(P, B, N),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/data-api/r%2F1",
      route: "GET /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
      failed: 'Failed to read the Data API of database "r/1" of branch br?1 in project p/1',
    },
  ],
  [
    "dataApi.create",
    (api) => api.dataApi.create(P, B, N, { auth_provider: "neon_auth" }),
    {
      method: "POST",
      url: "/projects/p%2F1/branches/br%3F1/data-api/r%2F1",
      route: "POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
      failed: 'Failed to create the Data API of database "r/1" of branch br?1 in project p/1',
      body: { auth_provider: "neon_auth" },
    },
  ],
  [
    "dataApi.update",
    (api) => api.dataApi.update(P, B, N, { db_max_rows: 5 }),
    {
      method: "PATCH",
      url: "/projects/p%2F1/branches/br%3F1/data-api/r%2F1",
      route: "PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
      failed: 'Failed to update the Data API of database "r/1" of branch br?1 in project p/1',
      body: { settings: { db_max_rows: 5 } },
    },
  ],
  [
    "dataApi.delete",
    (api) => api.dataApi.delete(P, B, N),
    {
      method: "DELETE",
      url: "/projects/p%2F1/branches/br%3F1/data-api/r%2F1",
      route: "DELETE /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
      failed: 'Failed to delete the Data API of database "r/1" of branch br?1 in project p/1',
    },
  ],
  [
    "anonymized.create",
    (api) =>
      api.anonymized.create(P, {
        branch_create: {
          branch: { name: "pr-1", parent_id: "br-main" },
          endpoints: [{ type: "read_write" }],
        },
        masking_rules: [RULE],
        start_anonymization: true,
      }),
    {
      method: "POST",
      url: "/projects/p%2F1/branch_anonymized",
      route: "POST /projects/{project_id}/branch_anonymized",
      failed: 'Failed to create anonymized branch "pr-1" in project p/1',
      body: {
        branch_create: {
          branch: { name: "pr-1", parent_id: "br-main" },
          endpoints: [{ type: "read_write" }],
        },
        masking_rules: [RULE],
        start_anonymization: true,
      },
    },
  ],
  [
    "anonymized.getRules",
    (api) => api.anonymized.getRules(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/masking_rules",
      route: "GET /projects/{project_id}/branches/{branch_id}/masking_rules",
      failed: "Failed to read the masking rules of anonymized branch br?1 of project p/1",
    },
  ],
  [
    "anonymized.setRules",
    (api) => api.anonymized.setRules(P, B, [RULE]),
    {
      method: "PATCH",
      url: "/projects/p%2F1/branches/br%3F1/masking_rules",
      route: "PATCH /projects/{project_id}/branches/{branch_id}/masking_rules",
      failed: "Failed to update the masking rules of anonymized branch br?1 of project p/1",
      body: { masking_rules: [RULE] },
    },
  ],
  [
    "anonymized.status",
    (api) => api.anonymized.status(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/anonymized_status",
      route: "GET /projects/{project_id}/branches/{branch_id}/anonymized_status",
      failed: "Failed to read the status of anonymized branch br?1 of project p/1",
    },
  ],
  [
    "anonymized.waitForRun",
    (api) => api.anonymized.waitForRun(P, B),
    {
      method: "GET",
      url: "/projects/p%2F1/branches/br%3F1/anonymized_status",
      route: "GET /projects/{project_id}/branches/{branch_id}/anonymized_status",
      failed: "Failed to read the status of anonymized branch br?1 of project p/1",
    },
  ],
  [
    "anonymized.start",
    (api) => api.anonymized.start(P, B),
    {
      method: "POST",
      url: "/projects/p%2F1/branches/br%3F1/anonymize",
      route: "POST /projects/{project_id}/branches/{branch_id}/anonymize",
      failed: "Failed to start the anonymization of anonymized branch br?1 of project p/1",
    },
  ],
  [
    "organizations.get",
    (api) => api.organizations.get(ORG),
    {
      method: "GET",
      url: "/organizations/org%2F1",
      route: "GET /organizations/{org_id}",
      failed: "Failed to read organization org/1",
    },
  ],
  [
    "organizations.regions",
    (api) => api.organizations.regions(ORG),
    {
      method: "GET",
      url: "/regions?org_id=org%2F1",
      route: "GET /regions",
      failed: "Failed to list the regions",
    },
  ],
  [
    "organizations.vpcEndpoints",
    (api) => api.organizations.vpcEndpoints(ORG),
    {
      method: "GET",
      url: "/organizations/org%2F1/vpc/vpc_endpoints",
      route: "GET /organizations/{org_id}/vpc/vpc_endpoints",
      failed: "Failed to list the VPC endpoints of organization org/1",
    },
  ],
  [
    "organizations.vpcEndpoint",
    (api) => api.organizations.vpcEndpoint(VPCE),
    {
      method: "GET",
      url: "/organizations/org%2F1/vpc/region/aws-us-east-2/vpc_endpoints/vpce%2F1",
      route: "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
      failed: "Failed to read VPC endpoint vpce/1 of organization org/1 in region aws-us-east-2",
    },
  ],
  [
    "organizations.assignVpcEndpoint",
    (api) => api.organizations.assignVpcEndpoint(VPCE, "app"),
    {
      method: "POST",
      url: "/organizations/org%2F1/vpc/region/aws-us-east-2/vpc_endpoints/vpce%2F1",
      route: "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
      failed: "Failed to assign VPC endpoint vpce/1 of organization org/1 in region aws-us-east-2",
      body: { label: "app" },
    },
  ],
  [
    "organizations.deleteVpcEndpoint",
    (api) => api.organizations.deleteVpcEndpoint(VPCE),
    {
      method: "DELETE",
      url: "/organizations/org%2F1/vpc/region/aws-us-east-2/vpc_endpoints/vpce%2F1",
      route: "DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
      failed: "Failed to delete VPC endpoint vpce/1 of organization org/1 in region aws-us-east-2",
    },
  ],
  [
    "organizations.projectVpcEndpoints",
    (api) => api.organizations.projectVpcEndpoints(P),
    {
      method: "GET",
      url: "/projects/p%2F1/vpc_endpoints",
      route: "GET /projects/{project_id}/vpc_endpoints",
      failed: "Failed to list the VPC endpoint restrictions of project p/1",
    },
  ],
  [
    "organizations.restrictProject",
    (api) => api.organizations.restrictProject(P, "vpce/1", "app"),
    {
      method: "POST",
      url: "/projects/p%2F1/vpc_endpoints/vpce%2F1",
      route: "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}",
      failed: "Failed to set the restriction of project p/1 to VPC endpoint vpce/1",
      body: { label: "app" },
    },
  ],
  [
    "organizations.unrestrictProject",
    (api) => api.organizations.unrestrictProject(P, "vpce/1"),
    {
      method: "DELETE",
      url: "/projects/p%2F1/vpc_endpoints/vpce%2F1",
      route: "DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}",
      failed: "Failed to delete the restriction of project p/1 to VPC endpoint vpce/1",
    },
  ],
  [
    "organizations.spendingLimit",
    (api) => api.organizations.spendingLimit(ORG),
    {
      method: "GET",
      url: "/organizations/org%2F1/billing/spending_limit",
      route: "GET /organizations/{org_id}/billing/spending_limit",
      failed: "Failed to read the spending limit of organization org/1",
    },
  ],
  [
    "organizations.setSpendingLimit",
    (api) => api.organizations.setSpendingLimit(ORG, 5000),
    {
      method: "PUT",
      url: "/organizations/org%2F1/billing/spending_limit",
      route: "PUT /organizations/{org_id}/billing/spending_limit",
      failed: "Failed to set the spending limit of organization org/1",
      body: { spending_limit_cents: 5000 },
    },
  ],
  [
    "organizations.removeSpendingLimit",
    (api) => api.organizations.removeSpendingLimit(ORG),
    {
      method: "DELETE",
      url: "/organizations/org%2F1/billing/spending_limit",
      route: "DELETE /organizations/{org_id}/billing/spending_limit",
      failed: "Failed to remove the spending limit of organization org/1",
    },
  ],
  [
    "jwks.list",
    (api) => api.jwks.list(P),
    {
      method: "GET",
      url: "/projects/p%2F1/jwks",
      route: "GET /projects/{project_id}/jwks",
      failed: "Failed to list the JWKS of project p/1",
    },
  ],
  [
    "jwks.add",
    (api) =>
      api.jwks.add(P, {
        jwks_url: "https://auth.example.com/.well-known/jwks.json",
        provider_name: "Clerk",
        branch_id: "br-1",
        role_names: ["app"],
        skip_role_creation: true,
      }),
    {
      method: "POST",
      url: "/projects/p%2F1/jwks",
      route: "POST /projects/{project_id}/jwks",
      failed: "Failed to add a JWKS to project p/1",
      body: {
        jwks_url: "https://auth.example.com/.well-known/jwks.json",
        provider_name: "Clerk",
        branch_id: "br-1",
        role_names: ["app"],
        skip_role_creation: true,
      },
    },
  ],
  [
    "jwks.delete",
    (api) => api.jwks.delete(P, "j/1"),
    {
      method: "DELETE",
      url: "/projects/p%2F1/jwks/j%2F1",
      route: "DELETE /projects/{project_id}/jwks/{jwks_id}",
      failed: "Failed to delete JWKS j/1 of project p/1",
    },
  ],
];

/** A client on a scripted transport; `fail` is the error code of every attempt, else HTTP 503. */
function setup(fail?: string) {
  const clock = new FakeClock();
  const seen: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    if (fail) throw new AxiosError(`${fail} on ${config.url}`, fail, config, {});
    return { data: "", status: 503, statusText: "Service Unavailable", headers: {}, config, request: {} };
  };
  const retries: RetryInfo[] = [];
  const http = httpOver(adapter, clock, {
    onRetry: (i) => retries.push(i),
    retryLimits: { unavailable: 2, network: 2 },
  });
  return { api: buildClient(http), clock, seen, retries };
}

async function failure(p: Promise<unknown>, clock: FakeClock): Promise<ApiError> {
  try {
    await clock.run(p);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error("expected a failure");
}

describe.each(cases)("%s", (_name, call, want) => {
  test("sends its method, URL and body; reports its route and names itself in errors", async () => {
    const { api, clock, seen, retries } = setup();
    const err = await failure(call(api), clock);

    expect(seen).toHaveLength(2);
    for (const c of seen) {
      expect(c.method?.toUpperCase()).toBe(want.method);
      expect(axios.getUri(c)).toBe(`http://api.test/api/v2${want.url}`);
      expect(c.data === undefined ? undefined : JSON.parse(String(c.data))).toEqual(want.body);
    }
    const path = want.url.split("?")[0];
    expect(retries).toEqual([
      expect.objectContaining({ method: want.method, path, route: want.route, reason: "unavailable" }),
    ]);
    expect(err.method).toBe(want.method);
    expect(err.path).toBe(path);
    expect(err.route).toBe(want.route);
    expect(err.status).toBe(503);
    expect(err.message.startsWith(`${want.failed}: `)).toBe(true);
  });

  test("a request cut off mid-flight is sent again only when repeating it is harmless", async () => {
    const { api, clock, seen } = setup("ECONNRESET");
    const err = await failure(call(api), clock);
    // A PUT sets the whole thing it names: sending it twice leaves what sending it once does.
    const idempotent = ["GET", "DELETE", "PUT"].includes(want.method);
    expect(seen).toHaveLength(idempotent ? 2 : 1);
    expect(err.kind).toBe("network");
    expect(err.mayHaveReachedServer).toBe(want.method !== "GET");
  });
});

test("every call of the client is pinned above", () => {
  const { api } = setup();
  const named = Object.entries(api).flatMap(([area, calls]) =>
    typeof calls === "object" ? Object.keys(calls).map((c) => `${area}.${c}`) : [],
  );
  const pinned = new Set(cases.map(([name]) => name.split(",")[0]));
  expect(named.filter((n) => !pinned.has(n))).toEqual([]);
});

// The checks here are the compiler's (`npm run typecheck`): each `@ts-expect-error` fails the build
// when the body types stop refusing what the API refuses.
test("the endpoint body types take what the API takes, and refuse the rest", () => {
  const create: EndpointCreateBody = {
    branch_id: "br-1",
    type: "read_write",
    region_id: "aws-us-east-2",
    settings: { pg_settings: { work_mem: "4MB" } },
    autoscaling_limit_min_cu: 0.25,
    autoscaling_limit_max_cu: 2,
    suspend_timeout_seconds: 0,
    name: "n",
  };
  const update: EndpointUpdateBody = { branch_id: "br-2", autoscaling_limit_max_cu: 4, disabled: true };
  // @ts-expect-error: a create names its branch
  const noBranch: EndpointCreateBody = { type: "read_write" };
  // @ts-expect-error: a compute's type is fixed at creation
  const retype: EndpointUpdateBody = { type: "read_only" };
  // @ts-expect-error: so is its region
  const move: EndpointUpdateBody = { region_id: "aws-eu-central-1" };
  // @ts-expect-error: seconds are a number
  const text: EndpointUpdateBody = { suspend_timeout_seconds: "300" };
  // @ts-expect-error: pg_settings values are strings in the API
  const numbers: EndpointUpdateBody = { settings: { pg_settings: { max_connections: 100 } } };
  expect([create, update, noBranch, retype, move, text, numbers]).toHaveLength(7);
});

test("the project access list leaves out revoked grants (one schema for both: `revoked_at`)", async () => {
  const clock = new FakeClock();
  const granted = { id: "g-1", granted_to_email: "dev@example.com", granted_at: "2026-11-01T00:00:00Z" };
  const revoked = { ...granted, id: "g-0", revoked_at: "2026-11-02T00:00:00Z" };
  const adapter: AxiosAdapter = async (config) => ({
    data: { project_permissions: [revoked, granted] },
    status: 200,
    statusText: "OK",
    headers: {},
    config,
    request: {},
  });
  expect(await clock.run(buildClient(httpOver(adapter, clock)).permissions.list("p-1"))).toEqual([granted]);
});

test("a page of operations read for any reason times the client's next wait (no page of history read again)", async () => {
  const clock = new FakeClock();
  const T = Date.parse("2026-11-26T10:00:00Z");
  clock.t = T;
  const iso = (ms: number) => new Date(T + ms).toISOString();
  const finished = (id: string, from: number) => ({
    id,
    project_id: "p-1",
    action: "apply_config",
    status: "finished",
    failures_count: 0,
    created_at: iso(from),
    updated_at: iso(from + 3_000),
    total_duration_ms: 3_000,
  });
  const history = [finished("h3", -9_000), finished("h2", -12_000), finished("h1", -15_000)];
  const mine = (status: string) => ({ ...finished("op-1", 0), status, updated_at: iso(0) });
  const seen: string[] = [];
  const adapter: AxiosAdapter = async (config) => {
    seen.push(`${clock.now() - T} ${config.url} limit=${(config.params as { limit?: number })?.limit}`);
    const ops = [clock.now() - T >= 3_000 ? finished("op-1", 0) : mine("running"), ...history];
    return { data: { operations: ops }, status: 200, statusText: "OK", headers: {}, config, request: {} };
  };
  const api = buildClient(httpOver(adapter, clock, { random: () => 0 }));
  // What a 423's reading does: one page of the project's operations.
  await clock.run(api.operations.listPage("p-1", { limit: 20 }));
  await clock.run(api.waitForOperations("p-1", [{ id: "op-1", action: "apply_config", status: "running" }]));
  // The wait's one poll comes at the operation's expected end and asks for a short page.
  expect(seen).toHaveLength(2);
  expect(seen[1]).toMatch(/^3\d{3} .*limit=20/);
});
