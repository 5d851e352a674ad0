/**
 * `Branch`'s create: the branch with its compute in one request; a killed run or a lost answer
 * reconciled by the branch's name (taken over only with this resource's annotation); the project's
 * default branch adopted; a passed expiry refused before sending.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Branch, type Endpoint, type NeonClient, type Operation } from "../../api";
import { annotatedStack, createOnce, keptInStack, madeForResource, waitingLine, type Checked } from "../kit";
import type { Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import { importExisting } from "./import";
import { branchNamed, isOwnLeftover, refuseStranger, type Named } from "./ownership";
import { pendingOps, readWriteCompute } from "./rules";
import type { BranchInputs } from "./types";
import { autoName, computeBody, createBody, describeBranch, diffBranch, toOutputs } from "./mapping";
import { refusePassedExpiry } from "./expiry";
import { applyChanges } from "./update";
import { createRestore } from "./restore";
import { anonymized, apiRules, awaitRun } from "./anonymized";

export async function create(rt: Runtime, i: Checked<BranchInputs>): Promise<pulumi.dynamic.CreateResult> {
  // Made from a snapshot, first: a restore onto the branch importId names is a restore still.
  if (i.restoreFrom) return createRestore(rt, i, branchName(i));
  if (i.importId) return importExisting(rt, i, i);
  if (i.adoptDefault) return adoptDefault(rt, i);
  const api = rt.client();
  const log = rt.logger(i);
  const urn = typeof i.__urn === "string" ? i.__urn : undefined;
  const name = branchName(i);
  let branch: Branch | undefined;
  let operations: Operation[] = [];
  let verb = "created";
  // The create's answer named the branch's read_write compute: no read to look for it.
  let withCompute = false;
  // Made by this create's request: what its answer said, settled by its finished operations.
  let answered: Made["answered"];
  try {
    await rt.serialized(i.projectId, async () => {
      // Looked up first only when this process's check found the name held: a free one is sent at
      // once, and a 409 (someone took it since) is judged the same way by createOrReconcile.
      const found = rt.ledger.branchNamesHeld.has(`${i.projectId}/${name}`)
        ? await branchNamed(api, i.projectId, name)
        : undefined;
      if (found && !isOwnLeftover(found, urn)) throw refuseStranger(i, found, urn);
      if (found) {
        log.info(
          `found ${describeBranch(found.branch)}, made for this resource by an earlier run of this stack ` +
            `(${annotatedStack(found.annotation)}, its annotation says); managing it`,
        );
        rt.ledger.noteTakenOver("branch", found.branch.id);
        verb = "finishing";
        branch = found.branch;
        operations = await pendingOps(api, i.projectId, found.branch);
      } else {
        refusePassedExpiry(rt, i, name);
        const made = await createOrReconcile(api, i, name, log, urn);
        ({ branch, operations } = made);
        if (made.takenOver) {
          rt.ledger.noteTakenOver("branch", made.branch.id);
          verb = "took over";
        } else rt.ledger.branchesMadeAnew.add(made.branch.id);
        if (made.held) rt.ledger.branchHeld.set(`${i.projectId}/${made.branch.id}`, made.held);
        withCompute = made.withCompute;
        // A declared compute the answer did not name is added below, then read.
        answered = made.withCompute || !i.compute ? made.answered : undefined;
      }
      log.progress(waitingLine(`${verb} ${describeBranch(branch)}`, operations));
      const ended = await rt.waitFor(i.projectId, operations, log);
      // A skipped operation (or none at all) says less than a read: read the branch back then.
      if (ended.length === 0 || ended.some((o) => o.status !== "finished")) answered = undefined;
      if (i.compute && !withCompute && !(await readWriteCompute(api, i.projectId, branch.id))) {
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
    // An anonymized branch is done when its rules ran (its create started the run).
    const extra = anonymized(i.maskingRules)
      ? { anonymizationState: (await awaitRun(rt, i.projectId, b.id, log)).state }
      : {};
    rt.ledger.noteMade("branch-in", `${i.projectId}/${b.id}`);
    // Its roles and databases need no look for a compute (Neon makes them through it).
    if (i.compute) rt.ledger.noteMade("compute-on", b.id);
    if (answered) {
      // Its operations finished: the branch is ready and its compute started (no read repeats that).
      const settled = { ...answered.branch, current_state: "ready", pending_state: undefined };
      const ep = answered.endpoint && {
        ...answered.endpoint,
        current_state: "active",
        pending_state: undefined,
      };
      return { id: b.id, outs: toOutputs(i, settled, ep, answered.annotation, extra) };
    }
    const fresh = await api.branches.getAnnotated(i.projectId, b.id);
    const ep = await readWriteCompute(api, i.projectId, b.id);
    return { id: b.id, outs: toOutputs(i, fresh.branch, ep, fresh.annotation, extra) };
  } catch (err) {
    if (!branch) throw err;
    // As it is now (its compute too, when readable), so that the next up knows what to finish.
    const b = branch;
    const now = await api.branches
      .getAnnotated(i.projectId, b.id)
      .catch(() => ({ branch: b, annotation: undefined }));
    const ep = await readWriteCompute(api, i.projectId, b.id).catch(() => undefined);
    // An anonymized branch's state: one whose run did not end masked runs its rules at the next update.
    const extra = anonymized(i.maskingRules)
      ? {
          anonymizationState: await api.anonymized
            .status(i.projectId, b.id)
            .then((s) => s.state)
            .catch(() => "error"),
        }
      : {};
    throw keptInStack(
      describeBranch(branch),
      err,
      branch.id,
      toOutputs(i, now.branch, ep, now.annotation, extra),
    );
  }
}

/** A branch the create made (or found made for it), its operations, and how it came. */
interface Made {
  branch: Branch;
  operations: Operation[];
  /** Found held by this resource's earlier run (a 409): it was there before this run. */
  takenOver: boolean;
  /** The create's answer named its read_write compute. */
  withCompute: boolean;
  /** Made by this request: its answer, and the annotation it gave the branch. */
  answered?: { branch: Branch; endpoint?: Endpoint; annotation: Record<string, string> };
  /** Made by this request: the roles and databases its answer says the branch has (its parent's). */
  held?: { roles: string[]; databases: string[] };
}

/** Sends the create; a lost answer or a 409 is reconciled by the name, never by a blind second create. */
export async function createOrReconcile(
  api: NeonClient,
  i: BranchInputs,
  name: string,
  log: ResourceLogger,
  urn: string | undefined,
): Promise<Made> {
  const find = () => branchNamed(api, i.projectId, name);
  // A branch this create made carries this resource's annotation (protected or not): anything else
  // holding the name after a lost answer or a resend's 409 is not taken.
  const finish = async (found: Named, takenOver = false): Promise<Made> => {
    if (!madeForResource(found.annotation, urn)) throw refuseStranger(i, found, urn);
    return {
      branch: found.branch,
      operations: await pendingOps(api, i.projectId, found.branch),
      takenOver,
      withCompute: false,
    };
  };
  return createOnce<Made, Named>({
    log,
    send: async () => {
      const body = createBody(i, name, urn);
      // An anonymized branch: the same branch and compute, with its masking rules, their run started.
      const r = anonymized(i.maskingRules)
        ? await api.anonymized.create(i.projectId, {
            branch_create: { branch: body.branch, ...(body.endpoints ? { endpoints: body.endpoints } : {}) },
            masking_rules: apiRules(i.maskingRules),
            start_anonymization: true,
            ...(body.annotation_value ? { annotation_value: body.annotation_value } : {}),
          })
        : await api.branches.create(i.projectId, body);
      const endpoint = (r.endpoints ?? []).find((e) => e.type === "read_write");
      return {
        branch: r.branch,
        operations: r.operations,
        takenOver: false,
        withCompute: endpoint !== undefined,
        answered: { branch: r.branch, endpoint, annotation: body.annotation_value ?? {} },
        ...(r.roles && r.databases
          ? { held: { roles: r.roles.map((x) => x.name), databases: r.databases.map((x) => x.name) } }
          : {}),
      };
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
      return finish(found, true);
    },
  });
}

/** Takes over the project's default branch: applies the declared name, protection and compute size. */
export async function adoptDefault(
  rt: Runtime,
  i: Checked<BranchInputs>,
): Promise<pulumi.dynamic.CreateResult> {
  const api = rt.client();
  const log = rt.logger(i);
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
    diffBranch(olds, i).updates.filter((k) => k !== "resetTrigger"),
  );
  const fresh = await api.branches.getAnnotated(i.projectId, def.id);
  const ep = await readWriteCompute(api, i.projectId, def.id);
  return { id: def.id, outs: toOutputs(i, fresh.branch, ep, fresh.annotation, { adopted: true }) };
}

/** The declared name, or the one derived from the URN. */
function branchName(i: Checked<BranchInputs>): string {
  const urn = typeof i.__urn === "string" ? i.__urn : undefined;
  const name = i.name ?? (urn ? autoName(urn, i.projectId) : undefined);
  if (!name) throw new Error("Failed to create a branch: it has no name and no URN to derive one from");
  return name;
}
