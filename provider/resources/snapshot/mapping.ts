/**
 * `Snapshot`'s mapping to and from the API: its resource id (`<projectId>/<snapshotId>`, as
 * `importId` writes it), the deterministic auto-name, the create's query and the outputs. Pure.
 */
import type { Snapshot, SnapshotCreateQuery } from "../../api";
import { derivedName, splitProjectScoped, stateOf, type Bag } from "../kit";
import { normalizedTime } from "../branch/inputs";
import { SNAPSHOT_DEFINITION } from "./definition";
import type { SnapshotInputs } from "./types";

/** Where a snapshot is: its project and its id. */
export interface SnapshotRef {
  projectId: string;
  snapshotId: string;
}

/** The resource id of a snapshot: `"<projectId>/<snapshotId>"`. */
export const resourceId = (r: SnapshotRef): string => `${r.projectId}/${r.snapshotId}`;

/** Splits a resource id (or an `importId`); throws naming the remedy for any other shape. */
export function parseSnapshotRef(id: string): SnapshotRef {
  const [projectId, snapshotId] = splitProjectScoped(id, "snapshot", "snapshotId");
  return { projectId, snapshotId };
}

/**
 * `<resource name>-<7 hex digits>` from the URN, the project and the branch: a killed run's snapshot
 * is found again by the next run, and no other resource of any stack derives the same name.
 */
export function autoName(urn: string, projectId: string, branchId: string): string {
  return derivedName(urn, [projectId, branchId], "snapshot", 200);
}

/** The name a create gives the snapshot: the declared one, else derived from the URN. */
export function snapshotName(i: SnapshotInputs & Bag): string | undefined {
  const urn = typeof i.__urn === "string" ? i.__urn : undefined;
  return i.name ?? (urn ? autoName(urn, i.projectId, i.branchId) : undefined);
}

/** `snapshot snap-… ("name") of branch br-…`. */
export function describeSnapshot(s: { id?: string; name?: string; source_branch_id?: string }): string {
  const parts = [s.id, s.name !== undefined ? `("${s.name}")` : undefined].filter((x) => x !== undefined);
  return `snapshot ${parts.join(" ")}${s.source_branch_id ? ` of branch ${s.source_branch_id}` : ""}`;
}

/** The create's query parameters (the document declares no body). */
export function createQuery(i: SnapshotInputs, name: string): SnapshotCreateQuery {
  return { name, timestamp: i.timestamp, lsn: i.lsn, expiresAt: i.expiresAt };
}

/** True when `s` is a snapshot of `branchId` named `name`: the mark a lost answer's snapshot is found by. */
export const isNamedOn = (s: Snapshot, name: string, branchId: string): boolean =>
  s.name === name && s.source_branch_id === branchId;

const time = (t: string | undefined) =>
  t === undefined || Number.isNaN(Date.parse(t)) ? t : normalizedTime(t);

/** The outputs: the inputs as given (for the next diff) and the snapshot as the service reports it. */
export function toOutputs(inputs: Bag, projectId: string, s: Snapshot): Bag {
  return stateOf(SNAPSHOT_DEFINITION, inputs, {
    ...inputs,
    projectId,
    // The declared branch: after a restore it is the restored branch that serves the name, while the
    // snapshot's source stays the original (sourceBranchId); a snapshot never changes its source.
    branchId: inputs.branchId ?? s.source_branch_id,
    name: s.name,
    timestamp: time(s.timestamp) ?? inputs.timestamp,
    lsn: s.lsn?.toUpperCase() ?? inputs.lsn,
    expiresAt: time(s.expires_at),
    snapshotId: s.id,
    sourceBranchId: s.source_branch_id,
    createdAt: s.created_at,
    manual: s.manual,
    fullSize: s.full_size,
  });
}
