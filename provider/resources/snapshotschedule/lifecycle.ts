/**
 * The lifecycle of `SnapshotSchedule`: a branch's one schedule of automatic snapshots
 * (`backup_schedule`). Create and update set it whole (PUT), delete sets it empty, read gets it. A
 * branch whose schedule is not empty and that no resource of the program declares is refused at
 * preview with its `importId` (the service keeps no mark of who set a schedule: a killed run's reads the
 * same). Nothing waits: setting a schedule starts no operation.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isNotFound, type NeonClient } from "../../api";
import { definedDiff } from "../compare";
import {
  UNKNOWN,
  confirmGone,
  deleteAndWait,
  diffResult,
  isNewResource,
  readImported,
  refreshInputs,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import type { Runtime } from "../runtime";
import { SNAPSHOT_SCHEDULE_DEFINITION as DEF, SNAPSHOT_SCHEDULE_NOUN } from "./definition";
import { checkInputs } from "./inputs";
import {
  describeSchedule,
  parseScheduleRef,
  resourceId,
  toApi,
  toOutputs,
  type ScheduleRef,
} from "./mapping";
import type { SnapshotScheduleInputs, SnapshotScheduleOutputs } from "./types";

type Inputs = SnapshotScheduleInputs;
type State = Stated<SnapshotScheduleOutputs>;

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;

/** What a branch whose schedule no resource of the stack manages is told, with the `importId` that takes it. */
function heldMessage(ref: ScheduleRef, items: number): string {
  return (
    `branch ${ref.branchId} already has a snapshot schedule (${items} frequenc${items === 1 ? "y" : "ies"}) that no ` +
    "resource of this stack manages (the service keeps no mark of who set it). To manage it here, set " +
    `importId: "${resourceId(ref)}" (the declared schedule then replaces it); or clear it in the console first`
  );
}

/** The branch's schedule; `undefined` when the branch (or project) cannot be found. */
async function scheduleOf(api: NeonClient, ref: ScheduleRef) {
  return api.snapshots.getSchedule(ref.projectId, ref.branchId).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
}

// --- check / diff ----------------------------------------------------------------------------

/**
 * Every rule a create would refuse by, so that the preview fails where `up` would: one resource per
 * branch in the program; without `importId`, a branch with no schedule yet (read once, only for a
 * resource that is new or moves to another branch; a branch this run makes has none). A branch that
 * is not there: the kit's target rule names it.
 */
async function check(rt: Runtime, olds: Stated<Inputs>, news: Bag): Promise<CheckResult<Inputs>> {
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) return { inputs: news, failures };
  const { projectId, branchId, importId } = inputs;
  const fail = (property: string, reason: string) => ({ inputs: news, failures: [{ property, reason }] });
  if (!known(projectId) || !known(branchId)) return { inputs };
  const other =
    typeof news.__urn === "string"
      ? rt.ledger.declare(`snapshot schedule:${projectId}/${branchId}`, news.__urn)
      : undefined;
  if (other) {
    return fail(
      "branchId",
      `the snapshot schedule of branch ${branchId} is already declared by another resource of this program ` +
        `(${other.slice(other.lastIndexOf("::") + 2)}); a branch has one schedule: remove one of them`,
    );
  }
  const moves = !isNewResource(olds) && (olds.projectId !== projectId || olds.branchId !== branchId);
  if ((!isNewResource(olds) && !moves) || importId !== undefined) return { inputs };
  if (rt.ledger.madeThisRun("branch-in", `${projectId}/${branchId}`)) return { inputs };
  const ref = { projectId, branchId };
  const items = await scheduleOf(rt.client(), ref);
  return items && items.length > 0 ? fail("branchId", heldMessage(ref, items.length)) : { inputs };
}

async function diff(
  _rt: Runtime,
  _id: string,
  olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.DiffResult> {
  // Delete first: a forced replacement on the same branch must not find its own schedule there.
  return diffResult(definedDiff(DEF, olds, news), true);
}

// --- create / read / update ----------------------------------------------------------------------

/** Sets the declared schedule on a branch that has none; or, given `importId`, takes over the branch's. */
async function create(rt: Runtime, i: Checked<Inputs>): Promise<pulumi.dynamic.CreateResult> {
  const api = rt.client();
  const ref = { projectId: i.projectId, branchId: i.branchId };
  const id = resourceId(ref);
  const log = rt.logger(i);
  if (i.importId !== undefined) {
    await readImported("branch", i.importId, () => api.snapshots.getSchedule(ref.projectId, ref.branchId));
    rt.ledger.noteTakenOver(SNAPSHOT_SCHEDULE_NOUN, id);
    log.info(`took over ${describeSchedule(ref)}`);
  } else {
    // A PUT is sent again on a lost answer as is (it sets the whole schedule): no duplicate can come of it.
    const items = await api.snapshots.getSchedule(ref.projectId, ref.branchId);
    if (items.length > 0) {
      throw new Error(`Failed to set ${describeSchedule(ref)}: ${heldMessage(ref, items.length)}.`);
    }
  }
  const schedule = toApi(i.schedule);
  await api.snapshots.setSchedule(ref.projectId, ref.branchId, schedule);
  log.info(`set ${describeSchedule(ref)}`);
  return { id, outs: toOutputs(i, ref, schedule) };
}

/**
 * Reads the branch's schedule. An empty one was cleared outside the stack, and a branch that is gone
 * (the project visible) took it along: no id drops it from the stack. A project the key cannot see
 * fails instead.
 */
async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const old: State = props ?? {};
  const ref = parseScheduleRef(id);
  const api = rt.client();
  const what = describeSchedule(ref);
  const items = await api.snapshots.getSchedule(ref.projectId, ref.branchId).catch(async (err: unknown) => {
    if (!isNotFound(err)) throw err;
    await confirmGone(api, ref.projectId, what, "refresh", err);
    return [];
  });
  if (items.length === 0) {
    rt.logger(old).info(
      `${what} is empty or its branch is gone (cleared outside the stack); dropping it from the stack`,
    );
    return {};
  }
  const outs = toOutputs(old, ref, items);
  return { id, props: outs, inputs: refreshInputs(DEF, old, outs) };
}

/** Sets the declared schedule whole. */
async function update(
  rt: Runtime,
  id: string,
  _olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  const ref = parseScheduleRef(id);
  const schedule = toApi(news.schedule);
  await rt.client().snapshots.setSchedule(ref.projectId, ref.branchId, schedule);
  rt.logger(news).info(`set ${describeSchedule(ref)}`);
  return { outs: toOutputs(news, ref, schedule) };
}

// --- delete ------------------------------------------------------------------------------------

/** Clears the branch's schedule; a branch that is gone (404, the project visible) has none. */
async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  const ref = parseScheduleRef(id);
  const log = rt.logger(props);
  await deleteAndWait(
    rt,
    ref.projectId,
    describeSchedule(ref),
    async () => {
      await rt.client().snapshots.setSchedule(ref.projectId, ref.branchId, []);
      return { operations: [] };
    },
    log,
  );
  log.info(`cleared ${describeSchedule(ref)}`);
}

/** `SnapshotSchedule`'s own steps (see `../kit.ts`). */
export const snapshotScheduleSteps: ResourceSteps<Inputs, SnapshotScheduleOutputs> = {
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
};
