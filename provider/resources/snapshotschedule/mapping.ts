/**
 * `SnapshotSchedule`'s mapping to and from the API: its resource id (`<projectId>/<branchId>`, as
 * `importId` writes it), the schedule's items and the outputs. Pure.
 */
import type { BackupScheduleItem } from "../../api";
import { splitProjectScoped, stateOf, type Bag } from "../kit";
import { SNAPSHOT_SCHEDULE_DEFINITION } from "./definition";
import { canonicalItem } from "./inputs";
import type { SnapshotScheduleItemInputs } from "./types";

/** Where a schedule is: the branch it belongs to. */
export interface ScheduleRef {
  projectId: string;
  branchId: string;
}

/** The resource id of a schedule: `"<projectId>/<branchId>"`. */
export const resourceId = (r: ScheduleRef): string => `${r.projectId}/${r.branchId}`;

/** Splits a resource id (or an `importId`); throws naming the remedy for any other shape. */
export function parseScheduleRef(id: string): ScheduleRef {
  const [projectId, branchId] = splitProjectScoped(id, "snapshot schedule", "branchId");
  return { projectId, branchId };
}

/** `the snapshot schedule of branch br-… in project p`. */
export const describeSchedule = (r: ScheduleRef): string =>
  `the snapshot schedule of branch ${r.branchId} in project ${r.projectId}`;

/** The service's items (`BackupScheduleItem`) of the declared schedule. */
export function toApi(schedule: readonly SnapshotScheduleItemInputs[]): BackupScheduleItem[] {
  return schedule.map((i) => ({
    frequency: i.frequency,
    ...(i.hour !== undefined ? { hour: i.hour } : {}),
    ...(i.day !== undefined ? { day: i.day } : {}),
    ...(i.month !== undefined ? { month: i.month } : {}),
    ...(i.retentionSeconds !== undefined ? { retention_seconds: i.retentionSeconds } : {}),
  }));
}

/** The declared items of the service's schedule. */
export function fromApi(schedule: readonly BackupScheduleItem[]): SnapshotScheduleItemInputs[] {
  return schedule.map((i) =>
    canonicalItem({
      frequency: i.frequency as SnapshotScheduleItemInputs["frequency"],
      hour: i.hour,
      day: i.day,
      month: i.month,
      retentionSeconds: i.retention_seconds,
    }),
  );
}

/** The outputs: the inputs as given (for the next diff) and the schedule as the service holds it. */
export function toOutputs(inputs: Bag, ref: ScheduleRef, schedule: readonly BackupScheduleItem[]): Bag {
  return stateOf(SNAPSHOT_SCHEDULE_DEFINITION, inputs, {
    ...inputs,
    projectId: ref.projectId,
    branchId: ref.branchId,
    schedule: fromApi(schedule),
  });
}
