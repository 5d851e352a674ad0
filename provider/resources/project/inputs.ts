/**
 * Inputs of the `Project` resource and `check`: validation at `pulumi preview`. The default compute
 * settings are checked by `Compute`'s own rules. Pure: no network, no clock.
 */
import type { Bag } from "../kit";
import { z } from "zod";
import { checkAgainst, displayName, inputSchema, inputsChecked, type InputsCheck } from "../check";
import { checkComputeInput } from "../compute/inputs";
import { PROJECT_DEFINITION } from "./definition";
import type { ProjectInputs } from "./types";

/** Longest history the service keeps (30 days). */
export const MAX_HISTORY_RETENTION_SECONDS = 2592000;

const projectId = z
  .string({ error: "must be a string" })
  .regex(/^[a-z0-9-]{1,60}$/, { error: 'must be a project id such as "shiny-wind-123456"' });

// Postgres identifiers: at most 63 bytes.
const identifier = (what: string) =>
  z
    .string({ error: "must be a string" })
    .min(1, { error: "must not be empty" })
    .refine((s) => Buffer.byteLength(s, "utf8") <= 63, {
      error: `must be at most 63 bytes (a ${what} name)`,
    });

const PG_VERSIONS =
  "must be 14, 15, 16, 17, 18 or 19 (the Postgres versions the service offers; 19 only in the regions where it is enabled)";

const inputsSchema = inputSchema(PROJECT_DEFINITION, {
  name: displayName(256),
  regionId: z
    .string({ error: "must be a string" })
    .regex(/^[a-z0-9-]{1,60}$/, { error: 'must be a region id such as "aws-us-east-2"' }),
  pgVersion: z
    .number({ error: "must be a whole number" })
    .int({ error: "must be a whole number" })
    .min(14, { error: PG_VERSIONS })
    .max(19, { error: PG_VERSIONS }),
  defaultBranchName: z
    .string({ error: "must be a string" })
    .min(1, { error: "must not be empty" })
    .max(256, { error: "must be at most 256 characters" }),
  databaseName: identifier("database"),
  roleName: identifier("role"),
  orgId: z
    .string({ error: "must be a string" })
    .regex(/^[a-z0-9-]{1,60}$/, { error: 'must be an organization id such as "org-cool-sky-12345678"' }),
  historyRetentionSeconds: z
    .number({ error: "must be a whole number of seconds" })
    .int({ error: "must be a whole number of seconds" })
    .min(0, { error: "must be 0 or more" })
    .max(MAX_HISTORY_RETENTION_SECONDS, {
      error: `must be at most ${MAX_HISTORY_RETENTION_SECONDS} (30 days), the longest the service keeps`,
    }),
  defaultCompute: z.record(z.string(), z.unknown(), {
    error: "must be an object (cu, or minCu and maxCu, and suspendTimeoutSeconds)",
  }),
  importId: projectId,
});

/** Validates raw inputs. Values not known yet are neither judged nor altered. */
export function checkInputs(news: Bag): InputsCheck<ProjectInputs> {
  const checked = checkAgainst(PROJECT_DEFINITION, inputsSchema, news);
  const failures = [...checked.failures];
  const inputs: Bag = { ...news };
  const v = checked.value as Partial<ProjectInputs>;
  failures.push(
    ...checkComputeInput(inputs, "defaultCompute", v.defaultCompute, "a project's default compute"),
  );
  return inputsChecked(inputs, failures);
}
