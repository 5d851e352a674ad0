/**
 * `NeonAuth`'s mapping to and from the API: its resource id (`<projectId>/<branchId>`, as `importId`
 * writes it), what the service holds of it, and its outputs. Pure.
 */
import type { NeonAuthIntegration, NeonAuthOauthProvider } from "../../api";
import { splitProjectScoped, stateOf, type Bag } from "../kit";
import { NEON_AUTH_DEFINITION } from "./definition";
import { canonicalProvider } from "./inputs";
import type { NeonAuthOauthProviderInputs } from "./types";

/** Where a Neon Auth is: the branch it serves. */
export interface AuthRef {
  projectId: string;
  branchId: string;
}

/** The resource id: `"<projectId>/<branchId>"`. */
export const resourceId = (r: AuthRef): string => `${r.projectId}/${r.branchId}`;

/** Splits a resource id (or an `importId`); throws naming the remedy for any other shape. */
export function parseAuthRef(id: string): AuthRef {
  const [projectId, branchId] = splitProjectScoped(id, "Neon Auth", "branchId");
  return { projectId, branchId };
}

/** `the Neon Auth of branch br-… in project p`. */
export const describeAuth = (r: AuthRef): string =>
  `the Neon Auth of branch ${r.branchId} in project ${r.projectId}`;

/** The branch's Neon Auth as read: the integration and the settings the program manages. */
export interface AuthRead {
  integration: NeonAuthIntegration;
  emailAndPassword?: boolean;
  allowLocalhost?: boolean;
  domains?: string[];
  providers?: NeonAuthOauthProvider[];
  /** The keys, answered by the enable only. */
  keys?: { publishableClientKey: string; secretServerKey: string };
}

/**
 * The providers as the service holds them, each with the secret the inputs gave it (the service never
 * answers one) while its client id is the one given.
 */
export function providersAsRead(
  providers: readonly NeonAuthOauthProvider[],
  given: readonly NeonAuthOauthProviderInputs[] | undefined,
): NeonAuthOauthProviderInputs[] {
  const sorted = [...providers].sort((a, b) => (a.id < b.id ? -1 : 1));
  return sorted.map((p) => {
    const mine = given?.find((g) => g.id === p.id);
    const secret = mine && mine.clientId === p.client_id ? mine.clientSecret : undefined;
    return canonicalProvider({
      id: p.id as NeonAuthOauthProviderInputs["id"],
      clientId: p.client_id,
      clientSecret: secret,
    });
  });
}

/** The outputs: the inputs as given (for the next diff) and Neon Auth as the service holds it. */
export function toOutputs(inputs: Bag, ref: AuthRef, read: AuthRead, old: Bag = {}): Bag {
  const a = read.integration;
  return stateOf(NEON_AUTH_DEFINITION, inputs, {
    ...inputs,
    projectId: ref.projectId,
    branchId: ref.branchId,
    databaseName: a.db_name,
    authProvider: a.auth_provider,
    emailAndPassword: read.emailAndPassword,
    allowLocalhost: read.allowLocalhost,
    trustedDomains: read.domains ? [...read.domains].sort() : undefined,
    oauthProviders: read.providers
      ? providersAsRead(read.providers, inputs.oauthProviders as NeonAuthOauthProviderInputs[] | undefined)
      : undefined,
    baseUrl: a.base_url,
    jwksUrl: a.jwks_url,
    authProviderProjectId: a.auth_provider_project_id,
    publishableClientKey: read.keys?.publishableClientKey ?? old.publishableClientKey,
    secretServerKey: read.keys?.secretServerKey ?? old.secretServerKey,
    createdAt: a.created_at,
  });
}
