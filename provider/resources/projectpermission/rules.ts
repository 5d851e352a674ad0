/**
 * The rules of `ProjectPermission` that its preview (`check`) and its create share: what an address
 * that already has access is told, the grant of an address, and why an `importId` cannot be taken.
 */
import type { NeonClient, ProjectPermission } from "../../api";
import { isFor, parseGrantRef, resourceId } from "./mapping";

/**
 * The message for an address that already has access through a grant no resource of this stack
 * manages (the service does not record who made a grant: a killed run's, or one a renamed resource
 * holds, reads the same).
 */
export function heldMessage(projectId: string, g: ProjectPermission): string {
  return (
    `${g.granted_to_email} already has access to project ${projectId} (grant ${g.id}, given ${g.granted_at}), ` +
    "which no resource of this stack manages (the service does not record who made a grant). To manage it " +
    `here, set importId: "${resourceId({ projectId, permissionId: g.id })}" (also for a ProjectPermission ` +
    "renamed without an alias); or revoke it in the console first."
  );
}

/** The grant of `email` on the project, if any. */
export async function grantOf(
  api: NeonClient,
  projectId: string,
  email: string,
): Promise<ProjectPermission | undefined> {
  return (await api.permissions.list(projectId)).find((g) => isFor(g, email));
}

/**
 * Why the grant `importId` names cannot be this resource's (`g`: that grant, if the project has it):
 * it is not there, or it is another address's.
 */
export function importProblem(
  importId: string,
  email: string,
  g: ProjectPermission | undefined,
): string | undefined {
  const ref = parseGrantRef(importId);
  if (!g) {
    return (
      `importId ${importId}: project ${ref.projectId} has no grant ${ref.permissionId}. Check importId (the ` +
      "API's project access list names the grants), or remove it to grant access anew"
    );
  }
  if (isFor(g, email)) return undefined;
  return (
    `importId ${importId}: the grant gives access to ${g.granted_to_email}, not ${email}; set email to ` +
    `"${g.granted_to_email}", or import the grant of ${email}`
  );
}
