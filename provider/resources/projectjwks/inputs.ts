/**
 * Inputs of the `ProjectJwks` resource and `check`'s pure part: validation at `pulumi preview`. Pure.
 */
import { z } from "zod";
import { checkAgainst, displayName, inputsChecked, inputSchema, type InputsCheck } from "../check";
import { UNKNOWN, type Bag } from "../definition";
import { apiId, branchIdRule, pgName } from "../branch-objects/objects";
import { PROJECT_JWKS_DEFINITION } from "./definition";
import type { ProjectJwksInputs } from "./types";

/** The most roles a JWKS applies to (`AddProjectJWKSRequest.role_names`, `maxItems`). */
export const MAX_ROLE_NAMES = 10;

/** The longest provider name the provider sends (the document sets none). */
export const MAX_PROVIDER_NAME = 256;

/** `"<projectId>/<jwksId>"`. */
export const IMPORT_ID_PATTERN = /^([a-z0-9-]{1,60})\/([^/\s]+)$/;

/** Why `url` is no URL the service takes (it must be HTTPS: the document), or `undefined`. */
export function jwksUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return 'must be a URL such as "https://example.com/.well-known/jwks.json"';
  const u = new URL(url);
  if (u.protocol !== "https:")
    return `must be an https:// URL (the service fetches keys over HTTPS only), not ${u.protocol}//`;
  if (u.username !== "" || u.password !== "") return "must not carry a user name or password";
  return undefined;
}

const inputsSchema = inputSchema(PROJECT_JWKS_DEFINITION, {
  projectId: apiId("a project id (1–60 lower-case letters, digits and dashes)"),
  branchId: branchIdRule('must be a branch id ("br-…")'),
  providerName: displayName(MAX_PROVIDER_NAME),
  jwksUrl: z.string({ error: "must be a string" }).superRefine((url, ctx) => {
    const problem = jwksUrlProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  roleNames: z
    .array(pgName("role"), { error: "must be a list of role names" })
    .min(1, { error: "must name at least one role, or be left out for the service's default roles" })
    .max(MAX_ROLE_NAMES, { error: `must name at most ${MAX_ROLE_NAMES} roles (the service's limit)` }),
  jwtAudience: displayName(MAX_PROVIDER_NAME),
  importId: z.string({ error: "must be a string" }).regex(IMPORT_ID_PATTERN, {
    error: 'must name an existing JWKS as "<projectId>/<jwksId>"',
  }),
});

/** Validates raw inputs; values not known yet (preview) are neither validated nor altered. */
export function checkInputs(news: Bag): InputsCheck<ProjectJwksInputs> {
  const checked = checkAgainst(PROJECT_JWKS_DEFINITION, inputsSchema, news);
  const { failures } = checked;
  const inputs: Bag = { ...news };
  if (!checked.parsed) return inputsChecked(inputs, failures);
  const v = checked.value as Partial<ProjectJwksInputs>;
  const roles = (Array.isArray(v.roleNames) ? v.roleNames : []).filter((r) => r !== UNKNOWN);
  const twice = roles.find((r, i) => roles.indexOf(r) !== i);
  if (twice !== undefined) {
    failures.push({ property: "roleNames", reason: `roleNames names "${twice}" twice; name each role once` });
  }
  if (v.roleNames !== undefined && news.branchId === undefined) {
    failures.push({
      property: "roleNames",
      reason:
        "roleNames needs branchId: the roles are a branch's, and the provider checks that the branch has them; " +
        "set branchId, or leave roleNames out for the service's default roles",
    });
  }
  const imported = v.importId !== undefined ? IMPORT_ID_PATTERN.exec(v.importId) : null;
  if (imported && v.projectId !== undefined && imported[1] !== v.projectId) {
    failures.push({
      property: "importId",
      reason:
        `importId names a JWKS of project ${imported[1]} but projectId is ${v.projectId}; make them the same, ` +
        "or remove importId to add a new JWKS",
    });
  }
  return inputsChecked(inputs, failures);
}
