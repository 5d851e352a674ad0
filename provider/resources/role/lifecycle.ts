/**
 * The lifecycle of `Role`: check, diff and delete (refusing a role that owns a database before
 * anything is sent) here; create (refusing a name the stack did not create, reconciling a lost
 * answer) in `create.ts`; read and update (a password rotation that reports the new password only
 * when the reset has finished) in `update.ts`. The password goes only into the outputs: never into a
 * log line or a message.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type NeonClient, type Role, isNotFound } from "../../api";
import {
  deleteAndWait,
  diffResult,
  UNKNOWN,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import type { Runtime } from "../runtime";
import type { CheckFailure } from "../check";
import {
  asAfterRestore,
  duplicateFailure,
  followsRestore,
  importIdOf,
  leftByThisStack,
  leftWithRestoredBranch,
  refOf,
  refuseTakenTarget,
  noteEarlierRestore,
  restoreComing,
} from "../branch-objects/objects";
import { refuseComputeLessTarget, warnComputeLess } from "../branch-objects/needs-compute";
import { checkInputs } from "./inputs";
import { declareDeletingRole } from "../database/owner";
import type { RoleInputs, RoleOutputs } from "./types";
import { describeRole, diffRole, type RoleRef } from "./mapping";
import { create, roleNames } from "./create";
import { read, update } from "./update";

type State = Stated<RoleOutputs>;

async function check(rt: Runtime, olds: Stated<RoleInputs>, news: Bag): Promise<CheckResult<RoleInputs>> {
  const checked = checkInputs(news);
  const failures = [...checked.failures, ...duplicateFailure(rt, "role", news)];
  const inputs = checked.inputs;
  failures.push(...(await passwordKeptOutFailures(rt, news)));
  if (failures.length > 0) return { inputs: news, failures };
  // A Role whose removal deletes its role (not an adopted one, which is left in place): a database it
  // owns must not stay behind it (Database's owner.ts).
  if (news.adopt !== true && typeof news.__urn === "string") declareDeletingRole(rt, news, news.__urn);
  const isNew = Object.keys(olds).filter((k) => !k.startsWith("__")).length === 0;
  // A branch not known yet, or made earlier in this run, is new: it has no connections to drop.
  const branchKnown = typeof news.branchId === "string" && news.branchId !== UNKNOWN;
  const fresh = branchKnown && rt.ledger.madeThisRun("branch", String(news.branchId));
  if (isNew && branchKnown && !fresh && news.adopt !== true && news.importId === undefined) {
    const name = typeof news.name === "string" && news.name !== UNKNOWN ? ` "${news.name}"` : "";
    const line =
      `creating role${name} drops the open connections to the computes of branch ${String(news.branchId)} ` +
      "(clients reconnect); an idle compute is woken briefly";
    if (rt.ledger.firstTime(`${String(news.__urn)}\n${line}`)) rt.logger(news).warn(line);
  }
  if (isNew && branchKnown && news.adopt !== true && news.importId === undefined)
    await warnComputeLess(rt, "role", news);
  return { inputs };
}

/**
 * `passwordInState: false` needs a project that stores passwords: elsewhere the password can be
 * learnt only from a reset's answer, which the choice throws away. Judged by the project's
 * `store_passwords` (what makes `reveal_password` answer 412); a project not known yet is left to the run.
 */
async function passwordKeptOutFailures(rt: Runtime, news: Bag): Promise<CheckFailure[]> {
  if (news.passwordInState !== false || news.noLogin === true) return [];
  const projectId = news.projectId;
  if (typeof projectId !== "string" || projectId === UNKNOWN) return [];
  const stores = await rt.projectFacts(projectId).then(
    (p) => p.store_passwords,
    () => undefined,
  );
  if (stores !== false) return [];
  return [
    {
      property: "passwordInState",
      reason:
        `project ${projectId} does not store role passwords (store_passwords is off), so a password kept out of ` +
        "the state could never be read again (the service answers 412 to reveal_password, and store_passwords " +
        "is set only when a project is created); remove passwordInState: false, or keep the role in a project " +
        "that stores passwords",
    },
  ];
}

/**
 * Whether a replacement must delete the old role first: only when the new one has the same name on
 * the same branch (a `noLogin` change). A rename or a move creates the new role first, so the engine
 * can give it the old role's databases (their `ownerName: role.name`) before it deletes the old one.
 */
function deletesFirst(olds: Bag, news: Bag): boolean {
  return ["projectId", "branchId", "name"].every((k) => news[k] !== UNKNOWN && olds[k] === news[k]);
}

async function diff(
  rt: Runtime,
  id: string,
  olds: State,
  given: Checked<RoleInputs>,
): Promise<pulumi.dynamic.DiffResult> {
  const news = asAfterRestore(rt, olds, given);
  const d = diffRole(olds, news);
  // A move to a branch an interrupted run restored from the old one is that restore's take-over.
  if (d.replaces.length > 0 && rt.ledger.isPlanning(news)) await noteEarlierRestore(rt, olds, news);
  const first = deletesFirst(olds, news);
  if (rt.ledger.isPlanning(news)) {
    const log = rt.logger(news);
    const ref = refOf(olds);
    const api = rt.client();
    if (d.replaces.length > 0 && (followsRestore(rt, olds, news) || restoreComing(rt, olds, news))) {
      // Its branch is restored from a snapshot: the role of this name there is taken over (docs/decisions/0021).
      log.info(
        `${describeRole(ref)} follows its branch's restore: the restored branch's role "${String(news.name)}" (the ` +
          "snapshot's) is taken over, with its password, not recreated; the old one stays with the original branch",
      );
    } else if (d.replaces.length > 0 && olds.adopted === true) {
      log.warn(
        `${d.replaces.join(" and ")} changed: ${describeRole(ref)}, adopted, is left in place, and a role is ` +
          "created (or found) for the new inputs",
      );
    } else if (d.replaces.length > 0) {
      // Deleted first (the same name on the same branch): the service refuses while it owns a database,
      // and the create that follows would be refused on a branch without a read_write compute.
      if (first) await refuseIfOwner(api, ref, "replace");
      if (first) await refuseComputeLessTarget(rt, "role", olds, news);
      else await warnComputeLess(rt, "role", news);
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
    } else if (d.updates.includes("passwordInState") && !d.updates.includes("passwordRotationTrigger")) {
      log.info(
        news.passwordInState === false
          ? `passwordInState is false: the stored password of ${describeRole(ref)} is dropped from the state; the ` +
              "password is not reset and keeps working (read it with getRolePassword or getConnectionUri)"
          : `passwordInState is back on: the password of ${describeRole(ref)} is read once into the state (a secret)`,
      );
    } else if (d.updates.includes("passwordRotationTrigger")) {
      log.warn(
        `passwordRotationTrigger changed: ${describeRole(ref)} gets a new password; the old one works until ` +
          "the reset has finished, then stops (update what connects with it from " +
          (news.passwordInState === false ? "getRolePassword or getConnectionUri)" : "the password output)"),
      );
    }
  }
  // Role names are unique in a branch: the old role goes first only when the new one takes its name.
  return diffResult(d, first);
}

// --- delete --------------------------------------------------------------------------------

/**
 * Refuses to delete a role that owns a database, naming the databases and what to do: before anything
 * is sent for a replacement (its diff), and as the explanation of the service's 409 for a delete.
 */
async function refuseIfOwner(
  api: NeonClient,
  ref: RoleRef,
  verb: "delete" | "replace",
  /** The databases this run gave the role (Database updates of this run). */
  given: readonly string[] = [],
): Promise<void> {
  let databases: string[];
  try {
    databases = (await api.databases.list(ref.projectId, ref.branchId))
      .filter((d) => d.owner_name === ref.name)
      .map((d) => d.name);
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
  if (databases.length === 0) return;
  const owned = databases.map((d) => `"${d}"`);
  const handed = databases.filter((d) => given.includes(d)).map((d) => `"${d}"`);
  if (handed.length > 0) {
    // The program both gave the database to this role and removed the role: the earlier advice
    // ("give it another owner first") would contradict it, and the owner change is already made.
    throw new Error(
      `Failed to ${verb} ${describeRole(ref)}: this update made it the owner of database${handed.length > 1 ? "s" : ""} ` +
        `${handed.join(", ")} (the Database's ownerName), and the service does not delete a role that owns a ` +
        "database. The new owner is in place; the role was not deleted. Keep the Role in the program, or give " +
        "the database another owner (ownerName), then run `pulumi up`.",
    );
  }
  throw new Error(
    `Failed to ${verb} ${describeRole(ref)}: it owns database${owned.length > 1 ? "s" : ""} ${owned.join(", ")}, and ` +
      "the service does not delete a role that owns a database. First give " +
      `${owned.length > 1 ? "them" : "it"} another owner (ownerName of the Database resource) or delete ` +
      `${owned.length > 1 ? "them" : "it"}, run \`pulumi up\`, then ${verb} the role. Nothing was changed.`,
  );
}

async function remove(rt: Runtime, _id: string, props: State): Promise<void> {
  if (leftWithRestoredBranch(rt, "role", props)) return;
  const api = rt.client();
  const ref = refOf(props);
  await rt.serialized(ref.projectId, async () => {
    // The service refuses (409) to delete a role that owns a database, and nothing changes: sent at
    // once, its refusal is then explained by the databases it names (one read fewer when it goes).
    const send = () =>
      api.roles.delete(ref.projectId, ref.branchId, ref.name).catch(async (err: unknown) => {
        if (!(err instanceof ApiError && err.kind === "conflict")) throw err;
        // The explanation, or — when the databases cannot be read — the service's own refusal.
        const given = rt.ledger.ownershipsGiven.get(importIdOf(ref)) ?? [];
        await refuseIfOwner(api, ref, "delete", given).catch((explained: unknown) => {
          throw explained instanceof ApiError ? err : explained;
        });
        throw err;
      });
    await deleteAndWait(rt, ref.projectId, describeRole(ref), send, rt.logger(props));
  });
}

/** `Role`'s own steps (see `../kit.ts`). */
export const roleSteps: ResourceSteps<RoleInputs, RoleOutputs> = {
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
};
