/**
 * Inputs of the `Branch` resource and `check`: validation at `pulumi preview`. The branch's compute
 * is checked by `Compute`'s own rules (sizes, autoscaling bounds, suspend timeout). Pure: the clock
 * that judges `expiresAt` is passed in.
 */
import { z } from "zod";
import { checkAgainst, displayName, inputsChecked, inputSchema, type InputsCheck } from "../check";
import { OWNER_KEYS, UNKNOWN, type Bag, type Stated } from "../kit";
import { checkComputeInput } from "../compute/inputs";
import { branchIdRule } from "../branch-objects/objects";
import { ruleFailures } from "./anonymized";
import { BRANCH_DEFINITION, RESTORE_ORIGINAL } from "./definition";
import type { BranchInputs } from "./types";

/** The annotations a program may give a branch: the service keeps 50, the provider writes 3. */
export const MAX_USER_ANNOTATIONS = 47;

/** How far ahead an expiration may be (Neon's rule). */
export const MAX_EXPIRY_DAYS = 30;

const id = (what: string) =>
  z.string({ error: "must be a string" }).regex(/^[a-z0-9-]{1,60}$/, { error: `must be ${what}` });

const inputsSchema = inputSchema(BRANCH_DEFINITION, {
  projectId: id("a project id (1–60 lower-case letters, digits and dashes)"),
  parentId: branchIdRule('must be a string: the id of the parent branch ("br-…")'),
  name: displayName(256),
  expiresAt: z.iso.datetime({
    offset: true,
    error: 'must be an RFC 3339 time such as "2026-12-01T00:00:00Z"',
  }),
  parentTimestamp: z.iso.datetime({
    offset: true,
    error: 'must be an RFC 3339 time such as "2026-11-27T09:30:00Z"',
  }),
  parentLsn: z
    .string({ error: "must be a string" })
    .regex(/^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/, { error: 'must be a log position such as "0/1F2A3B8"' }),
  // Checked by Compute's rules below; here only its shape.
  compute: z.record(z.string(), z.unknown(), { error: "must be an object (cu, or minCu and maxCu, …)" }),
  resetTrigger: z.string({ error: "must be a string; change it to reset the branch to its parent" }),
  annotations: z
    .record(
      z.string().min(1, { error: "keys must not be empty" }),
      z.string({ error: "values must be strings" }),
      {
        error: 'must be an object of string values, e.g. { pr: "42" }',
      },
    )
    .refine((a) => Object.keys(a).length <= MAX_USER_ANNOTATIONS, {
      error: `must hold at most ${MAX_USER_ANNOTATIONS} pairs (the service keeps 50, 3 of them the provider's)`,
    })
    .refine((a) => !Object.keys(a).some((k) => (Object.values(OWNER_KEYS) as string[]).includes(k)), {
      error: `must not use the provider's own keys (${Object.values(OWNER_KEYS).join(", ")}), which name the stack that made the branch`,
    }),
  maskingRules: z.array(
    z
      .strictObject(
        {
          databaseName: z
            .string({ error: "must be a string: the database" })
            .min(1, { error: "must not be empty" }),
          schemaName: z
            .string({ error: 'must be a string: the schema of the table, e.g. "public"' })
            .min(1, { error: "must not be empty" }),
          tableName: z
            .string({ error: "must be a string: the table" })
            .min(1, { error: "must not be empty" }),
          columnName: z
            .string({ error: "must be a string: the column" })
            .min(1, { error: "must not be empty" }),
          maskingFunction: z.string({ error: "must be a string, e.g. anon.fake_email()" }).min(1, {
            error: "must not be empty",
          }),
          maskingValue: z.string({ error: "must be a string: an SQL literal, e.g. 'REDACTED'" }).min(1, {
            error: "must not be empty",
          }),
        },
        {
          error:
            'must be an object such as { databaseName: "app", schemaName: "public", tableName: "users", ' +
            'columnName: "email", maskingFunction: "anon.fake_email()" }',
        },
      )
      .partial({ maskingFunction: true, maskingValue: true }),
    { error: "must be a list of masking rules" },
  ),
  restoreFrom: z
    .strictObject(
      {
        snapshotId: z
          .string({
            error: "must be a string: the id of a snapshot of the project (a Snapshot's snapshotId)",
          })
          .min(1, { error: "must not be empty: give the id of a snapshot of the project" }),
        original: z.enum(RESTORE_ORIGINAL, {
          error: 'must be "delete" (the default: the original is deleted after the restore) or "keep"',
        }),
      },
      { error: 'must be an object such as { snapshotId: "snap-…", original: "delete" }' },
    )
    .partial({ original: true }),
  importId: z.string({ error: "must be a string" }).regex(/^[a-z0-9-]{1,60}\/br-[a-z0-9-]{1,60}$/, {
    error:
      'must name an existing branch as "<projectId>/<branchId>", e.g. "shiny-wind-123456/br-cool-sky-123456"',
  }),
});

/**
 * An RFC 3339 time as the service writes it: UTC, whole seconds without `.000`
 * (`2026-12-01T00:00:00+01:00` → `2026-11-30T23:00:00Z`), so that neither a check nor a diff depends on
 * the spelling.
 */
export function normalizedTime(value: string): string {
  return new Date(Date.parse(value)).toISOString().replace(/\.000Z$/, "Z");
}

/**
 * Validates raw inputs; `now` judges `expiresAt` when it is new or changed from `olds` (an expiry
 * that passed is no reason to fail every later preview). Values not known yet are neither judged
 * nor altered.
 */
export function checkInputs(
  news: Bag,
  now: number,
  olds: Stated<BranchInputs> = {},
  /** A refresh of this run found the branch deleted at this expiry: its recreation is said, not refused. */
  expiredAt?: string,
): InputsCheck<BranchInputs> {
  const checked = checkAgainst(BRANCH_DEFINITION, inputsSchema, news);
  const failures = [...checked.failures];
  const inputs: Bag = { ...news };
  const v = checked.value as Partial<BranchInputs>;
  failures.push(
    ...checkComputeInput(
      inputs,
      "compute",
      v.compute,
      "the branch's compute; use a Compute resource for more",
    ),
  );
  if (typeof v.expiresAt === "string" && checked.parsed) {
    const at = Date.parse(v.expiresAt);
    inputs.expiresAt = normalizedTime(v.expiresAt);
    const unchanged = typeof olds.expiresAt === "string" && Date.parse(olds.expiresAt) === at;
    if (unchanged || (expiredAt !== undefined && Date.parse(expiredAt) === at)) {
      // Judged when it was set: it may have passed since (and the create says so, before sending).
    } else if (at <= now) {
      failures.push({
        property: "expiresAt",
        reason:
          `expiresAt ${v.expiresAt} is not in the future; choose a later time (a branch that reached its expiry ` +
          "was deleted by the service: a later expiresAt makes it again)",
      });
    } else if (at > now + MAX_EXPIRY_DAYS * 24 * 3600 * 1000) {
      failures.push({
        property: "expiresAt",
        reason: `expiresAt ${v.expiresAt} is more than ${MAX_EXPIRY_DAYS} days ahead, the longest the service allows`,
      });
    }
    if (v.protected === true || v.adoptDefault === true) {
      failures.push({
        property: "expiresAt",
        reason: `expiresAt is not allowed on ${v.protected === true ? "a protected" : "the default"} branch; remove it`,
      });
    }
  }
  if (typeof v.parentTimestamp === "string" && checked.parsed) {
    // Judged against the project's history when the branch is to be made (history.ts).
    inputs.parentTimestamp = normalizedTime(v.parentTimestamp);
  }
  if (v.parentTimestamp !== undefined && v.parentLsn !== undefined) {
    failures.push({
      property: "parentLsn",
      reason: "parentLsn and parentTimestamp both name the parent's past; give one of them",
    });
  }
  if (v.initSource === "schema-only") {
    if (v.compute === undefined) {
      failures.push({
        property: "initSource",
        reason:
          'initSource "schema-only" needs the branch\'s compute, which the service creates with it; add compute (e.g. { cu: 0.25 })',
      });
    }
    if (v.resetTrigger !== undefined) {
      failures.push({
        property: "resetTrigger",
        reason:
          'a branch with initSource "schema-only" has no parent to be reset to (it holds the schema only); remove resetTrigger',
      });
    }
  }
  const pointInTime = (["parentTimestamp", "parentLsn", "initSource"] as const).filter(
    (k) => v[k] !== undefined,
  );
  if (v.adoptDefault === true && pointInTime.length > 0) {
    failures.push({
      property: pointInTime[0],
      reason: `${pointInTime.join(" and ")} shape a new branch, and adoptDefault takes over the existing default branch; remove ${pointInTime.length > 1 ? "them" : "it"}`,
    });
  }
  if (v.adoptDefault === true && v.annotations !== undefined) {
    failures.push({
      property: "annotations",
      reason:
        "annotations are given when a branch is created, and the default branch exists already (adoptDefault); " +
        "remove them",
    });
  }
  if (v.adoptDefault === true && (v.importId !== undefined || v.parentId !== undefined)) {
    failures.push({
      property: "adoptDefault",
      reason:
        "adoptDefault takes over the project's default branch, which has no parentId and needs no importId; remove them",
    });
  }
  if (
    typeof v.importId === "string" &&
    typeof v.projectId === "string" &&
    !v.importId.startsWith(`${v.projectId}/`)
  ) {
    failures.push({
      property: "importId",
      reason: `importId names project ${v.importId.split("/")[0]} but projectId is ${v.projectId}; make them the same`,
    });
  }
  // No rules is a plain branch: an empty list is left out, as if never given.
  if (Array.isArray(inputs.maskingRules) && inputs.maskingRules.length === 0) delete inputs.maskingRules;
  if (checked.parsed) failures.push(...ruleFailures(inputs));
  return inputsChecked(inputs, failures);
}

export { UNKNOWN };
