/**
 * Inputs of the `ApiKey` resource and `check`: validation at `pulumi preview`.
 *
 * Pure: no network, no clock. Every invalid input becomes one `CheckFailure` naming the property
 * and the remedy, so nothing invalid reaches the API.
 */
import { z } from "zod";

/** The value Pulumi passes to `check`/`diff` for inputs not yet known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Properties the resource class adds for the provider's own use; never user inputs. */
export const INTERNAL_KEYS = ["__provider", "__urn"] as const;

/** The longest key name the API accepts. */
export const MAX_KEY_NAME_LENGTH = 64;

/** Inputs after `check`. */
export interface ApiKeyInputs {
  name: string;
  orgId?: string;
  projectId?: string;
  rotationTrigger?: string;
  importId?: string;
}

/** A validation failure reported against one input property. */
export interface CheckFailure {
  property: string;
  reason: string;
}

const idPattern = /^[a-z0-9-]{1,60}$/;
/** `"<keyId>"` (personal key) or `"<orgId>/<keyId>"` (organization or project-scoped key). */
export const IMPORT_ID_PATTERN = /^(?:([a-z0-9-]{1,60})\/)?(\d{1,15})$/;

const inputsSchema = z.strictObject({
  name: z
    .string({ error: "is required: the key's name as the console lists it" })
    .min(1, { error: "must not be empty" })
    .max(MAX_KEY_NAME_LENGTH, { error: `must be at most ${MAX_KEY_NAME_LENGTH} characters` }),
  orgId: z
    .string({ error: "must be a string" })
    .regex(idPattern, { error: 'must be an organization id such as "org-cool-breeze-12345678"' })
    .optional(),
  projectId: z
    .string({ error: "must be a string" })
    .regex(idPattern, { error: "must be a project id (1–60 lower-case letters, digits and dashes)" })
    .optional(),
  rotationTrigger: z.string({ error: "must be a string; change it to rotate the key" }).optional(),
  importId: z
    .string({ error: "must be a string" })
    .regex(IMPORT_ID_PATTERN, {
      error:
        'must name an existing key: "<keyId>" for a personal key, "<orgId>/<keyId>" for an organization or project-scoped key',
    })
    .optional(),
});

/**
 * Validates raw inputs. Values not known yet (preview) are neither validated nor altered. An
 * `importId` of an organization key fills in `orgId` when it is not given.
 */
export function checkInputs(news: Record<string, unknown>): {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
} {
  const known: Record<string, unknown> = {};
  const unknownKeys = new Set<string>();
  for (const [key, value] of Object.entries(news)) {
    if ((INTERNAL_KEYS as readonly string[]).includes(key)) continue;
    if (value === undefined || value === null) continue;
    if (value === UNKNOWN) unknownKeys.add(key);
    else known[key] = value;
  }
  // A required input that is merely unknown must not be reported missing.
  const probe = unknownKeys.has("name") ? { ...known, name: "unknown" } : known;

  const failures: CheckFailure[] = [];
  const parsed = inputsSchema.safeParse(probe);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) {
          failures.push({
            property: key,
            reason: `${key} is not an input of ApiKey; the inputs are name, orgId, projectId, rotationTrigger and importId`,
          });
        }
        continue;
      }
      const property = issue.path.map(String).join(".");
      failures.push({ property, reason: `${property} ${issue.message}` });
    }
  }
  const inputs: Record<string, unknown> = { ...news };
  if (!parsed.success) return { inputs, failures };

  const v = parsed.data;
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
  return { inputs, failures };
}
