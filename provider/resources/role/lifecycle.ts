/**
 * The lifecycle of `Role`: check, diff, create (refusing a name the stack did not create, reconciling
 * a lost answer), read, update (a password rotation that reports the new password only when the
 * reset has finished) and delete (refusing a role that owns a database before anything is sent).
 * The password goes only into the outputs: never into a log line or a message.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type NeonClient, type Role, type RoleOperations } from "../../api";
import {
  confirmGone,
  createOnce,
  InitError,
  keptInStack,
  refreshInputs,
  UNKNOWN,
  waitingLine,
  type Checked,
  type ResourceSteps,
} from "../kit";
import { definedDiff } from "../compare";
import { clause, type Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import {
  duplicateFailure,
  isNotFound,
  leftByThisStack,
  parseImportId,
  pendingBranchOps,
  refOf,
  refuseTaken,
  refuseTakenTarget,
} from "../branch-objects";
import { ROLE_DEFINITION } from "./definition";
import { checkInputs } from "./inputs";
import type { RoleInputs } from "./types";
import { describeRole, roleId, toOutputs, type RoleRef } from "./mapping";

type Props = Record<string, unknown>;

export const diffRole = (olds: Props, news: Props) => definedDiff(ROLE_DEFINITION, olds, news);

async function check(rt: Runtime, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const checked = checkInputs(news);
  const failures = [...checked.failures, ...duplicateFailure(rt, "role", news)];
  const inputs = checked.inputs;
  if (failures.length > 0) return { inputs: news, failures };
  const isNew = Object.keys(olds).filter((k) => !k.startsWith("__")).length === 0;
  // A branch not known yet, or made earlier in this run, is new: it has no connections to drop.
  const branchKnown = typeof news.branchId === "string" && news.branchId !== UNKNOWN;
  const fresh = branchKnown && rt.madeThisRun("branch", String(news.branchId));
  if (isNew && branchKnown && !fresh && news.adopt !== true && news.importId === undefined) {
    const name = typeof news.name === "string" && news.name !== UNKNOWN ? ` "${news.name}"` : "";
    const line =
      `creating role${name} drops the open connections to the computes of branch ${String(news.branchId)} ` +
      "(clients reconnect); an idle compute is woken briefly";
    if (rt.firstTime(`${String(news.__urn)}\n${line}`)) rt.logger(news).warn(line);
  }
  return { inputs };
}

/**
 * Whether a replacement must delete the old role first: only when the new one has the same name on
 * the same branch (a `noLogin` change). A rename or a move creates the new role first, so the engine
 * can give it the old role's databases (their `ownerName: role.name`) before it deletes the old one.
 */
function deletesFirst(olds: Props, news: Props): boolean {
  return ["projectId", "branchId", "name"].every((k) => news[k] !== UNKNOWN && olds[k] === news[k]);
}

async function diff(rt: Runtime, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const d = diffRole(olds, news);
  const first = deletesFirst(olds, news);
  if (rt.isPlanning(news)) {
    const log = rt.logger(news);
    const ref = refOf(olds);
    const api = rt.client();
    if (d.replaces.length > 0 && olds.adopted === true) {
      log.warn(
        `${d.replaces.join(" and ")} changed: ${describeRole(ref)}, adopted, is left in place, and a role is ` +
          "created (or found) for the new inputs",
      );
    } else if (d.replaces.length > 0) {
      // Deleted first (the same name on the same branch): the service refuses while it owns a database.
      if (first) await refuseIfOwner(api, ref, "replace");
      // A taken name fails the replacement's create: refused now. Not a role a killed run of this very
      // replacement left on the stack's own branch, which its create takes over.
      await refuseTakenTarget(
        "role",
        olds,
        news,
        async (p, b) => {
          const roles = await api.roles.list(p, b);
          const own = async (r: Role) =>
            !first &&
            r.name === news.name &&
            (r.authentication_method === "no_login") === (news.noLogin === true) &&
            (await leftByThisStack(
              api,
              { projectId: p, branchId: b, name: r.name },
              news.__urn,
              roleNames(api),
              r.created_at,
            ));
          const taken: string[] = [];
          for (const r of roles) if (!(await own(r))) taken.push(r.name);
          return taken;
        },
        first,
      );
      log.warn(
        first
          ? `${d.replaces.join(" and ")} changed: ${describeRole(ref)} will be deleted and a new role created; ` +
              "it gets a new password, and connections that use the old one fail"
          : `${d.replaces.join(" and ")} changed: a new role is created first, the databases that take ownerName ` +
              `from this resource move to it, then ${describeRole(ref)} is deleted; the new role has its own ` +
              "password, and connections that use the old one fail",
      );
    } else if (d.updates.length > 0) {
      log.warn(
        `passwordRotationTrigger changed: ${describeRole(ref)} gets a new password; the old one works until ` +
          "the reset has finished, then stops (update what connects with it from the password output)",
      );
    }
  }
  return {
    changes: d.changes,
    replaces: d.replaces,
    stables:
      d.replaces.length === 0 ? ["projectId", "branchId", "name", "noLogin", "protected", "createdAt"] : [],
    // Role names are unique in a branch: the old role goes first only when the new one takes its name.
    deleteBeforeReplace: first,
  };
}

// --- create ------------------------------------------------------------------------------

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
 * (412), which `explain` then says in a warning with what to do.
 */
async function revealed(
  api: NeonClient,
  ref: RoleRef,
  explain: ResourceLogger | undefined,
): Promise<string | undefined> {
  try {
    return await api.roles.revealPassword(ref.projectId, ref.branchId, ref.name);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 412)) throw err;
    explain?.warn(
      `project ${ref.projectId} does not store role passwords, so the password of ${describeRole(ref)} cannot ` +
        "be read (the service answered 412); the resource has no password output until it is rotated: change " +
        "(or add) passwordRotationTrigger, and the new password becomes the password output",
    );
    return undefined;
  }
}

async function create(rt: Runtime, i: Checked<RoleInputs>): Promise<pulumi.dynamic.CreateResult> {
  const inputs: Props = i;
  if (i.importId || i.adopt) return takeOver(rt, inputs, i);
  const api = rt.client();
  const log = rt.logger(inputs);
  const ref = refOf(inputs);
  let made: { role: Role; password?: string } | undefined;
  try {
    await rt.serialized(ref.projectId, async () => {
      const existing = await findRole(api, ref);
      if (existing && !(await leftByThisStack(api, ref, inputs.__urn, roleNames(api), existing.created_at))) {
        throw refuseTaken("role", ref);
      }
      if (existing && (existing.authentication_method === "no_login") !== (i.noLogin ?? false)) {
        throw new Error(
          `Failed to create ${describeRole(ref)}: the branch already has a role of that name, which ` +
            `${existing.authentication_method === "no_login" ? "cannot" : "can"} log in, unlike the declared one ` +
            `(noLogin ${i.noLogin ? "true" : "left out"}); make noLogin match it, or choose another name. ` +
            "Nothing was changed.",
        );
      }
      if (existing) {
        log.info(
          `found ${describeRole(ref)}: this stack created the branch (its annotation names the stack) and the ` +
            "branch did not inherit the role, so an interrupted run of this stack created it; taking it over",
        );
        made = { role: existing };
        rt.noteTakenOver("role", roleId(ref));
      }
      const r = existing
        ? await finishFound(api, i, ref, existing, log)
        : await createOrReconcile(api, i, ref, log, (role) => {
            made = { role };
          });
      made = { role: r.role, password: r.role.password };
      log.progress(waitingLine(`created ${describeRole(ref)}`, r.operations));
      await rt.waitFor(ref.projectId, r.operations, log);
    });
  } catch (err) {
    if (!made) throw err;
    throw keptInStack(describeRole(ref), err, roleId(ref), toOutputs(inputs, ref, made.role, made.password));
  }
  const m = made as { role: Role; password?: string };
  return { id: roleId(ref), outs: toOutputs(inputs, ref, m.role, m.password) };
}

/**
 * Sends the create. A lost answer is reconciled by the name (the role did not exist before this
 * create, so a role of that name now is this one): its password is read back, or — when the project
 * does not store passwords — reset, since nothing uses this new role yet.
 */
async function createOrReconcile(
  api: NeonClient,
  i: RoleInputs,
  ref: RoleRef,
  log: ResourceLogger,
  onFound: (role: Role) => void,
): Promise<RoleOperations> {
  return createOnce<RoleOperations, Role>({
    log,
    send: () =>
      api.roles.create(ref.projectId, ref.branchId, {
        name: ref.name,
        ...(i.noLogin ? { no_login: true } : {}),
      }),
    find: () => findRole(api, ref),
    describe: () => describeRole(ref),
    refused: async (err) => {
      // A 409 here: someone else created the name between the check and the create.
      if (err instanceof ApiError && err.kind === "conflict" && (await findRole(api, ref))) {
        throw refuseTaken("role", ref);
      }
      throw err;
    },
    finish: (found) => {
      // From here on it is this stack's role: a failure keeps it in the stack.
      onFound(found);
      return finishFound(api, i, ref, found);
    },
  });
}

/** The names of a branch's roles. */
const roleNames = (api: NeonClient) => async (projectId: string, branchId: string) =>
  (await api.roles.list(projectId, branchId)).map((r) => r.name);

/**
 * A role this stack created but did not hear back about (a lost answer, a killed run): its password
 * is read back or — when the project does not store passwords — reset, since nothing uses it yet;
 * and the branch's unfinished operations are waited for.
 */
async function finishFound(
  api: NeonClient,
  i: RoleInputs,
  ref: RoleRef,
  found: Role,
  takenOver?: ResourceLogger,
): Promise<RoleOperations> {
  const operations = await pendingBranchOps(api, ref.projectId, ref.branchId);
  if (i.noLogin) return { role: found, operations };
  const password = await revealed(api, ref, takenOver);
  if (password !== undefined) return { role: { ...found, password }, operations };
  // A role taken over after a killed run may be in use already: never reset it unasked (the warning
  // says how to rotate it).
  if (takenOver) return { role: found, operations };
  // Not stored: a reset is the only way to learn it, and harmless for a role nothing uses yet.
  const reset = await api.roles.resetPassword(ref.projectId, ref.branchId, ref.name);
  return { role: reset.role, operations: [...operations, ...reset.operations] };
}

/** `adopt` or `importId`: takes over an existing role; its declared `noLogin` must match it. */
async function takeOver(rt: Runtime, inputs: Props, i: RoleInputs): Promise<pulumi.dynamic.CreateResult> {
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
  const password = noLogin ? undefined : await revealed(api, ref, log);
  // An imported object is this resource's to delete: no other delete of this update may (an adopted
  // one is never deleted, only released).
  if (!i.adopt) rt.noteTakenOver("role", roleId(ref));
  log.info(
    i.adopt
      ? `adopted ${describeRole(ref)}; destroy will leave it in place`
      : `imported ${describeRole(ref)}; deleting this resource will delete the role`,
  );
  return {
    id: roleId(ref),
    outs: toOutputs(inputs, ref, role, password, i.adopt ? { adopted: true } : {}),
  };
}

// --- read / update ------------------------------------------------------------------------

async function read(rt: Runtime, id: string, props?: Props): Promise<pulumi.dynamic.ReadResult> {
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
  const password = noLogin
    ? undefined
    : ((await revealed(api, ref, props ? undefined : rt.logger(old))) ??
      (old.password as string | undefined));
  const base = props ? old : { noLogin: noLogin || undefined };
  const outs = toOutputs(base, ref, role, password);
  return {
    id: roleId(ref),
    props: outs,
    inputs: refreshInputs(ROLE_DEFINITION, old, outs, ["projectId", "branchId", "name"]),
  };
}

async function update(
  rt: Runtime,
  id: string,
  olds: Props,
  news: Props,
): Promise<pulumi.dynamic.UpdateResult> {
  const api = rt.client();
  const ref = refOf(olds);
  const extra = olds.adopted === true ? { adopted: true } : {};
  if (!diffRole(olds, news).updates.includes("passwordRotationTrigger")) {
    const role = await api.roles.get(ref.projectId, ref.branchId, ref.name);
    // A create cut off before it learnt the password: read it now, if the project stores it.
    const password =
      olds.password === undefined && role.authentication_method !== "no_login"
        ? await revealed(api, ref, undefined)
        : (olds.password as string | undefined);
    return { outs: toOutputs(news, ref, role, password, extra) };
  }
  const log = rt.logger(news);
  let reset: RoleOperations | undefined;
  try {
    await rt.serialized(ref.projectId, async () => {
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
  } catch (err) {
    if (!reset) throw err;
    const reason = clause(err);
    throw new InitError(
      `Failed to finish the password reset of ${describeRole(ref)}: ${reason}. The new password is kept in the stack (the old one works until the reset finishes); run \`pulumi up\` again.`,
      id,
      toOutputs(news, ref, reset.role, reset.role.password, extra),
      [reason],
    );
  }
  const r = reset as RoleOperations;
  return { outs: toOutputs(news, ref, r.role, r.role.password, extra) };
}

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

// --- delete --------------------------------------------------------------------------------

/** Refuses, before any change is sent, to delete a role that owns a database (the service would refuse). */
async function refuseIfOwner(api: NeonClient, ref: RoleRef, verb: "delete" | "replace"): Promise<void> {
  let owned: string[];
  try {
    owned = (await api.databases.list(ref.projectId, ref.branchId))
      .filter((d) => d.owner_name === ref.name)
      .map((d) => `"${d.name}"`);
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
  if (owned.length === 0) return;
  throw new Error(
    `Failed to ${verb} ${describeRole(ref)}: it owns database${owned.length > 1 ? "s" : ""} ${owned.join(", ")}, and ` +
      "the service does not delete a role that owns a database. First give " +
      `${owned.length > 1 ? "them" : "it"} another owner (ownerName of the Database resource) or delete ` +
      `${owned.length > 1 ? "them" : "it"}, run \`pulumi up\`, then ${verb} the role. Nothing was changed.`,
  );
}

async function remove(rt: Runtime, _id: string, props: Props): Promise<void> {
  const api = rt.client();
  const ref = refOf(props);
  await rt.serialized(ref.projectId, async () => {
    await refuseIfOwner(api, ref, "delete");
    const r = await api.roles.delete(ref.projectId, ref.branchId, ref.name).catch(async (err: unknown) => {
      if (!isNotFound(err)) throw err;
      await confirmGone(api, ref.projectId, describeRole(ref), "delete", err);
      return undefined;
    });
    if (r) await rt.waitFor(ref.projectId, r.operations, rt.logger(props));
  });
}

/** `Role`'s own steps (see `../kit.ts`). */
export const roleSteps: ResourceSteps<RoleInputs> = {
  check,
  diff,
  create,
  read,
  importInputs: (outs) => {
    const inputs: Props = { projectId: outs.projectId, branchId: outs.branchId, name: outs.name };
    if (outs.noLogin === true) inputs.noLogin = true;
    return inputs;
  },
  update,
  delete: remove,
};
