/**
 * `Branch`'s read (refresh) and update: rename, protection, expiry, the compute's size, a reset to the
 * parent (keeping the old state under a new name when the branch has children); a creation an earlier
 * run left unfinished is finished first. Every change waits for its operations.
 */
import { anonymizationPhase } from "../../api";
import { anonymized, apiRules, awaitRun, madeAnonymized, ruleInputs } from "./anonymized";
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Branch, type BranchUpdateBody } from "../../api";
import { ensureStarted } from "../compute/recovery";
import {
  confirmGone,
  refreshInputs,
  unfinishedCreation,
  type Checked,
  type Stated,
  type UpdateStep,
} from "../kit";
import type { Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import { BRANCH_DEFINITION } from "./definition";
import { childrenOf, preservedName, computeToFinish, pendingOps, readWriteCompute } from "./rules";
import type { BranchInputs, BranchOutputs } from "./types";
import { computeBody, diffBranch, toOutputs } from "./mapping";
import { noteExpired } from "./expiry";

type State = Stated<BranchOutputs>;

export async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
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
  const old: State = props ?? {};
  // An anonymized branch: its rules and state as the service has them (drift shows in the diff).
  const extra = madeAnonymized(old)
    ? {
        maskingRules: ruleInputs(await api.anonymized.getRules(projectId, b.id)),
        anonymizationState: (await api.anonymized.status(projectId, b.id)).state,
      }
    : {};
  const outs = toOutputs(
    { ...old, ...extra },
    b,
    await readWriteCompute(api, projectId, b.id),
    found.annotation,
    extra,
  );
  return { id: b.id, props: outs, inputs: refreshInputs(BRANCH_DEFINITION, old, outs) };
}

export async function applyChanges(
  rt: Runtime,
  id: string,
  olds: State,
  news: Checked<BranchInputs>,
  updates: string[],
): Promise<void> {
  const api = rt.client();
  const projectId = String(news.projectId);
  const log = rt.logger(news);
  const patch: BranchUpdateBody = {};
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
      const parent = olds.parentId ?? news.parentId;
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
  if (anonymized(news.maskingRules)) {
    if (updates.includes("maskingRules")) {
      await api.anonymized.setRules(projectId, id, apiRules(news.maskingRules));
      log.info(
        `updated the masking rules of branch ${id}` +
          (updates.includes("anonymizeTrigger") ? "" : "; they run when anonymizeTrigger changes"),
      );
    }
    // A new trigger asks for a run; a reset brought the parent's data back; a run owed (the last one did
    // not end masked) is made, or waited for while one goes on.
    if (["anonymizeTrigger", "resetTrigger", "anonymizationState"].some((k) => updates.includes(k))) {
      const now = await api.anonymized.status(projectId, id);
      const started =
        anonymizationPhase(now.state, false) !== "waiting"
          ? await api.anonymized.start(projectId, id)
          : undefined;
      await awaitRun(rt, projectId, id, log, started);
    }
  }
}

export const update: UpdateStep<BranchInputs, BranchOutputs> = async (rt, id, olds, news) => {
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
  const extra = {
    ...(olds.adopted === true ? { adopted: true } : {}),
    ...(anonymized(news.maskingRules)
      ? { anonymizationState: (await api.anonymized.status(projectId, id)).state }
      : {}),
  };
  return { outs: toOutputs(news, b.branch, await readWriteCompute(api, projectId, id), b.annotation, extra) };
};

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
