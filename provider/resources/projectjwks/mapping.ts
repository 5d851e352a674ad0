/**
 * `ProjectJwks`'s mapping to and from the API: its resource id (`<projectId>/<jwksId>`, as `importId`
 * writes it), the add's body, what makes a JWKS the declared one, and the outputs. Pure.
 */
import type { Jwks, JwksAddBody } from "../../api";
import { splitProjectScoped, stateOf, type Bag } from "../kit";
import { PROJECT_JWKS_DEFINITION } from "./definition";
import type { ProjectJwksInputs } from "./types";

/** Where a JWKS is: its project and its id. */
export interface JwksRef {
  projectId: string;
  jwksId: string;
}

/** The roles a JWKS applies to when its add names none (Neon's document). */
export const DEFAULT_ROLE_NAMES = ["authenticator", "authenticated", "anonymous"] as const;

/** The resource id of a JWKS: `"<projectId>/<jwksId>"`. */
export const resourceId = (r: JwksRef): string => `${r.projectId}/${r.jwksId}`;

/** Splits a resource id (or an `importId`); throws naming the remedy for any other shape. */
export function parseJwksRef(id: string): JwksRef {
  const [projectId, jwksId] = splitProjectScoped(id, "JWKS", "jwksId");
  return { projectId, jwksId };
}

/** `JWKS 6f1c… (Clerk, https://…) of branch br-…`. */
export function describeJwks(j: {
  id?: string;
  provider_name?: string;
  jwks_url?: string;
  branch_id?: string;
}) {
  const what = [j.provider_name, j.jwks_url].filter((x) => x !== undefined).join(", ");
  return (
    `JWKS${j.id ? ` ${j.id}` : ""}${what ? ` (${what})` : ""}` +
    (j.branch_id ? ` of branch ${j.branch_id}` : " of every branch")
  );
}

/**
 * The add's body. Declared roles are the branch's own (checked at preview): the service is asked not
 * to create them, so that none appears outside the stack.
 */
export function addBody(i: ProjectJwksInputs): JwksAddBody {
  return {
    jwks_url: i.jwksUrl,
    provider_name: i.providerName,
    branch_id: i.branchId,
    jwt_audience: i.jwtAudience,
    ...(i.roleNames !== undefined ? { role_names: [...i.roleNames], skip_role_creation: true } : {}),
  };
}

/** True when `j` has the URL and scope of the declared JWKS: the mark another JWKS would collide on. */
export const isAt = (j: Jwks, i: Pick<ProjectJwksInputs, "jwksUrl" | "branchId">): boolean =>
  j.jwks_url === i.jwksUrl && (j.branch_id ?? undefined) === (i.branchId ?? undefined);

/** True when `j` is the declared JWKS as an add of these inputs makes it (a lost answer's is found by it). */
export const isDeclared = (j: Jwks, i: Pick<ProjectJwksInputs, "jwksUrl" | "branchId" | "providerName">) =>
  isAt(j, i) && j.provider_name === i.providerName;

/** The roles as the outputs hold them: the service's, unless they are its default (left out). */
export function roleNamesOf(j: Jwks): string[] | undefined {
  const r = j.role_names;
  if (r === undefined || r.length === 0) return undefined;
  const isDefault = r.length === DEFAULT_ROLE_NAMES.length && DEFAULT_ROLE_NAMES.every((d) => r.includes(d));
  return isDefault ? undefined : [...r];
}

/** The outputs: the inputs as given (for the next diff) and the JWKS as the service reports it. */
export function toOutputs(inputs: Bag, projectId: string, j: Jwks): Bag {
  return stateOf(PROJECT_JWKS_DEFINITION, inputs, {
    ...inputs,
    projectId,
    branchId: j.branch_id,
    providerName: j.provider_name,
    jwksUrl: j.jwks_url,
    // As declared: the service's default roles are not declared, and a list in another order is the same.
    roleNames: Array.isArray(inputs.roleNames) ? inputs.roleNames : roleNamesOf(j),
    jwtAudience: j.jwt_audience || undefined,
    jwksId: j.id,
    createdAt: j.created_at,
  });
}
