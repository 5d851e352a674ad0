/**
 * Inputs of the `ProjectPermission` resource and `check`: validation at `pulumi preview`. Pure.
 */
import { z } from "zod";
import { checkAgainst, inputsChecked, inputSchema, type InputsCheck } from "../check";
import type { Bag } from "../definition";
import { apiId } from "../branch-objects/objects";
import { PROJECT_PERMISSION_DEFINITION } from "./definition";
import type { ProjectPermissionInputs } from "./types";

/** The longest address the service accepts. */
export const MAX_EMAIL_LENGTH = 256;

/** `"<projectId>/<permissionId>"`. */
export const IMPORT_ID_PATTERN = /^([a-z0-9-]{1,60})\/([^/\s]+)$/;

const inputsSchema = inputSchema(PROJECT_PERMISSION_DEFINITION, {
  projectId: apiId("a project id (1–60 lower-case letters, digits and dashes)"),
  email: z
    .string({ error: "is required: the email address of the account to give access" })
    .max(MAX_EMAIL_LENGTH, { error: `must be at most ${MAX_EMAIL_LENGTH} characters` })
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: 'must be an email address such as "dev@example.com"' }),
  importId: z.string({ error: "must be a string" }).regex(IMPORT_ID_PATTERN, {
    error: 'must name an existing grant: "<projectId>/<permissionId>"',
  }),
});

/**
 * Validates raw inputs and writes `email` in lower case. Values not known yet (preview) are neither
 * validated nor altered.
 */
export function checkInputs(news: Bag): InputsCheck<ProjectPermissionInputs> {
  const checked = checkAgainst(PROJECT_PERMISSION_DEFINITION, inputsSchema, news);
  const { failures } = checked;
  const inputs: Bag = { ...news };
  if (!checked.parsed) return inputsChecked(inputs, failures);
  const v = checked.value as Partial<ProjectPermissionInputs>;
  if (v.email !== undefined) inputs.email = v.email.toLowerCase();
  const imported = v.importId !== undefined ? IMPORT_ID_PATTERN.exec(v.importId) : null;
  if (imported && v.projectId !== undefined && imported[1] !== v.projectId) {
    failures.push({
      property: "importId",
      reason:
        `importId names a grant of project ${imported[1]} but projectId is ${v.projectId}; make them the same, ` +
        "or remove importId to grant access anew",
    });
  }
  return inputsChecked(inputs, failures);
}
