/**
 * Inputs of the `SpendingLimit` resource and `check`'s pure part: validation at `pulumi preview`, by
 * Neon's document (`SpendingLimitUpdateRequest`: whole cents, at least 1). Pure.
 */
import { z } from "zod";
import { checkAgainst, inputsChecked, inputSchema, type InputsCheck } from "../check";
import type { Bag } from "../definition";
import { apiId } from "../branch-objects/objects";
import { SPENDING_LIMIT_DEFINITION } from "./definition";
import type { SpendingLimitInputs } from "./types";

/** The smallest amount the service takes, in cents. */
export const MIN_LIMIT_CENTS = 1;

const cents =
  "a whole number of US cents, at least 1 (50000 is $500); to remove the alert, remove the resource";

const inputsSchema = inputSchema(SPENDING_LIMIT_DEFINITION, {
  orgId: apiId("an organization id (org-…: 1–60 lower-case letters, digits and dashes)"),
  limitCents: z
    .number({ error: `must be ${cents}` })
    .int({ error: `must be ${cents}` })
    .min(MIN_LIMIT_CENTS, { error: `must be ${cents}` })
    .max(Number.MAX_SAFE_INTEGER, { error: `must be ${cents}` }),
  importId: apiId("the id of this resource's organization (org-…)"),
});

/** Validates raw inputs. Values not known yet (preview) are neither validated nor altered. */
export function checkInputs(news: Bag): InputsCheck<SpendingLimitInputs> {
  const checked = checkAgainst(SPENDING_LIMIT_DEFINITION, inputsSchema, news);
  const { failures } = checked;
  if (!checked.parsed) return inputsChecked(news, failures);
  const v = checked.value as Partial<SpendingLimitInputs>;
  if (typeof v.importId === "string" && typeof v.orgId === "string" && v.importId !== v.orgId) {
    failures.push({
      property: "importId",
      reason: `importId ${v.importId} names another organization than orgId (${v.orgId}); make them the same, or remove importId`,
    });
  }
  return inputsChecked(news, failures);
}
