/**
 * The project access calls of the client (`PermissionCalls`): the accounts a project is shared with,
 * by email. A grant or a revoke starts no operation: nothing to wait for.
 */
import { z } from "zod";
import { route } from "../http";
import type { Call } from "./call";

/** `ProjectPermission`: one grant (a revoke's answer also carries `revoked_at`). */
export const ProjectPermissionSchema = z.object({
  id: z.string(),
  granted_to_email: z.string(),
  granted_at: z.string(),
  revoked_at: z.string().optional(),
});
export type ProjectPermission = z.infer<typeof ProjectPermissionSchema>;

const ProjectPermissionsSchema = z.object({ project_permissions: z.array(ProjectPermissionSchema) });

/** The project access calls of the client. */
export interface PermissionCalls {
  /** Everyone the project is shared with (grants not revoked). */
  list(projectId: string): Promise<ProjectPermission[]>;
  /** Shares the project with the account of `email`. */
  grant(projectId: string, email: string): Promise<ProjectPermission>;
  /** Takes the access back; 404 when the project has no such grant. */
  revoke(projectId: string, permissionId: string): Promise<ProjectPermission>;
}

export function permissionCalls(call: Call): PermissionCalls {
  return {
    list: (projectId) =>
      call(
        route("GET /projects/{project_id}/permissions", { project_id: projectId }),
        "list",
        `the access grants of project ${projectId}`,
        ProjectPermissionsSchema,
        // The list's items may carry `revoked_at` (one schema for grants and revoked ones): a revoked
        // grant gives no access, so it is not listed here.
        { map: (v) => v.project_permissions.filter((g) => g.revoked_at === undefined) },
      ),
    grant: (projectId, email) =>
      call(
        route("POST /projects/{project_id}/permissions", { project_id: projectId }),
        "grant",
        `access to project ${projectId}`,
        ProjectPermissionSchema,
        { body: { email } },
      ),
    revoke: (projectId, permissionId) =>
      call(
        route("DELETE /projects/{project_id}/permissions/{permission_id}", {
          project_id: projectId,
          permission_id: permissionId,
        }),
        "revoke",
        `access grant ${permissionId} of project ${projectId}`,
        ProjectPermissionSchema,
      ),
  };
}
