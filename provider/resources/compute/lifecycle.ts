/**
 * The lifecycle of `Compute`, a short controller: check and diff here, create in `create.ts`, update
 * in `update.ts`, read and delete here; each hands off to named steps (`recovery.ts`, `mapping.ts`,
 * `preflight.ts`). The kit (`../kit.ts`) adds what every resource does.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Endpoint } from "../../api";
import type { ResourceLogger } from "../engine-log";
import type { ResourceDef } from "../definition";
import {
  confirmGone,
  refreshInputs,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import type { Runtime } from "../runtime";
import { asAfterRestore } from "../branch-objects/objects";
import { claimKey, createCompute } from "./create";
import { COMPUTE_DEFINITION } from "./definition";
import { diffCompute, propertyChanged } from "./diff";
import { checkInputs, UNKNOWN } from "./inputs";
import type { ComputeInputs, ComputeOutputs } from "./types";
import { describe, parseId, toOutputs } from "./mapping";
import { withProjectDefault } from "./project-default";
import { planFailures, preflight, type PreflightScope } from "./preflight";
import { neverStarted } from "./recovery";
import { updateCompute } from "./update";

type Inputs = Checked<ComputeInputs>;
type State = Stated<ComputeOutputs>;

// --- check / diff ----------------------------------------------------------------------------

async function check(
  rt: Runtime,
  olds: Stated<ComputeInputs>,
  news: Bag,
): Promise<CheckResult<ComputeInputs>> {
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) return { inputs: news, failures };
  const isNew = Object.keys(olds).length === 0;
  if (isNew || olds.maxCu !== inputs.maxCu || olds.projectId !== inputs.projectId) {
    const plan = await planFailures((id) => rt.projectFacts(id), inputs.projectId, "maxCu", inputs.maxCu);
    if (plan.length > 0) return { inputs, failures: plan };
  }
  if (inputs.adoptExistingPrimary === true && isNew) await sayWhatWillBeAdopted(rt, inputs);
  // A read_write compute new on its branch (made, or moved there): roles and databases of that branch
  // wait for it rather than fail.
  const arrives = isNew || olds.branchId !== inputs.branchId || olds.type !== "read_write";
  if (
    arrives &&
    inputs.type === "read_write" &&
    typeof inputs.branchId === "string" &&
    inputs.branchId !== UNKNOWN
  )
    rt.ledger.expectCompute(inputs.branchId);
  return { inputs };
}

/** The preview of a new resource with `adoptExistingPrimary` says which compute it will take over. */
async function sayWhatWillBeAdopted(rt: Runtime, inputs: Inputs): Promise<void> {
  const { projectId, branchId } = inputs;
  if (
    typeof projectId !== "string" ||
    typeof branchId !== "string" ||
    [projectId, branchId].includes(UNKNOWN)
  )
    return;
  try {
    const primary = (await rt.client().endpoints.listByBranch(projectId, branchId)).find(
      (e) => e.type === "read_write",
    );
    rt.logger(inputs).info(
      primary
        ? `will adopt ${describe(primary)}, the branch's existing read_write compute (adoptExistingPrimary), and apply the declared settings to it`
        : `branch ${branchId} has no read_write compute to adopt: a new one will be created`,
    );
  } catch {
    // Only a preview note: the create itself reads the branch again and reports any error.
  }
}

async function diff(
  rt: Runtime,
  id: string,
  given: State,
  declared: Inputs,
): Promise<pulumi.dynamic.DiffResult> {
  // Its branch restored in this run: the finalize moves the compute, and nothing else of it changes.
  const news = asAfterRestore(rt, given, declared);
  // A refresh's diff only displays drift: it sends nothing.
  const olds = rt.ledger.isPlanning(news) ? await withProjectDefault(rt.client(), given, news) : given;
  const d = diffCompute(olds, news);
  const result = {
    changes: d.changes,
    replaces: d.replaces,
    stables: d.stables,
    deleteBeforeReplace: d.deleteBeforeReplace,
  };
  // A refresh diffs to show drift: nothing will change, so no warning, no reads, no start.
  if (!rt.ledger.isPlanning(news)) return result;
  const log = rt.logger(news);
  const scope = d.replaces.length > 0 ? "replace" : d.updates.includes("branchId") ? "move" : undefined;
  await preflightChange(rt, id, olds, news, scope);
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
  rt: Runtime,
  id: string,
  olds: State,
  news: Inputs,
  scope: PreflightScope | undefined,
): Promise<void> {
  if (!scope) return;
  // Inputs that passed check, possibly with values unknown at preview.
  const relevant = [news.projectId, news.branchId, news.type, news.name, news.regionId, news.maxCu];
  if (relevant.some((v) => v === UNKNOWN)) return;
  const failures = await preflight(
    rt.client(),
    {
      projectId: news.projectId,
      branchId: news.branchId,
      type: news.type ?? "read_write",
      name: typeof news.name === "string" ? news.name : undefined,
      regionId: news.regionId,
      maxCu: news.maxCu,
      currentEndpointId: scope === "move" || olds.projectId === news.projectId ? id : undefined,
      adoptExistingPrimary: news.adoptExistingPrimary === true,
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
function warnIgnoredImportId(id: string, olds: State, news: Inputs, log: ResourceLogger): void {
  const importId = news.importId;
  if (typeof importId !== "string" || importId === UNKNOWN || importId === olds.importId) return;
  if (importId.endsWith(`/${id}`)) return;
  log.warn(
    `importId ${importId} is ignored: this resource already manages compute ${id}, and importId is read ` +
      "only when the resource is created. Remove importId, or to manage the other compute declare a new " +
      "resource with it (and remove this one, or set retainOnDelete on it first to keep its compute).",
  );
}

// --- read ----------------------------------------------------------------------------------

async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const { projectId, endpointId } = parseId(id, props);
  const api = rt.client();
  let ep: Endpoint;
  try {
    ep = await api.endpoints.get(projectId, endpointId);
  } catch (err) {
    // Gone: no id tells the engine to drop the resource from the stack. Only when it is certain.
    if (err instanceof ApiError && err.kind === "not_found") {
      await confirmGone(api, projectId, `compute ${endpointId}`, "refresh", err);
      return {};
    }
    throw err;
  }
  const old: State = props ?? {};
  const outs = toOutputs(old, ep, false);
  // `cu` is shorthand for equal bounds; drop it when the compute no longer has a fixed size.
  if (outs.cu !== undefined && outs.minCu !== outs.cu) delete outs.cu;
  return { id: ep.id, props: outs, inputs: refreshInputs(COMPUTE_DEFINITION, old, outs, IDENTITY) };
}

/** The definition as the kit reads it. */
const DEFINITION: ResourceDef = COMPUTE_DEFINITION;

/** Inputs a refresh always reports: what the compute is. */
const IDENTITY = ["projectId", "branchId", "type"];

// --- delete --------------------------------------------------------------------------------

async function deleteCompute(rt: Runtime, id: string, props: State): Promise<void> {
  const { projectId, endpointId } = parseId(id, props);
  if (rt.ledger.computesClaimed.has(claimKey(endpointId, props.createdAt))) {
    // A create-before-delete replacement (a forced `--replace` without deleteBeforeReplace, as the
    // plugin's YAML/Python/Go resources default to) whose create took this very compute over: it
    // now belongs to the replacement, and deleting "the old one" would delete it.
    rt.logger(props).warn(
      `left compute ${endpointId} in place: this run's replacement of the resource took it over ` +
        "(set the deleteBeforeReplace resource option to replace it with a new compute)",
    );
    return;
  }
  const known = rt.ledger.knownComputes(rt.client());
  await rt.serialized(projectId, async () => {
    const result = await known
      .changing(projectId, () => known.api.endpoints.delete(projectId, endpointId))
      .catch(async (err: unknown) => {
        // Already gone is what delete wants, once it is certain the key is not merely out of scope.
        if (!(err instanceof ApiError && err.kind === "not_found")) throw err;
        await confirmGone(known.api, projectId, `compute ${endpointId}`, "delete", err);
        return undefined;
      });
    if (!result) return;
    await known.forget(projectId, endpointId);
    await rt.waitFor(projectId, result.operations, rt.logger(props));
  });
}

// --- the steps the kit binds ------------------------------------------------------------------

/** `Compute`'s own steps (see `../kit.ts`). */
export const computeSteps: ResourceSteps<ComputeInputs, ComputeOutputs> = {
  check,
  diff,
  changedKeys: (olds, news) => {
    const d = diffCompute(olds, news);
    return [...d.replaces, ...d.updates];
  },
  create: createCompute,
  read,
  importInputs: (outs) => {
    // Every setting the compute has that differs from leaving the input out: the generated code then
    // describes the compute exactly, and its first preview shows no change.
    const inputs: Bag = {};
    for (const p of DEFINITION.properties) {
      const k = p.name;
      if (
        !p.input ||
        p.change === "create-only" ||
        p.change === "none" ||
        k === "cu" ||
        outs[k] === undefined
      )
        continue;
      if (IDENTITY.includes(k) || propertyChanged(k, { [k]: undefined }, outs)) inputs[k] = outs[k];
    }
    return inputs;
  },
  update: updateCompute,
  delete: deleteCompute,
};
