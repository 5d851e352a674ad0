/**
 * The Neon Auth calls of the client (`NeonAuthCalls`, tag `Auth` of Neon's document): a branch's
 * integration (enable, read, disable), its trusted domains, its OAuth providers, its email-and-password
 * sign-in and its localhost setting. None starts an operation: nothing to wait for. An OAuth provider's
 * `client_secret` goes out in a request body only; no answer the provider reads carries it back.
 */
import { z } from "zod";
import { route } from "../http";
import type { Call } from "./call";

/** `NeonAuthIntegration`: a branch's Neon Auth as `GET …/auth` answers it. */
export const NeonAuthIntegrationSchema = z.object({
  auth_provider: z.string(),
  auth_provider_project_id: z.string(),
  branch_id: z.string(),
  db_name: z.string(),
  created_at: z.string(),
  owned_by: z.string(),
  jwks_url: z.string(),
  base_url: z.string().optional(),
  name: z.string().optional(),
});
export type NeonAuthIntegration = z.infer<typeof NeonAuthIntegrationSchema>;

/** `NeonAuthCreateIntegrationResponse`: the enable's answer, the only one carrying the keys. */
export const NeonAuthCreatedSchema = z.object({
  auth_provider: z.string(),
  auth_provider_project_id: z.string(),
  pub_client_key: z.string(),
  secret_server_key: z.string(),
  jwks_url: z.string(),
  schema_name: z.string(),
  table_name: z.string(),
  base_url: z.string().optional(),
});
export type NeonAuthCreated = z.infer<typeof NeonAuthCreatedSchema>;

/** `NeonAuthOauthProvider` as a list answers it (the secret, when the service sends it, is not kept). */
export const NeonAuthOauthProviderSchema = z.object({
  id: z.string(),
  type: z.string(),
  client_id: z.string().optional(),
});
export type NeonAuthOauthProvider = z.infer<typeof NeonAuthOauthProviderSchema>;

/** What adding or changing an OAuth provider sends (`NeonAuthAddOAuthProviderRequest`). */
export interface NeonAuthOauthProviderBody {
  client_id?: string;
  client_secret?: string;
}

const DomainsSchema = z.object({
  domains: z.array(z.object({ domain: z.string(), auth_provider: z.string() })),
});
const ProvidersSchema = z.object({ providers: z.array(NeonAuthOauthProviderSchema) });
const EmailAndPasswordSchema = z.object({ enabled: z.boolean() }).loose();
const AllowLocalhostSchema = z.object({ allow_localhost: z.boolean() });
const Empty = z.unknown();

/** The Neon Auth calls of the client. */
export interface NeonAuthCalls {
  /** The branch's integration; 404 when the branch has none (or is not there). */
  get(projectId: string, branchId: string): Promise<NeonAuthIntegration>;
  /** Enables Neon Auth on the branch, over `databaseName` (the service's choice without it). */
  enable(
    projectId: string,
    branchId: string,
    authProvider: string,
    databaseName?: string,
  ): Promise<NeonAuthCreated>;
  /** Disables it; `deleteData` also drops the `neon_auth` schema from the database. */
  disable(projectId: string, branchId: string, deleteData: boolean): Promise<void>;
  /** The trusted domains (the redirect URI whitelist). */
  domains(projectId: string, branchId: string): Promise<string[]>;
  addDomain(projectId: string, branchId: string, authProvider: string, domain: string): Promise<void>;
  removeDomains(projectId: string, branchId: string, authProvider: string, domains: string[]): Promise<void>;
  /** The OAuth providers (ids and client ids; never their secrets). */
  oauthProviders(projectId: string, branchId: string): Promise<NeonAuthOauthProvider[]>;
  addOauthProvider(
    projectId: string,
    branchId: string,
    id: string,
    body: NeonAuthOauthProviderBody,
  ): Promise<NeonAuthOauthProvider>;
  updateOauthProvider(
    projectId: string,
    branchId: string,
    id: string,
    body: NeonAuthOauthProviderBody,
  ): Promise<NeonAuthOauthProvider>;
  removeOauthProvider(projectId: string, branchId: string, id: string): Promise<void>;
  /** Whether email-and-password sign-in is enabled. */
  emailAndPassword(projectId: string, branchId: string): Promise<boolean>;
  setEmailAndPassword(projectId: string, branchId: string, enabled: boolean): Promise<boolean>;
  allowLocalhost(projectId: string, branchId: string): Promise<boolean>;
  setAllowLocalhost(projectId: string, branchId: string, allow: boolean): Promise<boolean>;
}

export function neonAuthCalls(call: Call): NeonAuthCalls {
  const at = (p: string, b: string) => ({ project_id: p, branch_id: b });
  const of = (b: string, p: string) => `the Neon Auth of branch ${b} in project ${p}`;
  return {
    get: (p, b) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/auth", at(p, b)),
        "read",
        of(b, p),
        NeonAuthIntegrationSchema,
      ),
    enable: (p, b, authProvider, databaseName) =>
      call(
        route("POST /projects/{project_id}/branches/{branch_id}/auth", at(p, b)),
        "enable",
        of(b, p),
        NeonAuthCreatedSchema,
        {
          body: {
            auth_provider: authProvider,
            ...(databaseName !== undefined ? { database_name: databaseName } : {}),
          },
        },
      ),
    disable: async (p, b, deleteData) => {
      await call(
        route("DELETE /projects/{project_id}/branches/{branch_id}/auth", at(p, b)),
        "disable",
        of(b, p),
        Empty,
        {
          body: { delete_data: deleteData },
        },
      );
    },
    domains: (p, b) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/auth/domains", at(p, b)),
        "list",
        `the trusted domains of ${of(b, p)}`,
        DomainsSchema,
        { map: (v) => v.domains.map((d) => d.domain) },
      ),
    addDomain: async (p, b, authProvider, domain) => {
      await call(
        route("POST /projects/{project_id}/branches/{branch_id}/auth/domains", at(p, b)),
        "add",
        `a trusted domain to ${of(b, p)}`,
        Empty,
        { body: { domain, auth_provider: authProvider } },
      );
    },
    removeDomains: async (p, b, authProvider, domains) => {
      await call(
        route("DELETE /projects/{project_id}/branches/{branch_id}/auth/domains", at(p, b)),
        "remove",
        `trusted domains of ${of(b, p)}`,
        Empty,
        { body: { auth_provider: authProvider, domains: domains.map((domain) => ({ domain })) } },
      );
    },
    oauthProviders: (p, b) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/auth/oauth_providers", at(p, b)),
        "list",
        `the OAuth providers of ${of(b, p)}`,
        ProvidersSchema,
        { map: (v) => v.providers.map((x) => NeonAuthOauthProviderSchema.parse(x)) },
      ),
    addOauthProvider: (p, b, id, body) =>
      call(
        route("POST /projects/{project_id}/branches/{branch_id}/auth/oauth_providers", at(p, b)),
        "add",
        `OAuth provider ${id} to ${of(b, p)}`,
        NeonAuthOauthProviderSchema,
        { body: { id, ...body } },
      ),
    updateOauthProvider: (p, b, id, body) =>
      call(
        route("PATCH /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}", {
          ...at(p, b),
          oauth_provider_id: id,
        }),
        "update",
        `OAuth provider ${id} of ${of(b, p)}`,
        NeonAuthOauthProviderSchema,
        { body },
      ),
    removeOauthProvider: async (p, b, id) => {
      await call(
        route("DELETE /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}", {
          ...at(p, b),
          oauth_provider_id: id,
        }),
        "remove",
        `OAuth provider ${id} of ${of(b, p)}`,
        Empty,
      );
    },
    emailAndPassword: (p, b) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/auth/email_and_password", at(p, b)),
        "read",
        `the email and password sign-in of ${of(b, p)}`,
        EmailAndPasswordSchema,
        { map: (v) => v.enabled },
      ),
    setEmailAndPassword: (p, b, enabled) =>
      call(
        route("PATCH /projects/{project_id}/branches/{branch_id}/auth/email_and_password", at(p, b)),
        "update",
        `the email and password sign-in of ${of(b, p)}`,
        EmailAndPasswordSchema,
        { body: { enabled }, map: (v) => v.enabled },
      ),
    allowLocalhost: (p, b) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/auth/allow_localhost", at(p, b)),
        "read",
        `the localhost setting of ${of(b, p)}`,
        AllowLocalhostSchema,
        { map: (v) => v.allow_localhost },
      ),
    setAllowLocalhost: (p, b, allow) =>
      call(
        route("PATCH /projects/{project_id}/branches/{branch_id}/auth/allow_localhost", at(p, b)),
        "update",
        `the localhost setting of ${of(b, p)}`,
        AllowLocalhostSchema,
        { body: { allow_localhost: allow }, map: (v) => v.allow_localhost },
      ),
  };
}
