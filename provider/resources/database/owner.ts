/**
 * `Database`'s owner at preview: the owner must exist (a role of the branch, or one a Role of this
 * program declares), and a role this stack made must not be deleted while it still owns the database.
 *
 * The engine never calls a provider for a delete during a preview, so a Role removed from the program
 * is seen from the database it owns: at check, the database records the URN of the Role of this
 * program that owns its owner, when that is certain (see {@link withOwnerRole}); when a later
 * preview's check finds that Role no longer declared while the owner stays, the Role's delete would
 * fail at `up` — the service refuses to delete a role that owns a database — so the preview fails
 * instead.
 */
import { isNotFound } from "../../api";
import type { ApiError, NeonClient } from "../../api";
import type { CheckFailure } from "../check";
import { UNKNOWN, type Bag } from "../kit";
import type { Runtime } from "../runtime";
import { importIdOf, type BranchObjectRef } from "../branch-objects/objects";

/** The state key of the URN of the Role of this program that declared the owner at check. */
export const OWNER_ROLE_KEY = "__ownerRole";

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;

/** The role `news.ownerName` of its branch, as a role's id (`<projectId>/<branchId>/<name>`), when known. */
function ownerId(news: Bag): string | undefined {
  const { projectId, branchId, ownerName } = news;
  if (!known(projectId) || !known(branchId) || !known(ownerName)) return undefined;
  return importIdOf({ projectId, branchId, name: ownerName });
}

/** The URN of the Role of this program that declares the owner of `news`, if one has been checked. */
function declaringRole(rt: Runtime, news: Bag): string | undefined {
  const id = ownerId(news);
  return id ? rt.ledger.declaredBy(`role:${id}`) : undefined;
}

/** Records, at a Role's check, that removing that Role deletes its role (it was not adopted). */
export function declareDeletingRole(rt: Runtime, news: Bag, urn: string): void {
  const { projectId, branchId, name } = news;
  if (known(projectId) && known(branchId) && known(name)) {
    rt.ledger.declare(`deleting-role:${importIdOf({ projectId, branchId, name })}`, urn);
  }
}

/**
 * At check, the owner must be a role of the branch or one a Role of this program declares there
 * (created before the database when ownerName is `role.name`). One read; none while a value is
 * unknown or the branch is missing (the target check reports that).
 */
export async function ownerFailures(rt: Runtime, news: Bag): Promise<CheckFailure[]> {
  const { projectId, branchId, ownerName } = news;
  if (!known(projectId) || !known(branchId) || !known(ownerName)) return [];
  if (declaringRole(rt, news)) return [];
  let roles: string[];
  try {
    roles = (await rt.client().roles.list(projectId, branchId)).map((r) => r.name);
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
  if (roles.includes(ownerName)) return [];
  return [
    {
      property: "ownerName",
      reason:
        `ownerName "${ownerName}" is not a role of branch ${branchId} (its roles: ${roles.join(", ") || "none"}) ` +
        "nor one a Role of this program declares there; declare a Role and set ownerName: role.name (which also " +
        "creates the role first), or name one of the branch's roles",
    },
  ];
}

/**
 * The checked inputs, with the URN of the Role of this program that owns the database's owner, when
 * that is certain: the Role deletes its role when removed (not adopted), and it was created in this
 * run before this check (the database waited for it: \`ownerName: role.name\`) or the database had
 * recorded it already. An owner named by a literal, whose check may come before or after the Role's,
 * is never recorded: no later preview can then be refused by the order of two checks.
 */
export function withOwnerRole<T extends Bag>(rt: Runtime, olds: Bag, inputs: T): T {
  // The same inputs, less or plus one key of the faces' (`Checked` keeps any such key).
  const { [OWNER_ROLE_KEY]: _, ...rest } = inputs as Bag;
  const id = ownerId(inputs);
  const role = id ? rt.ledger.declaredBy(`deleting-role:${id}`) : undefined;
  if (!id || !role) return rest as T;
  const certain = rt.ledger.madeThisRun("role", id) || olds[OWNER_ROLE_KEY] === role;
  return (certain ? { ...rest, [OWNER_ROLE_KEY]: role } : rest) as T;
}

/**
 * At the diff of a preview or an update: refuses when the owner was recorded as made by a Role of
 * this program (in `olds`, the outputs), stays the owner, and no Role of this program that deletes
 * its role declares it now.
 */
export function refuseOwnerLeaving(rt: Runtime, id: string, olds: Bag, news: Bag): void {
  const was = olds[OWNER_ROLE_KEY];
  if (typeof was !== "string") return;
  if (!known(news.ownerName) || news.ownerName !== olds.ownerName || news.branchId !== olds.branchId) return;
  const owner = ownerId(news);
  if (!owner || rt.ledger.declaredBy(`deleting-role:${owner}`)) return;
  const roleName = was.slice(was.lastIndexOf("::") + 2);
  throw new Error(
    `Failed to plan database "${String(news.name ?? olds.name)}" (id ${id}) of branch ${String(olds.branchId)}: ` +
      `its owner, role "${news.ownerName}", was made by the Role "${roleName}" of this stack, which the program no ` +
      "longer declares, so this update would delete the role while it owns the database — the service refuses " +
      "that, and the update would stop half done. Give the database another owner (ownerName), keep the Role, " +
      "or remove the Database too. (If the Role is still declared, set ownerName: role.name, which orders the " +
      "two. If the role is meant to stay — the Role had retainOnDelete, or left the state by hand — remove this " +
      "Database from the state and declare it again with importId.)",
  );
}

/** An error for a create the service refused because the owner is not a role of the branch. */
export async function explainOwner(
  api: NeonClient,
  ref: BranchObjectRef,
  owner: string,
  err: ApiError,
): Promise<Error> {
  if (err.kind !== "not_found" && err.kind !== "invalid") return err;
  const roles = await api.roles.list(ref.projectId, ref.branchId).catch(() => undefined);
  if (!roles || roles.some((r) => r.name === owner)) return err;
  return err.withRemedy(
    `ownerName "${owner}" is not a role of branch ${ref.branchId} (its roles: ${roles.map((r) => r.name).join(", ") || "none"}). ` +
      "Create the role first: declare a Role and set ownerName: role.name, which also orders the two.",
  );
}
