/**
 * `ProjectPermission`'s mapping to and from the API: its resource id (`<projectId>/<permissionId>`,
 * as `importId` writes it) and its outputs. Pure.
 */
import type { ProjectPermission } from "../../api";
import { splitProjectScoped, stateOf, type Bag } from "../kit";
import { PROJECT_PERMISSION_DEFINITION } from "./definition";

/** Where a grant is: its project and its id. */
export interface GrantRef {
  projectId: string;
  permissionId: string;
}

/** The resource id of a grant: `"<projectId>/<permissionId>"`. */
export const resourceId = (r: GrantRef): string => `${r.projectId}/${r.permissionId}`;

/** Splits a resource id (or an `importId`); throws naming the remedy for any other shape. */
export function parseGrantRef(id: string): GrantRef {
  const [projectId, permissionId] = splitProjectScoped(id, "project access", "permissionId");
  return { projectId, permissionId };
}

/** `access of dev@example.com to project p (grant 9c8c…)`. */
export const describeGrant = (projectId: string, email: string, permissionId?: string): string =>
  `access of ${email} to project ${projectId}${permissionId ? ` (grant ${permissionId})` : ""}`;

/** True when the grant is for `email` (addresses compare without regard to case). */
export const isFor = (g: ProjectPermission, email: string): boolean =>
  g.granted_to_email.toLowerCase() === email.toLowerCase();

/** The outputs: the inputs as given (for the next diff) and the grant as it is. */
export function toOutputs(inputs: Bag, projectId: string, g: ProjectPermission): Bag {
  return stateOf(PROJECT_PERMISSION_DEFINITION, inputs, {
    ...inputs,
    projectId,
    email: g.granted_to_email.toLowerCase(),
    permissionId: g.id,
    grantedAt: g.granted_at,
  });
}
