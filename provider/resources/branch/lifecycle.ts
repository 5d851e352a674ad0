/**
 * The lifecycle of `Branch`: check, diff, create (with its compute in the same request, reconciling a
 * killed run or a lost answer by the branch's name), read, update (rename, protection, expiry, the
 * compute's size, a reset to the parent) and delete (refusing a default, protected or parent branch
 * before anything is sent). Every change waits for its operations.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Branch, type NeonClient, type Operation } from "../../api";
import { sizeChangeWarning } from "../compute/diff";
import { planFailures } from "../compute/preflight";
import { ensureStarted } from "../compute/recovery";
import {
  annotatedStack,
  confirmGone,
  createOnce,
  isNewResource,
  keptInStack,
  madeForResource,
  pendingOperations,
  refreshInputs,
  unfinishedCreation,
  UNKNOWN,
  waitingLine,
  type Checked,
  type ResourceSteps,
} from "../kit";
import { definedDiff, same } from "../compare";
import type { Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import { BRANCH_DEFINITION } from "./definition";
import { budgetFailures, noteBudgetMade } from "./budget";
import { importExisting, previewImport } from "./import";
import { checkInputs } from "./inputs";
import { branchNamed, isOwnLeftover, previewName, refuseStranger, type Named } from "./ownership";
import {
  childrenOf,
  preservedName,
  computeToFinish,
  readWriteCompute,
  refuseServiceRules,
  refuseUndeletable,
  sizeOf,
} from "./rules";
import type { BranchInputs } from "./types";
import { autoName, computeBody, createBody, describeBranch, toOutputs } from "./mapping";
import { expiredThisRun, noteExpired, refusePassedExpiry, sayRecreation } from "./expiry";

type Props = Record<string, unknown>;

export const diffBranch = (olds: Props, news: Props) => definedDiff(BRANCH_DEFINITION, olds, news);

async function check(rt: Runtime, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const expiredAt = expiredThisRun(rt, olds, news);
  const { inputs, failures } = checkInputs(news, rt.serviceNow(), olds, expiredAt);
  if (failures.length > 0) return { inputs: news, failures };
  sayRecreation(rt, news, inputs, expiredAt);
  // Two resources of one program with one explicit name in one project would own one branch.
  const { projectId, name } = inputs;
  if (typeof projectId === "string" && typeof name === "string" && ![projectId, name].includes(UNKNOWN)) {
    const other =
      typeof news.__urn === "string" ? rt.declare(`branch:${projectId}/${name}`, news.__urn) : undefined;
    if (other) {
      return {
        inputs: news,
        failures: [
          {
            property: "name",
            reason:
              `branch "${name}" of project ${projectId} is already declared by another resource of this program ` +
              `(${other.slice(other.lastIndexOf("::") + 2)}); two resources cannot manage one branch: remove one of them`,
          },
        ],
      };
    }
  }
  if (isNewResource(olds) && inputs.importId !== undefined) {
    const failures = await previewImport(rt, inputs);
    if (failures?.length) return { inputs, failures };
  }
  if (isNewResource(olds) && inputs.importId === undefined && !inputs.adoptDefault) {
    const named = await previewName(rt, inputs);
    if (named.failures.length) return { inputs, failures: named.failures };
    // A branch of this name this resource made before is taken over: nothing new counts.
    if (!named.exists && typeof projectId === "string" && projectId !== UNKNOWN) {
      const over = await budgetFailures(
        rt,
        projectId,
        typeof news.__urn === "string" ? news.__urn : undefined,
      );
      if (over.length) return { inputs, failures: over };
    }
  }
  // A size above the free plan's, for a new compute or a changed one: one read, only then.
  const c = inputs.compute as Props | undefined;
  if (
    c &&
    (isNewResource(olds) || !same(olds.compute, inputs.compute) || olds.projectId !== inputs.projectId)
  ) {
    const plan = await planFailures(rt.client(), inputs.projectId, "compute", c.maxCu);
    if (plan.length > 0) return { inputs, failures: plan };
  }
  return { inputs };
}

async function diff(rt: Runtime, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const d = diffBranch(olds, news);
  if (rt.isPlanning(news)) {
    const log = rt.logger(news);
    if (d.replaces.length === 0 && olds.currentState === "init") {
      // A create that was cancelled or failed leaves a branch that never becomes ready: replace it.
      const unfinished = await unfinishedCreation(rt.client(), String(olds.projectId), id);
      if (unfinished) {
        log.warn(
          `branch ${id}'s creation did not finish (${unfinished}), and nothing running will make it ready; it ` +
            "holds no data of its own yet, so it will be deleted and created again",
        );
        d.replaces.push("currentState");
        d.changes = true;
      }
    }
    if (!d.changes && news.compute !== undefined && computeToFinish(olds)) {
      // Its compute never started (or was never made): no input differs, but the update finishes it,
      // so that every declared compute ends up started, as a Compute's does.
      log.info(
        olds.computeId
          ? `compute ${String(olds.computeId)} of branch ${id} has never started (its start failed or was interrupted); this update starts it`
          : `branch ${id} has no read_write compute yet (its create was interrupted); this update adds it`,
      );
      d.changes = true;
    }
    const resize =
      d.replaces.length === 0 && d.updates.includes("compute") && olds.computeId
        ? sizeChangeWarning(sizeOf(olds.compute), sizeOf(news.compute))
        : undefined;
    if (resize) log.warn(`branch ${id}: ${resize}`);
    if (d.replaces.length === 0)
      await refuseServiceRules(rt.client(), String(olds.projectId), id, d.updates, news);
    if (d.updates.includes("resetTrigger") && d.replaces.length === 0) {
      const children = await childrenOf(rt.client(), String(olds.projectId), id);
      log.warn(
        `resetTrigger changed: branch ${id} will be reset to its parent's latest data; its own changes since ` +
          "it was created (or last reset) are replaced, and its compute restarts" +
          (children.length > 0
            ? `; it has child branches (${children.map((c) => c.id).join(", ")}), so its state before the reset is ` +
              `kept as a new branch "${preservedName(String(olds.name ?? id), Date.now())}" (or so, by the time of ` +
              "the reset) that holds them, which this stack does not manage"
            : ""),
      );
    }
    if (
      d.replaces.length === 0 &&
      news.annotations !== undefined &&
      !JSON.stringify(news.annotations).includes(UNKNOWN) &&
      !same(olds.annotations ?? {}, news.annotations ?? {})
    ) {
      log.warn(
        `annotations changed, but the service offers no way to change a branch's annotations once it exists: ` +
          `branch ${id} keeps those it was created with; to give it the new ones, replace it ` +
          "(`pulumi up --replace <its URN>`, which deletes it and its data first)",
      );
    }
    if (d.replaces.includes("parentId") && news.parentId === id) {
      throw new Error(
        `Failed to replace branch ${id}: parentId ${id} is this branch itself, which the replacement deletes ` +
          "first; give the id of another branch. Nothing was deleted or changed.",
      );
    }
    if (d.replaces.length > 0) {
      log.warn(
        `${d.replaces.join(" and ")} changed: branch ${id} will be deleted, with its data and computes, and a ` +
          "new branch created in its place",
      );
      await refuseUndeletable(rt.client(), String(olds.projectId), id, "replace");
    }
  }
  return {
    changes: d.changes,
    replaces: d.replaces,
    stables: d.replaces.length === 0 ? ["projectId", "parentId", "default", "createdAt"] : [],
    // Branch names are unique in a project: the old branch has to go before its replacement comes.
    deleteBeforeReplace: true,
  };
}

// --- create ------------------------------------------------------------------------------

/**
 * The operations of a branch found by name to wait for. A branch still being made (`init`): every one,
 * failures included — they belong to its creation, and waiting on them fails. An older branch taken
 * over (a rerun whose state was lost): only the unfinished ones, not its history's failures.
 */
async function pendingOps(api: NeonClient, projectId: string, b: Pick<Branch, "id" | "current_state">) {
  return pendingOperations(api, projectId, (o) => o.branch_id === b.id, {
    includeFailed: b.current_state === "init",
  });
}

async function create(rt: Runtime, i: Checked<BranchInputs>): Promise<pulumi.dynamic.CreateResult> {
  const inputs: Props = i;
  if (i.importId) return importExisting(rt, inputs, i);
  if (i.adoptDefault) return adoptDefault(rt, i);
  const api = rt.client();
  const log = rt.logger(inputs);
  const urn = typeof inputs.__urn === "string" ? inputs.__urn : undefined;
  const name = i.name ?? (urn ? autoName(urn, i.projectId) : undefined);
  if (!name) throw new Error("Failed to create a branch: it has no name and no URN to derive one from");
  let branch: Branch | undefined;
  let operations: Operation[] = [];
  try {
    await rt.serialized(i.projectId, async () => {
      const found = await branchNamed(api, i.projectId, name);
      if (found && !isOwnLeftover(found, urn)) throw refuseStranger(i, found, urn);
      if (found) {
        log.info(
          `found ${describeBranch(found.branch)}, made for this resource by an earlier run of this stack ` +
            `(${annotatedStack(found.annotation)}, its annotation says); managing it`,
        );
        rt.noteTakenOver("branch", found.branch.id);
        branch = found.branch;
        operations = await pendingOps(api, i.projectId, found.branch);
      } else {
        refusePassedExpiry(rt, i);
        ({ branch, operations } = await createOrReconcile(api, i, name, log, urn));
        noteBudgetMade(rt, branch.id);
      }
      log.progress(waitingLine(`${found ? "finishing" : "created"} ${describeBranch(branch)}`, operations));
      await rt.waitFor(i.projectId, operations, log);
      if (i.compute && !(await readWriteCompute(api, i.projectId, branch.id))) {
        // Found again after a kill that came before its compute: add it now.
        const made = await api.endpoints.create(i.projectId, {
          branch_id: branch.id,
          type: "read_write",
          ...computeBody(i.compute),
        });
        await rt.waitFor(i.projectId, made.operations, log);
      }
    });
    const b = branch as Branch;
    const fresh = await api.branches.getAnnotated(i.projectId, b.id);
    const ep = await readWriteCompute(api, i.projectId, b.id);
    return { id: b.id, outs: toOutputs(inputs, fresh.branch, ep, fresh.annotation) };
  } catch (err) {
    if (!branch) throw err;
    // As it is now (its compute too, when readable), so that the next up knows what to finish.
    const b = branch;
    const now = await api.branches
      .getAnnotated(i.projectId, b.id)
      .catch(() => ({ branch: b, annotation: undefined }));
    const ep = await readWriteCompute(api, i.projectId, b.id).catch(() => undefined);
    throw keptInStack(
      describeBranch(branch),
      err,
      branch.id,
      toOutputs(inputs, now.branch, ep, now.annotation),
    );
  }
}

/** Sends the create; a lost answer or a 409 is reconciled by the name, never by a blind second create. */
async function createOrReconcile(
  api: NeonClient,
  i: BranchInputs,
  name: string,
  log: ResourceLogger,
  urn: string | undefined,
): Promise<{ branch: Branch; operations: Operation[] }> {
  const find = () => branchNamed(api, i.projectId, name);
  // A branch this create made carries this resource's annotation (protected or not): anything else
  // holding the name after a lost answer or a resend's 409 is not taken.
  const finish = async (found: Named) => {
    if (!madeForResource(found.annotation, urn)) throw refuseStranger(i, found, urn);
    return { branch: found.branch, operations: await pendingOps(api, i.projectId, found.branch) };
  };
  return createOnce<{ branch: Branch; operations: Operation[] }, Named>({
    log,
    send: async () => {
      const r = await api.branches.create(i.projectId, createBody(i, name, urn));
      return { branch: r.branch, operations: r.operations };
    },
    find,
    finish,
    describe: (found) => describeBranch(found.branch),
    refused: async (err) => {
      // A 409 names a branch that was there before this create: only its annotation says it is ours.
      const found = err instanceof ApiError && err.kind === "conflict" ? await find() : undefined;
      if (!found) throw err;
      if (!isOwnLeftover(found, urn)) throw refuseStranger(i, found, urn);
      log.info(
        `the name is held by ${describeBranch(found.branch)}, made for this resource by an earlier run of this ` +
          "stack (its annotation says); managing it",
      );
      return finish(found);
    },
  });
}

/** Takes over the project's default branch: applies the declared name, protection and compute size. */
async function adoptDefault(rt: Runtime, i: Checked<BranchInputs>): Promise<pulumi.dynamic.CreateResult> {
  const inputs: Props = i;
  const api = rt.client();
  const log = rt.logger(inputs);
  const def = (await api.branches.list(i.projectId)).find((b) => b.default);
  if (!def) throw new Error(`Failed to adopt the default branch of project ${i.projectId}: it has none`);
  log.info(
    `adopting ${describeBranch(def)}, the project's default branch (adoptDefault); destroy will leave it in place`,
  );
  const olds = toOutputs({}, def, await readWriteCompute(api, i.projectId, def.id), undefined);
  await applyChanges(
    rt,
    def.id,
    olds,
    i,
    diffBranch(olds, inputs).updates.filter((k) => k !== "resetTrigger"),
  );
  const fresh = await api.branches.getAnnotated(i.projectId, def.id);
  const ep = await readWriteCompute(api, i.projectId, def.id);
  return { id: def.id, outs: toOutputs(inputs, fresh.branch, ep, fresh.annotation, { adopted: true }) };
}

// --- read / update ------------------------------------------------------------------------

async function read(rt: Runtime, id: string, props?: Props): Promise<pulumi.dynamic.ReadResult> {
  const api = rt.client();
  const projectId = String(props?.projectId ?? id.split("/")[0]);
  const branchId = id.includes("/") ? id.split("/")[1] : id;
  let found: { branch: Branch; annotation: Record<string, string> };
  try {
    found = await api.branches.getAnnotated(projectId, branchId);
  } catch (err) {
    if (err instanceof ApiError && err.kind === "not_found") {
      await confirmGone(api, projectId, `branch ${branchId}`, "refresh", err);
      noteExpired(rt, branchId, props ?? {});
      return {};
    }
    throw err;
  }
  const b = found.branch;
  const old = props ?? {};
  const outs = toOutputs(old, b, await readWriteCompute(api, projectId, b.id), found.annotation);
  return { id: b.id, props: outs, inputs: refreshInputs(BRANCH_DEFINITION, old, outs, ["projectId"]) };
}

async function applyChanges(
  rt: Runtime,
  id: string,
  olds: Props,
  news: Checked<BranchInputs>,
  updates: string[],
): Promise<void> {
  const api = rt.client();
  const projectId = String(news.projectId);
  const log = rt.logger(news);
  const patch: Record<string, unknown> = {};
  if (updates.includes("name") && news.name !== undefined) patch.name = news.name;
  if (updates.includes("protected")) patch.protected = news.protected ?? false;
  if (updates.includes("expiresAt")) patch.expires_at = news.expiresAt ?? null;
  await rt.serialized(projectId, async () => {
    if (Object.keys(patch).length > 0) {
      const r = await api.branches.update(projectId, id, patch);
      await rt.waitFor(projectId, r.operations, log);
    }
    if (updates.includes("compute") && news.compute) {
      const ep = await readWriteCompute(api, projectId, id);
      const r = ep
        ? await api.endpoints.update(projectId, ep.id, computeBody(news.compute))
        : await api.endpoints.create(projectId, {
            branch_id: id,
            type: "read_write",
            ...computeBody(news.compute),
          });
      log.progress(
        ep ? `updating compute ${ep.id} of branch ${id}` : `adding a read_write compute to branch ${id}`,
      );
      await rt.waitFor(projectId, r.operations, log);
    }
    if (updates.includes("resetTrigger")) {
      const parent = (olds.parentId ?? news.parentId) as string | undefined;
      if (!parent)
        throw new Error(
          `Failed to reset branch ${id}: it has no parent to reset to (a default or root branch)`,
        );
      // A branch with children keeps its state before the reset as a new branch, which takes the children
      // (the service requires a name for it): they were made from that state.
      const children = await childrenOf(api, projectId, id);
      const preserve = children.length > 0 ? preservedName(String(olds.name ?? id), Date.now()) : undefined;
      const r = await api.branches.restore(projectId, id, parent, preserve);
      log.progress(`resetting branch ${id} to the latest data of ${parent}`);
      if (preserve) {
        log.warn(
          `branch ${id} has child branches (${children.map((c) => c.id).join(", ")}): its state before the reset ` +
            `is kept as the new branch "${preserve}", which now holds them; this stack does not manage that ` +
            "branch (delete it once its children are gone)",
        );
      }
      await rt.waitFor(projectId, r.operations, log);
    }
  });
}

async function update(
  rt: Runtime,
  id: string,
  olds: Props,
  news: Checked<BranchInputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  const api = rt.client();
  const projectId = String(news.projectId);
  const log = rt.logger(news);
  if (olds.currentState === "init") await finishCreation(rt, projectId, id, log);
  await applyChanges(rt, id, olds, news, diffBranch(olds, news).updates);
  if (news.compute !== undefined && computeToFinish(olds)) {
    await rt.serialized(projectId, async () => {
      const ep = await readWriteCompute(api, projectId, id);
      if (ep) {
        await ensureStarted(rt, api, projectId, ep.id, log, true);
        return;
      }
      log.progress(`adding a read_write compute to branch ${id}`);
      const made = await api.endpoints.create(projectId, {
        branch_id: id,
        type: "read_write",
        ...computeBody(news.compute as BranchInputs["compute"] & object),
      });
      await rt.waitFor(projectId, made.operations, log);
    });
  }
  const b = await api.branches.getAnnotated(projectId, id);
  const extra = olds.adopted === true ? { adopted: true } : {};
  return { outs: toOutputs(news, b.branch, await readWriteCompute(api, projectId, id), b.annotation, extra) };
}

/**
 * A branch whose create did not finish (an earlier run's InitError): waits for what still runs on it,
 * and fails naming the branch and the remedy when it will not become ready.
 */
async function finishCreation(
  rt: Runtime,
  projectId: string,
  id: string,
  log: ResourceLogger,
): Promise<void> {
  const api = rt.client();
  await rt.serialized(projectId, async () => {
    await rt.waitFor(projectId, await pendingOps(api, projectId, { id, current_state: "init" }), log);
  });
  const why = await unfinishedCreation(api, projectId, id);
  if (why) {
    throw new Error(
      `Failed to update branch ${id}: its creation did not finish (${why}), so it never becomes ready. It holds ` +
        "no data of its own yet: run `pulumi up` again, which replaces it, or `pulumi destroy` to remove it.",
    );
  }
}

// --- delete --------------------------------------------------------------------------------

async function remove(rt: Runtime, id: string, props: Props): Promise<void> {
  const api = rt.client();
  const projectId = String(props.projectId);
  await rt.serialized(projectId, async () => {
    await refuseUndeletable(api, projectId, id, "delete");
    const r = await api.branches.delete(projectId, id).catch(async (err: unknown) => {
      if (!(err instanceof ApiError && err.kind === "not_found")) throw err;
      await confirmGone(api, projectId, `branch ${id}`, "delete", err);
      return undefined;
    });
    if (r) await rt.waitFor(projectId, r.operations, rt.logger(props));
  });
}

/** `Branch`'s own steps (see `../kit.ts`). */
export const branchSteps: ResourceSteps<BranchInputs> = {
  check,
  diff,
  create,
  read,
  importInputs: (outs) => {
    const inputs: Props = { projectId: outs.projectId };
    for (const k of ["name", "parentId", "protected", "expiresAt", "compute"])
      if (outs[k] !== undefined) inputs[k] = outs[k];
    return inputs;
  },
  update,
  delete: remove,
};
