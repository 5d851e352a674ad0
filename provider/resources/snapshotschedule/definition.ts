/**
 * The definition of `SnapshotSchedule`: every input and output with its type, docs and what a change
 * does. The plugin schema and `docs/api/SnapshotSchedule.md` are generated from it, the key lists and
 * input checks derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ObjectTypeDef, ResourceDef } from "../definition";
import { fixedInput, importIdInput } from "../definition";

/** What a SnapshotSchedule is called in messages. */
export const SNAPSHOT_SCHEDULE_NOUN = "snapshot schedule";

/** The frequencies the service takes snapshots at (`BackupScheduleItem.frequency`). */
export const FREQUENCIES = ["hourly", "daily", "weekly", "monthly", "yearly"] as const;

/** One frequency of a branch's automatic snapshots (`BackupScheduleItem`). */
export const SNAPSHOT_SCHEDULE_ITEM_TYPE = {
  name: "SnapshotScheduleItem",
  description: "One frequency of a branch's automatic snapshots, and how long their snapshots are kept.",
  properties: [
    {
      name: "frequency",
      type: "string",
      enum: FREQUENCIES,
      input: "required",
      output: "always",
      description: "How often a snapshot is taken: `hourly`, `daily`, `weekly`, `monthly` or `yearly`.",
    },
    {
      name: "hour",
      type: "integer",
      input: "optional",
      output: "optional",
      description: "The hour of the day the snapshot is taken, 0–23 (where the frequency has one).",
    },
    {
      name: "day",
      type: "integer",
      input: "optional",
      output: "optional",
      description:
        "The day of the week or of the month the snapshot is taken, 1–31 (where the frequency has one).",
    },
    {
      name: "month",
      type: "integer",
      input: "optional",
      output: "optional",
      description: "The month of the year the snapshot is taken, 1–12 (where the frequency has one).",
    },
    {
      name: "retentionSeconds",
      type: "integer",
      input: "optional",
      output: "optional",
      description:
        "How long the service keeps each snapshot, in seconds (at least 3600); without it, until it is deleted.",
    },
  ],
} as const satisfies ObjectTypeDef;

export const SNAPSHOT_SCHEDULE_DEFINITION = {
  name: "SnapshotSchedule",
  description:
    "A branch's schedule of automatic snapshots (its `backup_schedule`, Beta in Neon's API): one per branch. " +
    "Setting it starts no operation. A branch that already has a schedule no resource of the stack manages " +
    "fails at preview with the exact `importId`. Changed in place; deleting the resource clears the branch's " +
    "schedule (the snapshots it made stay, until their retention ends).",
  importId: { format: "<projectId>/<branchId>", example: "shiny-wind-123456/br-cool-sky-12345678" },
  aliases: ["pulumi-nodejs:dynamic/neon:SnapshotSchedule"],
  properties: [
    fixedInput(
      "projectId",
      "The project. Changing it clears the schedule on this branch, then sets it on the new one.",
    ),
    fixedInput(
      "branchId",
      "The branch (`br-…`) whose snapshots are scheduled. Changing it clears the schedule on this branch, " +
        "then sets it on the new one.",
    ),
    {
      name: "schedule",
      type: { arrayOf: "SnapshotScheduleItem" },
      input: "required",
      output: "always",
      change: "update",
      description:
        "The frequencies of the branch's automatic snapshots (at least one; the service's whole schedule). " +
        "Changed in place.",
    },
    importIdInput(
      'Manage the schedule a branch already has: `"<projectId>/<branchId>"`, naming this very branch. The ' +
        "declared `schedule` replaces it. Read at creation only. Deleting the resource clears the schedule.",
    ),
  ],
  notes: [
    "The service takes the snapshots; this resource only sets when. A snapshot of your own is `Snapshot`.",
  ],
  examples: {
    title: "Daily snapshots of a branch, kept a week",
    yaml: [
      "resources:",
      "  nightly:",
      "    type: neoncompute:index:SnapshotSchedule",
      "    properties:",
      "      projectId: shiny-wind-123456",
      "      branchId: br-cool-sky-12345678",
      "      schedule:",
      "        - frequency: daily",
      "          hour: 3",
      "          retentionSeconds: 604800",
    ].join("\n"),
    typescript: [
      'import { SnapshotSchedule } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'new SnapshotSchedule("nightly", {',
      '  projectId: "shiny-wind-123456",',
      '  branchId: "br-cool-sky-12345678",',
      '  schedule: [{ frequency: "daily", hour: 3, retentionSeconds: 604800 }],',
      "});",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
