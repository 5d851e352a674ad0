/**
 * The definition of `Snapshot`: every input and output with its type, docs and what a change does.
 * The plugin schema and `docs/api/Snapshot.md` are generated from it, the key lists and input checks
 * derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ResourceDef } from "../definition";
import { autoNameInput, createdAtOutput, fixedInput, importIdInput } from "../definition";

/** What a Snapshot is called in messages. */
export const SNAPSHOT_NOUN = "snapshot";

/** Why a snapshot's inputs other than its name never change (Neon changes only a snapshot's name). */
const FIXED =
  "Fixed at creation: the service changes only a snapshot's name, and a replacement would delete the data " +
  "the snapshot holds, so a change fails at preview; declare another Snapshot for another branch or time.";

export const SNAPSHOT_DEFINITION = {
  name: "Snapshot",
  description:
    "A snapshot of a branch (Beta in Neon's API): its data now, or as it was at a `timestamp` or `lsn` inside " +
    "the project's history (checked at preview). A snapshot carries no mark of who made it: a lost answer or a " +
    "killed run's snapshot is found again by its name and branch (never a second snapshot), and a declared name " +
    "that a snapshot of the branch already has, which no resource of the stack manages, fails at preview with " +
    "the exact `importId`. Renamed in place; any other change fails at preview, since a replacement would " +
    "delete the data it holds: declare another Snapshot instead. Deleting the resource deletes the snapshot.",
  importId: { format: "<projectId>/<snapshotId>", example: "shiny-wind-123456/snap-quiet-dawn-12345678" },
  aliases: ["pulumi-nodejs:dynamic/neon:Snapshot"],
  properties: [
    {
      ...fixedInput("projectId", `The project. ${FIXED}`),
      change: "refused",
    },
    {
      ...fixedInput(
        "branchId",
        "The branch whose data the snapshot holds (`br-…`). " +
          `${FIXED} A replacement of that Branch (its id unknown at preview) fails the preview too: remove the ` +
          "Snapshot from the program first (which deletes it), or keep it outside the stack (`retainOnDelete`, " +
          "then remove it).",
      ),
      change: "refused",
    },
    autoNameInput(
      "The snapshot's name, 1–256 characters. Renamed in place. Without it the provider names the snapshot " +
        "`<resource name>-<hash>`, so that a killed run's snapshot is found again.",
    ),
    {
      name: "timestamp",
      type: "string",
      input: "optional",
      output: "optional",
      change: "refused",
      compare: "kept-when-absent",
      description:
        "RFC 3339 time: the snapshot holds the branch's data as it was then, which must lie inside the project's " +
        "history retention and after the branch was made (checked at preview); not with `lsn`. Without it (and " +
        "without `lsn`) the snapshot holds the data as it is when taken, and this output says when that was. " +
        "Fixed at creation: a change fails at preview; removing it changes nothing.",
    },
    {
      name: "lsn",
      type: "string",
      input: "optional",
      output: "optional",
      change: "refused",
      compare: "kept-when-absent",
      description:
        "A write-ahead log position of the branch (`0/1F2A3B8`, kept in upper case) inside its history: the " +
        "snapshot holds the data as it was there; not with `timestamp`. Fixed at creation: a change fails at " +
        "preview; removing it changes nothing.",
    },
    {
      name: "expiresAt",
      type: "string",
      input: "optional",
      output: "optional",
      change: "refused",
      compare: "instant",
      description:
        "RFC 3339 time, in the future, at which the service deletes the snapshot. Fixed at creation: the " +
        "service cannot change it, and a replacement would delete the data the snapshot holds, so a change (or " +
        "its removal) fails at preview; declare another Snapshot for another expiry.",
    },
    importIdInput(
      'Adopt an existing snapshot instead of creating one: `"<projectId>/<snapshotId>"` (the API\'s list of ' +
        "the project's snapshots names them). `branchId` must be its branch; a declared `name`, `timestamp`, " +
        "`lsn` or `expiresAt` must be its own. Read at creation only. Deleting the resource deletes the snapshot.",
    ),
    {
      name: "snapshotId",
      type: "string",
      stable: true,
      output: "always",
      description: "The snapshot's id, as a restore names it.",
    },
    {
      name: "sourceBranchId",
      type: "string",
      stable: true,
      output: "optional",
      description: "The branch the snapshot was taken of, as the service reports it.",
    },
    createdAtOutput("always", "When the snapshot was taken (ISO 8601 UTC)."),
    {
      name: "manual",
      type: "boolean",
      stable: true,
      output: "optional",
      description:
        "`true` for a snapshot taken on request (as this resource's are), `false` for a scheduled one.",
    },
    {
      name: "fullSize",
      type: "integer",
      output: "optional",
      description:
        "The snapshot's full logical size in bytes, once the service has measured it (as of the last read).",
    },
  ],
  notes: [
    "Snapshots are Beta in Neon's API. The free plan holds one manual snapshot, paid plans 100: a second one " +
      "on the free plan fails at `up` (the service's 422).",
    "A snapshot's schedule of automatic snapshots is `SnapshotSchedule`.",
  ],
  examples: {
    title: "A snapshot of a branch before a migration",
    yaml: [
      "resources:",
      "  beforeMigration:",
      "    type: neoncompute:index:Snapshot",
      "    properties:",
      "      projectId: shiny-wind-123456",
      "      branchId: br-cool-sky-12345678",
      "      name: before-migration-42",
      '      expiresAt: "2026-12-31T00:00:00Z"',
      "outputs:",
      "  snapshotId: ${beforeMigration.snapshotId}",
    ].join("\n"),
    typescript: [
      'import { Snapshot } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'const beforeMigration = new Snapshot("before-migration", {',
      '  projectId: "shiny-wind-123456",',
      '  branchId: "br-cool-sky-12345678",',
      '  name: "before-migration-42",',
      "});",
      "export const snapshotId = beforeMigration.snapshotId;",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
