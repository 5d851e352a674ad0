/**
 * A restore of a `Branch` from a snapshot (docs/decisions/0021): a replacement whose delete leaves the
 * original to the restore and whose create restores the snapshot into a new branch, finalizes it (it
 * takes the original's name and computes; the original is renamed) and then deletes or keeps the
 * original, as `restoreFrom.original` says. Every step is found again from the service (the names are
 * derived from the URN, the snapshot and the original's id; a restored branch names its snapshot and the
 * branch it replaced), so a killed run's next `up` finishes the restore and never makes a second one.
 */
import { createHash } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Branch, type Operation } from "../../api";
import {
  createOnce,
  deleteAndWait,
  madeForResource,
  UNKNOWN,
  waitingLine,
  type Bag,
  type Checked,
  type Stated,
} from "../kit";
import type { Runtime } from "../runtime";
import type { CheckFailure } from "../check";
import { pendingOps, readWriteCompute } from "./rules";
import { describeBranch, diffBranch, toOutputs } from "./mapping";
import type { Named } from "./ownership";
import { REPLACED_BY_RESTORE, replacedBy } from "../branch-objects/objects";
import type { BranchInputs, BranchOutputs } from "./types";
import { applyChanges } from "./update";

/** What becomes of the original when `restoreFrom` leaves it out. */
export const DEFAULT_ORIGINAL = "delete";

/**
 * The restored branch's name before the finalize (`<name>-restore-<hash>`) and the original's after it
 * (`<name>-before-restore-<hash>`), the hash of the URN, the snapshot and the original's id: the next
 * run finds both again, and a second restore of one snapshot (after `keep`) gets names of its own.
 * Never change the derivation: a killed run's restore is found by it.
 */
export function restoreNames(
  name: string,
  urn: string,
  snapshotId: string,
  originalId: string,
): { restored: string; kept: string } {
  const hash = createHash("sha256")
    .update([urn, snapshotId, originalId].join("\n"))
    .digest("hex")
    .slice(0, 7);
  // Branch names hold at most 256 characters; the longer suffix is 23.
  const base = name.slice(0, 256 - 23);
  return { restored: `${base}-restore-${hash}`, kept: `${base}-before-restore-${hash}` };
}

type Declared = { snapshotId: string; original: "delete" | "keep" };

/** The declared restore (`restoreFrom`), when its snapshot is known. */
export function declaredRestore(news: Bag): Declared | undefined {
  const r = news.restoreFrom;
  if (!r || typeof r !== "object") return undefined;
  const { snapshotId, original } = r as Bag;
  if (typeof snapshotId !== "string" || snapshotId === UNKNOWN) return undefined;
  return { snapshotId, original: original === "keep" ? "keep" : DEFAULT_ORIGINAL };
}

const fate = (d: Declared | undefined, kept: string) =>
  d?.original === "keep"
    ? `is kept, renamed "${kept}", and the stack no longer manages it (restoreFrom.original: keep)`
    : `is renamed "${kept}", then deleted with its data once the restored branch serves (restoreFrom.original: ` +
      "delete, the default)";

/**
 * The diff's part of a restore, at preview and `up` (nothing is sent): refuses another replacement in the
 * same change, an adopted default branch and a snapshot the project does not have; records the restore
 * for the delete (which leaves the original) and the create; says what will happen.
 */
export async function planRestore(
  rt: Runtime,
  id: string,
  olds: Stated<BranchOutputs>,
  news: Checked<BranchInputs>,
  replaces: readonly string[],
): Promise<void> {
  const others = replaces.filter((k) => k !== "restoreFrom");
  if (others.length > 0) {
    throw new Error(
      `Failed to restore branch ${id}: restoreFrom changed together with ${others.join(" and ")}, which replace the ` +
        "branch by other means; change one of them in this update and the other in the next. Nothing was changed.",
    );
  }
  if (olds.importId === undefined && olds.adopted === true) {
    throw new Error(
      `Failed to restore branch ${id}: it is the project's default branch taken over with adoptDefault, which the ` +
        "stack leaves in place and does not replace; remove restoreFrom. Nothing was changed.",
    );
  }
  const projectId = String(olds.projectId);
  const urn = typeof news.__urn === "string" ? news.__urn : undefined;
  if (urn) rt.ledger.branchesToRestore.set(urn, id);
  const r = declaredRestore(news);
  const name = String(olds.name ?? id);
  if (!r) {
    rt.logger(news).warn(
      `restoreFrom changed: branch ${id} will be restored from a snapshot known at \`up\`; a new branch takes its ` +
        "name and computes, and the roles, databases and computes that name it are taken over on the new branch " +
        "(the preview shows them replaced)",
    );
    return;
  }
  const snapshots = await rt.client().snapshots.list(projectId);
  const snapshot = snapshots.find((s) => s.id === r.snapshotId);
  if (!snapshot) throw unknownSnapshot(id, projectId, r.snapshotId, snapshots);
  const names = restoreNames(name, urn ?? "", r.snapshotId, id);
  const from =
    snapshot.source_branch_id && snapshot.source_branch_id !== id
      ? ` (a snapshot of branch ${snapshot.source_branch_id}, not of this one)`
      : "";
  rt.logger(news).warn(
    `restoreFrom changed: branch ${id} ("${name}") will be restored from snapshot ${snapshot.id} ("${snapshot.name}"` +
      `${snapshot.timestamp ? `, of ${snapshot.timestamp}` : ""})${from}: a new branch made from it takes the name ` +
      `"${name}" and the branch's computes (same hosts, restarted); the roles, databases and computes that name ` +
      "this branch are taken over on the new branch, not recreated (the preview shows them replaced); the data " +
      `written since the snapshot is not in it. The original branch ${id} ${fate(r, names.kept)}`,
  );
}

function unknownSnapshot(
  id: string,
  projectId: string,
  snapshotId: string,
  snapshots: readonly { id: string; name: string }[],
): Error {
  const some = snapshots.map((s) => `${s.id} ("${s.name}")`).slice(0, 10);
  return new Error(
    `Failed to restore branch ${id}: restoreFrom.snapshotId ${snapshotId} is not a snapshot of project ` +
      `${projectId} (${some.length > 0 ? `its snapshots: ${some.join(", ")}` : "it has none"}); give the id of ` +
      "one of its snapshots (a Snapshot's snapshotId output). Nothing was changed.",
  );
}

/**
 * At the check of a new Branch that declares `restoreFrom` (the replacement a restore is, or a Branch
 * declared with it from the start): the name may be held by the branch to restore onto (this resource's
 * own, or the original this run's diff planned to replace) or by an earlier run's restore of the same
 * snapshot; by any other branch it is refused, as any new branch's. The snapshot must be the project's.
 */
export async function previewRestore(
  rt: Runtime,
  i: Checked<BranchInputs>,
  name: string,
  listed: readonly Named[],
): Promise<CheckFailure[]> {
  const r = declaredRestore(i);
  const urn = typeof i.__urn === "string" ? i.__urn : undefined;
  const holder = listed.find((x) => x.branch.name === name);
  const planned = urn ? rt.ledger.branchesToRestore.get(urn) : undefined;
  if (
    holder &&
    holder.branch.id !== planned &&
    !(r && holder.branch.restored_from === r.snapshotId) &&
    !(holder.branch.id === importedId(i)) &&
    !(madeForResource(holder.annotation, urn) && !holder.branch.default)
  ) {
    return [
      {
        property: i.name === undefined ? "" : "name",
        reason:
          `${describeBranch(holder.branch)} holds the name "${name}" and was not made by this resource; a restore ` +
          "takes the place of this resource's own branch only. Give the Branch another name, or importId to " +
          "manage that branch first. Nothing was changed.",
      },
    ];
  }
  if (!r) return [];
  const snapshots = await rt.client().snapshots.list(i.projectId);
  const snapshot = snapshots.find((s) => s.id === r.snapshotId);
  // Not this run's planned restore (its diff said what happens): a branch the create restores onto.
  const onto =
    planned === undefined && !(holder && holder.branch.restored_from === r.snapshotId)
      ? (listed.find((x) => x.branch.id === importedId(i)) ?? holder)?.branch
      : undefined;
  if (snapshot && onto) {
    const kept = restoreNames(name, urn ?? "", r.snapshotId, onto.id).kept;
    rt.logger(i).warn(
      `${describeBranch(onto)} will be restored from snapshot ${snapshot.id} ("${snapshot.name}"): a new branch ` +
        `made from it takes the name "${name}" and the branch's computes; the data written since the snapshot ` +
        `is not in it. Branch ${onto.id} ${fate(r, kept)}`,
    );
  }
  if (!snapshot) {
    const some = snapshots.map((s) => `${s.id} ("${s.name}")`).slice(0, 10);
    return [
      {
        property: "restoreFrom.snapshotId",
        reason:
          `${r.snapshotId} is not a snapshot of project ${i.projectId} (` +
          `${some.length > 0 ? `its snapshots: ${some.join(", ")}` : "it has none"}); give the id of one of its ` +
          "snapshots (a Snapshot's snapshotId output). Nothing was changed.",
      },
    ];
  }
  return [];
}

/** The branch `importId` names (`<projectId>/<branchId>`). */
function importedId(i: BranchInputs): string | undefined {
  return typeof i.importId === "string" && i.importId !== UNKNOWN ? i.importId.split("/")[1] : undefined;
}

/**
 * The create of a Branch that declares `restoreFrom`. The branch to restore onto (the original) is the
 * one this run's diff planned to replace, else the one `importId` names, else this resource's own branch
 * of the name. Then, each step found again from the service: restore (not finalized) into
 * `<name>-restore-<hash>`, finalize with the original renamed `<name>-before-restore-<hash>`, delete it
 * (`original: delete`) or leave it. Without an original, the branch is made from the snapshot under its
 * name. Fails without keeping anything in the stack; the next `up` goes on from where it stopped.
 */
export async function createRestore(
  rt: Runtime,
  i: Checked<BranchInputs>,
  name: string,
): Promise<pulumi.dynamic.CreateResult> {
  const r = declaredRestore(i);
  const urn = typeof i.__urn === "string" ? i.__urn : "";
  if (!r) throw new Error(`Failed to restore branch "${name}": restoreFrom.snapshotId is not known`);
  const api = rt.client();
  const log = rt.logger(i);
  const projectId = i.projectId;
  const planned = urn ? rt.ledger.branchesToRestore.get(urn) : undefined;
  let restored: Branch | undefined;
  let originalId: string | undefined;
  let kept: string | undefined;
  await rt.serialized(projectId, async () => {
    const all = await api.branches.listAnnotated(projectId);
    const byId = (id: string | undefined) => all.find((x) => x.branch.id === id)?.branch;
    const holder = all.find((x) => x.branch.name === name);
    if (holder && holder.branch.restored_from === r.snapshotId && holder.branch.id !== planned) {
      // An earlier run restored (and finalized) this snapshot: the branch that holds the name is it.
      restored = holder.branch;
      originalId = holder.branch.restored_as;
      log.info(
        `found the restore of snapshot ${r.snapshotId} made by an earlier run: ${describeBranch(restored)}`,
      );
      await rt.waitFor(projectId, await pendingOps(api, projectId, restored), log);
    } else {
      const own = holder && madeForResource(holder.annotation, urn) && !holder.branch.default;
      const original = byId(planned) ?? byId(importedId(i)) ?? (own ? holder.branch : undefined);
      if (planned && !byId(planned)) {
        throw new Error(
          `Failed to restore branch ${planned} from snapshot ${r.snapshotId}: the branch is gone, so there is ` +
            "nothing to restore in its place; run `pulumi refresh` (the branch leaves the stack), then `pulumi up` " +
            "makes it from the snapshot",
        );
      }
      if (holder && !original && holder.branch.restored_from !== r.snapshotId) {
        throw new Error(
          `Failed to restore branch "${name}" from snapshot ${r.snapshotId}: ${describeBranch(holder.branch)} holds ` +
            "the name and was not made by this resource; give the Branch another name, or importId to manage that " +
            "branch first. Nothing was changed.",
        );
      }
      if (original) {
        originalId = original.id;
        restored = await restoreOnto(rt, i, r, name, original, all);
      } else {
        restored = await restoreAnew(rt, i, r, name);
      }
    }
    if (originalId !== undefined) {
      kept = restoreNames(name, urn, r.snapshotId, originalId).kept;
      // A restored branch names its snapshot's source even when it replaced nothing: only an original that
      // carries the name this restore gives is one.
      if (!(await settleOriginal(rt, i, r, originalId, kept))) originalId = undefined;
    }
  });
  const b = restored as Branch;
  if (originalId !== undefined)
    rt.ledger.branchesRestored.set(originalId, { id: b.id, original: r.original });
  rt.ledger.noteMade("branch-in", `${projectId}/${b.id}`);
  if (i.compute) rt.ledger.noteMade("compute-on", b.id);
  // What the restore does not carry over (an expiry) is set as declared.
  const now = await api.branches.get(projectId, b.id);
  const before = toOutputs({}, now, await readWriteCompute(api, projectId, b.id), undefined);
  const updates = diffBranch(before, i).updates.filter((k) => k !== "resetTrigger");
  if (updates.length > 0) await applyChanges(rt, b.id, before, i, updates);
  // Read after the finalize's operations: the computes moved to it, the name it took. The restore gives
  // it no annotation: the declared pairs stand in the outputs.
  const fresh = await api.branches.get(projectId, b.id);
  const ep = await readWriteCompute(api, projectId, b.id);
  log.info(
    `restored snapshot ${r.snapshotId}: ${describeBranch(fresh)} now serves "${name}"` +
      (ep ? ` with compute ${ep.id}` : "") +
      (originalId !== undefined
        ? `; branch ${originalId} ${r.original === "keep" ? `is kept as "${kept}"` : "is deleted"}`
        : ""),
  );
  return { id: b.id, outs: toOutputs(i, fresh, ep, undefined) };
}

/** Restore into a new branch, then finalize: each step found again by the derived names. */
async function restoreOnto(
  rt: Runtime,
  i: Checked<BranchInputs>,
  r: Declared,
  name: string,
  original: Branch,
  all: readonly Named[],
): Promise<Branch> {
  const api = rt.client();
  const log = rt.logger(i);
  const projectId = i.projectId;
  const names = restoreNames(name, typeof i.__urn === "string" ? i.__urn : "", r.snapshotId, original.id);
  const half = all.find((x) => x.branch.name === names.restored)?.branch;
  let restored: Branch;
  if (half) {
    log.info(
      `found ${describeBranch(half)}, restored from snapshot ${r.snapshotId} by an earlier run of this stack and ` +
        "not finalized yet; finalizing it",
    );
    restored = half;
    await rt.waitFor(projectId, await pendingOps(api, projectId, half), log);
  } else {
    const made = await createOnce<{ branch: Branch; operations: Operation[] }, Branch>({
      log,
      send: () =>
        api.snapshots.restore(projectId, r.snapshotId, {
          name: names.restored,
          target_branch_id: original.id,
          finalize_restore: false,
        }),
      find: async () =>
        (await api.branches.list(projectId, { search: names.restored })).find(
          (b) => b.name === names.restored,
        ),
      finish: async (found) => ({ branch: found, operations: await pendingOps(api, projectId, found) }),
      describe: (found) => describeBranch(found),
    });
    restored = made.branch;
    log.progress(
      waitingLine(`restoring snapshot ${r.snapshotId} as ${describeBranch(made.branch)}`, made.operations),
    );
    await rt.waitFor(projectId, made.operations, log);
  }
  await finalize(rt, i, original.id, restored, names.kept);
  return restored;
}

/** A branch made from the snapshot under its declared name (there is no branch to restore onto). */
async function restoreAnew(
  rt: Runtime,
  i: Checked<BranchInputs>,
  r: Declared,
  name: string,
): Promise<Branch> {
  const api = rt.client();
  const log = rt.logger(i);
  const projectId = i.projectId;
  const made = await createOnce<{ branch: Branch; operations: Operation[] }, Branch>({
    log,
    send: () => api.snapshots.restore(projectId, r.snapshotId, { name, finalize_restore: false }),
    find: async () =>
      (await api.branches.list(projectId, { search: name })).find(
        (b) => b.name === name && b.restored_from === r.snapshotId,
      ),
    finish: async (found) => ({ branch: found, operations: await pendingOps(api, projectId, found) }),
    describe: (found) => describeBranch(found),
  });
  log.progress(
    waitingLine(`making ${describeBranch(made.branch)} from snapshot ${r.snapshotId}`, made.operations),
  );
  await rt.waitFor(projectId, made.operations, log);
  return made.branch;
}

/** Finalizes the restore into `restored`; a lost answer is judged by the original's name, never sent twice blindly. */
async function finalize(
  rt: Runtime,
  i: Checked<BranchInputs>,
  oldId: string,
  restored: Branch,
  kept: string,
): Promise<void> {
  const api = rt.client();
  const log = rt.logger(i);
  const projectId = i.projectId;
  let operations: Operation[];
  try {
    operations = (await api.snapshots.finalizeRestore(projectId, restored.id, kept)).operations;
  } catch (err) {
    if (!(err instanceof ApiError && err.mayHaveReachedServer)) throw err;
    const original = await api.branches.get(projectId, oldId);
    if (original.name !== kept) {
      log.info(
        "the answer to the finalize request was lost and the restore is not finalized; sending it again",
      );
      operations = (await api.snapshots.finalizeRestore(projectId, restored.id, kept)).operations;
    } else {
      log.info("the answer to the finalize request was lost; the restore is finalized");
      operations = await pendingOps(api, projectId, restored);
    }
  }
  log.progress(
    waitingLine(
      `finalized the restore: ${describeBranch(restored)} takes the place of branch ${oldId}, renamed "${kept}"`,
      operations,
    ),
  );
  await rt.waitFor(projectId, operations, log);
}

/**
 * The original after the finalize: deleted (`original: delete`) or left. Only a branch that carries the
 * name this restore gave it is the original (true then) — never one renamed since, nor one another
 * restore replaced; a deleted one was settled by an earlier run.
 */
async function settleOriginal(
  rt: Runtime,
  i: Checked<BranchInputs>,
  r: Declared,
  originalId: string,
  kept: string,
): Promise<boolean> {
  const api = rt.client();
  const log = rt.logger(i);
  const projectId = i.projectId;
  const original = await api.branches
    .get(projectId, originalId)
    .catch((err: unknown) =>
      err instanceof ApiError && err.kind === "not_found" ? undefined : Promise.reject(err),
    );
  if (!original) return true;
  if (original.name !== kept) return false;
  if (r.original === "keep") {
    log.info(
      `branch ${originalId} ("${kept}"), which the restore replaced, is kept; this stack no longer manages it ` +
        "(restoreFrom.original: keep)",
    );
    return true;
  }
  await deleteAndWait(
    rt,
    projectId,
    `branch ${originalId} ("${kept}"), which the restore replaced`,
    () => api.branches.delete(projectId, originalId),
    log,
  );
  log.info(
    `deleted branch ${originalId} ("${kept}"), which the restore replaced (restoreFrom.original: delete)`,
  );
  return true;
}

/**
 * The delete of a branch this run's diff replaces by a restore: the original stays for the restore (the
 * create restores onto it, then deletes or keeps it). Returns true when it is left.
 */
export function leftForRestore(rt: Runtime, id: string, props: Bag): boolean {
  const urn = props.__urn;
  if (typeof urn !== "string" || rt.ledger.branchesToRestore.get(urn) !== id) return false;
  rt.logger(props).info(
    `branch ${id} is left in place for its restore: the restored branch takes its name and computes, then it is ` +
      "deleted or kept as restoreFrom.original says",
  );
  return true;
}

/**
 * A child's diff when its parent's id changed: true when the parent was restored (this run's, or an
 * earlier, interrupted run's restore, whose branch names the one it replaced) — the finalize moved the
 * children to the restored branch, so `parentId` follows in place instead of replacing the child.
 */
export async function parentRestored(rt: Runtime, olds: Bag, news: Bag): Promise<boolean> {
  const [from, to] = [olds.parentId, news.parentId];
  if (typeof from !== "string" || from === to) return false;
  if (to === UNKNOWN) return rt.ledger.restoring(from);
  if (typeof to !== "string") return false;
  if (rt.ledger.restoredAs(from, to)) return true;
  if (!rt.ledger.isPlanning(news)) return false;
  if (!(await replacedBy(rt, String(news.projectId), from, to))) return false;
  rt.ledger.restoredEarlier.set(from, to);
  return true;
}

/**
 * The delete of a branch a restore's finalize renamed (`<name>-before-restore-<hash>`) outside this run:
 * a kept original, or one its restore deletes itself. The engine runs a killed run's pending deletes
 * before any check (a program that makes a Branch's replacement create first leaves the original to
 * one), and a destroy checks nothing: then the branch is read first and such a one is left. Returns true
 * when it is left.
 */
export async function leftAfterRestore(rt: Runtime, id: string, props: Bag): Promise<boolean> {
  if (rt.ledger.anyChecked()) return false;
  const now = await rt
    .client()
    .branches.get(String(props.projectId), id)
    .catch((err: unknown) =>
      err instanceof ApiError && err.kind === "not_found" ? undefined : Promise.reject(err),
    );
  if (!now || !REPLACED_BY_RESTORE.test(now.name)) return false;
  rt.logger(props).info(
    `branch ${id} ("${now.name}") is the original a restore replaced (its finalize renamed it): left in place, ` +
      "and the stack no longer manages it",
  );
  return true;
}
