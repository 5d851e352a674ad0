/**
 * A restore of a `Branch` from a snapshot, as a create-first replacement (docs/decisions/0021): at
 * preview the snapshot is looked up and the original's fate said, nothing sent; the create restores the
 * snapshot into a new branch, then finalizes it (it takes the original's name and computes, the original
 * is renamed); the delete of the replaced id deletes or keeps the renamed original. Both names are
 * derived from the URN and the snapshot, so a killed run's next `up` finds where it stopped by listing
 * the project's branches: never a second restore.
 */
import { createHash } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Branch, type Operation } from "../../api";
import { createOnce, UNKNOWN, waitingLine, type Bag, type Checked, type Stated } from "../kit";
import type { Runtime } from "../runtime";
import { branchNamed } from "./ownership";
import { pendingOps, readWriteCompute } from "./rules";
import { describeBranch, diffBranch, toOutputs } from "./mapping";
import type { BranchInputs, BranchOutputs } from "./types";
import { applyChanges } from "./update";

/** What becomes of the original when `restoreFrom` leaves it out. */
export const DEFAULT_ORIGINAL = "delete";

/**
 * The restored branch's name before the finalize (`<name>-restore-<hash>`) and the original's after it
 * (`<name>-before-restore-<hash>`), the hash of the URN and the snapshot: the next run finds both again.
 * Never change the derivation: a killed run's restore is found by it.
 */
export function restoreNames(
  name: string,
  urn: string,
  snapshotId: string,
): { restored: string; kept: string } {
  const hash = createHash("sha256").update([urn, snapshotId].join("\n")).digest("hex").slice(0, 7);
  // Branch names hold at most 256 characters; the longer suffix is 23.
  const base = name.slice(0, 256 - 23);
  return { restored: `${base}-restore-${hash}`, kept: `${base}-before-restore-${hash}` };
}

/** The declared restore (`restoreFrom`), when its snapshot is known. */
function declared(news: Bag): { snapshotId: string; original: "delete" | "keep" } | undefined {
  const r = news.restoreFrom;
  if (!r || typeof r !== "object") return undefined;
  const { snapshotId, original } = r as Bag;
  if (typeof snapshotId !== "string" || snapshotId === UNKNOWN) return undefined;
  return { snapshotId, original: original === "keep" ? "keep" : DEFAULT_ORIGINAL };
}

/**
 * The diff's part of a restore, at preview and `up` (nothing is sent): refuses another replacement in the
 * same change and a snapshot the project does not have, records the restore for the create, and says what
 * will happen (the dependents taken over, the original's fate).
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
  if (typeof news.__urn === "string") rt.ledger.branchesToRestore.set(news.__urn, id);
  const r = declared(news);
  const name = String(olds.name ?? id);
  const fate = (original: string, kept: string) =>
    original === "keep"
      ? `is kept, renamed "${kept}", and the stack no longer manages it (restoreFrom.original: keep)`
      : `is renamed "${kept}", then deleted with its data (restoreFrom.original: delete, the default)`;
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
  if (!snapshot) {
    const some = snapshots.map((s) => `${s.id} ("${s.name}")`).slice(0, 10);
    throw new Error(
      `Failed to restore branch ${id}: restoreFrom.snapshotId ${r.snapshotId} is not a snapshot of project ` +
        `${projectId} (${some.length > 0 ? `its snapshots: ${some.join(", ")}` : "it has none"}); give the id of ` +
        "one of its snapshots (a Snapshot's snapshotId output). Nothing was changed.",
    );
  }
  const urn = typeof news.__urn === "string" ? news.__urn : "";
  const names = restoreNames(name, urn, r.snapshotId);
  const from =
    snapshot.source_branch_id && snapshot.source_branch_id !== id
      ? ` (a snapshot of branch ${snapshot.source_branch_id}, not of this one)`
      : "";
  rt.logger(news).warn(
    `restoreFrom changed: branch ${id} ("${name}") will be restored from snapshot ${snapshot.id} ("${snapshot.name}"` +
      `${snapshot.timestamp ? `, of ${snapshot.timestamp}` : ""})${from}: a new branch made from it takes the name ` +
      `"${name}" and the branch's computes (same hosts, restarted); the roles, databases and computes that name ` +
      "this branch are taken over on the new branch, not recreated (the preview shows them replaced); the data " +
      `written since the snapshot is not in it. The original branch ${id} ${fate(r.original, names.kept)}`,
  );
}

/**
 * The create of a restore: restore (not finalized) into `<name>-restore-<hash>`, then finalize with the
 * original renamed `<name>-before-restore-<hash>`. A killed run's step is found by listing: a branch of
 * the restore's name is restored but not finalized; the original under its kept name is finalized.
 * Fails without keeping anything in the stack: the state keeps the original, and the next `up` goes on.
 */
export async function createRestore(
  rt: Runtime,
  i: Checked<BranchInputs>,
  oldId: string,
  name: string,
): Promise<pulumi.dynamic.CreateResult> {
  const r = declared(i);
  const urn = typeof i.__urn === "string" ? i.__urn : undefined;
  if (!r || !urn) throw new Error(`Failed to restore branch ${oldId}: restoreFrom.snapshotId is not known`);
  const api = rt.client();
  const log = rt.logger(i);
  const projectId = i.projectId;
  const names = restoreNames(name, urn, r.snapshotId);
  let restored: Branch | undefined;
  await rt.serialized(projectId, async () => {
    const all = await api.branches.list(projectId);
    const original = all.find((b) => b.id === oldId);
    const half = all.find((b) => b.name === names.restored);
    let finalized = false;
    if (half) {
      log.info(
        `found ${describeBranch(half)}, restored from snapshot ${r.snapshotId} by an earlier run of this stack ` +
          "and not finalized yet; finalizing it",
      );
      restored = half;
      await rt.waitFor(projectId, await pendingOps(api, projectId, half), log);
    } else if (original?.name === names.kept) {
      restored = all.find((b) => b.name === name);
      if (!restored) {
        throw new Error(
          `Failed to restore branch ${oldId}: it was renamed "${names.kept}" by an earlier run's restore, but no ` +
            `branch holds the name "${name}" now; rename it back to "${name}" and run \`pulumi up\` again`,
        );
      }
      log.info(
        `found the restore of snapshot ${r.snapshotId} finalized by an earlier run: ${describeBranch(restored)}`,
      );
      finalized = true;
      await rt.waitFor(projectId, await pendingOps(api, projectId, restored), log);
    } else {
      if (!original) {
        throw new Error(
          `Failed to restore branch ${oldId} from snapshot ${r.snapshotId}: the branch is gone, so there is nothing ` +
            "to restore in its place; run `pulumi refresh` (the branch leaves the stack), then `pulumi up` creates " +
            "it anew",
        );
      }
      const made = await createOnce<{ branch: Branch; operations: Operation[] }, Branch>({
        log,
        send: () =>
          api.snapshots.restore(projectId, r.snapshotId, {
            name: names.restored,
            target_branch_id: oldId,
            finalize_restore: false,
          }),
        find: async () => (await branchNamed(api, projectId, names.restored))?.branch,
        finish: async (found) => ({ branch: found, operations: await pendingOps(api, projectId, found) }),
        describe: (found) => describeBranch(found),
      });
      restored = made.branch;
      log.progress(
        waitingLine(`restoring snapshot ${r.snapshotId} as ${describeBranch(made.branch)}`, made.operations),
      );
      await rt.waitFor(projectId, made.operations, log);
    }
    if (!finalized) await finalize(rt, i, oldId, restored, names.kept);
  });
  const b = restored as Branch;
  rt.ledger.branchesRestored.set(oldId, { id: b.id, original: r.original });
  rt.ledger.noteMade("branch-in", `${projectId}/${b.id}`);
  if (i.compute) rt.ledger.noteMade("compute-on", b.id);
  // What the finalize does not carry over (an expiry) is set as declared.
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
      `; branch ${oldId} is "${names.kept}"`,
  );
  return { id: b.id, outs: toOutputs(i, fresh, ep, undefined) };
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
    const original = (await api.branches.list(projectId)).find((b) => b.id === oldId);
    if (original?.name !== kept) {
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
 * The delete of a branch this run restored (the renamed original): `keep` leaves it and says so; for
 * `delete` the caller deletes it. Returns true when it is left.
 */
export async function keptAfterRestore(rt: Runtime, id: string, props: Bag): Promise<boolean> {
  const restored = rt.ledger.branchesRestored.get(id);
  const log = rt.logger(props);
  if (restored) {
    if (restored.original !== "keep") return false;
    log.info(
      `branch ${id}, replaced by the restored branch ${restored.id}, is kept under its new name ` +
        "(restoreFrom.original: keep); this stack no longer manages it",
    );
    return true;
  }
  // An earlier run restored and was interrupted before this delete: the original carries the name its
  // finalize gave it. Deleted only when the program says so (restoreFrom.original: delete).
  const urn = props.__urn;
  const fate = typeof urn === "string" ? rt.ledger.restoreFates.get(urn) : undefined;
  if (fate === undefined) return false;
  const branch = await rt
    .client()
    .branches.get(String(props.projectId), id)
    .catch((err: unknown) =>
      err instanceof ApiError && err.kind === "not_found" ? undefined : Promise.reject(err),
    );
  if (!branch || !/-before-restore-[0-9a-f]{7}$/.test(branch.name)) return false;
  if (fate === "delete") return false;
  log.info(
    `branch ${id} ("${branch.name}") is the original an earlier run's restore replaced; it is kept ` +
      "(restoreFrom.original: keep), and this stack no longer manages it",
  );
  return true;
}

/**
 * The delete of a branch whose restore this run planned but has not made: the engine deletes first only
 * when the program forces it (`deleteBeforeReplace: true`), and the restore needs the original (its
 * computes, its name). Refused before anything is sent.
 */
export function refuseDeleteBeforeRestore(rt: Runtime, id: string, props: Bag): void {
  const urn = props.__urn;
  if (typeof urn !== "string" || rt.ledger.branchesToRestore.get(urn) !== id) return;
  if (rt.ledger.branchesRestored.has(id)) return;
  throw new Error(
    `Failed to delete branch ${id}: its restore (restoreFrom) replaces it with a branch made from the snapshot, ` +
      "which takes its name and computes, so it must stay until the restored branch serves; remove the " +
      "resource option deleteBeforeReplace: true from this Branch. Nothing was deleted.",
  );
}
