/**
 * The lifecycle of `Compute`: check, diff, create, read, update and delete. Each method is a few
 * lines that hand off to named steps (`recovery.ts`, `mapping.ts`) and the shared runtime.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Endpoint, type NeonClient, type Operation } from "../../api";
import type { ResourceLogger } from "../engine-log";
import {
  clause,
  client,
  isPlanning,
  logger,
  markChecked,
  serialized,
  waitFor,
  withOperationTimeout,
} from "../runtime";
import { diffCompute, propertyChanged } from "./diff";
import { checkInputs, INTERNAL_KEYS, UNKNOWN, type ComputeInputs } from "./inputs";
import { COMPUTE_INPUT_KEYS } from "./keys";
import { branchComputes, forget, invalidate, remember } from "./known";
import { describe, parseId, patchApplied, settledEndpoint, toOutputs, updateBody } from "./mapping";
import { preflight, type PreflightScope } from "./preflight";
import {
  autoName,
  createOrReconcile,
  ensureStarted,
  neverStarted,
  operationsOf,
  SLOT_TAKEN_REMEDY,
  type EndpointAndOperations,
} from "./recovery";

type Props = Record<string, unknown>;

const INPUT_KEYS: readonly string[] = COMPUTE_INPUT_KEYS;

/** Raised by create when the compute exists but did not become ready: the engine keeps it in state. */
export class ComputeInitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
    readonly reasons: string[],
  ) {
    super(message);
    this.name = "ComputeInitError";
  }
}

// --- check / diff ----------------------------------------------------------------------------

export async function check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  markChecked(news);
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) return { inputs: news, failures };
  if (inputs.adoptExistingPrimary === true && Object.keys(olds).length === 0)
    await sayWhatWillBeAdopted(inputs);
  return { inputs };
}

/** The preview of a new resource with `adoptExistingPrimary` says which compute it will take over. */
async function sayWhatWillBeAdopted(inputs: Props): Promise<void> {
  const { projectId, branchId } = inputs;
  if (
    typeof projectId !== "string" ||
    typeof branchId !== "string" ||
    [projectId, branchId].includes(UNKNOWN)
  )
    return;
  try {
    const primary = (await client().endpoints.listByBranch(projectId, branchId)).find(
      (e) => e.type === "read_write",
    );
    logger(inputs).info(
      primary
        ? `will adopt ${describe(primary)}, the branch's existing read_write compute (adoptExistingPrimary), and apply the declared settings to it`
        : `branch ${branchId} has no read_write compute to adopt: a new one will be created`,
    );
  } catch {
    // Only a preview note: the create itself reads the branch again and reports any error.
  }
}

export async function diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const d = diffCompute(olds, news);
  const result = {
    changes: d.changes,
    replaces: d.replaces,
    stables: d.stables,
    deleteBeforeReplace: d.deleteBeforeReplace,
  };
  // A refresh diffs to show drift: nothing will change, so no warning, no reads, no start.
  if (!isPlanning(news)) return result;
  const log = logger(news);
  const scope = d.replaces.length > 0 ? "replace" : d.updates.includes("branchId") ? "move" : undefined;
  await preflightChange(id, olds, news, scope);
  if (d.restartWarning) log.warn(d.restartWarning);
  warnIgnoredImportId(id, olds, news, log);
  if (!d.changes && neverStarted(olds) && news.disabled !== true) {
    // Its create was stopped or its start failed (then maybe refreshed): no input differs, but an
    // update is what starts it, so that every declared compute ends up started.
    log.info(`compute ${id} has never started (its start failed or was interrupted); this update starts it`);
    result.changes = true;
  }
  return result;
}

/**
 * Before a replacement deletes the compute (or a move PATCHes it): checks that the new compute can
 * exist, and fails naming the property otherwise. Skipped while inputs are unknown (preview).
 */
async function preflightChange(
  id: string,
  olds: Props,
  news: Props,
  scope: PreflightScope | undefined,
): Promise<void> {
  if (!scope) return;
  const t = news as unknown as ComputeInputs;
  const relevant = [t.projectId, t.branchId, t.type, t.regionId, t.maxCu];
  if (relevant.some((v) => v === UNKNOWN)) return;
  const failures = await preflight(
    client(),
    {
      projectId: t.projectId,
      branchId: t.branchId,
      type: t.type ?? "read_write",
      regionId: t.regionId,
      maxCu: t.maxCu,
      currentEndpointId: scope === "move" || olds.projectId === t.projectId ? id : undefined,
      adoptExistingPrimary: t.adoptExistingPrimary === true,
    },
    scope,
  );
  if (failures.length === 0) return;
  const verb = scope === "replace" ? "replace" : "move";
  throw new Error(
    `Failed to ${verb} compute ${id}: ${failures.map((f) => f.reason).join("; ")}. ` +
      `Nothing was deleted or changed; compute ${id} keeps running as it is.`,
  );
}

/** `importId` only matters when the resource is created: say so when it names another compute. */
function warnIgnoredImportId(id: string, olds: Props, news: Props, log: ResourceLogger): void {
  const importId = news.importId;
  if (typeof importId !== "string" || importId === UNKNOWN || importId === olds.importId) return;
  if (importId.endsWith(`/${id}`)) return;
  log.warn(
    `importId ${importId} is ignored: this resource already manages compute ${id}, and importId is read ` +
      "only when the resource is created. Remove importId, or to manage the other compute declare a new " +
      "resource with it (and remove this one, or set retainOnDelete on it first to keep its compute).",
  );
}

// --- create ------------------------------------------------------------------------------

// Computes that a create of this process took over instead of creating (an interrupted run's, the
// branch's primary): a delete in the same run must not remove them (see deleteCompute).
const claimedByCreate = new Set<string>();

/** A compute's identity across the run: its id and creation time (ids are not reused, but be sure). */
function claimKey(endpointId: string, createdAt: unknown): string {
  return `${endpointId}@${String(createdAt)}`;
}

export function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  return withOperationTimeout(inputs.operationTimeoutSeconds, () => createCompute(inputs));
}

async function createCompute(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  if (typeof inputs.importId === "string") return importExisting(inputs);
  const i = { ...(inputs as unknown as ComputeInputs) };
  const urn = typeof inputs.__urn === "string" ? inputs.__urn : undefined;
  if (!i.name && urn) i.name = autoName(urn, i);
  const api = client();
  const log = logger(inputs);
  let ep: Endpoint | undefined;
  let ready: Endpoint | undefined;
  let adopted: boolean | undefined;
  try {
    await serialized(i.projectId, async () => {
      const result = await createOrFinish(api, i, inputs, Boolean(urn && !inputs.name), log);
      ep = result.endpoint;
      adopted = result.adopted;
      await remember(api, ep);
      log.progress(
        `created ${describe(ep)}; waiting for ${result.operations.map((o) => o.action).join(", ") || "nothing"}`,
      );
      const finished = await waitFor(i.projectId, result.operations, log);
      if (result.answered) {
        // This run's own create, and every operation it started finished: nothing to read back.
        ready = settledEndpoint(ep, finished);
        await remember(api, ready);
      } else {
        // A compute found again (interrupted run, lost answer) may have failed to start earlier.
        ready = await ensureStarted(api, i.projectId, ep.id, log, !i.disabled);
      }
    });
    if (!ready) throw new Error(`Failed to read back ${describe(ep as Endpoint)}`);
    if (ready.current_state === "init" && !i.disabled) {
      throw new Error(`${describe(ready)} did not start`);
    }
    return { id: ready.id, outs: toOutputs({ ...inputs, adopted }, ready) };
  } catch (err) {
    invalidate(api, i.projectId);
    if (!ep) throw err;
    // The compute exists: keep it in state so that a later `up` finishes or deletes it.
    const reason = clause(err);
    throw new ComputeInitError(
      `Failed to finish creating ${describe(ep)}: ${reason}. It is kept in the stack; run \`pulumi up\` again to retry, or \`pulumi destroy\` to remove it.`,
      ep.id,
      toOutputs({ ...inputs, adopted }, ep),
      [reason],
    );
  }
}

/**
 * Creates the compute, or finishes the one an interrupted run created for this resource, or adopts
 * the branch's read_write compute when asked to. Only an auto-named resource (`autoNamed`) can be
 * recognised as this resource's own: its name is derived from its own URN.
 */
async function createOrFinish(
  api: NeonClient,
  i: ComputeInputs,
  inputs: Props,
  autoNamed: boolean,
  log: ResourceLogger,
  fresh = false,
): Promise<EndpointAndOperations & { adopted?: boolean }> {
  // What the branch held before: if the POST's answer is lost, the compute it made is the new one.
  // The project's listing as this process knows it answers that (known.ts), except for a compute
  // without a name, which a lost answer could only tell from the others by a listing just before.
  const existing =
    fresh || !i.name
      ? await api.endpoints.listByBranch(i.projectId, i.branchId)
      : await branchComputes(api, i.projectId, i.branchId);
  const type = i.type ?? "read_write";
  const sameName = existing.find((e) => e.name === i.name && e.type === type);
  const primary = type === "read_write" ? existing.find((e) => e.type === "read_write") : undefined;
  if (!fresh && (sameName || primary)) {
    // Finish, adopt or refuse only on a listing read now: the cached one may predate another
    // provider process's change (another explicit provider, the plugin) in this very run.
    invalidate(api, i.projectId);
    return createOrFinish(api, i, inputs, autoNamed, log, true);
  }
  if (sameName && autoNamed) {
    log.info(`found ${describe(sameName)} created for this resource by an interrupted run; finishing it`);
    claimedByCreate.add(claimKey(sameName.id, sameName.created_at));
    return {
      endpoint: sameName,
      // Its older failures are history: ensureStarted starts it if it never did.
      operations: await operationsOf(api, i.projectId, sameName.id, { includeFailed: false }),
    };
  }
  if (primary && i.adoptExistingPrimary === true) {
    claimedByCreate.add(claimKey(primary.id, primary.created_at));
    return adoptPrimary(api, primary, inputs, log);
  }
  if (sameName && type === "read_write") {
    // It would block the branch's one read_write slot. An explicit name cannot tell this resource's
    // compute from anyone else's, so never adopt it silently: say how to adopt or remove it.
    throw new Error(
      `Failed to create compute "${i.name}" on branch ${i.branchId}: ${describe(sameName)} already has this ` +
        "name and type, probably created by an earlier run of this stack that was interrupted. To make this " +
        `resource manage it, set importId: "${i.projectId}/${sameName.id}" on it and run \`pulumi up\` again; ` +
        `or delete it (\`neonctl endpoints delete ${sameName.id} --project-id ${i.projectId}\`, or in the Neon ` +
        "console) and run `pulumi up` again to create a new one.",
    );
  }
  if (primary) {
    throw new Error(
      `Failed to create a read_write compute on branch ${i.branchId} in project ${i.projectId}: the branch ` +
        `already has read_write compute ${primary.id}. ${SLOT_TAKEN_REMEDY}`,
    );
  }
  try {
    return await createOrReconcile(api, i, new Set(existing.map((e) => e.id)), log);
  } catch (err) {
    if (!fresh && err instanceof ApiError && err.kind === "conflict") {
      // The branch changed since the listing was read (someone else took the read_write slot):
      // read it now, and decide as above (finish, adopt, or say what holds the slot).
      invalidate(api, i.projectId);
      return createOrFinish(api, i, inputs, autoNamed, log, true);
    }
    throw err;
  }
}

/**
 * Takes over the branch's existing read_write compute (`adoptExistingPrimary`): applies the
 * declared settings that differ, nothing else. Its name is kept unless one is declared.
 */
async function adoptPrimary(
  api: NeonClient,
  primary: Endpoint,
  inputs: Props,
  log: ResourceLogger,
): Promise<EndpointAndOperations & { adopted: true }> {
  const body = updateBody(toOutputs({}, primary, false), { ...inputs, branchId: primary.branch_id });
  log.info(
    `adopting ${describe(primary)}, the branch's existing read_write compute (adoptExistingPrimary)` +
      (Object.keys(body).length > 0 ? `; applying ${Object.keys(body).join(", ")}` : "") +
      "; destroy will leave it in place",
  );
  if (Object.keys(body).length === 0) {
    return { endpoint: primary, operations: [], adopted: true };
  }
  const result = await api.endpoints.update(primary.project_id, primary.id, body as never);
  return { ...result, adopted: true };
}

/**
 * Adopts an existing compute named by `importId` instead of creating one (`pulumi import` cannot
 * work for dynamic resources: the engine reads without the provider code). Like Pulumi's import, it
 * changes nothing: the declared inputs must describe the compute as it is, else it fails and says
 * which properties differ.
 */
async function importExisting(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const importId = inputs.importId as string;
  const { projectId, endpointId } = parseId(importId);
  let ep: Endpoint;
  try {
    ep = await client().endpoints.get(projectId, endpointId);
  } catch (err) {
    if (err instanceof ApiError && err.kind === "not_found") {
      throw err.withRemedy(
        `Compute ${importId} does not exist (or the API key cannot see it). ` +
          "Check importId, or remove it to create a new compute.",
      );
    }
    throw err;
  }
  const actual = toOutputs({}, ep, false);
  const declared = Object.keys(inputs).filter(
    (k) => INPUT_KEYS.includes(k) && !["cu", "restartTrigger", "importId"].includes(k),
  );
  const differences = declared.filter((k) => propertyChanged(k, actual, inputs));
  if (differences.length > 0) {
    const detail = differences
      .map((k) => `${k}: declared ${JSON.stringify(inputs[k])}, actual ${JSON.stringify(actual[k])}`)
      .join("; ");
    throw new Error(
      `Failed to import ${describe(ep)}: the declared inputs differ from the compute (${detail}). ` +
        "Import changes nothing: make the program match the compute, import, then change it in a later update.",
    );
  }
  const log = logger(inputs);
  log.info(`imported ${describe(ep)}; deleting this resource will delete the compute`);
  if (inputs.disabled !== true && neverStarted(ep)) {
    // Import changes no setting, but every declared compute ends up started.
    const api = client();
    ep = await serialized(projectId, () => ensureStarted(api, projectId, endpointId, log, true));
  }
  return { id: ep.id, outs: toOutputs(inputs, ep) };
}

// --- read ----------------------------------------------------------------------------------

export async function read(id: string, props?: Props): Promise<pulumi.dynamic.ReadResult> {
  const { projectId, endpointId } = parseId(id, props);
  let ep: Endpoint;
  try {
    ep = await client().endpoints.get(projectId, endpointId);
  } catch (err) {
    // Gone: no id tells the engine to drop the resource from the stack. Only when it is certain.
    if (err instanceof ApiError && err.kind === "not_found") {
      await confirmGone(client(), projectId, endpointId, "refresh", err);
      return {};
    }
    throw err;
  }
  const old = props ?? {};
  const outs = toOutputs(old, ep, false);
  // `cu` is shorthand for equal bounds; drop it when the compute no longer has a fixed size.
  if (outs.cu !== undefined && outs.minCu !== outs.cu) delete outs.cu;
  // The inputs after a refresh: those the program gave (recorded at the last write), as they now are.
  // States written before that record existed fall back to every input present in the outputs.
  const given = Array.isArray(old.__inputNames) ? (old.__inputNames as string[]) : undefined;
  const inputs: Props = {};
  for (const k of [...INPUT_KEYS, ...INTERNAL_KEYS]) {
    const wanted = given ? given.includes(k) || k.startsWith("__") : k in old;
    if (wanted || ["projectId", "branchId", "type"].includes(k)) {
      if (outs[k] !== undefined) inputs[k] = outs[k];
    }
  }
  return { id: ep.id, props: outs, inputs };
}

// --- update --------------------------------------------------------------------------------

export function update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  return withOperationTimeout(news.operationTimeoutSeconds, () => updateCompute(id, olds, news));
}

async function updateCompute(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const { projectId, endpointId } = parseId(id, olds);
  const api = client();
  const log = logger(news);
  const d = diffCompute(olds, news);
  const body = updateBody(olds, news);
  // The compute as the PATCH left it, when the PATCH was all this update did: no read-back then.
  let settled: Endpoint | undefined;
  try {
    // The restart warning was already shown by diff, which runs before every update.
    if (Object.keys(body).length > 0) {
      settled = await serialized(projectId, () =>
        applyPatch(api, projectId, endpointId, body, olds, news, log),
      );
    }
    if (neverStarted(olds) && !news.disabled) {
      settled = undefined;
      await startUnstarted(api, projectId, endpointId, olds, news, log);
    }
    if (d.updates.includes("restartTrigger")) {
      settled = undefined;
      await serialized(projectId, () => restartIfActive(api, projectId, endpointId, log));
    }
  } catch (err) {
    invalidate(api, projectId);
    throw err;
  }
  const ep = settled ?? (await api.endpoints.get(projectId, endpointId));
  await remember(api, ep);
  // `adopted` is an output only: carry it, or a later destroy would delete a compute the stack adopted.
  return { outs: toOutputs({ ...news, adopted: olds.adopted }, ep) };
}

/**
 * Sends the PATCH and waits for its operations; a lost answer is reconciled by reading. Returns the
 * compute as its operations left it when the answer arrived (undefined after a lost answer).
 */
async function applyPatch(
  api: NeonClient,
  projectId: string,
  endpointId: string,
  body: Props,
  olds: Props,
  news: Props,
  log: ResourceLogger,
): Promise<Endpoint | undefined> {
  let operations: Operation[] = [];
  // Allows for clock skew between this machine and the control plane.
  const sentAt = Date.now() - 120_000;
  let answer: { endpoint: Endpoint; operations: Operation[] } | undefined;
  try {
    answer = await api.endpoints.update(projectId, endpointId, body as never);
  } catch (err) {
    if (!(err instanceof ApiError && err.mayHaveReachedServer)) throw friendlyUpdateError(err, olds, news);
    // The answer was lost: look at the compute rather than blindly sending the change again.
    const current = await api.endpoints.get(projectId, endpointId);
    if (patchApplied(body, current)) {
      log.info(`the answer to the update request was lost; ${describe(current)} already has the change`);
      operations = await operationsOf(api, projectId, endpointId, { includeFailed: true, sinceMs: sentAt });
    } else {
      log.info("the answer to the update request was lost and the change is not there; sending it again");
      operations = (await api.endpoints.update(projectId, endpointId, body as never)).operations;
    }
  }
  if (answer) {
    await remember(api, answer.endpoint);
    return settledEndpoint(answer.endpoint, await waitFor(projectId, answer.operations, log));
  }
  await waitFor(projectId, operations, log);
  return undefined;
}

/**
 * A create that did not finish: the engine keeps such a compute and updates it on the next up.
 * The change went first, so a fix to what made the start fail is in place.
 */
async function startUnstarted(
  api: NeonClient,
  projectId: string,
  endpointId: string,
  olds: Props,
  news: Props,
  log: ResourceLogger,
): Promise<void> {
  try {
    await serialized(projectId, () => ensureStarted(api, projectId, endpointId, log, true));
  } catch (err) {
    const reason = clause(err);
    const current = await api.endpoints.get(projectId, endpointId).catch(() => undefined);
    throw new ComputeInitError(
      `Failed to start compute ${endpointId}: ${reason}. It is kept in the stack; run \`pulumi up\` again to retry.`,
      endpointId,
      // A restart asked for in this update did not happen: keep the old trigger so it is asked again.
      current
        ? toOutputs({ ...news, restartTrigger: olds.restartTrigger, adopted: olds.adopted }, current)
        : olds,
      [reason],
    );
  }
}

/** restartTrigger changed: restart the compute if it is active (an idle one has nothing to restart). */
async function restartIfActive(
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
    await waitFor(projectId, result.operations, log);
  } catch (err) {
    // It scaled to zero between the read and the restart: nothing left to restart.
    if (!(err instanceof ApiError && err.kind === "conflict")) throw err;
    log.info(`${describe(current)} went idle before the restart: nothing to restart`);
  }
}

function friendlyUpdateError(err: unknown, olds: Props, news: Props): unknown {
  if (err instanceof ApiError && err.kind === "conflict" && olds.branchId !== news.branchId) {
    return err.withRemedy(
      `The compute stays on branch ${String(olds.branchId)}. Move or delete the read_write ` +
        `compute of branch ${String(news.branchId)} first, or choose another branch.`,
    );
  }
  return err;
}

// --- delete --------------------------------------------------------------------------------

/**
 * A 404 for a compute means "deleted" only when the key can read its project: a project-scoped key
 * used on another project also gets 404 (empty code, "not allowed to perform actions outside the
 * project this key is scoped to"), and dropping a live compute from the stack would let the next
 * `up` create a duplicate. Throws when the project cannot be read; returns when the compute is gone.
 */
async function confirmGone(
  api: NeonClient,
  projectId: string,
  endpointId: string,
  verb: "refresh" | "delete",
  notFound: ApiError,
): Promise<void> {
  try {
    await api.projects.get(projectId);
  } catch (err) {
    if (!(err instanceof ApiError && err.kind === "not_found")) throw err;
    throw notFound.withRemedy(
      `The API key cannot see project ${projectId} (${err.apiMessage.replace(/[.\s]+$/, "")}), so it is not ` +
        `known whether compute ${endpointId} still exists; the stack keeps it unchanged. Run the ${verb} with a ` +
        "key that can see the project (neon:apiKey or NEON_API_KEY). If the project itself was deleted, " +
        "remove the resource from the stack with `pulumi state delete <urn>`.",
    );
  }
}

export function remove(id: string, props: Props): Promise<void> {
  return withOperationTimeout(props.operationTimeoutSeconds, () => deleteCompute(id, props));
}

async function deleteCompute(id: string, props: Props): Promise<void> {
  const { projectId, endpointId } = parseId(id, props);
  if (claimedByCreate.has(claimKey(endpointId, props.createdAt))) {
    // A create-before-delete replacement (a forced `--replace` without deleteBeforeReplace, as the
    // plugin's YAML/Python/Go resources default to) whose create took this very compute over: it
    // now belongs to the replacement, and deleting "the old one" would delete it.
    logger(props).warn(
      `left compute ${endpointId} in place: this run's replacement of the resource took it over ` +
        "(set the deleteBeforeReplace resource option to replace it with a new compute)",
    );
    return;
  }
  if (props.adopted === true) {
    // It existed before the stack adopted it (a branch's primary compute): leave it in place.
    logger(props).info(
      `left compute ${endpointId} in place: it existed before this stack adopted it (adoptExistingPrimary)`,
    );
    return;
  }
  const api = client();
  await serialized(projectId, async () => {
    let result: { operations: Operation[] } | undefined;
    try {
      result = await api.endpoints.delete(projectId, endpointId);
    } catch (err) {
      invalidate(api, projectId);
      // Already gone is what delete wants, once it is certain the key is not merely out of scope.
      if (err instanceof ApiError && err.kind === "not_found") {
        await confirmGone(api, projectId, endpointId, "delete", err);
        return;
      }
      throw err;
    }
    await forget(api, projectId, endpointId);
    if (result) await waitFor(projectId, result.operations, logger(props));
  });
}
