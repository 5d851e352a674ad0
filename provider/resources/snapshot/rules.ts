/**
 * The rules of `Snapshot` that its preview (`check`) and its create share: the history window a
 * `timestamp` must fall in (judged as a Branch's `parentTimestamp` is, by the same code), the snapshots
 * of a branch with a name, what a declared name held by a snapshot no resource manages is told, and why
 * an `importId` cannot be taken.
 */
import type { NeonClient, Snapshot } from "../../api";
import type { CheckFailure } from "../check";
import type { Checked } from "../kit";
import type { Runtime } from "../runtime";
import { windowFailures as historyWindowFailures, type WindowWords } from "../branch/history";
import { isNamedOn, parseSnapshotRef, resourceId } from "./mapping";
import type { SnapshotInputs } from "./types";

/**
 * Failures of `timestamp` against the project's history retention and the branch's creation (the
 * service's restore window), judged as a Branch's `parentTimestamp` is, by the same code.
 */
export async function windowFailures(rt: Runtime, i: Checked<SnapshotInputs>): Promise<CheckFailure[]> {
  if (typeof i.timestamp !== "string") return [];
  return historyWindowFailures(rt, i.projectId, i.branchId, i.timestamp, SNAPSHOT_WORDS);
}

const SNAPSHOT_WORDS: WindowWords = {
  property: "timestamp",
  past: "the branch's past",
  latest: "to take the branch's data as it is",
  replaced: "snapshot",
};

/** The project's snapshots of `branchId` named `name`. */
export async function snapshotsNamed(
  api: NeonClient,
  projectId: string,
  branchId: string,
  name: string,
): Promise<Snapshot[]> {
  return (await api.snapshots.list(projectId)).filter((s) => isNamedOn(s, name, branchId));
}

/**
 * The message for a declared name that a snapshot of the branch already has, which no resource of
 * this stack manages (a snapshot carries no mark of who made it: a killed run's reads the same).
 */
export function heldMessage(projectId: string, name: string, s: Snapshot): string {
  return (
    `snapshot ${s.id} of branch ${s.source_branch_id} is already named "${name}" (taken ${s.created_at}), and no ` +
    "resource of this stack manages it (a snapshot carries no mark of who made it). To manage it here, set " +
    `importId: "${resourceId({ projectId, snapshotId: s.id })}" (also for a Snapshot renamed without an alias, ` +
    "or one a killed run made); otherwise give this snapshot another name, or delete that one first"
  );
}

/**
 * Why the snapshot `importId` names cannot be this resource's (`s`: that snapshot, if the project has
 * it): it is not there, or it is not what the inputs declare.
 */
export function importProblem(
  importId: string,
  i: SnapshotInputs,
  s: Snapshot | undefined,
): { property: string; reason: string } | undefined {
  const ref = parseSnapshotRef(importId);
  if (!s) {
    return {
      property: "importId",
      reason:
        `importId ${importId}: project ${ref.projectId} has no snapshot ${ref.snapshotId} (or it expired). Check ` +
        "importId (the API's list of the project's snapshots names them), or remove it to take a new snapshot",
    };
  }
  const differs = (property: string, declared: unknown, actual: unknown) =>
    declared !== undefined && actual !== undefined && declared !== actual
      ? {
          property,
          reason:
            `importId ${importId}: the snapshot's ${property} is ${JSON.stringify(actual)}, not ` +
            `${JSON.stringify(declared)}; set ${property} to ${JSON.stringify(actual)} (the declared inputs must ` +
            "describe the snapshot as it is)",
        }
      : undefined;
  return (
    differs("branchId", i.branchId, s.source_branch_id) ??
    differs("name", i.name, s.name) ??
    differs("lsn", i.lsn, s.lsn?.toUpperCase()) ??
    (i.timestamp !== undefined &&
    s.timestamp !== undefined &&
    Date.parse(i.timestamp) !== Date.parse(s.timestamp)
      ? differs("timestamp", i.timestamp, s.timestamp)
      : undefined) ??
    (i.expiresAt !== undefined && Date.parse(i.expiresAt) !== Date.parse(s.expires_at ?? "")
      ? differs("expiresAt", i.expiresAt, s.expires_at ?? "(none)")
      : undefined)
  );
}
