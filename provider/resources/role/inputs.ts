/**
 * Inputs of the `Role` resource and `check`: validation at `pulumi preview`. Pure.
 */
import type { RoleInputs } from "./types";
import type { Bag } from "../kit";
import { z } from "zod";
import { checkAgainst, inputSchema, inputsChecked, type InputsCheck } from "../check";
import {
  apiId as id,
  branchIdRule,
  importIdFailures,
  pgName,
  reservedRoleName,
  threePartImportId,
} from "../branch-objects/objects";
import { ROLE_DEFINITION } from "./definition";

const inputsSchema = inputSchema(ROLE_DEFINITION, {
  projectId: id("a project id (1–60 lower-case letters, digits and dashes)"),
  branchId: branchIdRule('is required: the id of the branch ("br-…")'),
  name: pgName("role"),
  passwordRotationTrigger: z.string({ error: "must be a string; change it to rotate the password" }),
  importId: threePartImportId("role", "shiny-wind-123456/br-cool-sky-123456/app"),
});

/** Validates raw inputs. Values not known yet are neither judged nor altered. */
export function checkInputs(news: Bag): InputsCheck<RoleInputs> {
  const checked = checkAgainst(ROLE_DEFINITION, inputsSchema, news);
  const failures = [...checked.failures, ...importIdFailures(checked.value)];
  const v = checked.value;
  // A role this stack creates; an existing one taken over keeps the name it has.
  const reserved =
    typeof v.name === "string" && v.adopt !== true && v.importId === undefined && reservedRoleName(v.name);
  if (reserved) {
    failures.push({
      property: "name",
      reason: `name ${JSON.stringify(v.name)}: ${reserved}; choose another name`,
    });
  }
  return inputsChecked(news, failures);
}
