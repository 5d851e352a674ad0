// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `Branch`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/**
 * The branch's read_write compute: created in the same request as the branch, changed in place afterwards.
 */
export interface BranchComputeArgs {
  /** A fixed size in compute units (sets `minCu` and `maxCu` to it). */
  cu?: pulumi.Input<number>;
  /** Autoscaling lower bound in compute units (with `maxCu`). */
  minCu?: pulumi.Input<number>;
  /** Autoscaling upper bound in compute units (with `minCu`). */
  maxCu?: pulumi.Input<number>;
  /** Seconds of inactivity before the compute suspends: `-1` never, `0` the project's default, 60–604800. */
  suspendTimeoutSeconds?: pulumi.Input<number>;
}

/**
 * As read: The branch's read_write compute: created in the same request as the branch, changed in place
 * afterwards.
 */
export interface BranchComputeOutputs {
  /** A fixed size in compute units (sets `minCu` and `maxCu` to it). */
  cu?: number;
  /** Autoscaling lower bound in compute units (with `maxCu`). */
  minCu?: number;
  /** Autoscaling upper bound in compute units (with `minCu`). */
  maxCu?: number;
  /** Seconds of inactivity before the compute suspends: `-1` never, `0` the project's default, 60–604800. */
  suspendTimeoutSeconds?: number;
}

/**
 * After `check`: The branch's read_write compute: created in the same request as the branch, changed in place
 * afterwards.
 */
export interface BranchComputeInputs {
  /** A fixed size in compute units (sets `minCu` and `maxCu` to it). */
  cu?: number;
  /** Autoscaling lower bound in compute units (with `maxCu`). */
  minCu?: number;
  /** Autoscaling upper bound in compute units (with `minCu`). */
  maxCu?: number;
  /** Seconds of inactivity before the compute suspends: `-1` never, `0` the project's default, 60–604800. */
  suspendTimeoutSeconds?: number;
}

/**
 * A column of a table and what masks it on an anonymized branch: a PostgreSQL Anonymizer function or a
 * literal value, not both.
 */
export interface BranchMaskingRuleArgs {
  /** The database. */
  databaseName: pulumi.Input<string>;
  /** The schema of the table (`public` for most). */
  schemaName: pulumi.Input<string>;
  /** The table. */
  tableName: pulumi.Input<string>;
  /** The column masked. */
  columnName: pulumi.Input<string>;
  /**
   * A PostgreSQL Anonymizer expression whose value replaces the column's, e.g. `anon.fake_email()`,
   * `anon.random_string(10)`, `anon.hash(email)`.
   */
  maskingFunction?: pulumi.Input<string>;
  /** An SQL literal written into the column, e.g. `'REDACTED'`, `0`, `NULL`. */
  maskingValue?: pulumi.Input<string>;
}

/**
 * As read: A column of a table and what masks it on an anonymized branch: a PostgreSQL Anonymizer function or
 * a literal value, not both.
 */
export interface BranchMaskingRuleOutputs {
  /** The database. */
  databaseName: string;
  /** The schema of the table (`public` for most). */
  schemaName: string;
  /** The table. */
  tableName: string;
  /** The column masked. */
  columnName: string;
  /**
   * A PostgreSQL Anonymizer expression whose value replaces the column's, e.g. `anon.fake_email()`,
   * `anon.random_string(10)`, `anon.hash(email)`.
   */
  maskingFunction?: string;
  /** An SQL literal written into the column, e.g. `'REDACTED'`, `0`, `NULL`. */
  maskingValue?: string;
}

/**
 * After `check`: A column of a table and what masks it on an anonymized branch: a PostgreSQL Anonymizer
 * function or a literal value, not both.
 */
export interface BranchMaskingRuleInputs {
  /** The database. */
  databaseName: string;
  /** The schema of the table (`public` for most). */
  schemaName: string;
  /** The table. */
  tableName: string;
  /** The column masked. */
  columnName: string;
  /**
   * A PostgreSQL Anonymizer expression whose value replaces the column's, e.g. `anon.fake_email()`,
   * `anon.random_string(10)`, `anon.hash(email)`.
   */
  maskingFunction?: string;
  /** An SQL literal written into the column, e.g. `'REDACTED'`, `0`, `NULL`. */
  maskingValue?: string;
}

/**
 * A restore of the branch from a snapshot: a new branch is made from the snapshot and takes the branch's name
 * and computes; the branch it replaces is renamed, then deleted or kept.
 */
export interface BranchRestoreArgs {
  /**
   * The snapshot to restore (a `Snapshot`'s `snapshotId`), of this project (checked at preview). A new value
   * restores again; the same value restores nothing.
   */
  snapshotId: pulumi.Input<string>;
  /**
   * What becomes of the branch the restore replaces, renamed `<name>-before-restore-<hash>`: `delete` (the
   * default) deletes it once the restored branch serves; `keep` leaves it, and the stack no longer manages
   * it. Read at the restore only.
   */
  original?: pulumi.Input<"delete" | "keep">;
}

/**
 * As read: A restore of the branch from a snapshot: a new branch is made from the snapshot and takes the
 * branch's name and computes; the branch it replaces is renamed, then deleted or kept.
 */
export interface BranchRestoreOutputs {
  /**
   * The snapshot to restore (a `Snapshot`'s `snapshotId`), of this project (checked at preview). A new value
   * restores again; the same value restores nothing.
   */
  snapshotId: string;
  /**
   * What becomes of the branch the restore replaces, renamed `<name>-before-restore-<hash>`: `delete` (the
   * default) deletes it once the restored branch serves; `keep` leaves it, and the stack no longer manages
   * it. Read at the restore only.
   */
  original?: "delete" | "keep";
}

/**
 * After `check`: A restore of the branch from a snapshot: a new branch is made from the snapshot and takes
 * the branch's name and computes; the branch it replaces is renamed, then deleted or kept.
 */
export interface BranchRestoreInputs {
  /**
   * The snapshot to restore (a `Snapshot`'s `snapshotId`), of this project (checked at preview). A new value
   * restores again; the same value restores nothing.
   */
  snapshotId: string;
  /**
   * What becomes of the branch the restore replaces, renamed `<name>-before-restore-<hash>`: `delete` (the
   * default) deletes it once the restored branch serves; `keep` leaves it, and the stack no longer manages
   * it. Read at the restore only.
   */
  original?: "delete" | "keep";
}

/** Inputs of a {@link Branch}. */
export interface BranchArgs {
  /** The project. Changing it replaces the branch (the old one is deleted first). */
  projectId: pulumi.Input<string>;
  /**
   * The branch this one starts from (its data at creation). Changing it replaces the branch (the old one is
   * deleted first).
   */
  parentId?: pulumi.Input<string>;
  /**
   * RFC 3339 time: the branch starts from its parent's data as it was then (point in time), which must lie
   * inside the project's history retention and after the parent was made (checked at preview). Fixed at
   * creation: a change replaces the branch (the old one is deleted first); removing it changes nothing.
   */
  parentTimestamp?: pulumi.Input<string>;
  /**
   * A write-ahead log position of the parent (`0/1F2A3B8`): the branch starts from the parent's data as it
   * was there; not with `parentTimestamp`. Fixed at creation: a change replaces the branch (the old one is
   * deleted first); removing it changes nothing.
   */
  parentLsn?: pulumi.Input<string>;
  /**
   * `schema-only` starts the branch with its parent's schema and none of its rows (a root branch without a
   * parent link; it needs `compute`, and cannot be reset); `parent-data` (the default) with the parent's
   * data. Fixed at creation: a change replaces the branch (the old one is deleted first); removing it changes
   * nothing.
   */
  initSource?: pulumi.Input<"parent-data" | "schema-only">;
  /**
   * The branch's name, 1–256 characters, unique in the project. Renamed in place. Without it the provider
   * names the branch `<resource name>-<hash>`, so that a killed run's branch is found again.
   */
  name?: pulumi.Input<string>;
  /**
   * A protected branch cannot be deleted or reset (paid plans). Changed in place; destroy refuses a protected
   * branch.
   */
  protected?: pulumi.Input<boolean>;
  /**
   * RFC 3339 time at which the service deletes the branch: in the future, at most 30 days ahead; not on a
   * protected or default branch. Changed in place; removing it clears the expiration.
   */
  expiresAt?: pulumi.Input<string>;
  /**
   * The branch's read_write compute, created in the same request as the branch and changed in place (a size
   * change restarts it). Without it the branch has no compute (add one later here, or with `Compute`).
   */
  compute?: pulumi.Input<BranchComputeArgs>;
  /**
   * Any string; a change resets the branch to its parent's latest data (restore), keeping its id. The
   * branch's own changes are lost: the preview says so. A branch with child branches keeps its state before
   * the reset as a new branch `<name>-before-reset-<time>`, which takes the children (the stack does not
   * manage it).
   */
  resetTrigger?: pulumi.Input<string>;
  /**
   * Key/value pairs the branch carries (e.g. `{ pr: "42", repo: "acme/api" }`), given when the branch is
   * created, beside the provider's own (`pulumi-project`, `pulumi-stack`, `pulumi-resource`, which name the
   * stack that made it). The service offers no way to change them afterwards: a later change is not applied,
   * and the preview says so. At most 47 pairs; keys other than the provider's.
   */
  annotations?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Makes the branch anonymized (Neon's anonymized branches are Beta): it is made from its parent and these
   * rules mask its own copy of the data (PostgreSQL Anonymizer's static masking), the parent keeping the
   * originals; the create waits for the run. Checked at preview against the parent's databases, tables and
   * columns. A change of the rules is applied in place and masks nothing by itself: change `anonymizeTrigger`
   * to run them again; a reset (`resetTrigger`) runs them right after it, and a run that did not end masked
   * is run again by the next update. Declaring rules on a branch made without them, or removing them all,
   * replaces the branch (its kind is fixed when it is made). Secret: Neon's document marks every field of a
   * rule sensitive.
   */
  maskingRules?: pulumi.Input<pulumi.Input<BranchMaskingRuleArgs>[]>;
  /**
   * Any string; a change runs the branch's masking rules again on its current data and waits for the run.
   * Only with `maskingRules`.
   */
  anonymizeTrigger?: pulumi.Input<string>;
  /**
   * Restores the branch from a snapshot: a new branch is made from the snapshot's data and takes this
   * branch's name and computes (same hosts); the resource's id becomes the new branch's, and the roles,
   * databases, computes, snapshots and child branches that name `branch.id` follow it, not recreated. The
   * branch it replaces is renamed, then deleted or kept (`original`); the preview says which and sends
   * nothing. A killed run's next `up` finishes the restore without a second one. A new `snapshotId` restores
   * again; removing `restoreFrom` changes nothing. A Branch declared with it from the start, or made anew
   * while it is declared (a replacement, `--replace`), is made from the snapshot.
   */
  restoreFrom?: pulumi.Input<BranchRestoreArgs>;
  /**
   * Manage the project's default branch instead of creating one: its name, protection and primary compute's
   * size follow the inputs; destroy leaves it in place.
   */
  adoptDefault?: pulumi.Input<boolean>;
  /**
   * Adopt an existing branch instead of creating one: `"<projectId>/<branchId>"`. The declared inputs must
   * describe it as it is. Deleting the resource deletes the branch.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link Branch}. */
export interface BranchOutputs {
  /** The project. Changing it replaces the branch (the old one is deleted first). */
  projectId: string;
  /**
   * The branch this one starts from (its data at creation). Changing it replaces the branch (the old one is
   * deleted first).
   */
  parentId?: string;
  /**
   * RFC 3339 time: the branch starts from its parent's data as it was then (point in time), which must lie
   * inside the project's history retention and after the parent was made (checked at preview). Fixed at
   * creation: a change replaces the branch (the old one is deleted first); removing it changes nothing.
   */
  parentTimestamp?: string;
  /**
   * A write-ahead log position of the parent (`0/1F2A3B8`): the branch starts from the parent's data as it
   * was there; not with `parentTimestamp`. Fixed at creation: a change replaces the branch (the old one is
   * deleted first); removing it changes nothing.
   */
  parentLsn?: string;
  /**
   * `schema-only` starts the branch with its parent's schema and none of its rows (a root branch without a
   * parent link; it needs `compute`, and cannot be reset); `parent-data` (the default) with the parent's
   * data. Fixed at creation: a change replaces the branch (the old one is deleted first); removing it changes
   * nothing.
   */
  initSource?: "parent-data" | "schema-only";
  /**
   * The branch's name, 1–256 characters, unique in the project. Renamed in place. Without it the provider
   * names the branch `<resource name>-<hash>`, so that a killed run's branch is found again.
   */
  name: string;
  /**
   * A protected branch cannot be deleted or reset (paid plans). Changed in place; destroy refuses a protected
   * branch.
   */
  protected: boolean;
  /**
   * RFC 3339 time at which the service deletes the branch: in the future, at most 30 days ahead; not on a
   * protected or default branch. Changed in place; removing it clears the expiration.
   */
  expiresAt?: string;
  /**
   * The branch's read_write compute, created in the same request as the branch and changed in place (a size
   * change restarts it). Without it the branch has no compute (add one later here, or with `Compute`).
   */
  compute?: BranchComputeOutputs;
  /**
   * Any string; a change resets the branch to its parent's latest data (restore), keeping its id. The
   * branch's own changes are lost: the preview says so. A branch with child branches keeps its state before
   * the reset as a new branch `<name>-before-reset-<time>`, which takes the children (the stack does not
   * manage it).
   */
  resetTrigger?: string;
  /**
   * Key/value pairs the branch carries (e.g. `{ pr: "42", repo: "acme/api" }`), given when the branch is
   * created, beside the provider's own (`pulumi-project`, `pulumi-stack`, `pulumi-resource`, which name the
   * stack that made it). The service offers no way to change them afterwards: a later change is not applied,
   * and the preview says so. At most 47 pairs; keys other than the provider's.
   */
  annotations?: Record<string, string>;
  /**
   * Makes the branch anonymized (Neon's anonymized branches are Beta): it is made from its parent and these
   * rules mask its own copy of the data (PostgreSQL Anonymizer's static masking), the parent keeping the
   * originals; the create waits for the run. Checked at preview against the parent's databases, tables and
   * columns. A change of the rules is applied in place and masks nothing by itself: change `anonymizeTrigger`
   * to run them again; a reset (`resetTrigger`) runs them right after it, and a run that did not end masked
   * is run again by the next update. Declaring rules on a branch made without them, or removing them all,
   * replaces the branch (its kind is fixed when it is made). Secret: Neon's document marks every field of a
   * rule sensitive.
   */
  maskingRules?: BranchMaskingRuleOutputs[];
  /**
   * Any string; a change runs the branch's masking rules again on its current data and waits for the run.
   * Only with `maskingRules`.
   */
  anonymizeTrigger?: string;
  /**
   * An anonymized branch's state (`anonymized` once its rules ran; a run that ends in `error` fails the step
   * that ran it, which says what to check).
   */
  anonymizationState?: string;
  /**
   * Restores the branch from a snapshot: a new branch is made from the snapshot's data and takes this
   * branch's name and computes (same hosts); the resource's id becomes the new branch's, and the roles,
   * databases, computes, snapshots and child branches that name `branch.id` follow it, not recreated. The
   * branch it replaces is renamed, then deleted or kept (`original`); the preview says which and sends
   * nothing. A killed run's next `up` finishes the restore without a second one. A new `snapshotId` restores
   * again; removing `restoreFrom` changes nothing. A Branch declared with it from the start, or made anew
   * while it is declared (a replacement, `--replace`), is made from the snapshot.
   */
  restoreFrom?: BranchRestoreOutputs;
  /**
   * Manage the project's default branch instead of creating one: its name, protection and primary compute's
   * size follow the inputs; destroy leaves it in place.
   */
  adoptDefault?: boolean;
  /**
   * Adopt an existing branch instead of creating one: `"<projectId>/<branchId>"`. The declared inputs must
   * describe it as it is. Deleting the resource deletes the branch.
   */
  importId?: string;
  /** Whether this is the project's default branch. */
  default: boolean;
  /** `init`, `resetting`, `ready` or `archived`, as of the last read. */
  currentState?: string;
  /** When the branch was created (ISO 8601 UTC). */
  createdAt?: string;
  /** The id of the branch's read_write compute, when it has one. */
  computeId?: string;
  /**
   * The state of the branch's read_write compute as of the last read (`init`, `active` or `idle`); `init`
   * means it has never started (its first start failed), which the next `pulumi up` fixes by starting it.
   */
  computeState?: string;
  /** The host name of the branch's read_write compute, when it has one. */
  host?: string;
  /** `true` for the project's default branch taken over with `adoptDefault` (destroy leaves it in place). */
  adopted?: boolean;
}

/** Inputs of a {@link Branch} after `check`: what its steps receive. */
export interface BranchInputs {
  /** The project. Changing it replaces the branch (the old one is deleted first). */
  projectId: string;
  /**
   * The branch this one starts from (its data at creation). Changing it replaces the branch (the old one is
   * deleted first).
   */
  parentId?: string;
  /**
   * RFC 3339 time: the branch starts from its parent's data as it was then (point in time), which must lie
   * inside the project's history retention and after the parent was made (checked at preview). Fixed at
   * creation: a change replaces the branch (the old one is deleted first); removing it changes nothing.
   */
  parentTimestamp?: string;
  /**
   * A write-ahead log position of the parent (`0/1F2A3B8`): the branch starts from the parent's data as it
   * was there; not with `parentTimestamp`. Fixed at creation: a change replaces the branch (the old one is
   * deleted first); removing it changes nothing.
   */
  parentLsn?: string;
  /**
   * `schema-only` starts the branch with its parent's schema and none of its rows (a root branch without a
   * parent link; it needs `compute`, and cannot be reset); `parent-data` (the default) with the parent's
   * data. Fixed at creation: a change replaces the branch (the old one is deleted first); removing it changes
   * nothing.
   */
  initSource?: "parent-data" | "schema-only";
  /**
   * The branch's name, 1–256 characters, unique in the project. Renamed in place. Without it the provider
   * names the branch `<resource name>-<hash>`, so that a killed run's branch is found again.
   */
  name?: string;
  /**
   * A protected branch cannot be deleted or reset (paid plans). Changed in place; destroy refuses a protected
   * branch.
   */
  protected?: boolean;
  /**
   * RFC 3339 time at which the service deletes the branch: in the future, at most 30 days ahead; not on a
   * protected or default branch. Changed in place; removing it clears the expiration.
   */
  expiresAt?: string;
  /**
   * The branch's read_write compute, created in the same request as the branch and changed in place (a size
   * change restarts it). Without it the branch has no compute (add one later here, or with `Compute`).
   */
  compute?: BranchComputeInputs;
  /**
   * Any string; a change resets the branch to its parent's latest data (restore), keeping its id. The
   * branch's own changes are lost: the preview says so. A branch with child branches keeps its state before
   * the reset as a new branch `<name>-before-reset-<time>`, which takes the children (the stack does not
   * manage it).
   */
  resetTrigger?: string;
  /**
   * Key/value pairs the branch carries (e.g. `{ pr: "42", repo: "acme/api" }`), given when the branch is
   * created, beside the provider's own (`pulumi-project`, `pulumi-stack`, `pulumi-resource`, which name the
   * stack that made it). The service offers no way to change them afterwards: a later change is not applied,
   * and the preview says so. At most 47 pairs; keys other than the provider's.
   */
  annotations?: Record<string, string>;
  /**
   * Makes the branch anonymized (Neon's anonymized branches are Beta): it is made from its parent and these
   * rules mask its own copy of the data (PostgreSQL Anonymizer's static masking), the parent keeping the
   * originals; the create waits for the run. Checked at preview against the parent's databases, tables and
   * columns. A change of the rules is applied in place and masks nothing by itself: change `anonymizeTrigger`
   * to run them again; a reset (`resetTrigger`) runs them right after it, and a run that did not end masked
   * is run again by the next update. Declaring rules on a branch made without them, or removing them all,
   * replaces the branch (its kind is fixed when it is made). Secret: Neon's document marks every field of a
   * rule sensitive.
   */
  maskingRules?: BranchMaskingRuleInputs[];
  /**
   * Any string; a change runs the branch's masking rules again on its current data and waits for the run.
   * Only with `maskingRules`.
   */
  anonymizeTrigger?: string;
  /**
   * Restores the branch from a snapshot: a new branch is made from the snapshot's data and takes this
   * branch's name and computes (same hosts); the resource's id becomes the new branch's, and the roles,
   * databases, computes, snapshots and child branches that name `branch.id` follow it, not recreated. The
   * branch it replaces is renamed, then deleted or kept (`original`); the preview says which and sends
   * nothing. A killed run's next `up` finishes the restore without a second one. A new `snapshotId` restores
   * again; removing `restoreFrom` changes nothing. A Branch declared with it from the start, or made anew
   * while it is declared (a replacement, `--replace`), is made from the snapshot.
   */
  restoreFrom?: BranchRestoreInputs;
  /**
   * Manage the project's default branch instead of creating one: its name, protection and primary compute's
   * size follow the inputs; destroy leaves it in place.
   */
  adoptDefault?: boolean;
  /**
   * Adopt an existing branch instead of creating one: `"<projectId>/<branchId>"`. The declared inputs must
   * describe it as it is. Deleting the resource deletes the branch.
   */
  importId?: string;
}
