/**
 * `Role`'s mapping to and from the API: its resource id (`<projectId>/<branchId>/<name>`, also its
 * importId) and its outputs. The password goes only into the outputs, which the classes mark secret.
 */
import type { Role } from "../../api";
import { importIdOf, type BranchObjectRef } from "../branch-objects/objects";
import { stateOf, type Bag } from "../kit";
import { definedDiff } from "../compare";
import { ROLE_DEFINITION } from "./definition";

/** The diff the definition derives (replaces, updates) for a role's old and new inputs. */
export const diffRole = (olds: Bag, news: Bag) => definedDiff(ROLE_DEFINITION, olds, news);

/** Where a role is: its project, branch and name. */
export type RoleRef = BranchObjectRef;

/** The resource id (and importId) of a role: `<projectId>/<branchId>/<name>`. */
export const roleId = importIdOf;

/** `role "app" of branch br-…`. */
export const describeRole = (r: { name: string; branchId: string }): string =>
  `role "${r.name}" of branch ${r.branchId}`;

/** Whether the password goes into the state (`passwordInState`, default true). */
export const keepsPassword = (inputs: { passwordInState?: unknown }): boolean =>
  inputs.passwordInState !== false;

/**
 * The outputs: the inputs as given (for the next diff), the role as it is, and its password when
 * known and kept (`passwordInState`): every step's outputs pass here, so none can store it by mistake.
 */
export function toOutputs(
  inputs: Bag,
  ref: RoleRef,
  role: Role,
  password: string | undefined,
  extra: Bag = {},
): Bag {
  const outs: Bag = {
    ...inputs,
    ...extra,
    projectId: ref.projectId,
    branchId: role.branch_id,
    name: role.name,
    password: keepsPassword(inputs) ? password : undefined,
    protected: role.protected ?? false,
    createdAt: role.created_at,
  };
  return stateOf(ROLE_DEFINITION, inputs, outs);
}
