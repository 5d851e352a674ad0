/**
 * Inputs of the `ApiKey` resource and `check`: validation at `pulumi preview`.
 *
 * Pure: no network, no clock. Every invalid input becomes one `CheckFailure` naming the property
 * and the remedy, so nothing invalid reaches the API.
 */
import type { Bag } from "../kit";
import { z } from "zod";
import { checkAgainst, inputSchema, inputsChecked, type InputsCheck } from "../check";
import { APIKEY_DEFINITION } from "./definition";
import type { ApiKeyInputs } from "./types";

export { UNKNOWN, INTERNAL_KEYS } from "../kit";
export type { CheckFailure } from "../check";

/** The longest key name the API accepts. */
export const MAX_KEY_NAME_LENGTH = 64;

const idPattern = /^[a-z0-9-]{1,60}$/;
/** `"<keyId>"` (personal key) or `"<orgId>/<keyId>"` (organization or project-scoped key). */
export const IMPORT_ID_PATTERN = /^(?:([a-z0-9-]{1,60})\/)?(\d{1,15})$/;

// The rules of the inputs that need more than their type (the rest come from the definition).
const inputsSchema = inputSchema(APIKEY_DEFINITION, {
  name: z
    .string({ error: "is required: the key's name as the console lists it" })
    .min(1, { error: "must not be empty" })
    .max(MAX_KEY_NAME_LENGTH, { error: `must be at most ${MAX_KEY_NAME_LENGTH} characters` }),
  orgId: z
    .string({ error: "must be a string" })
    .regex(idPattern, { error: 'must be an organization id such as "org-cool-breeze-12345678"' }),

  projectId: z
    .string({ error: "must be a string" })
    .regex(idPattern, { error: "must be a project id (1–60 lower-case letters, digits and dashes)" }),

  rotationTrigger: z.string({ error: "must be a string; change it to rotate the key" }),
  importId: z.string({ error: "must be a string" }).regex(IMPORT_ID_PATTERN, {
    error:
      'must name an existing key: "<keyId>" for a personal key, "<orgId>/<keyId>" for an organization or project-scoped key',
  }),
});

/**
 * Validates raw inputs. Values not known yet (preview) are neither validated nor altered. An
 * `importId` of an organization key fills in `orgId` when it is not given.
 */
export function checkInputs(news: Bag): InputsCheck<ApiKeyInputs> {
  const checked = checkAgainst(APIKEY_DEFINITION, inputsSchema, news);
  const { unknownKeys, failures } = checked;
  const inputs: Bag = { ...news };
  if (!checked.parsed) return inputsChecked(inputs, failures);

  const v = checked.value as Partial<ApiKeyInputs>;
  const imported = v.importId !== undefined ? IMPORT_ID_PATTERN.exec(v.importId) : null;
  if (imported) {
    const importOrg = imported[1];
    if (!importOrg && (v.orgId !== undefined || v.projectId !== undefined)) {
      failures.push({
        property: "importId",
        reason:
          `importId "${v.importId}" names a personal key, which belongs to no organization or project; ` +
          'remove orgId and projectId, or write "<orgId>/<keyId>" for an organization or project-scoped key',
      });
    } else if (importOrg && v.orgId !== undefined && v.orgId !== importOrg) {
      failures.push({
        property: "importId",
        reason: `importId names organization ${importOrg} but orgId is ${v.orgId}; make them the same`,
      });
    } else if (importOrg && !unknownKeys.has("orgId")) {
      inputs.orgId = importOrg;
    }
  }
  return inputsChecked(inputs, failures);
}
