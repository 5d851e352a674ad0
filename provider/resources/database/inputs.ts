/**
 * Inputs of the `Database` resource and `check`: validation at `pulumi preview`. Pure.
 */
import type { DatabaseInputs } from "./types";
import type { Bag } from "../kit";
import { checkAgainst, inputSchema, inputsChecked, type InputsCheck } from "../check";
import {
  apiId as id,
  branchIdRule,
  importIdFailures,
  pgName,
  threePartImportId,
} from "../branch-objects/objects";
import { DATABASE_DEFINITION } from "./definition";

const inputsSchema = inputSchema(DATABASE_DEFINITION, {
  projectId: id("a project id (1–60 lower-case letters, digits and dashes)"),
  branchId: branchIdRule('is required: the id of the branch ("br-…")'),
  name: pgName("database"),
  ownerName: pgName("role"),
  importId: threePartImportId("database", "shiny-wind-123456/br-cool-sky-123456/app"),
});

/** Validates raw inputs. Values not known yet are neither judged nor altered. */
export function checkInputs(news: Bag): InputsCheck<DatabaseInputs> {
  const checked = checkAgainst(DATABASE_DEFINITION, inputsSchema, news);
  return inputsChecked(news, [...checked.failures, ...importIdFailures(checked.value)]);
}
