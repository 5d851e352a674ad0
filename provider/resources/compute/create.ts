/**
 * The create path of `Compute`, as named steps: {@link decide} what the branch's computes call for
 * (pure), {@link plan} it on a listing read fresh whenever it is not a plain create, then carry it
 * out — create (reconciling a lost answer), finish an interrupted run's compute, adopt the primary,
 * or refuse naming the exact `importId` — and wait. `importExisting` adopts a compute by `importId`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Endpoint, type NeonClient } from "../../api";
import type { ResourceLogger } from "../engine-log";
import type { Runtime } from "../runtime";
import { keptInStack, readImported, waitingLine, type Checked, type TakeOverStep } from "../kit";
import { propertyChanged } from "./diff";
import { withProjectDefault } from "./project-default";
import type { ComputeInputs } from "./types";
import { COMPUTE_INPUT_KEYS } from "./diff";
import type { KnownComputes } from "./known";
import { describe, parseId, settledEndpoint, toOutputs, updateBody } from "./mapping";
import {
  autoName,
  createOrReconcile,
  ensureStarted,
  neverStarted,
  operationsOf,
  SLOT_TAKEN_REMEDY,
  type EndpointAndOperations,
} from "./recovery";

/** What a create does, given the branch's computes. */
export type CreatePlan =
  | { kind: "create" }
  /** The compute an interrupted run created for this very resource (its auto-name). */
  | { kind: "finish"; endpoint: Endpoint }
  /** The branch's read_write compute, taken over (`adoptExistingPrimary`). */
  | { kind: "adopt"; endpoint: Endpoint }
  | { kind: "refuse"; message: string };

/**
 * Decides what a create does on a branch holding `existing`. Pure. Only an auto-named resource
 * (`autoNamed`) can recognise a compute as its own: its name is derived from its own URN. A compute
 * carrying the name the program chose is never adopted silently, nor joined by a second one.
 */
export function decide(existing: readonly Endpoint[], i: ComputeInputs, autoNamed: boolean): CreatePlan {
  const type = i.type ?? "read_write";
  const sameName = i.name ? existing.find((e) => e.name === i.name && e.type === type) : undefined;
  const primary = type === "read_write" ? existing.find((e) => e.type === "read_write") : undefined;
  if (sameName && autoNamed) return { kind: "finish", endpoint: sameName };
  if (primary && i.adoptExistingPrimary === true) return { kind: "adopt", endpoint: primary };
  if (sameName) {
    // An explicit name cannot tell this resource's compute from anyone else's (an interrupted run of
    // this stack, another resource or program, or — in a create-before-delete replacement — the very
    // compute being replaced): say how to adopt it, rename, or replace it.
    return {
      kind: "refuse",
      message:
        `Failed to create compute "${i.name}" on branch ${i.branchId}: ${describe(sameName)} already has this ` +
        "name and type, and an explicit name is unique per branch and type. If an earlier run of this stack " +
        `was interrupted and created it, set importId: "${i.projectId}/${sameName.id}" on this resource and ` +
        "run `pulumi up` again to manage it. If this create replaces that very compute (`pulumi up --replace`), " +
        "set the resource option deleteBeforeReplace: true so that the old one is deleted first. If another " +
        "resource or program owns it, give this compute another name. Or delete it " +
        `(\`neonctl endpoints delete ${sameName.id} --project-id ${i.projectId}\`, or in the Neon console) and ` +
        "run `pulumi up` again.",
    };
  }
  if (primary) {
    return {
      kind: "refuse",
      message:
        `Failed to create a read_write compute on branch ${i.branchId} in project ${i.projectId}: the branch ` +
        `already has read_write compute ${primary.id}. ${SLOT_TAKEN_REMEDY}`,
    };
  }
  return { kind: "create" };
}

/**
 * The plan and the listing it was made on. The cached listing answers the common case (nothing in
 * the way); anything else is decided on the branch read now: another process may have changed it in
 * this very run. A compute without a name is told apart after a lost answer only by a listing just
 * before, so it always reads fresh.
 */
async function plan(
  known: KnownComputes,
  i: ComputeInputs,
  autoNamed: boolean,
): Promise<{ plan: CreatePlan; existing: Endpoint[] }> {
  if (i.name) {
    const cached = await known.branch(i.projectId, i.branchId);
    const p = decide(cached, i, autoNamed);
    if (p.kind === "create") return { plan: p, existing: cached };
  }
  const existing = await known.fresh(i.projectId, i.branchId);
  return { plan: decide(existing, i, autoNamed), existing };
}

/** Carries out a plan; `retryOnConflict` allows one more plan after a 409 on create. */
async function carryOut(
  rt: Runtime,
  known: KnownComputes,
  i: ComputeInputs,
  inputs: Checked<ComputeInputs>,
  autoNamed: boolean,
  planned: { plan: CreatePlan; existing: Endpoint[] },
  log: ResourceLogger,
  retryOnConflict = true,
): Promise<EndpointAndOperations & { adopted?: boolean }> {
  const p = planned.plan;
  switch (p.kind) {
    case "refuse":
      throw new Error(p.message);
    case "finish":
      log.info(`found ${describe(p.endpoint)} created for this resource by an interrupted run; finishing it`);
      rt.ledger.computesClaimed.add(claimKey(p.endpoint.id, p.endpoint.created_at));
      // Its older failures are history: ensureStarted starts it if it never did.
      return {
        endpoint: p.endpoint,
        operations: await operationsOf(known.api, i.projectId, p.endpoint.id, { includeFailed: false }),
      };
    case "adopt":
      rt.ledger.computesClaimed.add(claimKey(p.endpoint.id, p.endpoint.created_at));
      return adoptPrimary(known.api, p.endpoint, inputs, log);
    case "create":
      try {
        return await createOrReconcile(known.api, i, new Set(planned.existing.map((e) => e.id)), log);
      } catch (err) {
        if (!(retryOnConflict && err instanceof ApiError && err.kind === "conflict")) throw err;
        // The branch changed since the listing was read (someone took the read_write slot): decide
        // again on the branch as it is now (finish, adopt, or say what holds the slot).
        const existing = await known.fresh(i.projectId, i.branchId);
        const again = { existing, plan: decide(existing, i, autoNamed) };
        return carryOut(rt, known, i, inputs, autoNamed, again, log, false);
      }
  }
}

/** A compute's identity across the run: its id and creation time (ids are not reused, but be sure). */
export function claimKey(endpointId: string, createdAt: unknown): string {
  return `${endpointId}@${String(createdAt)}`;
}

/** Creates the compute (or finishes, adopts, or imports one) and waits until it is ready. */
export async function createCompute(
  rt: Runtime,
  inputs: Checked<ComputeInputs>,
): Promise<pulumi.dynamic.CreateResult> {
  // Roles and databases of the branch refused for want of a read_write compute wait for this one.
  const readWrite = inputs.type === "read_write";
  if (readWrite) rt.ledger.computeStarted(inputs.branchId);
  try {
    return await makeCompute(rt, inputs);
  } finally {
    if (readWrite) rt.ledger.computeSettled(inputs.branchId);
  }
}

async function makeCompute(
  rt: Runtime,
  inputs: Checked<ComputeInputs>,
): Promise<pulumi.dynamic.CreateResult> {
  if (typeof inputs.importId === "string") return importExisting(rt, inputs, inputs.importId);
  const i: ComputeInputs = { ...inputs };
  const urn = typeof inputs.__urn === "string" ? inputs.__urn : undefined;
  if (!i.name && urn) i.name = autoName(urn, i);
  const known = rt.ledger.knownComputes(rt.client());
  const log = rt.logger(inputs);
  let ep: Endpoint | undefined;
  let ready: Endpoint | undefined;
  let adopted: boolean | undefined;
  try {
    await rt.serialized(i.projectId, async () => {
      const autoNamed = Boolean(urn && !inputs.name);
      const result = await carryOut(rt, known, i, inputs, autoNamed, await plan(known, i, autoNamed), log);
      ep = result.endpoint;
      adopted = result.adopted;
      await known.remember(ep);
      log.progress(waitingLine(`created ${describe(ep)}`, result.operations));
      const finished = await rt.waitFor(i.projectId, result.operations, log);
      // This run's own create, every operation finished: nothing to read back. A compute found again
      // (interrupted run, lost answer) may have failed to start earlier.
      ready = result.answered
        ? settledEndpoint(ep, finished)
        : await ensureStarted(rt, known.api, i.projectId, ep.id, log, !i.disabled);
      await known.remember(ready);
    });
    if (!ready) throw new Error(`Failed to read back ${describe(ep as Endpoint)}`);
    if (ready.current_state === "init" && !i.disabled) throw new Error(`${describe(ready)} did not start`);
    return { id: ready.id, outs: toOutputs({ ...inputs, adopted }, ready) };
  } catch (err) {
    known.invalidate(i.projectId);
    if (!ep) throw err;
    // The compute exists: keep it in state so that a later `up` finishes or deletes it.
    throw keptInStack(describe(ep), err, ep.id, toOutputs({ ...inputs, adopted }, ep));
  }
}

/**
 * Takes over the branch's existing read_write compute (`adoptExistingPrimary`): applies the
 * declared settings that differ, nothing else. Its name is kept unless one is declared.
 */
async function adoptPrimary(
  api: NeonClient,
  primary: Endpoint,
  inputs: Checked<ComputeInputs>,
  log: ResourceLogger,
): Promise<EndpointAndOperations & { adopted: true }> {
  const desired = { ...inputs, branchId: primary.branch_id };
  const body = updateBody(await withProjectDefault(api, toOutputs({}, primary, false), desired), desired);
  log.info(
    `adopting ${describe(primary)}, the branch's existing read_write compute (adoptExistingPrimary)` +
      (Object.keys(body).length > 0 ? `; applying ${Object.keys(body).join(", ")}` : "") +
      "; destroy will leave it in place",
  );
  if (Object.keys(body).length === 0) return { endpoint: primary, operations: [], adopted: true };
  const result = await api.endpoints.update(primary.project_id, primary.id, body);
  return { ...result, adopted: true };
}

/**
 * Adopts an existing compute named by `importId` instead of creating one (`pulumi import` cannot
 * work for dynamic resources: the engine reads without the provider code). Like Pulumi's import, it
 * changes nothing: the declared inputs must describe the compute as it is, else it fails and says
 * which properties differ.
 */
const importExisting: TakeOverStep<ComputeInputs, string> = async (rt, inputs, importId) => {
  const { projectId, endpointId } = parseId(importId);
  const api = rt.client();
  let ep = await readImported("compute", importId, () => api.endpoints.get(projectId, endpointId));
  const actual = await withProjectDefault(api, toOutputs({}, ep, false), inputs);
  const declared = Object.keys(inputs).filter(
    (k) =>
      (COMPUTE_INPUT_KEYS as readonly string[]).includes(k) &&
      !["cu", "restartTrigger", "importId"].includes(k),
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
  const log = rt.logger(inputs);
  log.info(`imported ${describe(ep)}; deleting this resource will delete the compute`);
  if (inputs.disabled !== true && neverStarted(ep)) {
    // Import changes no setting, but every declared compute ends up started.
    ep = await rt.serialized(projectId, () => ensureStarted(rt, api, projectId, endpointId, log, true));
  }
  return { id: ep.id, outs: toOutputs(inputs, ep) };
};
