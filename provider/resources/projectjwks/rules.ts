/**
 * The rules of `ProjectJwks` that its preview (`check`) and its create share: what a JWKS of the
 * declared URL and scope that no resource manages is told, why an `importId` cannot be taken, and the
 * roles a branch lacks.
 */
import { isNotFound, type Jwks, type NeonClient } from "../../api";
import { UNKNOWN } from "../kit";
import { createdByStack } from "../steps";
import { describeJwks, parseJwksRef, resourceId, roleNamesOf } from "./mapping";
import type { ProjectJwksInputs } from "./types";

/**
 * The message for a JWKS of the declared URL and scope that no resource of this stack manages (the
 * service keeps no mark of who added it: one a killed run added reads the same).
 */
export function heldMessage(projectId: string, j: Jwks): string {
  return (
    `${describeJwks(j)} is already a JWKS of project ${projectId} (added ${j.created_at}), and no resource of ` +
    "this stack manages it (the service does not record who added it). To manage it here, set importId: " +
    `"${resourceId({ projectId, jwksId: j.id })}" (also for a ProjectJwks renamed without an alias, or one a ` +
    "killed run added); or delete that JWKS first. A `pulumi up --replace` of this resource's own JWKS reads " +
    "the same (the engine gives the provider no old state for it), unless its branch is one this stack made: " +
    "to renew it, `pulumi destroy --target` the resource, then `pulumi up`"
  );
}

/**
 * Whether `j`, a JWKS at the declared URL and scope, is this stack's own: the resource's own under
 * `pulumi up --replace` (the engine checks and creates the replacement with no old state, and without a
 * diff, so before the old JWKS is removed), or one a killed run of it added. The service keeps no mark
 * of who added a JWKS, so only one that is exactly as declared, on a branch this stack made (its
 * annotation names the stack), added after that branch: one of the project's every branch, or of a
 * branch the stack did not make, stays refused ({@link heldMessage}).
 */
export async function isThisStacks(
  api: NeonClient,
  j: Jwks,
  i: ProjectJwksInputs,
  urn: unknown,
): Promise<boolean> {
  if (typeof urn !== "string" || j.branch_id === undefined || j.branch_id !== i.branchId) return false;
  if (importProblem(resourceId({ projectId: i.projectId, jwksId: j.id }), i, j)) return false;
  const got = await api.branches.getAnnotated(i.projectId, j.branch_id).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
  if (!got || !createdByStack(got.annotation, urn)) return false;
  const born = got.branch.created_at ? Date.parse(got.branch.created_at) : NaN;
  return Date.parse(j.created_at) > born;
}

/**
 * Why the JWKS `importId` names cannot be this resource's (`j`: that JWKS, if the project has it): it
 * is not there, or it is not what the inputs declare.
 */
export function importProblem(
  importId: string,
  i: ProjectJwksInputs,
  j: Jwks | undefined,
): { property: string; reason: string } | undefined {
  const ref = parseJwksRef(importId);
  if (!j) {
    return {
      property: "importId",
      reason:
        `importId ${importId}: project ${ref.projectId} has no JWKS ${ref.jwksId}. Check importId (the API's list ` +
        "of the project's JWKS names them), or remove it to add a new JWKS",
    };
  }
  const roles = (r: readonly string[] | undefined) => (r === undefined ? undefined : [...r].sort().join(","));
  const fields: [string, unknown, unknown][] = [
    ["jwksUrl", i.jwksUrl, j.jwks_url],
    ["providerName", i.providerName, j.provider_name],
    ["branchId", i.branchId ?? "(every branch)", j.branch_id ?? "(every branch)"],
    ["jwtAudience", i.jwtAudience ?? "(none)", j.jwt_audience || "(none)"],
    [
      "roleNames",
      roles(i.roleNames) ?? "(the default roles)",
      roles(roleNamesOf(j)) ?? "(the default roles)",
    ],
  ];
  const [property, , actual] = fields.find(([, declared, is]) => declared !== is) ?? [];
  if (property === undefined) return undefined;
  return {
    property,
    reason:
      `importId ${importId}: the JWKS's ${property} is ${String(actual)}, not as declared; declare it as it is ` +
      "(a JWKS cannot be changed), or remove importId to add a new JWKS",
  };
}

/** The declared role names the branch lacks (`has`: the branch's role names); unknown ones are skipped. */
export function missingRoles(declared: readonly string[] | undefined, has: readonly string[]): string[] {
  return (declared ?? []).filter((r) => r !== UNKNOWN && !has.includes(r));
}
