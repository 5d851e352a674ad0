/**
 * The snapshot calls of the client (`SnapshotCalls`, Beta in Neon's document, tag `Snapshot`): a
 * snapshot of a branch, the project's snapshots (the document has no read of one snapshot: the list
 * is the read), a rename, a delete, and a branch's schedule of automatic snapshots (`backup_schedule`).
 */
import { z } from "zod";
import { route } from "../http";
import type { Call } from "./call";
import { BranchSchema, OperationSchema, type Branch, type Operation } from "./schemas";

/** `Snapshot`: a copy of a branch's data at a point of its history. */
export const SnapshotSchema = z.object({
  id: z.string(),
  name: z.string(),
  lsn: z.string().optional(),
  timestamp: z.string().optional(),
  source_branch_id: z.string().optional(),
  created_at: z.string(),
  expires_at: z.string().optional(),
  manual: z.boolean().optional(),
  full_size: z.number().optional(),
  diff_size: z.number().optional(),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** `BackupScheduleItem`: one frequency of a branch's automatic snapshots. */
export const BackupScheduleItemSchema = z.object({
  frequency: z.string(),
  hour: z.number().optional(),
  day: z.number().optional(),
  month: z.number().optional(),
  retention_seconds: z.number().optional(),
});
export type BackupScheduleItem = z.infer<typeof BackupScheduleItemSchema>;

const BackupScheduleSchema = z.object({ schedule: z.array(BackupScheduleItemSchema) });

const SnapshotOperationsSchema = z.object({ snapshot: SnapshotSchema, operations: z.array(OperationSchema) });
const SnapshotsSchema = z.object({ snapshots: z.array(SnapshotSchema) });
const SnapshotAnswerSchema = z.object({ snapshot: SnapshotSchema });
const OperationsSchema = z.object({ operations: z.array(OperationSchema) });
const RestoredSchema = z.object({ branch: BranchSchema, operations: z.array(OperationSchema) });

/** What a restore sends: the new branch's name, the branch it is to replace, and whether to finalize at once. */
export interface SnapshotRestoreBody {
  name?: string;
  target_branch_id?: string;
  finalize_restore?: boolean;
}

/** Where in the branch's history a snapshot is taken, its name and its expiry (all optional). */
export interface SnapshotCreateQuery {
  lsn?: string;
  timestamp?: string;
  name?: string;
  expiresAt?: string;
}

/** The snapshot calls of the client. */
export interface SnapshotCalls {
  /**
   * Takes a snapshot of a branch. The document declares its options as query parameters (not a body);
   * it may start operations.
   */
  create(
    projectId: string,
    branchId: string,
    q: SnapshotCreateQuery,
  ): Promise<{ snapshot: Snapshot; operations: Operation[] }>;
  /** The project's snapshots. */
  list(projectId: string): Promise<Snapshot[]>;
  /** Renames a snapshot (the only change the document's update takes). */
  rename(projectId: string, snapshotId: string, name: string): Promise<Snapshot>;
  /** Deletes a snapshot; 404 when the project has no such snapshot. */
  delete(projectId: string, snapshotId: string): Promise<{ operations: Operation[] }>;
  /**
   * Restores a snapshot into a new branch (`restoreSnapshot`); with `finalize_restore` the new branch
   * also takes the target's place at once (see {@link finalizeRestore}).
   */
  restore(
    projectId: string,
    snapshotId: string,
    body: SnapshotRestoreBody,
  ): Promise<{ branch: Branch; operations: Operation[] }>;
  /**
   * Finalizes a restore (`finalizeRestoreBranch`): the restored branch takes the name and the computes of
   * the branch it replaces, which is renamed to `name` (the service picks one without it).
   */
  finalizeRestore(projectId: string, branchId: string, name?: string): Promise<{ operations: Operation[] }>;
  /** A branch's schedule of automatic snapshots (empty when it has none). */
  getSchedule(projectId: string, branchId: string): Promise<BackupScheduleItem[]>;
  /** Sets a branch's schedule of automatic snapshots whole; an empty one clears it. */
  setSchedule(projectId: string, branchId: string, schedule: readonly BackupScheduleItem[]): Promise<void>;
}

export function snapshotCalls(call: Call): SnapshotCalls {
  return {
    create: (projectId, branchId, q) =>
      call(
        route("POST /projects/{project_id}/branches/{branch_id}/snapshot", {
          project_id: projectId,
          branch_id: branchId,
        }),
        "create",
        `a snapshot of branch ${branchId} in project ${projectId}`,
        SnapshotOperationsSchema,
        { query: { lsn: q.lsn, timestamp: q.timestamp, name: q.name, expires_at: q.expiresAt } },
      ),
    list: (projectId) =>
      call(
        route("GET /projects/{project_id}/snapshots", { project_id: projectId }),
        "list",
        `the snapshots of project ${projectId}`,
        SnapshotsSchema,
        { map: (v) => v.snapshots },
      ),
    rename: (projectId, snapshotId, name) =>
      call(
        route("PATCH /projects/{project_id}/snapshots/{snapshot_id}", {
          project_id: projectId,
          snapshot_id: snapshotId,
        }),
        "rename",
        `snapshot ${snapshotId} of project ${projectId}`,
        SnapshotAnswerSchema,
        { body: { snapshot: { name } }, map: (v) => v.snapshot },
      ),
    delete: (projectId, snapshotId) =>
      call(
        route("DELETE /projects/{project_id}/snapshots/{snapshot_id}", {
          project_id: projectId,
          snapshot_id: snapshotId,
        }),
        "delete",
        `snapshot ${snapshotId} of project ${projectId}`,
        OperationsSchema,
      ),
    restore: (projectId, snapshotId, body) =>
      call(
        route("POST /projects/{project_id}/snapshots/{snapshot_id}/restore", {
          project_id: projectId,
          snapshot_id: snapshotId,
        }),
        "restore",
        `snapshot ${snapshotId} of project ${projectId}`,
        RestoredSchema,
        { body },
      ),
    finalizeRestore: (projectId, branchId, name) =>
      call(
        route("POST /projects/{project_id}/branches/{branch_id}/finalize_restore", {
          project_id: projectId,
          branch_id: branchId,
        }),
        "finalize",
        `the restore of branch ${branchId} in project ${projectId}`,
        OperationsSchema,
        { body: name !== undefined ? { name } : {} },
      ),
    getSchedule: (projectId, branchId) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/backup_schedule", {
          project_id: projectId,
          branch_id: branchId,
        }),
        "read",
        `the backup schedule of branch ${branchId} in project ${projectId}`,
        BackupScheduleSchema,
        { map: (v) => v.schedule },
      ),
    setSchedule: (projectId, branchId, schedule) =>
      call(
        route("PUT /projects/{project_id}/branches/{branch_id}/backup_schedule", {
          project_id: projectId,
          branch_id: branchId,
        }),
        "set",
        `the backup schedule of branch ${branchId} in project ${projectId}`,
        // `EmptyResponse`: nothing in the answer is read.
        z.unknown(),
        { body: { schedule }, map: () => undefined },
      ),
  };
}
