/**
 * Neon makes a branch's roles and databases through its read_write compute, and refuses (412) such a
 * change on a branch without one (API facts §10). What `Role` and `Database` do about it: a change
 * refused so waits for the Compute this program declares on the branch, or fails saying what to
 * declare; a delete-first replacement onto such a branch is refused before the delete; a preview warns.
 */
import { ApiError, isNotFound } from "../../api";
import { type BranchObjectRef } from "./objects";
import { UNKNOWN, type Bag } from "../kit";
import type { Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";

/**
 * A 412 of a role or database change: Neon makes roles and databases through the branch's read_write
 * compute and refuses such a change on a branch without one (one user's report, API facts §10; the
 * document states neither the status nor the words). What the 412 means is asked of the branch
 * ({@link hasReadWrite}), never read from the answer's words.
 */
const is412 = (err: unknown): err is ApiError => err instanceof ApiError && err.status === 412;

/** A change refused for want of a read_write compute on its branch (see {@link noComputeError}). */
export class NoComputeError extends Error {}

/**
 * What became of the read_write compute this program declares on a branch, when a change there still
 * finds none: not declared, not started in time, still being made at the deadline, or made and gone
 * (its create failed).
 */
type ComputeFate = "undeclared" | "not started" | "still running" | "failed";

/** The error for a change refused for want of a read_write compute: what is missing, and what to do. */
export function noComputeError(
  what: string,
  ref: BranchObjectRef,
  fate: ComputeFate = "undeclared",
): NoComputeError {
  const declared = `the Compute this program declares on branch ${ref.branchId}`;
  const next: Record<ComputeFate, string> = {
    undeclared:
      "Give the branch one: the compute input of its Branch, or a " +
      `Compute of type "read_write" on branch ${ref.branchId} that this resource depends on (dependsOn); then ` +
      "run `pulumi up` again.",
    "not started":
      `${declared[0].toUpperCase()}${declared.slice(1)} had not begun to be made ${COMPUTE_GRACE_MS / 1000} s ` +
      "later (it waits for something else, or the run stopped): make this resource depend on it (dependsOn) " +
      "and run `pulumi up` again.",
    "still running":
      `${declared[0].toUpperCase()}${declared.slice(1)} was still being made at this step's deadline; run ` +
      "`pulumi up` again once it is (or raise the deadline).",
    failed: `${declared[0].toUpperCase()}${declared.slice(1)} was not made (see its own error); once it is, run \`pulumi up\` again.`,
  };
  return new NoComputeError(
    `Failed to ${what}: branch ${ref.branchId} has no read_write compute, and Neon makes roles and databases ` +
      `through it (the service answered 412). ${next[fate]}`,
  );
}

/** How long a refused change looks for a compute of this program whose create has not begun yet. */
const COMPUTE_GRACE_MS = 10_000;
const COMPUTE_GRACE_STEP_MS = 250;
/** While the declared compute's create runs, the branch is looked at this often (another may make one). */
const COMPUTE_LOOK_MS = 5_000;

/**
 * Whether `ref`'s branch has a read_write compute after waiting for the one this program declares on it,
 * if any (`"arrived"`), or what became of that one: the engine creates a Compute and a Role of a new
 * branch side by side unless one depends on the other, so the role's create can reach the service first.
 * Only a create that has begun is waited for (a declared Compute whose create never comes — the engine
 * stopped after a failure — is not), and no longer than the call's deadline, counted from `since`. A
 * compute another process made counts too.
 */
async function computeArrives(
  rt: Runtime,
  ref: BranchObjectRef,
  log: ResourceLogger,
  since: number,
): Promise<"arrived" | ComputeFate> {
  const api = rt.client();
  const hasOne = async () => (await hasReadWrite(rt, ref.projectId, ref.branchId)) === true;
  let coming = rt.ledger.computeComing(ref.branchId);
  // Its check or its create may not have run yet: the engine registers both once the branch's id is known.
  for (let waited = 0; !coming?.started && waited < COMPUTE_GRACE_MS; waited += COMPUTE_GRACE_STEP_MS) {
    await api.sleep(COMPUTE_GRACE_STEP_MS);
    coming = rt.ledger.computeComing(ref.branchId);
  }
  if (coming?.started && !coming.settled) {
    log.info(
      `waiting for the read_write compute this program declares on branch ${ref.branchId}: Neon makes roles ` +
        "and databases through it (declare dependsOn on it to make this order explicit)",
    );
    const endBy = since + rt.deadlineMs();
    while (!coming.settled && api.now() < endBy) {
      const stop = new AbortController();
      await Promise.race([coming.done, api.sleep(Math.min(COMPUTE_LOOK_MS, endBy - api.now()), stop.signal)]);
      stop.abort();
      if (!coming.settled && (await hasOne())) return "arrived";
    }
  }
  if (await hasOne()) return "arrived";
  if (!coming) return "undeclared";
  return !coming.started ? "not started" : coming.settled ? "failed" : "still running";
}

/**
 * Runs `attempt`, a change of a role or database of `ref`'s branch made through its read_write compute.
 * Refused for want of one (412), it waits for the compute this program declares on the branch and tries
 * once more (unless `wait` is false); without one it fails saying what to do. `what` names the change
 * ("create role …").
 */
export async function throughCompute<T>(
  rt: Runtime,
  ref: BranchObjectRef,
  what: string,
  log: ResourceLogger,
  attempt: () => Promise<T>,
  opts: { wait?: boolean } = {},
): Promise<T> {
  const since = rt.client().now();
  try {
    return await attempt();
  } catch (err) {
    if (!is412(err)) throw err;
    const has = await hasReadWrite(rt, ref.projectId, ref.branchId);
    // The branch (or project) is gone: the answer as it is.
    if (has === undefined) throw err;
    // A read_write compute now: it came after the request (this program's, made beside it: its create
    // is let finish first) — or the 412 is about something else, which the try below gets again.
    const coming = rt.ledger.computeComing(ref.branchId);
    const making = coming?.started === true && !coming.settled;
    if (has === false && opts.wait === false) throw noComputeError(what, ref);
    if (has === false || (making && opts.wait !== false)) {
      const found = await computeArrives(rt, ref, log, since);
      if (found !== "arrived") throw noComputeError(what, ref, found);
    }
  }
  try {
    return await attempt();
  } catch (err) {
    if (is412(err) && (await hasReadWrite(rt, ref.projectId, ref.branchId)) === false)
      throw noComputeError(what, ref);
    throw err;
  }
}

/** Whether the branch has a read_write compute now; `undefined` when the branch or project is not there. */
async function hasReadWrite(rt: Runtime, projectId: string, branchId: string): Promise<boolean | undefined> {
  try {
    return (await rt.client().endpoints.listByBranch(projectId, branchId)).some(
      (e) => e.type === "read_write",
    );
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * For a change judged before anything is sent: false when the new object's branch (known) has no
 * read_write compute and this program declares none for it; true or `undefined` otherwise (a branch
 * or project not there is for other checks to say).
 */
async function computeOrComing(rt: Runtime, news: Bag): Promise<boolean | undefined> {
  const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;
  if (!known(news.projectId) || !known(news.branchId)) return undefined;
  if (rt.ledger.computeComing(news.branchId) || rt.ledger.madeThisRun("compute-on", news.branchId))
    return true;
  return hasReadWrite(rt, news.projectId, news.branchId);
}

/**
 * At preview (and at `up`, before anything is sent), for a replacement that deletes the old object
 * first: refuses when the new one's branch has no read_write compute, since the service would refuse
 * the create (412) after the delete and the object would be lost. Values not known yet are not judged.
 */
export async function refuseComputeLessTarget(
  rt: Runtime,
  noun: "role" | "database",
  olds: Bag,
  news: Bag,
): Promise<void> {
  if ((await computeOrComing(rt, news)) !== false) return;
  throw new Error(
    `Failed to replace ${noun} "${String(olds.name)}" of branch ${String(olds.branchId)}: the replacement deletes it ` +
      `first and then creates ${noun} "${String(news.name)}" on branch ${news.branchId}, which has no read_write ` +
      "compute, so the service would refuse that create (Neon makes roles and databases through the compute) and " +
      `the ${noun} would be lost. Give branch ${news.branchId} a read_write compute first (the compute input of its ` +
      'Branch, or a Compute of type "read_write"), run `pulumi up`, then make this change. Nothing was changed.',
  );
}

/**
 * At preview of a new role or database on an existing branch: a warning when the branch has no
 * read_write compute and this program has declared none so far (its Compute may come later in the
 * run, so this is no failure), since the create would be refused.
 */
export async function warnComputeLess(rt: Runtime, noun: "role" | "database", news: Bag): Promise<void> {
  if ((await computeOrComing(rt, news)) !== false) return;
  const line =
    `branch ${String(news.branchId)} has no read_write compute, and Neon makes roles and databases through it: creating ` +
    `this ${noun} will fail unless this program gives the branch one (the compute input of its Branch, or a ` +
    `Compute of type "read_write" that this ${noun} depends on)`;
  if (rt.ledger.firstTime(`${String(news.__urn)}\n${line}`)) rt.logger(news).warn(line);
}
