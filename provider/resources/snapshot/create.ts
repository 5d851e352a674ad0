/**
 * The create of `Snapshot`: once (a lost answer is reconciled by the snapshot's name and branch), a
 * killed run's snapshot of the derived name taken over, or the snapshot `importId` names taken over.
 * A declared name that a snapshot of the branch already has is refused (nothing marks who made it).
 */
import type * as pulumi from "@pulumi/pulumi";
import { isNotFound, type Operation, type Snapshot } from "../../api";
import { createOnce, keptInStack, waitingLine, type Checked } from "../kit";
import type { Runtime } from "../runtime";
import { SNAPSHOT_NOUN } from "./definition";
import {
  createQuery,
  describeSnapshot,
  parseSnapshotRef,
  resourceId,
  snapshotName,
  toOutputs,
} from "./mapping";
import { heldMessage, importProblem, snapshotsNamed } from "./rules";
import type { SnapshotInputs } from "./types";

/** Takes the declared snapshot, once; or, given `importId`, takes over that snapshot. */
export async function create(rt: Runtime, i: Checked<SnapshotInputs>): Promise<pulumi.dynamic.CreateResult> {
  if (i.importId !== undefined) return importSnapshot(rt, i, i.importId);
  const api = rt.client();
  const log = rt.logger(i);
  const { projectId, branchId } = i;
  const name = snapshotName(i);
  if (!name) throw new Error("Failed to create a snapshot: it has no name and no URN to derive one from");
  const urn = typeof i.__urn === "string" ? i.__urn : undefined;
  // The snapshot a replacement of this run deleted first is no holder of the name.
  const replaced = urn ? rt.ledger.snapshotsReplaced.get(urn) : undefined;
  const named = async () =>
    (await snapshotsNamed(api, projectId, branchId, name)).filter((s) => s.id !== replaced);
  let snapshot: Snapshot | undefined;
  let operations: Operation[] = [];
  let verb = "took";
  await rt.serialized(projectId, async () => {
    const held = await named();
    if (held.length > 0) {
      if (i.name !== undefined || held.length > 1) {
        throw new Error(
          `Failed to create a snapshot of branch ${branchId}: ${heldMessage(projectId, name, held[0])}.`,
        );
      }
      // A derived name no other resource of any stack derives: a killed run of this resource made it.
      snapshot = held[0];
      verb = "took over";
      rt.ledger.noteTakenOver(SNAPSHOT_NOUN, resourceId({ projectId, snapshotId: snapshot.id }));
      log.info(
        `found ${describeSnapshot(snapshot)}, made for this resource by an earlier run (its derived name says); managing it`,
      );
      return;
    }
    const find = async () => {
      const found = await named();
      if (found.length > 1) {
        throw new Error(
          `Failed to create a snapshot of branch ${branchId}: the answer to the create request was lost, and the ` +
            `branch has ${found.length} snapshots named "${name}" (${found.map((s) => s.id).join(", ")}); delete ` +
            "the ones this stack should not manage, then run `pulumi up` again",
        );
      }
      return found[0];
    };
    const made = await createOnce({
      log,
      send: () => api.snapshots.create(projectId, branchId, createQuery(i, name)),
      find,
      finish: async (found) => ({ snapshot: found, operations: [] as Operation[] }),
      describe: (s) => describeSnapshot(s),
    });
    ({ snapshot, operations } = made);
  });
  const s = snapshot as Snapshot;
  const id = resourceId({ projectId, snapshotId: s.id });
  log.progress(waitingLine(`${verb} ${describeSnapshot(s)}`, operations));
  try {
    await rt.waitFor(projectId, operations, log);
  } catch (err) {
    throw keptInStack(describeSnapshot(s), err, id, toOutputs(i, projectId, s));
  }
  return { id, outs: toOutputs(i, projectId, await readBack(rt, projectId, s, operations)) };
}

/** The snapshot as it is after its operations (their end may have changed it); as answered without any. */
async function readBack(
  rt: Runtime,
  projectId: string,
  s: Snapshot,
  operations: Operation[],
): Promise<Snapshot> {
  if (operations.length === 0) return s;
  return (await rt.client().snapshots.list(projectId)).find((x) => x.id === s.id) ?? s;
}

/**
 * Takes over the snapshot `importId` names, which must be what the inputs declare. A delete of this
 * run (the resource it was declared under before, renamed without an alias) leaves it.
 */
async function importSnapshot(rt: Runtime, i: Checked<SnapshotInputs>, importId: string) {
  const ref = parseSnapshotRef(importId);
  const all = await rt
    .client()
    .snapshots.list(ref.projectId)
    .catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
      throw err.withRemedy(
        `Project ${ref.projectId} of importId ${importId} does not exist (or the API key cannot see it). Check ` +
          "projectId and importId, or remove importId to take a new snapshot.",
      );
    });
  const s = all.find((x) => x.id === ref.snapshotId);
  const problem = importProblem(importId, i, s);
  if (problem || !s) throw new Error(`Failed to import a snapshot: ${problem?.reason}.`);
  rt.ledger.noteTakenOver(SNAPSHOT_NOUN, importId);
  rt.logger(i).info(`took over ${describeSnapshot(s)}`);
  return { id: importId, outs: toOutputs(i, ref.projectId, s) };
}
