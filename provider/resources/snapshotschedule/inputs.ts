/**
 * Inputs of the `SnapshotSchedule` resource and `check`'s pure part: validation at `pulumi preview`,
 * by the ranges of Neon's document (`BackupScheduleItem`). Pure.
 */
import { z } from "zod";
import { checkAgainst, inputsChecked, inputSchema, isUnknown, type InputsCheck } from "../check";
import type { Bag } from "../kit";
import { apiId, branchIdRule } from "../branch-objects/objects";
import { FREQUENCIES, SNAPSHOT_SCHEDULE_DEFINITION } from "./definition";
import type { SnapshotScheduleInputs, SnapshotScheduleItemInputs } from "./types";

/** `"<projectId>/<branchId>"`. */
export const IMPORT_ID_PATTERN = /^([a-z0-9-]{1,60})\/(br-[a-z0-9-]{1,60})$/;

/** The shortest retention the service takes (`retention_seconds`' minimum). */
export const MIN_RETENTION_SECONDS = 3600;

const whole = (what: string, min: number, max?: number) => {
  const range = max === undefined ? `at least ${min}` : `${min} to ${max}`;
  let s = z
    .number({ error: `must be a whole number, ${range} (${what})` })
    .int({ error: `must be a whole number, ${range} (${what})` })
    .min(min, { error: `must be ${range} (${what})` });
  if (max !== undefined) s = s.max(max, { error: `must be ${range} (${what})` });
  return s;
};

const ITEM_FIELDS = ["frequency", "hour", "day", "month", "retentionSeconds"];

// Loose, with its own refusal of other keys: the kit's strict check would name an unknown key as an
// input of the resource, and here it is a field of an item.
const itemSchema = z
  .looseObject(
    {
      frequency: z.enum(FREQUENCIES, { error: `must be one of ${FREQUENCIES.join(", ")}` }),
      hour: whole("the hour of the day", 0, 23).optional(),
      day: whole("the day of the week or month", 1, 31).optional(),
      month: whole("the month of the year", 1, 12).optional(),
      retentionSeconds: whole("seconds; 3600 is one hour", MIN_RETENTION_SECONDS).optional(),
    },
    { error: "each item must be an object: { frequency, hour?, day?, month?, retentionSeconds? }" },
  )
  .superRefine((item, ctx) => {
    for (const k of Object.keys(item).filter((key) => !ITEM_FIELDS.includes(key))) {
      ctx.addIssue({
        code: "custom",
        message: `has no field ${k} (an item's fields are ${ITEM_FIELDS.join(", ")})`,
      });
    }
  });

const inputsSchema = inputSchema(SNAPSHOT_SCHEDULE_DEFINITION, {
  projectId: apiId("a project id (1–60 lower-case letters, digits and dashes)"),
  branchId: branchIdRule('is required: the id of the branch whose snapshots are scheduled ("br-…")'),
  schedule: z
    .array(itemSchema, { error: 'must be a list of frequencies, e.g. [{ frequency: "daily", hour: 3 }]' })
    .min(1, {
      error:
        "must hold at least one frequency; to stop the branch's automatic snapshots, remove the SnapshotSchedule " +
        "(its delete clears the schedule)",
    }),
  importId: z.string({ error: "must be a string" }).regex(IMPORT_ID_PATTERN, {
    error: 'must name the branch whose schedule to manage, as "<projectId>/<branchId>"',
  }),
});

/** An item with its keys in the definition's order, so that a diff does not depend on the program's. */
export function canonicalItem(i: SnapshotScheduleItemInputs): SnapshotScheduleItemInputs {
  return {
    frequency: i.frequency,
    ...(i.hour !== undefined ? { hour: i.hour } : {}),
    ...(i.day !== undefined ? { day: i.day } : {}),
    ...(i.month !== undefined ? { month: i.month } : {}),
    ...(i.retentionSeconds !== undefined ? { retentionSeconds: i.retentionSeconds } : {}),
  };
}

/**
 * Validates raw inputs and writes each item's keys in one order. Values not known yet (preview) are
 * neither validated nor altered.
 */
export function checkInputs(news: Bag): InputsCheck<SnapshotScheduleInputs> {
  const checked = checkAgainst(SNAPSHOT_SCHEDULE_DEFINITION, inputsSchema, news);
  const { failures } = checked;
  const inputs: Bag = { ...news };
  if (!checked.parsed) return inputsChecked(inputs, failures);
  const v = checked.value as Partial<SnapshotScheduleInputs>;
  if (v.schedule !== undefined)
    inputs.schedule = v.schedule.map((x) => (isUnknown(x) ? x : canonicalItem(x)));
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
        "branch has one schedule: make them the same, or remove importId",
    });
  }
  return inputsChecked(inputs, failures);
}
