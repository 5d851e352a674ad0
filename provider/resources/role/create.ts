/**
 * `Role`'s create: a name the stack did not create refused with its importId, a lost answer or a
 * killed run's role reconciled (taken over only when the branch is this stack's), an existing role
 * adopted or imported. The password goes only into the outputs.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type NeonClient, type Role, type RoleOperations, isNotFound } from "../../api";
import type { Checked, TakeOverStep, Bag } from "../kit";
import type { Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import { parseImportId, pendingBranchOps, refOf, refuseTaken } from "../branch-objects/objects";
import { createOnBranch, type Made } from "../branch-objects/create";
import type { RoleInputs } from "./types";
import { describeRole, keepsPassword, roleId, toOutputs, type RoleRef } from "./mapping";

/** A role with its password, when an answer carried one. */
type KnownRole = RoleOperations["role"];

async function findRole(api: NeonClient, ref: RoleRef): Promise<Role | undefined> {
  try {
    return await api.roles.get(ref.projectId, ref.branchId, ref.name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * The role's password from the service, or `undefined` when the project does not store passwords
 * (412), which `explain` then says in a warning with what to do. The 412 is judged by a read of the
 * project (`store_passwords`), never by the answer's words: a 412 of a project that stores them fails.
 */
export async function revealed(
  api: NeonClient,
  ref: RoleRef,
  explain: ResourceLogger | undefined,
): Promise<string | undefined> {
  try {
    return await api.roles.revealPassword(ref.projectId, ref.branchId, ref.name);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 412)) throw err;
    const stores = await api.projects.get(ref.projectId).then(
      (p) => p.store_passwords,
      () => undefined,
    );
    if (stores === true) throw err;
    explain?.warn(
      `project ${ref.projectId} does not store role passwords, so the password of ${describeRole(ref)} cannot ` +
        "be read (the service answered 412); the resource has no password output until it is rotated: change " +
        "(or add) passwordRotationTrigger, and the new password becomes the password output",
    );
    return undefined;
  }
}

export async function create(rt: Runtime, i: Checked<RoleInputs>): Promise<pulumi.dynamic.CreateResult> {
  const inputs: Bag = i;
  if (i.importId || i.adopt) return takeOver(rt, i, i);
  return createOnBranch<KnownRole>(rt, inputs, (api, ref) => ({
    noun: "role",
    describe: () => describeRole(ref),
    id: () => roleId(ref),
    outputs: (role) => toOutputs(inputs, ref, role, role.password),
    find: () => findRole(api, ref),
    names: roleNames(api),
    unlike: (existing) =>
      (existing.authentication_method === "no_login") === (i.noLogin ?? false)
        ? undefined
        : new Error(
            `Failed to create ${describeRole(ref)}: the branch already has a role of that name, which ` +
              `${existing.authentication_method === "no_login" ? "cannot" : "can"} log in, unlike the declared one ` +
              `(noLogin ${i.noLogin ? "true" : "left out"}); make noLogin match it, or choose another name. ` +
              "Nothing was changed.",
          ),
    finishFound: (existing, takenOver) => finishFound(api, i, ref, existing, takenOver),
    send: async () => {
      const r = await api.roles.create(ref.projectId, ref.branchId, {
        name: ref.name,
        ...(i.noLogin ? { no_login: true } : {}),
      });
      return { object: r.role, operations: r.operations };
    },
    refused: async (err) => {
      // A 409 here: someone else took the name since it was found free (by a look, or in the branch's create answer).
      if (err instanceof ApiError && err.kind === "conflict" && (await findRole(api, ref))) {
        throw refuseTaken("role", ref);
      }
      throw err;
    },
  }));
}

/** The names of a branch's roles. */
export const roleNames = (api: NeonClient) => async (projectId: string, branchId: string) =>
  (await api.roles.list(projectId, branchId)).map((r) => r.name);

/**
 * A role this stack created but did not hear back about (a lost answer, a killed run): its password
 * is read back or — when the project does not store passwords — reset after a lost answer, since
 * nothing uses that new role yet; and the branch's unfinished operations are waited for.
 */
export async function finishFound(
  api: NeonClient,
  i: RoleInputs,
  ref: RoleRef,
  found: Role,
  takenOver?: ResourceLogger,
): Promise<Made<KnownRole>> {
  const operations = await pendingBranchOps(api, ref.projectId, ref.branchId);
  // Not kept in the state: nothing to read (its check made sure the project stores it).
  if (i.noLogin || !keepsPassword(i)) return { object: found, operations };
  const password = await revealed(api, ref, takenOver);
  if (password !== undefined) return { object: { ...found, password }, operations };
  // A role taken over after a killed run may be in use already: never reset it unasked (the warning
  // says how to rotate it).
  if (takenOver) return { object: found, operations };
  // Not stored: a reset is the only way to learn it, and harmless for a role nothing uses yet.
  const reset = await api.roles.resetPassword(ref.projectId, ref.branchId, ref.name);
  return { object: reset.role, operations: [...operations, ...reset.operations] };
}

/** `adopt` or `importId`: takes over an existing role; its declared `noLogin` must match it. */
export const takeOver: TakeOverStep<RoleInputs, RoleInputs> = async (rt, inputs, i) => {
  const api = rt.client();
  const log = rt.logger(inputs);
  const ref = i.importId ? (parseImportId(i.importId) as RoleRef) : refOf(inputs);
  const how = i.adopt ? "adopt" : "importId";
  const role = await findRole(api, ref);
  if (!role) {
    throw new Error(
      `Failed to take over ${describeRole(ref)} (${how}): it does not exist (or the API key cannot see it). ` +
        (i.adopt ? "Remove adopt to create it." : "Check importId, or remove it to create a new role."),
    );
  }
  const noLogin = role.authentication_method === "no_login";
  // Left out means false (as the diff reads it): a no-login role must be declared so.
  if ((i.noLogin ?? false) !== noLogin) {
    throw new Error(
      `Failed to take over ${describeRole(ref)}: noLogin is ${i.noLogin === undefined ? "left out (false)" : `declared ${i.noLogin}`} but the role ${noLogin ? "cannot" : "can"} log in. ` +
        "Taking over changes nothing: make the program match the role.",
    );
  }
  const password = noLogin || !keepsPassword(i) ? undefined : await revealed(api, ref, log);
  // An imported object is this resource's to delete: no other delete of this update may (an adopted
  // one is never deleted, only released).
  if (!i.adopt) rt.ledger.noteTakenOver("role", roleId(ref));
  log.info(
    i.adopt
      ? `adopted ${describeRole(ref)}; destroy will leave it in place`
      : `imported ${describeRole(ref)}; deleting this resource will delete the role`,
  );
  return {
    id: roleId(ref),
    outs: toOutputs(inputs, ref, role, password, i.adopt ? { adopted: true } : {}),
  };
};
