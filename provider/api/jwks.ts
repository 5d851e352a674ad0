/**
 * The JWKS calls of the client (`JwksCalls`): the key sets a project checks JWTs against. The document
 * has a list, an add (which starts operations) and a delete (which starts none); no update and no
 * read of one JWKS: the list is the read.
 */
import { z } from "zod";
import { route } from "../http";
import type { Call } from "./call";
import { OperationSchema, type Operation } from "./schemas";

/** `JWKS`: one key set of a project, for every branch or, with `branch_id`, one. */
export const JwksSchema = z.object({
  id: z.string(),
  project_id: z.string(),
  branch_id: z.string().optional(),
  jwks_url: z.string(),
  provider_name: z.string(),
  created_at: z.string(),
  updated_at: z.string().optional(),
  jwt_audience: z.string().optional(),
  role_names: z.array(z.string()).optional(),
});
export type Jwks = z.infer<typeof JwksSchema>;

/** `AddProjectJWKSRequest`. */
export interface JwksAddBody {
  jwks_url: string;
  provider_name: string;
  branch_id?: string;
  jwt_audience?: string;
  role_names?: string[];
  skip_role_creation?: boolean;
}

const JwksListSchema = z.object({ jwks: z.array(JwksSchema) });
const JwksOperationsSchema = z.object({ jwks: JwksSchema, operations: z.array(OperationSchema) });

/** The JWKS calls of the client. */
export interface JwksCalls {
  /** The project's JWKS. */
  list(projectId: string): Promise<Jwks[]>;
  /** Adds a JWKS to the project; its operations apply it to the computes. */
  add(projectId: string, body: JwksAddBody): Promise<{ jwks: Jwks; operations: Operation[] }>;
  /** Removes a JWKS; 404 when the project has no such JWKS. */
  delete(projectId: string, jwksId: string): Promise<Jwks>;
}

export function jwksCalls(call: Call): JwksCalls {
  return {
    list: (projectId) =>
      call(
        route("GET /projects/{project_id}/jwks", { project_id: projectId }),
        "list",
        `the JWKS of project ${projectId}`,
        JwksListSchema,
        { map: (v) => v.jwks },
      ),
    add: (projectId, body) =>
      call(
        route("POST /projects/{project_id}/jwks", { project_id: projectId }),
        "add",
        `a JWKS to project ${projectId}`,
        JwksOperationsSchema,
        { body },
      ),
    delete: (projectId, jwksId) =>
      call(
        route("DELETE /projects/{project_id}/jwks/{jwks_id}", { project_id: projectId, jwks_id: jwksId }),
        "delete",
        `JWKS ${jwksId} of project ${projectId}`,
        JwksSchema,
      ),
  };
}
