/**
 * Recovery steps of `Compute`: finding what an interrupted run or a lost answer left behind, and
 * finishing a compute that never started. Each step is one named function that the lifecycle
 * methods hand off to; callers hold the project's queue (`rt.serialized`).
 */
import { ApiError, type Endpoint, type NeonClient, type Operation } from "../../api";
import type { ResourceLogger } from "../engine-log";
import { createOnce, derivedName, pendingOperations } from "../kit";
import type { Runtime } from "../runtime";
import type { ComputeInputs } from "./types";
import { createBody, describe } from "./mapping";

/** A created (or found) compute and the operations still to wait for. */
export interface EndpointAndOperations {
  endpoint: Endpoint;
  operations: Operation[];
  /**
   * Set when `endpoint` and `operations` are the answer to this run's own create request: once those
   * operations finish, the compute is known without reading it back. A compute found again (an
   * interrupted run, a lost answer) is read back: it may have failed to start earlier.
   */
  answered?: boolean;
}

/**
 * The name a compute gets when its `name` input is unset: the resource's name plus a suffix derived
 * from its URN (stack, project and name) and from the inputs whose change replaces it, like Pulumi's
 * auto-naming but deterministic. It lets a later `up` recognise the compute that an interrupted run
 * created for this very resource; a replacement (other project, type or region) gets another name,
 * so it never mistakes the compute it replaces for its own.
 */
export function autoName(
  urn: string,
  identity: Pick<ComputeInputs, "projectId" | "type" | "regionId"> = {
    projectId: "",
    type: "read_write",
  },
): string {
  const parts = [identity.projectId, identity.type ?? "read_write", identity.regionId ?? ""];
  return derivedName(urn, parts, "compute", 56);
}

/**
 * Sends the create request; when its answer is lost, finds the compute it made (computes of the
 * branch that were not in `before`) instead of sending it again, which could create a second one.
 */
export async function createOrReconcile(
  api: NeonClient,
  i: ComputeInputs,
  before: Set<string>,
  log: ResourceLogger,
): Promise<EndpointAndOperations> {
  return createOnce<EndpointAndOperations, Endpoint>({
    log,
    send: async () => ({ ...(await api.endpoints.create(i.projectId, createBody(i))), answered: true }),
    find: async () => {
      const found = (await api.endpoints.listByBranch(i.projectId, i.branchId)).filter(
        (e) => !before.has(e.id) && e.type === (i.type ?? "read_write") && (!i.name || e.name === i.name),
      );
      if (found.length > 1) {
        throw new Error(
          `Failed to create a compute on branch ${i.branchId}: the answer to the create request was lost and ` +
            `${found.length} new computes (${found.map((e) => e.id).join(", ")}) appeared on the branch, so it is ` +
            "not clear which one is this resource's. Delete the extra ones, then run `pulumi up` again.",
        );
      }
      return found[0];
    },
    // A brand-new compute: every operation it has is this request's, failures included.
    finish: async (ep) => ({
      endpoint: ep,
      operations: await operationsOf(api, i.projectId, ep.id, { includeFailed: true }),
    }),
    describe,
    refused: (err) => Promise.reject(friendlyCreateError(err, i)),
  });
}

/**
 * The operations of one compute still worth waiting for. `includeFailed` keeps those that ended in
 * error or were cancelled (waiting on them fails, which is right when they belong to the change at
 * hand); `sinceMs` ignores operations created before that time.
 */
export async function operationsOf(
  api: NeonClient,
  projectId: string,
  endpointId: string,
  opts: { includeFailed: boolean; sinceMs?: number },
): Promise<Operation[]> {
  const since = opts.sinceMs === undefined ? undefined : new Date(opts.sinceMs).toISOString();
  return pendingOperations(api, projectId, (o) => o.endpoint_id === endpointId, {
    includeFailed: opts.includeFailed,
    since,
  });
}

/**
 * True for a compute that has never run: still in `init` (its start failed, was cancelled or was
 * interrupted), or idle without ever having started (suspended out of band before its first start).
 * Works on an endpoint (`current_state`, `started_at`) and on outputs (`currentState`, `startedAt`).
 */
export function neverStarted(c: {
  current_state?: string;
  started_at?: string;
  last_active?: string;
  currentState?: unknown;
  startedAt?: unknown;
  lastActive?: unknown;
}): boolean {
  const state = c.current_state ?? c.currentState;
  if (state === "init") return true;
  return state === "idle" && !(c.started_at ?? c.startedAt) && !(c.last_active ?? c.lastActive);
}

/**
 * Reads a compute and, when `start` is set and it has never started (see {@link neverStarted}),
 * waits for its unfinished operations and starts it. Returns the compute as it ends up.
 */
export async function ensureStarted(
  rt: Runtime,
  api: NeonClient,
  projectId: string,
  endpointId: string,
  log: ResourceLogger,
  start: boolean,
): Promise<Endpoint> {
  let ep = await api.endpoints.get(projectId, endpointId);
  if (!start || !neverStarted(ep)) return ep;
  const pending = await operationsOf(api, projectId, endpointId, { includeFailed: false });
  if (pending.length > 0) {
    await rt.waitFor(projectId, pending, log);
    ep = await api.endpoints.get(projectId, endpointId);
    if (!neverStarted(ep)) return ep;
  }
  log.info(`${describe(ep)} did not start when it was created; starting it`);
  const result = await api.endpoints.start(projectId, endpointId);
  await rt.waitFor(projectId, result.operations, log);
  return api.endpoints.get(projectId, endpointId);
}

/** What to do when a branch's one read_write slot is taken. */
export const SLOT_TAKEN_REMEDY =
  "A branch holds one read_write compute (every project's default branch has one from the start): " +
  'set adoptExistingPrimary: true to take over the existing one, give this resource type "read_only", ' +
  "attach it to another branch, or remove the existing compute from the branch first.";

/** A 409 on a read_write create: the branch's one read_write slot is taken; say what to do. */
export function friendlyCreateError(err: unknown, i: ComputeInputs): unknown {
  if (err instanceof ApiError && err.kind === "conflict" && (i.type ?? "read_write") === "read_write") {
    return err.withRemedy(SLOT_TAKEN_REMEDY);
  }
  return err;
}
