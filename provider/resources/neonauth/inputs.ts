/**
 * Inputs of the `NeonAuth` resource and `check`'s pure part: validation at `pulumi preview`. Pure.
 * No reason here quotes a value of `oauthProviders`: the list holds the clients' secrets.
 */
import { z } from "zod";
import { checkAgainst, inputsChecked, inputSchema, isUnknown, type InputsCheck } from "../check";
import type { Bag } from "../kit";
import { apiId, branchIdRule, pgName } from "../branch-objects/objects";
import { NEON_AUTH_DEFINITION, OAUTH_PROVIDER_IDS } from "./definition";
import type { NeonAuthInputs, NeonAuthOauthProviderInputs } from "./types";

/** `"<projectId>/<branchId>"`. */
export const IMPORT_ID_PATTERN = /^([a-z0-9-]{1,60})\/(br-[a-z0-9-]{1,60})$/;

/** An http(s) URL, as the service's trusted domains and JWKS URLs are. */
export const isWebUrl = (v: string): boolean => {
  if (!URL.canParse(v)) return false;
  const u = new URL(v);
  return (u.protocol === "https:" || u.protocol === "http:") && u.hostname !== "";
};

const PROVIDER_FIELDS = ["id", "clientId", "clientSecret"];

const providerSchema = z
  .looseObject(
    {
      id: z.enum(OAUTH_PROVIDER_IDS, { error: `must be one of ${OAUTH_PROVIDER_IDS.join(", ")}` }),
      clientId: z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }).optional(),
      clientSecret: z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }).optional(),
    },
    { error: "each provider must be an object: { id, clientId?, clientSecret? }" },
  )
  .superRefine((p, ctx) => {
    for (const k of Object.keys(p).filter((key) => !PROVIDER_FIELDS.includes(key))) {
      ctx.addIssue({
        code: "custom",
        message: `has no field ${k} (a provider's fields are ${PROVIDER_FIELDS.join(", ")})`,
      });
    }
    if (p.clientSecret !== undefined && p.clientId === undefined) {
      ctx.addIssue({
        code: "custom",
        message: `${String(p.id)}: clientSecret needs clientId (without both, Neon's shared credentials are used)`,
      });
    }
  });

const inputsSchema = inputSchema(NEON_AUTH_DEFINITION, {
  projectId: apiId("a project id (1–60 lower-case letters, digits and dashes)"),
  branchId: branchIdRule('is required: the id of the branch Neon Auth serves ("br-…")'),
  databaseName: pgName("database"),
  trustedDomains: z
    .array(
      z.string({ error: "each domain must be a string" }).refine(isWebUrl, {
        error: 'each domain must be a URL such as "https://app.example.com"',
      }),
      { error: 'must be a list of URLs, e.g. ["https://app.example.com"]' },
    )
    .refine((l) => new Set(l).size === l.length, { error: "must not name a domain twice" }),
  oauthProviders: z
    .array(providerSchema, { error: 'must be a list of providers, e.g. [{ id: "github" }]' })
    .refine((l) => new Set(l.map((p) => p.id)).size === l.length, {
      error: "must not name a provider twice (one entry per id)",
    }),
  importId: z.string({ error: "must be a string" }).regex(IMPORT_ID_PATTERN, {
    error: 'must name the branch whose Neon Auth to manage, as "<projectId>/<branchId>"',
  }),
});

/** A provider with its keys in one order, so that a diff does not depend on the program's. */
export function canonicalProvider(p: NeonAuthOauthProviderInputs): NeonAuthOauthProviderInputs {
  return {
    id: p.id,
    ...(p.clientId !== undefined ? { clientId: p.clientId } : {}),
    ...(p.clientSecret !== undefined ? { clientSecret: p.clientSecret } : {}),
  };
}

/**
 * Validates raw inputs; writes the providers' keys in one order and the domains sorted. Values not
 * known yet (preview) are neither validated nor altered.
 */
export function checkInputs(news: Bag): InputsCheck<NeonAuthInputs> {
  const checked = checkAgainst(NEON_AUTH_DEFINITION, inputsSchema, news);
  const { failures } = checked;
  const inputs: Bag = { ...news };
  if (!checked.parsed) return inputsChecked(inputs, failures);
  const v = checked.value as Partial<NeonAuthInputs>;
  // In one order (by id) whatever the program's or the service's: a diff compares them as lists. A
  // provider not known yet (preview) stays as it is, last.
  if (v.oauthProviders !== undefined) {
    const idOf = (p: NeonAuthOauthProviderInputs) => (isUnknown(p) ? "\uffff" : p.id);
    inputs.oauthProviders = v.oauthProviders
      .map((p) => (isUnknown(p) ? p : canonicalProvider(p)))
      .sort((a, b) => (idOf(a) < idOf(b) ? -1 : 1));
  }
  if (v.trustedDomains !== undefined) inputs.trustedDomains = [...v.trustedDomains].sort();
  if (
    typeof v.importId === "string" &&
    typeof v.projectId === "string" &&
    typeof v.branchId === "string" &&
    v.importId !== `${v.projectId}/${v.branchId}`
  ) {
    failures.push({
      property: "importId",
      reason:
        `importId ${v.importId} names another branch than this resource's (${v.projectId}/${v.branchId}); a ` +
        "branch has one Neon Auth: make them the same, or remove importId",
    });
  }
  return inputsChecked(inputs, failures);
}
