/**
 * The definition of `Branch`: every input and output with its type, docs and what a change does.
 * The plugin schema and `docs/api/Branch.md` are generated from it, the key lists and input checks
 * derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ObjectTypeDef, ResourceDef } from "../definition";
import {
  autoNameInput,
  COMPUTE_SIZE_PROPERTIES,
  createOnlyFlag,
  createdAtOutput,
  fixedInput,
  importIdInput,
  optionalField,
  triggerInput,
} from "../definition";

/** The branch's read_write compute, created in the same request as the branch. */
export const BRANCH_COMPUTE_TYPE = {
  name: "BranchCompute",
  description:
    "The branch's read_write compute: created in the same request as the branch, changed in place afterwards.",
  properties: [
    ...COMPUTE_SIZE_PROPERTIES,
    optionalField(
      "suspendTimeoutSeconds",
      "integer",
      "Seconds of inactivity before the compute suspends: `-1` never, `0` the project's default, 60–604800.",
    ),
  ],
} as const satisfies ObjectTypeDef;

/** A column of a table and what masks it on an anonymized branch (Neon's `MaskingRule`). */
export const BRANCH_MASKING_RULE_TYPE = {
  name: "BranchMaskingRule",
  description:
    "A column of a table and what masks it on an anonymized branch: a PostgreSQL Anonymizer function or a " +
    "literal value, not both.",
  properties: [
    {
      name: "databaseName",
      type: "string",
      input: "required",
      output: "always",
      description: "The database.",
    },
    {
      name: "schemaName",
      type: "string",
      input: "required",
      output: "always",
      description: "The schema of the table (`public` for most).",
    },
    { name: "tableName", type: "string", input: "required", output: "always", description: "The table." },
    {
      name: "columnName",
      type: "string",
      input: "required",
      output: "always",
      description: "The column masked.",
    },
    {
      name: "maskingFunction",
      type: "string",
      input: "optional",
      output: "optional",
      description:
        "A PostgreSQL Anonymizer expression whose value replaces the column's, e.g. `anon.fake_email()`, " +
        "`anon.random_string(10)`, `anon.hash(email)`.",
    },
    {
      name: "maskingValue",
      type: "string",
      input: "optional",
      output: "optional",
      description: "An SQL literal written into the column, e.g. `'REDACTED'`, `0`, `NULL`.",
    },
  ],
} as const satisfies ObjectTypeDef;

/** What a restore of the branch from a snapshot does with the branch it replaces. */
export const RESTORE_ORIGINAL = ["delete", "keep"] as const;

/** A restore of the branch from a snapshot (docs/decisions/0021). */
export const BRANCH_RESTORE_TYPE = {
  name: "BranchRestore",
  description:
    "A restore of the branch from a snapshot: a new branch is made from the snapshot and takes the branch's " +
    "name and computes; the branch it replaces is renamed, then deleted or kept.",
  properties: [
    {
      name: "snapshotId",
      type: "string",
      input: "required",
      output: "always",
      description:
        "The snapshot to restore (a `Snapshot`'s `snapshotId`), of this project (checked at preview). A new " +
        "value restores again; the same value restores nothing.",
    },
    {
      name: "original",
      type: "string",
      enum: RESTORE_ORIGINAL,
      input: "optional",
      output: "optional",
      description:
        "What becomes of the branch the restore replaces, renamed `<name>-before-restore-<hash>`: `delete` " +
        "(the default) deletes it once the restored branch serves; `keep` leaves it, and the stack no longer " +
        "manages it. Read at the restore only.",
    },
  ],
} as const satisfies ObjectTypeDef;

export const BRANCH_DEFINITION = {
  name: "Branch",
  description:
    "A Neon branch, optionally with its read_write compute created in the same request. A killed run or a " +
    "lost answer is reconciled by the branch's name (never a second branch, never a 409 loop); a name held " +
    "by a branch this stack did not create fails with the exact `importId`. The project's default branch " +
    "can be managed with `adoptDefault` (destroy leaves it in place). Delete waits; a default, protected " +
    "or parent branch is not deleted, and the error says which.",
  importId: { format: "<projectId>/<branchId>", example: "shiny-wind-123456/br-cool-sky-12345678" },
  aliases: ["pulumi-nodejs:dynamic/neon:Branch"],
  properties: [
    fixedInput("projectId", "The project. Changing it replaces the branch (the old one is deleted first)."),
    {
      name: "parentId",
      type: "string",
      input: "optional",
      output: "optional",
      change: "replace",
      compare: "kept-when-absent",
      platformDefault: "the project's default branch",
      description:
        "The branch this one starts from (its data at creation). Changing it replaces the branch (the old one is deleted first).",
    },
    {
      name: "parentTimestamp",
      type: "string",
      input: "optional",
      output: "optional",
      change: "replace",
      compare: "kept-when-absent",
      description:
        "RFC 3339 time: the branch starts from its parent's data as it was then (point in time), which must lie " +
        "inside the project's history retention and after the parent was made (checked at preview). Fixed at " +
        "creation: a change replaces the branch (the old one is deleted first); removing it changes nothing.",
    },
    {
      name: "parentLsn",
      type: "string",
      input: "optional",
      output: "optional",
      change: "replace",
      compare: "kept-when-absent",
      description:
        "A write-ahead log position of the parent (`0/1F2A3B8`): the branch starts from the parent's data as it " +
        "was there; not with `parentTimestamp`. Fixed at creation: a change replaces the branch (the old one is " +
        "deleted first); removing it changes nothing.",
    },
    {
      name: "initSource",
      type: "string",
      enum: ["parent-data", "schema-only"],
      input: "optional",
      output: "optional",
      change: "replace",
      compare: "kept-when-absent",
      platformDefault: "`parent-data`",
      description:
        "`schema-only` starts the branch with its parent's schema and none of its rows (a root branch without a " +
        "parent link; it needs `compute`, and cannot be reset); `parent-data` (the default) with the parent's data. " +
        "Fixed at creation: a change replaces the branch (the old one is deleted first); removing it changes nothing.",
    },
    autoNameInput(
      "The branch's name, 1–256 characters, unique in the project. Renamed in place. Without it the " +
        "provider names the branch `<resource name>-<hash>`, so that a killed run's branch is found again.",
    ),
    {
      name: "protected",
      type: "boolean",
      input: "optional",
      output: "always",
      change: "update",
      compare: "false-when-absent",
      description:
        "A protected branch cannot be deleted or reset (paid plans). Changed in place; destroy refuses a protected branch.",
    },
    {
      name: "expiresAt",
      type: "string",
      input: "optional",
      output: "optional",
      change: "update",
      compare: "instant",
      description:
        "RFC 3339 time at which the service deletes the branch: in the future, at most 30 days ahead; not on a " +
        "protected or default branch. Changed in place; removing it clears the expiration.",
    },
    {
      name: "compute",
      type: { object: "BranchCompute" },
      input: "optional",
      output: "optional",
      change: "update",
      compare: "nested",
      description:
        "The branch's read_write compute, created in the same request as the branch and changed in place " +
        "(a size change restarts it). Without it the branch has no compute (add one later here, or with `Compute`).",
    },
    triggerInput(
      "resetTrigger",
      "update",
      "Any string; a change resets the branch to its parent's latest data (restore), keeping its id. The " +
        "branch's own changes are lost: the preview says so. A branch with child branches keeps its state " +
        "before the reset as a new branch `<name>-before-reset-<time>`, which takes the children (the stack " +
        "does not manage it).",
    ),
    {
      name: "annotations",
      type: { map: "string" },
      input: "optional",
      output: "optional",
      change: "create-only",
      description:
        'Key/value pairs the branch carries (e.g. `{ pr: "42", repo: "acme/api" }`), given when the branch is ' +
        "created, beside the provider's own (`pulumi-project`, `pulumi-stack`, `pulumi-resource`, which name " +
        "the stack that made it). The service offers no way to change them afterwards: a later change is " +
        "not applied, and the preview says so. At most 47 pairs; keys other than the provider's.",
    },
    {
      name: "maskingRules",
      type: { arrayOf: "BranchMaskingRule" },
      input: "optional",
      output: "optional",
      change: "update",
      secret: true,
      description:
        "Makes the branch anonymized (Neon's anonymized branches are Beta): it is made from its parent and " +
        "these rules mask its own copy of the data (PostgreSQL Anonymizer's static masking), the parent " +
        "keeping the originals; the create waits for the run. Checked at preview against the parent's " +
        "databases, tables and columns. A change of the rules is applied in place and masks nothing by " +
        "itself: change `anonymizeTrigger` to run them again; a reset (`resetTrigger`) runs them right after " +
        "it, and a run that did not end masked is run again by the next update. Declaring rules on a branch " +
        "made without them, or removing them all, replaces the branch (its kind is fixed when it is made). " +
        "Secret: Neon's document marks every field of a rule sensitive.",
    },
    triggerInput(
      "anonymizeTrigger",
      "update",
      "Any string; a change runs the branch's masking rules again on its current data and waits for the " +
        "run. Only with `maskingRules`.",
    ),
    {
      name: "anonymizationState",
      type: "string",
      output: "optional",
      description:
        "An anonymized branch's state (`anonymized` once its rules ran; a run that ends in `error` fails the " +
        "step that ran it, which says what to check).",
    },
    {
      name: "restoreFrom",
      type: { object: "BranchRestore" },
      input: "optional",
      output: "optional",
      change: "replace",
      compare: "nested",
      description:
        "Restores the branch from a snapshot: a new branch is made from the snapshot's data and takes this " +
        "branch's name and computes (same hosts); the resource's id becomes the new branch's, and the roles, " +
        "databases, computes, snapshots and child branches that name `branch.id` follow it, not recreated. The " +
        "branch it replaces is renamed, then deleted or kept (`original`); the preview says which and sends " +
        "nothing. A killed run's next `up` finishes the restore without a second one. A new `snapshotId` " +
        "restores again; removing `restoreFrom` changes nothing. A Branch declared with it from the start, or " +
        "made anew while it is declared (a replacement, `--replace`), is made from the snapshot.",
    },
    createOnlyFlag(
      "adoptDefault",
      "Manage the project's default branch instead of creating one: its name, protection and primary " +
        "compute's size follow the inputs; destroy leaves it in place.",
    ),
    importIdInput(
      'Adopt an existing branch instead of creating one: `"<projectId>/<branchId>"`. The declared inputs ' +
        "must describe it as it is. Deleting the resource deletes the branch.",
    ),
    {
      name: "default",
      type: "boolean",
      stable: true,
      output: "always",
      description: "Whether this is the project's default branch.",
    },
    {
      name: "currentState",
      type: "string",
      output: "optional",
      description: "`init`, `resetting`, `ready` or `archived`, as of the last read.",
    },
    createdAtOutput("optional", "When the branch was created (ISO 8601 UTC)."),
    {
      name: "computeId",
      type: "string",
      output: "optional",
      description: "The id of the branch's read_write compute, when it has one.",
    },
    {
      name: "computeState",
      type: "string",
      output: "optional",
      description:
        "The state of the branch's read_write compute as of the last read (`init`, `active` or `idle`); `init` " +
        "means it has never started (its first start failed), which the next `pulumi up` fixes by starting it.",
    },
    {
      name: "host",
      type: "string",
      output: "optional",
      description: "The host name of the branch's read_write compute, when it has one.",
    },
    {
      name: "adopted",
      type: "boolean",
      output: "optional",
      description:
        "`true` for the project's default branch taken over with `adoptDefault` (destroy leaves it in place).",
    },
  ],
  notes: [
    "Read replicas of a branch are `Compute` resources with `branchId: branch.id`.",
    "A replacement (another `projectId` or `parentId`) deletes the old branch first: branch names are unique.",
  ],
  examples: {
    title: "A branch per pull request, with its compute",
    yaml: [
      "resources:",
      "  preview:",
      "    type: neoncompute:index:Branch",
      "    properties:",
      "      projectId: shiny-wind-123456",
      "      name: pr-42",
      '      expiresAt: "2026-12-01T00:00:00Z"',
      "      compute:",
      "        minCu: 0.25",
      "        maxCu: 1",
      "outputs:",
      "  host: ${preview.host}",
    ].join("\n"),
    typescript: [
      'import { Branch } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'const preview = new Branch("preview", {',
      '  projectId: "shiny-wind-123456",',
      '  name: "pr-42",',
      "  compute: { minCu: 0.25, maxCu: 1 },",
      "});",
      "export const host = preview.host;",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
