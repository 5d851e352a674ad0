/**
 * The lifecycle of `Snapshot`: check (the history window of `timestamp`, a declared name held by a
 * snapshot no resource of the stack manages, an `importId` that is not what the inputs declare — each
 * refused at preview with nothing sent), diff, read (from the project's list: the document has no read
 * of one snapshot), update (a rename) and delete here; create in `create.ts`, the rules check and create
 * share in `rules.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isNotFound, type Snapshot } from "../../api";
import { definedDiff } from "../compare";
import {
  UNKNOWN,
  confirmGone,
  definedImportInputs,
  deleteAndWait,
  diffResult,
  isNewResource,
  refreshInputs,
  stateOf,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import type { Runtime } from "../runtime";
import { asAfterRestore } from "../branch-objects/objects";
import { SNAPSHOT_DEFINITION as DEF } from "./definition";
import { checkInputs } from "./inputs";
import { describeSnapshot, parseSnapshotRef, snapshotName, toOutputs } from "./mapping";
import { create } from "./create";
import { heldMessage, importProblem, windowFailures } from "./rules";
import type { SnapshotInputs, SnapshotOutputs } from "./types";

type Inputs = SnapshotInputs;
type State = Stated<SnapshotOutputs>;

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;

// --- check / diff ----------------------------------------------------------------------------

/**
 * Every rule a create would refuse by, so that the preview fails where `up` would: one resource per
 * name and branch in the program; for a snapshot to be taken (a new resource or a replacement) a
 * `timestamp` inside the branch's history window; for a new one, an `importId` that names a snapshot
 * as the inputs declare it, or else a name no snapshot of the branch has that no resource manages (a
 * derived name's snapshot is a killed run's: `up` takes it over). The branch that is not there: the
 * kit's target rule names it.
 */
async function check(rt: Runtime, olds: Stated<Inputs>, news: Bag): Promise<CheckResult<Inputs>> {
  const at = news.expiresAt;
  if (known(at) && (isNewResource(olds) || olds.expiresAt !== at)) {
    await rt.primeServiceClock(known(news.projectId) ? news.projectId : undefined);
  }
  const { inputs, failures } = checkInputs(news, rt.serviceNow(), olds);
  if (failures.length > 0) return { inputs: news, failures };
  const { projectId, branchId, importId } = inputs;
  const fail = (property: string, reason: string) => ({ inputs: news, failures: [{ property, reason }] });
  const urn = typeof news.__urn === "string" ? news.__urn : undefined;
  if (known(projectId) && known(branchId) && known(inputs.name) && urn) {
    const other = rt.ledger.declare(`snapshot:${projectId}/${branchId}/${inputs.name}`, urn);
    if (other) {
      return fail(
        "name",
        `snapshot "${inputs.name}" of branch ${branchId} is already declared by another resource of this program ` +
          `(${other.slice(other.lastIndexOf("::") + 2)}); two resources cannot manage one snapshot: give one another name`,
      );
    }
  }
  const isNew = isNewResource(olds);
  if (!isNew && definedDiff(DEF, olds, inputs).replaces.length === 0) return { inputs };
  if (!known(projectId) || !known(branchId)) return { inputs };
  if (importId !== undefined) {
    if (!isNew && olds.importId === importId) {
      return fail(
        "importId",
        `importId ${importId} names the snapshot this resource took over, which is read at creation only; ` +
          "remove importId so that the replacement takes a new snapshot",
      );
    }
    if (!isNew || !known(importId)) return { inputs };
    const all = await listed(rt, projectId);
    const id = parseSnapshotRef(importId).snapshotId;
    const problem =
      all &&
      importProblem(
        importId,
        inputs,
        all.find((s) => s.id === id),
      );
    return problem ? fail(problem.property, problem.reason) : { inputs };
  }
  const window = await windowFailures(rt, inputs);
  if (window.length > 0) return { inputs: news, failures: window };
  // A replacement's name is the old snapshot's own (deleted first): judged for new resources only.
  const name = isNew ? snapshotName(inputs) : undefined;
  if (!known(name)) return { inputs };
  const all = await listed(rt, projectId);
  if (!all) return { inputs };
  const replaced = urn ? rt.ledger.snapshotsReplaced.get(urn) : undefined;
  const held = all.filter((s) => s.name === name && s.source_branch_id === branchId && s.id !== replaced);
  if (held.length === 0) return { inputs };
  if (inputs.name === undefined && held.length === 1) {
    rt.logger(news).info(
      `${describeSnapshot(held[0])} was made for this resource by an earlier run (its derived name says): ` +
        "`pulumi up` manages it instead of taking another",
    );
    return { inputs };
  }
  // An auto-named snapshot has no name input to blame: the engine then reports the resource itself.
  return fail(inputs.name === undefined ? "" : "name", heldMessage(projectId, name, held[0]));
}

/** The project's snapshots; `undefined` for a project that cannot be found (the kit's target rule names it). */
async function listed(rt: Runtime, projectId: string): Promise<Snapshot[] | undefined> {
  return rt
    .client()
    .snapshots.list(projectId)
    .catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
}

async function diff(
  rt: Runtime,
  id: string,
  olds: State,
  given: Checked<Inputs>,
): Promise<pulumi.dynamic.DiffResult> {
  const news = asAfterRestore(rt, olds, given);
  // Its branch restored by this run (the Branch's id moved to the restored branch): the snapshot still
  // holds its data, so only the recorded branchId follows, in place (docs/decisions/0021). At preview
  // the new id is unknown, but the Branch's diff has planned the restore: the same update, not a
  // replacement that would delete the snapshot being restored.
  const followsRestore =
    rt.ledger.restoredAs(olds.branchId, news.branchId) ||
    (news.branchId === UNKNOWN && rt.ledger.restoring(olds.branchId));
  // Compared as if the branch were the same (an unknown id always reads as changed), then updated.
  const d = definedDiff(DEF, olds, followsRestore ? { ...news, branchId: olds.branchId } : news);
  if (followsRestore) {
    d.updates.push("branchId");
    d.changes = true;
    d.stables = d.stables.filter((k) => k !== "branchId");
    if (rt.ledger.isPlanning(news)) {
      rt.logger(news).info(
        `snapshot ${String(olds.snapshotId ?? id)} follows its branch's restore: it keeps its data, and its ` +
          "branchId becomes the restored branch's",
      );
    }
  }
  // An unknown branch or project is one being replaced: the snapshot would follow it into a replacement.
  const refused = d.refused.filter((k) => news[k] !== UNKNOWN || k === "branchId" || k === "projectId");
  if (refused.length > 0 && rt.ledger.isPlanning(news)) {
    const shown = (v: unknown) => (v === UNKNOWN ? "(replaced in this update)" : String(v ?? "(none)"));
    const detail = refused.map((k) => `${k} ${shown(olds[k])} → ${shown(news[k])}`);
    throw new Error(
      `Failed to change snapshot ${String(olds.snapshotId ?? id)}: ${detail.join(", ")} cannot be changed on an ` +
        "existing snapshot (the service changes only its name), and a replacement would delete the data it " +
        `holds. Set ${refused.join(" and ")} back, or declare another Snapshot for another branch or time; to ` +
        "let its branch be replaced, first remove this Snapshot from the program (or set retainOnDelete and " +
        "remove it). Nothing was changed.",
    );
  }
  if (d.replaces.length > 0) {
    const urn = typeof news.__urn === "string" ? news.__urn : undefined;
    if (urn && typeof olds.snapshotId === "string") rt.ledger.snapshotsReplaced.set(urn, olds.snapshotId);
    if (rt.ledger.isPlanning(news)) {
      rt.logger(news).warn(
        `${d.replaces.join(" and ")} changed: snapshot ${String(olds.snapshotId ?? id)} will be deleted and a new ` +
          "one taken in its place (the service changes nothing of a snapshot but its name)",
      );
    }
  }
  // The free plan holds one manual snapshot: the old one has to go before its replacement comes.
  return diffResult(d, true);
}

// --- read / update ------------------------------------------------------------------------------

/**
 * Reads the snapshot by its id from the project's list. A snapshot missing from a list the provider
 * could read was deleted (or reached its expiry): no id drops it from the stack. A project the key
 * cannot see fails instead.
 */
async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const old: State = props ?? {};
  const ref = parseSnapshotRef(id);
  const api = rt.client();
  const what = `snapshot ${ref.snapshotId} of project ${ref.projectId}`;
  const all = await api.snapshots.list(ref.projectId).catch(async (err: unknown) => {
    if (!isNotFound(err)) throw err;
    await confirmGone(api, ref.projectId, what, "refresh", err);
    return [];
  });
  const s = all.find((x) => x.id === ref.snapshotId);
  if (!s) {
    const expired = typeof old.expiresAt === "string" && Date.parse(old.expiresAt) <= rt.serviceNow();
    rt.logger(old).info(
      expired
        ? `${what} reached its expiry (${String(old.expiresAt)}) and is gone; dropping it from the stack`
        : `${what} was deleted outside the stack; dropping it from the stack`,
    );
    return {};
  }
  const outs = toOutputs(old, ref.projectId, s);
  return { id, props: outs, inputs: refreshInputs(DEF, old, outs) };
}

/** A rename, the one change made in place. */
async function update(
  rt: Runtime,
  id: string,
  olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  const ref = parseSnapshotRef(id);
  if (!definedDiff(DEF, olds, news).updates.includes("name") || news.name === undefined) {
    return { outs: stateOf(DEF, news, { ...olds, ...news }) };
  }
  const s = await rt.client().snapshots.rename(ref.projectId, ref.snapshotId, news.name);
  rt.logger(news).info(`renamed ${describeSnapshot(s)}`);
  return { outs: toOutputs(news, ref.projectId, s) };
}

/**
 * What `pulumi import` writes: the definition's, without `timestamp` and `lsn`, which the service reports
 * for every snapshot and which only say where in the history it was taken (left out, nothing changes).
 */
function importInputs(outs: State): Bag {
  const { timestamp: _t, lsn: _l, ...rest } = definedImportInputs(DEF, outs);
  return rest;
}

// --- delete ------------------------------------------------------------------------------------

/** Deletes the snapshot; one the service no longer has (404, the project visible) is deleted. */
async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  const ref = parseSnapshotRef(id);
  const log = rt.logger(props);
  const what = describeSnapshot({ id: ref.snapshotId, name: props.name });
  await deleteAndWait(
    rt,
    ref.projectId,
    what,
    () => rt.client().snapshots.delete(ref.projectId, ref.snapshotId),
    log,
  );
  log.info(`deleted ${what}`);
}

/** `Snapshot`'s own steps (see `../kit.ts`). */
export const snapshotSteps: ResourceSteps<Inputs, SnapshotOutputs> = {
  check,
  diff,
  create,
  read,
  importInputs,
  update,
  delete: remove,
};
