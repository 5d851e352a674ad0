/**
 * `Role`'s read (refresh) and update: a rename is a replacement, so an update is a password rotation,
 * which reports the new password only when the reset has finished.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type NeonClient, type Role, type RoleOperations, isNotFound } from "../../api";
import { confirmGone, InitError, refreshInputs, waitingLine, type UpdateStep, type Stated } from "../kit";
import { clause, type Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import { parseImportId, pendingBranchOps, refOf } from "../branch-objects/objects";
import { throughCompute } from "../branch-objects/needs-compute";
import { ROLE_DEFINITION } from "./definition";
import { describeRole, diffRole, keepsPassword, roleId, toOutputs, type RoleRef } from "./mapping";
import { revealed } from "./create";
import type { RoleInputs, RoleOutputs } from "./types";

export async function read(
  rt: Runtime,
  id: string,
  props?: Stated<RoleOutputs>,
): Promise<pulumi.dynamic.ReadResult> {
  const api = rt.client();
  const ref = props?.projectId ? refOf(props) : parseImportId(id);
  if (!ref) {
    throw new Error(`Failed to read role ${id}: give it as "<projectId>/<branchId>/<roleName>"`);
  }
  let role: Role;
  try {
    role = await api.roles.get(ref.projectId, ref.branchId, ref.name);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await confirmGone(api, ref.projectId, describeRole(ref), "refresh", err);
    return {};
  }
  const old = props ?? {};
  const noLogin = role.authentication_method === "no_login" || old.noLogin === true;
  // A rotation made outside the stack shows here; without stored passwords the last known one stays.
  // A role that keeps its password out of the state is never asked for it.
  const password =
    noLogin || !keepsPassword(old)
      ? undefined
      : ((await revealed(api, ref, props ? undefined : rt.logger(old))) ??
        (old.password as string | undefined));
  const base = props ? old : { noLogin: noLogin || undefined };
  const outs = toOutputs(base, ref, role, password);
  return {
    id: roleId(ref),
    props: outs,
    inputs: refreshInputs(ROLE_DEFINITION, old, outs),
  };
}

export const update: UpdateStep<RoleInputs, RoleOutputs> = async (rt, id, olds, news) => {
  const api = rt.client();
  const ref = refOf(olds);
  const extra = olds.adopted === true ? { adopted: true } : {};
  if (!diffRole(olds, news).updates.includes("passwordRotationTrigger")) {
    const role = await api.roles.get(ref.projectId, ref.branchId, ref.name);
    // A create cut off before it learnt the password, or a switch back to passwordInState: read it
    // now, if the project stores it (a switch away leaves it out: toOutputs).
    const password =
      olds.password === undefined && role.authentication_method !== "no_login" && keepsPassword(news)
        ? // A switch back says so when the project turns out not to store passwords.
          await revealed(api, ref, olds.passwordInState === false ? rt.logger(news) : undefined)
        : (olds.password as string | undefined);
    return { outs: toOutputs(news, ref, role, password, extra) };
  }
  const log = rt.logger(news);
  let reset: RoleOperations | undefined;
  try {
    const rotate = () =>
      rt.serialized(ref.projectId, async () => {
        reset = await resetOrReconcile(api, ref, log);
        log.progress(
          waitingLine(
            `reset the password of ${describeRole(ref)}`,
            reset.operations,
            " (the old password works until then)",
          ),
        );
        await rt.waitFor(ref.projectId, reset.operations, log);
      });
    await throughCompute(rt, ref, `reset the password of ${describeRole(ref)}`, log, rotate);
  } catch (err) {
    if (!reset) throw err;
    const reason = clause(err);
    throw new InitError(
      `Failed to finish the password reset of ${describeRole(ref)}: ${reason}. The new password is ` +
        (keepsPassword(news) ? "kept in the stack" : "set (not in the stack: passwordInState is false)") +
        " (the old one works until the reset finishes); run `pulumi up` again.",
      id,
      toOutputs(news, ref, reset.role, reset.role.password, extra),
      [reason],
    );
  }
  const r = reset as RoleOperations;
  return { outs: toOutputs(news, ref, r.role, r.role.password, extra) };
};

/**
 * Resets the password. After a lost answer it is not known whether the reset was made, and reading
 * the password back could return the old one: reset once more (harmless — the previous password
 * works until the operations finish) and wait for both.
 */
async function resetOrReconcile(api: NeonClient, ref: RoleRef, log: ResourceLogger): Promise<RoleOperations> {
  try {
    return await api.roles.resetPassword(ref.projectId, ref.branchId, ref.name);
  } catch (err) {
    if (!(err instanceof ApiError && err.mayHaveReachedServer)) throw err;
    log.info(
      "the answer to the password reset was lost; resetting it again so that the new password is known",
    );
    const operations = await pendingBranchOps(api, ref.projectId, ref.branchId);
    const again = await api.roles.resetPassword(ref.projectId, ref.branchId, ref.name);
    return { role: again.role, operations: [...operations, ...again.operations] };
  }
}
