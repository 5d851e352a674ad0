/** The API key calls of the client (`ApiKeyCalls`): personal and organization keys. */
import { route } from "../http";
import type { Call } from "./call";
import {
  ApiKeyCreatedSchema,
  ApiKeyListSchema,
  ApiKeyRevokedSchema,
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeyRevoked,
} from "./schemas";

/** The API key calls of the client. */
export interface ApiKeyCalls {
  list(): Promise<ApiKey[]>;
  create(name: string): Promise<ApiKeyCreated>;
  revoke(keyId: number): Promise<ApiKeyRevoked>;
  listOrg(orgId: string): Promise<ApiKey[]>;
  createOrg(orgId: string, name: string, projectId?: string): Promise<ApiKeyCreated>;
  revokeOrg(orgId: string, keyId: number): Promise<ApiKeyRevoked>;
}

export function apiKeyCalls(call: Call): ApiKeyCalls {
  return {
    list: () => call(route("GET /api_keys"), "list", "API keys", ApiKeyListSchema),
    create: (name) =>
      call(route("POST /api_keys"), "create", `API key "${name}"`, ApiKeyCreatedSchema, {
        body: { key_name: name },
      }),
    revoke: (id) =>
      call(
        route("DELETE /api_keys/{key_id}", { key_id: id }),
        "revoke",
        `API key ${id}`,
        ApiKeyRevokedSchema,
      ),
    listOrg: (org) =>
      call(
        route("GET /organizations/{org_id}/api_keys", { org_id: org }),
        "list",
        `the API keys of organization ${org}`,
        ApiKeyListSchema,
      ),
    createOrg: (org, name, projectId) =>
      call(
        route("POST /organizations/{org_id}/api_keys", { org_id: org }),
        "create",
        `API key "${name}" of organization ${org}`,
        ApiKeyCreatedSchema,
        { body: projectId ? { key_name: name, project_id: projectId } : { key_name: name } },
      ),
    revokeOrg: (org, id) =>
      call(
        route("DELETE /organizations/{org_id}/api_keys/{key_id}", { org_id: org, key_id: id }),
        "revoke",
        `API key ${id} of organization ${org}`,
        ApiKeyRevokedSchema,
      ),
  };
}
