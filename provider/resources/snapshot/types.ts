// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `Snapshot`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link Snapshot}. */
export interface SnapshotArgs {
  /**
   * The project. Fixed at creation: the service changes only a snapshot's name, and a replacement would
   * delete the data the snapshot holds, so a change fails at preview; declare another Snapshot for another
   * branch or time.
   */
  projectId: pulumi.Input<string>;
  /**
   * The branch whose data the snapshot holds (`br-…`). Fixed at creation: the service changes only a
   * snapshot's name, and a replacement would delete the data the snapshot holds, so a change fails at
   * preview; declare another Snapshot for another branch or time. A replacement of that Branch (its id
   * unknown at preview) fails the preview too: remove the Snapshot from the program first (which deletes it),
   * or keep it outside the stack (`retainOnDelete`, then remove it).
   */
  branchId: pulumi.Input<string>;
  /**
   * The snapshot's name, 1–256 characters. Renamed in place. Without it the provider names the snapshot
   * `<resource name>-<hash>`, so that a killed run's snapshot is found again.
   */
  name?: pulumi.Input<string>;
  /**
   * RFC 3339 time: the snapshot holds the branch's data as it was then, which must lie inside the project's
   * history retention and after the branch was made (checked at preview); not with `lsn`. Without it (and
   * without `lsn`) the snapshot holds the data as it is when taken, and this output says when that was. Fixed
   * at creation: a change fails at preview; removing it changes nothing.
   */
  timestamp?: pulumi.Input<string>;
  /**
   * A write-ahead log position of the branch (`0/1F2A3B8`, kept in upper case) inside its history: the
   * snapshot holds the data as it was there; not with `timestamp`. Fixed at creation: a change fails at
   * preview; removing it changes nothing.
   */
  lsn?: pulumi.Input<string>;
  /**
   * RFC 3339 time, in the future, at which the service deletes the snapshot. Fixed at creation: the service
   * cannot change it, and a replacement would delete the data the snapshot holds, so a change (or its
   * removal) fails at preview; declare another Snapshot for another expiry.
   */
  expiresAt?: pulumi.Input<string>;
  /**
   * Adopt an existing snapshot instead of creating one: `"<projectId>/<snapshotId>"` (the API's list of the
   * project's snapshots names them). `branchId` must be its branch; a declared `name`, `timestamp`, `lsn` or
   * `expiresAt` must be its own. Read at creation only. Deleting the resource deletes the snapshot.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link Snapshot}. */
export interface SnapshotOutputs {
  /**
   * The project. Fixed at creation: the service changes only a snapshot's name, and a replacement would
   * delete the data the snapshot holds, so a change fails at preview; declare another Snapshot for another
   * branch or time.
   */
  projectId: string;
  /**
   * The branch whose data the snapshot holds (`br-…`). Fixed at creation: the service changes only a
   * snapshot's name, and a replacement would delete the data the snapshot holds, so a change fails at
   * preview; declare another Snapshot for another branch or time. A replacement of that Branch (its id
   * unknown at preview) fails the preview too: remove the Snapshot from the program first (which deletes it),
   * or keep it outside the stack (`retainOnDelete`, then remove it).
   */
  branchId: string;
  /**
   * The snapshot's name, 1–256 characters. Renamed in place. Without it the provider names the snapshot
   * `<resource name>-<hash>`, so that a killed run's snapshot is found again.
   */
  name: string;
  /**
   * RFC 3339 time: the snapshot holds the branch's data as it was then, which must lie inside the project's
   * history retention and after the branch was made (checked at preview); not with `lsn`. Without it (and
   * without `lsn`) the snapshot holds the data as it is when taken, and this output says when that was. Fixed
   * at creation: a change fails at preview; removing it changes nothing.
   */
  timestamp?: string;
  /**
   * A write-ahead log position of the branch (`0/1F2A3B8`, kept in upper case) inside its history: the
   * snapshot holds the data as it was there; not with `timestamp`. Fixed at creation: a change fails at
   * preview; removing it changes nothing.
   */
  lsn?: string;
  /**
   * RFC 3339 time, in the future, at which the service deletes the snapshot. Fixed at creation: the service
   * cannot change it, and a replacement would delete the data the snapshot holds, so a change (or its
   * removal) fails at preview; declare another Snapshot for another expiry.
   */
  expiresAt?: string;
  /**
   * Adopt an existing snapshot instead of creating one: `"<projectId>/<snapshotId>"` (the API's list of the
   * project's snapshots names them). `branchId` must be its branch; a declared `name`, `timestamp`, `lsn` or
   * `expiresAt` must be its own. Read at creation only. Deleting the resource deletes the snapshot.
   */
  importId?: string;
  /** The snapshot's id, as a restore names it. */
  snapshotId: string;
  /** The branch the snapshot was taken of, as the service reports it. */
  sourceBranchId?: string;
  /** When the snapshot was taken (ISO 8601 UTC). */
  createdAt: string;
  /** `true` for a snapshot taken on request (as this resource's are), `false` for a scheduled one. */
  manual?: boolean;
  /** The snapshot's full logical size in bytes, once the service has measured it (as of the last read). */
  fullSize?: number;
}

/** Inputs of a {@link Snapshot} after `check`: what its steps receive. */
export interface SnapshotInputs {
  /**
   * The project. Fixed at creation: the service changes only a snapshot's name, and a replacement would
   * delete the data the snapshot holds, so a change fails at preview; declare another Snapshot for another
   * branch or time.
   */
  projectId: string;
  /**
   * The branch whose data the snapshot holds (`br-…`). Fixed at creation: the service changes only a
   * snapshot's name, and a replacement would delete the data the snapshot holds, so a change fails at
   * preview; declare another Snapshot for another branch or time. A replacement of that Branch (its id
   * unknown at preview) fails the preview too: remove the Snapshot from the program first (which deletes it),
   * or keep it outside the stack (`retainOnDelete`, then remove it).
   */
  branchId: string;
  /**
   * The snapshot's name, 1–256 characters. Renamed in place. Without it the provider names the snapshot
   * `<resource name>-<hash>`, so that a killed run's snapshot is found again.
   */
  name?: string;
  /**
   * RFC 3339 time: the snapshot holds the branch's data as it was then, which must lie inside the project's
   * history retention and after the branch was made (checked at preview); not with `lsn`. Without it (and
   * without `lsn`) the snapshot holds the data as it is when taken, and this output says when that was. Fixed
   * at creation: a change fails at preview; removing it changes nothing.
   */
  timestamp?: string;
  /**
   * A write-ahead log position of the branch (`0/1F2A3B8`, kept in upper case) inside its history: the
   * snapshot holds the data as it was there; not with `timestamp`. Fixed at creation: a change fails at
   * preview; removing it changes nothing.
   */
  lsn?: string;
  /**
   * RFC 3339 time, in the future, at which the service deletes the snapshot. Fixed at creation: the service
   * cannot change it, and a replacement would delete the data the snapshot holds, so a change (or its
   * removal) fails at preview; declare another Snapshot for another expiry.
   */
  expiresAt?: string;
  /**
   * Adopt an existing snapshot instead of creating one: `"<projectId>/<snapshotId>"` (the API's list of the
   * project's snapshots names them). `branchId` must be its branch; a declared `name`, `timestamp`, `lsn` or
   * `expiresAt` must be its own. Read at creation only. Deleting the resource deletes the snapshot.
   */
  importId?: string;
}
