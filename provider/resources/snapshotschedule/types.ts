// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `SnapshotSchedule`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** One frequency of a branch's automatic snapshots, and how long their snapshots are kept. */
export interface SnapshotScheduleItemArgs {
  /** How often a snapshot is taken: `hourly`, `daily`, `weekly`, `monthly` or `yearly`. */
  frequency: pulumi.Input<"hourly" | "daily" | "weekly" | "monthly" | "yearly">;
  /** The hour of the day the snapshot is taken, 0–23 (where the frequency has one). */
  hour?: pulumi.Input<number>;
  /** The day of the week or of the month the snapshot is taken, 1–31 (where the frequency has one). */
  day?: pulumi.Input<number>;
  /** The month of the year the snapshot is taken, 1–12 (where the frequency has one). */
  month?: pulumi.Input<number>;
  /**
   * How long the service keeps each snapshot, in seconds (at least 3600); without it, until it is deleted.
   */
  retentionSeconds?: pulumi.Input<number>;
}

/** As read: One frequency of a branch's automatic snapshots, and how long their snapshots are kept. */
export interface SnapshotScheduleItemOutputs {
  /** How often a snapshot is taken: `hourly`, `daily`, `weekly`, `monthly` or `yearly`. */
  frequency: "hourly" | "daily" | "weekly" | "monthly" | "yearly";
  /** The hour of the day the snapshot is taken, 0–23 (where the frequency has one). */
  hour?: number;
  /** The day of the week or of the month the snapshot is taken, 1–31 (where the frequency has one). */
  day?: number;
  /** The month of the year the snapshot is taken, 1–12 (where the frequency has one). */
  month?: number;
  /**
   * How long the service keeps each snapshot, in seconds (at least 3600); without it, until it is deleted.
   */
  retentionSeconds?: number;
}

/** After `check`: One frequency of a branch's automatic snapshots, and how long their snapshots are kept. */
export interface SnapshotScheduleItemInputs {
  /** How often a snapshot is taken: `hourly`, `daily`, `weekly`, `monthly` or `yearly`. */
  frequency: "hourly" | "daily" | "weekly" | "monthly" | "yearly";
  /** The hour of the day the snapshot is taken, 0–23 (where the frequency has one). */
  hour?: number;
  /** The day of the week or of the month the snapshot is taken, 1–31 (where the frequency has one). */
  day?: number;
  /** The month of the year the snapshot is taken, 1–12 (where the frequency has one). */
  month?: number;
  /**
   * How long the service keeps each snapshot, in seconds (at least 3600); without it, until it is deleted.
   */
  retentionSeconds?: number;
}

/** Inputs of a {@link SnapshotSchedule}. */
export interface SnapshotScheduleArgs {
  /** The project. Changing it clears the schedule on this branch, then sets it on the new one. */
  projectId: pulumi.Input<string>;
  /**
   * The branch (`br-…`) whose snapshots are scheduled. Changing it clears the schedule on this branch, then
   * sets it on the new one.
   */
  branchId: pulumi.Input<string>;
  /**
   * The frequencies of the branch's automatic snapshots (at least one; the service's whole schedule). Changed
   * in place.
   */
  schedule: pulumi.Input<pulumi.Input<SnapshotScheduleItemArgs>[]>;
  /**
   * Manage the schedule a branch already has: `"<projectId>/<branchId>"`, naming this very branch. The
   * declared `schedule` replaces it. Read at creation only. Deleting the resource clears the schedule.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link SnapshotSchedule}. */
export interface SnapshotScheduleOutputs {
  /** The project. Changing it clears the schedule on this branch, then sets it on the new one. */
  projectId: string;
  /**
   * The branch (`br-…`) whose snapshots are scheduled. Changing it clears the schedule on this branch, then
   * sets it on the new one.
   */
  branchId: string;
  /**
   * The frequencies of the branch's automatic snapshots (at least one; the service's whole schedule). Changed
   * in place.
   */
  schedule: SnapshotScheduleItemOutputs[];
  /**
   * Manage the schedule a branch already has: `"<projectId>/<branchId>"`, naming this very branch. The
   * declared `schedule` replaces it. Read at creation only. Deleting the resource clears the schedule.
   */
  importId?: string;
}

/** Inputs of a {@link SnapshotSchedule} after `check`: what its steps receive. */
export interface SnapshotScheduleInputs {
  /** The project. Changing it clears the schedule on this branch, then sets it on the new one. */
  projectId: string;
  /**
   * The branch (`br-…`) whose snapshots are scheduled. Changing it clears the schedule on this branch, then
   * sets it on the new one.
   */
  branchId: string;
  /**
   * The frequencies of the branch's automatic snapshots (at least one; the service's whole schedule). Changed
   * in place.
   */
  schedule: SnapshotScheduleItemInputs[];
  /**
   * Manage the schedule a branch already has: `"<projectId>/<branchId>"`, naming this very branch. The
   * declared `schedule` replaces it. Read at creation only. Deleting the resource clears the schedule.
   */
  importId?: string;
}
