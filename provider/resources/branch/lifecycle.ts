/**
 * The lifecycle of `Branch`: check, diff and delete (a default, protected or parent branch is not
 * deleted: the error says which) here; create (with its compute in the same request, reconciling a killed
 * run or a lost answer by the branch's name) in `create.ts`; read and update (rename, protection,
 * expiry, the compute's size, a reset to the parent) in `update.ts`. Every change waits for its
 * operations.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type ApiErrorKind } from "../../api";
import { sizeChangeWarning } from "../compute/diff";
import { planFailures } from "../compute/preflight";
import {
  deleteAndWait,
  diffResult,
  isNewResource,
  unfinishedCreation,
  UNKNOWN,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import { same } from "../compare";
import type { Runtime } from "../runtime";
import { budgetFailures, readBudget } from "./budget";
import { differingAnnotations, previewImport } from "./import";
import { historyFailures, REPLACEMENT_MARGIN_MS } from "./history";
import { checkInputs } from "./inputs";
import { branchNamed, previewName, type Named } from "./ownership";
import {
  childrenOf,
  preservedName,
  computeToFinish,
  refuseServiceRules,
  refuseUndeletable,
  sizeOf,
} from "./rules";
import type { BranchInputs, BranchOutputs } from "./types";
import { autoName, diffBranch } from "./mapping";
import {
  expiredThisRun,
  noteComing,
  parentExpiryFailures,
  primeForExpiry,
  refuseReplacementPastExpiry,
  sayRecreation,
} from "./expiry";
import { create } from "./create";
import { read, update } from "./update";
import { anonymized, previewRules } from "./anonymized";
import { leftAfterRestore, leftForRestore, parentRestored, planRestore, previewRestore } from "./restore";
import { asAfterRestore } from "../branch-objects/objects";
import { stableNames } from "../definition";
import { BRANCH_DEFINITION } from "./definition";

type Inputs = BranchInputs;
type State = Stated<BranchOutputs>;

async function check(rt: Runtime, olds: Stated<Inputs>, news: Bag): Promise<CheckResult<Inputs>> {
  const expiredAt = expiredThisRun(rt, olds, news);
  // A new branch's budget and name are read from the project's listing: asked now, with the project's
  // read that an expiry's judgement waits for, not after it (a round trip less before its create).
  const early = budgetToRead(olds, news);
  const budget = early ? readBudget(rt, early) : undefined;
  budget?.catch(() => undefined); // awaited below, unless the inputs are refused first
  await primeForExpiry(rt, olds, news);
  const { inputs, failures } = checkInputs(news, rt.serviceNow(), olds, expiredAt);
  if (failures.length > 0) return { inputs: news, failures };
  sayRecreation(rt, news, inputs, expiredAt);
  // Two resources of one program with one explicit name in one project would own one branch.
  const { projectId, name } = inputs;
  if (typeof projectId === "string" && typeof name === "string" && ![projectId, name].includes(UNKNOWN)) {
    const other =
      typeof news.__urn === "string"
        ? rt.ledger.declare(`branch:${projectId}/${name}`, news.__urn)
        : undefined;
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
  // A Branch made from a snapshot (a restore's replacement, or one declared with restoreFrom): its name
  // may be held by the branch it restores onto, and the restored branch counts in the budget while the
  // original stays (docs/decisions/0021).
  const restoring = isNewResource(olds) && inputs.restoreFrom !== undefined;
  if (restoring && inputs.adoptDefault) {
    return {
      inputs,
      failures: [
        {
          property: "restoreFrom",
          reason:
            "cannot be declared with adoptDefault: the stack leaves the project's default branch in place and " +
            "never replaces it; remove one of them",
        },
      ],
    };
  }
  const fresh = inputs.importId === undefined && !inputs.adoptDefault && !restoring;
  // The project's listing, when the budget read it: the parent's expiry is looked up there too.
  let listed: Named[] | undefined;
  if (restoring && typeof projectId === "string" && projectId !== UNKNOWN) {
    const read = await (early === projectId && budget ? budget : readBudget(rt, projectId));
    const urn = typeof news.__urn === "string" ? news.__urn : undefined;
    const branchName = inputs.name ?? (urn ? autoName(urn, projectId) : undefined);
    // Without the whole listing (no limit, too many branches), the name's holder alone.
    const holder =
      !read.listed && branchName ? await branchNamed(rt.client(), projectId, branchName) : undefined;
    const all = read.listed ?? (holder ? [holder] : []);
    const failures = branchName ? await previewRestore(rt, inputs, branchName, all) : [];
    if (failures.length) return { inputs, failures };
    const snapshotId = (inputs.restoreFrom as { snapshotId?: unknown }).snapshotId;
    const done = all.some((x) => x.branch.name === branchName && x.branch.restored_from === snapshotId);
    if (!done) {
      const over = await budgetFailures(rt, projectId, urn, read);
      if (over.length) return { inputs, failures: over };
    }
  }
  if (isNewResource(olds) && fresh) {
    const known = typeof projectId === "string" && projectId !== UNKNOWN;
    // One read of the project's listing serves the budget and the name.
    const read = known ? await (early === projectId && budget ? budget : readBudget(rt, projectId)) : {};
    // The check the engine runs again for a replacement: the old branch goes first.
    const replaced = typeof news.__urn === "string" ? rt.ledger.branchesReplaced.get(news.__urn) : undefined;
    if (replaced && read.listed) read.listed = read.listed.filter((x) => x.branch.id !== replaced);
    listed = read.listed;
    const named = await previewName(rt, inputs, read.listed);
    if (named.failures.length) return { inputs, failures: named.failures };
    // A branch of this name this resource made before is taken over: nothing new counts.
    if (!named.exists && known) {
      const over = await budgetFailures(
        rt,
        projectId,
        typeof news.__urn === "string" ? news.__urn : undefined,
        read,
      );
      if (over.length) return { inputs, failures: over };
    }
  }
  // An anonymized branch's rules, against the databases, tables and columns of the branch it is made from.
  if (
    isNewResource(olds) &&
    anonymized(inputs.maskingRules) &&
    typeof projectId === "string" &&
    projectId !== UNKNOWN
  ) {
    const all =
      listed?.map((x) => x.branch) ??
      (await rt
        .client()
        .branches.list(projectId)
        .catch(() => []));
    const parent = inputs.parentId ?? all.find((b) => b.default)?.id;
    if (parent && parent !== UNKNOWN) {
      const whose = inputs.parentId ? "its parent" : "its parent (the project's default branch)";
      const masking = await previewRules(rt, projectId, parent, inputs.maskingRules, whose);
      if (masking.length) return { inputs, failures: masking };
    }
  }
  if (fresh && (isNewResource(olds) || olds.parentId !== inputs.parentId)) {
    const parent = await parentExpiryFailures(rt, inputs, listed);
    if (parent.length) return { inputs, failures: parent };
  }
  if (isNewResource(olds) && (fresh || restoring)) noteComing(rt, news.__urn, inputs);
  // A branch from its parent's past, when it is to be made anew (a replacement is judged by diff,
  // whose olds are the outputs: check's are the old inputs).
  if (inputs.parentTimestamp !== undefined && isNewResource(olds) && fresh) {
    const history = await historyFailures(rt, inputs);
    if (history.length) return { inputs, failures: history };
  }
  // A size above the free plan's, for a new compute or a changed one: one read, only then.
  const c = inputs.compute;
  if (
    c &&
    (isNewResource(olds) || !same(olds.compute, inputs.compute) || olds.projectId !== inputs.projectId)
  ) {
    const plan = await planFailures((id) => rt.projectFacts(id), inputs.projectId, "compute", c.maxCu);
    if (plan.length > 0) return { inputs, failures: plan };
  }
  return { inputs };
}

/** The project whose budget a check of a new branch (not imported, not the default adopted) reads. */
function budgetToRead(olds: Stated<Inputs>, news: Bag): string | undefined {
  const p = news.projectId;
  const fresh = isNewResource(olds) && news.importId === undefined && !news.adoptDefault;
  return fresh && typeof p === "string" && p !== "" && p !== UNKNOWN ? p : undefined;
}

async function diff(
  rt: Runtime,
  id: string,
  olds: State,
  given: Checked<Inputs>,
): Promise<pulumi.dynamic.DiffResult> {
  const news = asAfterRestore(rt, olds, given, "parentId");
  const d = diffBranch(olds, news);
  // Its parent restored: the finalize moved this branch to the restored parent (docs/decisions/0021).
  if (d.replaces.includes("parentId") && (await parentRestored(rt, olds, news))) {
    d.replaces = d.replaces.filter((k) => k !== "parentId");
    d.updates.push("parentId");
    d.changes = true;
    if (d.replaces.length === 0) d.stables = stableNames(BRANCH_DEFINITION.properties);
    if (rt.ledger.isPlanning(news)) {
      rt.logger(news).info(
        `branch ${id} follows its parent's restore: the restored parent takes it over, and parentId becomes the ` +
          "restored branch's (nothing of this branch changes)",
      );
    }
  }
  const restore = d.replaces.includes("restoreFrom");
  if (rt.ledger.isPlanning(news) && restore) {
    await planRestore(rt, id, olds, news, d.replaces);
    // Recorded as any replacement's: the replacement's check then knows the old branch.
    if (typeof news.__urn === "string") rt.ledger.branchesReplaced.set(news.__urn, id);
    rt.ledger.expiryPlanned.set(`${String(olds.projectId)}/${id}`, news.expiresAt ?? null);
    // Deleted first as every replacement: the delete leaves the original to the restore (the create
    // restores onto it, then deletes or keeps it), and the engine deletes first what follows the branch.
    return diffResult(d, true);
  }
  if (rt.ledger.isPlanning(news) && anonymized(news.maskingRules)) {
    if (d.replaces.length === 0) await planMasking(rt, id, olds, news, d.updates);
    else await planMaskedReplacement(rt, id, news);
  }
  if (rt.ledger.isPlanning(news)) {
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
    // What a child's check judges its parent's expiry by (a replacement's id is unknown until made).
    rt.ledger.expiryPlanned.set(`${String(olds.projectId)}/${id}`, news.expiresAt ?? null);
    if (d.replaces.length > 0) {
      noteComing(rt, news.__urn, news);
      if (typeof news.__urn === "string") rt.ledger.branchesReplaced.set(news.__urn, id);
    }
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
    const differing = d.replaces.length === 0 ? differingAnnotations(news.annotations, olds.annotations) : [];
    if (differing.length > 0) {
      log.warn(
        `annotations changed (${differing.map((k) => `"${k}"`).join(", ")}), but the service offers no way to ` +
          `change a branch's annotations once it exists: branch ${id} keeps those it was created with; to give ` +
          "it the new ones, replace it (`pulumi up --replace <its URN>`, which deletes it and its data first)",
      );
    }
    refuseReplacementPastExpiry(rt, id, news, d.replaces);
    if (d.replaces.includes("parentId") && news.parentId === id) {
      throw new Error(
        `Failed to replace branch ${id}: parentId ${id} is this branch itself, which the replacement deletes ` +
          "first; give the id of another branch. Nothing was deleted or changed.",
      );
    }
    if (d.replaces.length > 0 && typeof news.parentTimestamp === "string") {
      // The replacement deletes this branch first: its new one must still be makeable by then.
      const history = await historyFailures(rt, news, REPLACEMENT_MARGIN_MS);
      if (history.length > 0) {
        throw new Error(
          `Failed to replace branch ${id}: ${history[0].reason}. Nothing was deleted or changed.`,
        );
      }
    }
    if (d.replaces.length > 0) {
      log.warn(
        `${d.replaces.join(" and ")} changed: branch ${id} will be deleted, with its data and computes, and a ` +
          "new branch created in its place",
      );
      await refuseUndeletable(rt.client(), String(olds.projectId), id, "replace");
    }
  }
  // Branch names are unique in a project: the old branch has to go before its replacement comes.
  return diffResult(d, true);
}

// --- delete --------------------------------------------------------------------------------

async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  // The original of this run's restore: the create restores onto it, then deletes or keeps it.
  if (leftForRestore(rt, id, props) || (await leftAfterRestore(rt, id, props))) return;
  const api = rt.client();
  const projectId = String(props.projectId);
  await rt.serialized(projectId, async () => {
    // A branch its state knows to be protected or the default: refused before anything is sent.
    if (props.protected === true || props.default === true)
      await refuseUndeletable(api, projectId, id, "delete");
    const send = async () => {
      try {
        return await api.branches.delete(projectId, id);
      } catch (err) {
        // The service refuses to delete the project's default branch, a protected branch and one with
        // children, and deletes nothing then: one listing says which, in plain words (when it cannot be
        // read, the service's own answer stands). Sent first, a delete needs no listing when it goes
        // through.
        if (err instanceof ApiError && REFUSALS.includes(err.kind)) {
          await refuseUndeletable(api, projectId, id, "delete").catch((e: unknown) => {
            if (!(e instanceof ApiError)) throw e;
          });
        }
        throw err;
      }
    };
    await deleteAndWait(rt, projectId, `branch ${id}`, send, rt.logger(props));
  });
}

/** The answers with which the service may refuse a branch's delete (it names no status for it). */
const REFUSALS: readonly ApiErrorKind[] = ["invalid", "conflict", "forbidden"];

/** `Branch`'s own steps (see `../kit.ts`). */
export const branchSteps: ResourceSteps<Inputs, BranchOutputs> = {
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
};

/**
 * An anonymized branch's changed rules are judged against its own tables (nothing sent); what the
 * update does with them is said: new rules mask nothing until anonymizeTrigger changes.
 */
async function planMasking(
  rt: Runtime,
  id: string,
  olds: State,
  news: Checked<Inputs>,
  updates: string[],
): Promise<void> {
  const rules = news.maskingRules;
  if (!anonymized(rules)) return;
  const log = rt.logger(news);
  if (updates.includes("anonymizationState")) {
    log.warn(
      `the last run of the masking rules of branch ${id} ended "${String(olds.anonymizationState)}", not ` +
        "anonymized: this update runs them again",
    );
  }
  if (updates.includes("resetTrigger")) {
    log.warn(
      `branch ${id} is anonymized: the reset brings its parent's data back, and its masking rules run again ` +
        "right after it",
    );
  }
  if (updates.includes("maskingRules")) {
    const failures = await previewRules(rt, String(news.projectId), id, rules, "the branch");
    if (failures.length > 0) {
      throw new Error(
        `Failed to change the masking rules of branch ${id}: ` +
          `${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}. Nothing was changed.`,
      );
    }
    if (!updates.includes("anonymizeTrigger")) {
      log.info(
        `the masking rules of branch ${id} change in place and mask nothing now: change anonymizeTrigger to ` +
          "run them on its data",
      );
    }
  }
  if (updates.includes("anonymizeTrigger")) {
    log.warn(`anonymizeTrigger changed: the masking rules of branch ${id} run again on its current data`);
  }
}

/**
 * A replacement of an anonymized branch (rules declared on a plain one, a new parent…): its rules are
 * judged against the new branch's parent before the engine deletes the old branch, nothing sent.
 */
async function planMaskedReplacement(rt: Runtime, id: string, news: Checked<Inputs>): Promise<void> {
  const rules = news.maskingRules;
  const projectId = news.projectId;
  if (!anonymized(rules) || typeof projectId !== "string" || projectId === UNKNOWN) return;
  const parent =
    news.parentId ??
    (
      await rt
        .client()
        .branches.list(projectId)
        .catch(() => [])
    ).find((b) => b.default)?.id;
  if (!parent || parent === UNKNOWN) return;
  const failures = await previewRules(rt, projectId, parent, rules, "its new parent");
  if (failures.length > 0) {
    throw new Error(
      `Failed to replace branch ${id} with an anonymized one: ` +
        `${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}. Nothing was changed.`,
    );
  }
}
