/**
 * The update path of `Compute`, as named steps: the PATCH (reconciling a lost answer by reading),
 * the start of a compute whose create never finished, and the restart a `restartTrigger` asks for.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Endpoint, type EndpointUpdateBody, type NeonClient, type Operation } from "../../api";
import type { ResourceLogger } from "../engine-log";
import { InitError, type Checked, type Stated } from "../kit";
import { clause, type Runtime } from "../runtime";
import { diffCompute, PROJECT_SUSPEND_DEFAULT_KEY } from "./diff";
import { withProjectDefault } from "./project-default";
import type { KnownComputes } from "./known";
import { describe, parseId, patchApplied, settledEndpoint, toOutputs, updateBody } from "./mapping";
import { ensureStarted, neverStarted, operationsOf } from "./recovery";
import type { ComputeInputs, ComputeOutputs } from "./types";

type State = Stated<ComputeOutputs>;

/** Applies the changed inputs in place and waits; see the module comment. */
export async function updateCompute(
  rt: Runtime,
  id: string,
  given: State,
  news: Checked<ComputeInputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  // Moved to another branch (or made read_write): roles and databases there wait for it.
  const arrives =
    news.type === "read_write" && (given.branchId !== news.branchId || given.type !== "read_write");
  if (arrives) rt.ledger.computeStarted(news.branchId);
  try {
    return await changeCompute(rt, id, given, news);
  } finally {
    if (arrives) rt.ledger.computeSettled(news.branchId);
  }
}

async function changeCompute(
  rt: Runtime,
  id: string,
  given: State,
  news: Checked<ComputeInputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  const { projectId, endpointId } = parseId(id, given);
  const known = rt.ledger.knownComputes(rt.client());
  const olds = await withProjectDefault(known.api, given, news);
  const log = rt.logger(news);
  const body = updateBody(olds, news);
  if (body.branch_id !== undefined) {
    // A restore's finalize (this run's or an interrupted one's) moved the compute to the restored branch
    // already (docs/decisions/0021): a move to where it is is recorded, not sent.
    const ep = await known.api.endpoints.get(projectId, endpointId);
    if (ep.branch_id === news.branchId) {
      delete body.branch_id;
      log.info(
        `compute ${endpointId} is on branch ${news.branchId} already` +
          (rt.ledger.restoredAs(olds.branchId, news.branchId)
            ? `: the restore of branch ${String(olds.branchId)} moved it there`
            : ""),
      );
    }
  }
  // The compute as the PATCH left it, when the PATCH was all this update did: no read-back then.
  const settled = await known.changing(projectId, async () => {
    let after: Endpoint | undefined;
    // The restart warning was already shown by diff, which runs before every update.
    if (Object.keys(body).length > 0) {
      after = await rt.serialized(projectId, () =>
        applyPatch(rt, known, projectId, endpointId, body, olds, news, log),
      );
    }
    if (neverStarted(olds) && !news.disabled) {
      after = undefined;
      await startUnstarted(rt, known.api, projectId, endpointId, olds, news, log);
    }
    if (diffCompute(olds, news).updates.includes("restartTrigger")) {
      after = undefined;
      await rt.serialized(projectId, () => restartIfActive(rt, known.api, projectId, endpointId, log));
    }
    return after;
  });
  const ep = settled ?? (await known.api.endpoints.get(projectId, endpointId));
  await known.remember(ep);
  // `adopted` is an output only: carry it, or a later destroy would delete a compute the stack adopted.
  return { outs: toOutputs({ ...news, adopted: olds.adopted }, ep) };
}

/**
 * Sends the PATCH and waits for its operations; a lost answer is reconciled by reading. Returns the
 * compute as its operations left it when the answer arrived (undefined after a lost answer).
 */
async function applyPatch(
  rt: Runtime,
  known: KnownComputes,
  projectId: string,
  endpointId: string,
  body: EndpointUpdateBody,
  olds: State,
  news: Checked<ComputeInputs>,
  log: ResourceLogger,
): Promise<Endpoint | undefined> {
  const api = known.api;
  let operations: Operation[] = [];
  // Allows for clock skew between this machine and the control plane.
  const sentAt = Date.now() - 120_000;
  let answer: { endpoint: Endpoint; operations: Operation[] } | undefined;
  try {
    answer = await api.endpoints.update(projectId, endpointId, body);
  } catch (err) {
    if (!(err instanceof ApiError && err.mayHaveReachedServer)) throw friendlyUpdateError(err, olds, news);
    // The answer was lost: look at the compute rather than blindly sending the change again.
    const current = await api.endpoints.get(projectId, endpointId);
    if (patchApplied(body, current)) {
      log.info(`the answer to the update request was lost; ${describe(current)} already has the change`);
      operations = await operationsOf(api, projectId, endpointId, { includeFailed: true, sinceMs: sentAt });
    } else {
      log.info("the answer to the update request was lost and the change is not there; sending it again");
      operations = (await api.endpoints.update(projectId, endpointId, body)).operations;
    }
  }
  if (answer) {
    await known.remember(answer.endpoint);
    return settledEndpoint(answer.endpoint, await rt.waitFor(projectId, answer.operations, log));
  }
  await rt.waitFor(projectId, operations, log);
  return undefined;
}

/**
 * A create that did not finish: the engine keeps such a compute and updates it on the next up.
 * The change went first, so a fix to what made the start fail is in place.
 */
async function startUnstarted(
  rt: Runtime,
  api: NeonClient,
  projectId: string,
  endpointId: string,
  olds: State,
  news: Checked<ComputeInputs>,
  log: ResourceLogger,
): Promise<void> {
  try {
    await rt.serialized(projectId, () => ensureStarted(rt, api, projectId, endpointId, log, true));
  } catch (err) {
    const reason = clause(err);
    const current = await api.endpoints.get(projectId, endpointId).catch(() => undefined);
    throw new InitError(
      `Failed to start compute ${endpointId}: ${reason}. It is kept in the stack; run \`pulumi up\` again to retry.`,
      endpointId,
      // A restart asked for in this update did not happen: keep the old trigger so it is asked again.
      current
        ? toOutputs({ ...news, restartTrigger: olds.restartTrigger, adopted: olds.adopted }, current)
        : Object.fromEntries(Object.entries(olds).filter(([k]) => k !== PROJECT_SUSPEND_DEFAULT_KEY)),
      [reason],
    );
  }
}

/** restartTrigger changed: restart the compute if it is active (an idle one has nothing to restart). */
async function restartIfActive(
  rt: Runtime,
  api: NeonClient,
  projectId: string,
  endpointId: string,
  log: ResourceLogger,
): Promise<void> {
  const current = await api.endpoints.get(projectId, endpointId);
  if (current.current_state !== "active") {
    log.info(
      `restartTrigger changed, but ${describe(current)} is ${current.current_state}: nothing to restart ` +
        "(it starts with the new settings on its next connection)",
    );
    return;
  }
  log.info(`restartTrigger changed: restarting ${describe(current)}`);
  try {
    const result = await api.endpoints.restart(projectId, endpointId);
    await rt.waitFor(projectId, result.operations, log);
  } catch (err) {
    // It scaled to zero between the read and the restart: nothing left to restart.
    if (!(err instanceof ApiError && err.kind === "conflict")) throw err;
    log.info(`${describe(current)} went idle before the restart: nothing to restart`);
  }
}

function friendlyUpdateError(err: unknown, olds: State, news: Checked<ComputeInputs>): unknown {
  if (err instanceof ApiError && err.kind === "conflict" && olds.branchId !== news.branchId) {
    return err.withRemedy(
      `The compute stays on branch ${String(olds.branchId)}. Move or delete the read_write ` +
        `compute of branch ${String(news.branchId)} first, or choose another branch.`,
    );
  }
  return err;
}
