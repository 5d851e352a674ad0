/** The compute (endpoint) calls of the client (`EndpointCalls`). */
import { route, type HttpClient } from "../http";
import type { Call } from "./call";
import { deleteOr204 } from "./deletes";
import {
  EndpointOperationsSchema,
  EndpointResponseSchema,
  EndpointsResponseSchema,
  type Endpoint,
  type EndpointCreateBody,
  type EndpointUpdateBody,
  type Operation,
} from "./schemas";

/** `{ endpoint, operations }` as returned by state-changing endpoint calls. */
export interface EndpointOperations {
  endpoint: Endpoint;
  operations: Operation[];
}

/** The compute (endpoint) calls of the client. */
export interface EndpointCalls {
  list(projectId: string): Promise<Endpoint[]>;
  get(projectId: string, endpointId: string): Promise<Endpoint>;
  listByBranch(projectId: string, branchId: string): Promise<Endpoint[]>;
  create(projectId: string, body: EndpointCreateBody): Promise<EndpointOperations>;
  update(projectId: string, endpointId: string, body: EndpointUpdateBody): Promise<EndpointOperations>;
  /** `undefined` when the API answers 204 (the endpoint does not exist or is already deleted). */
  delete(projectId: string, endpointId: string): Promise<EndpointOperations | undefined>;
  start(projectId: string, endpointId: string): Promise<EndpointOperations>;
  suspend(projectId: string, endpointId: string): Promise<EndpointOperations>;
  restart(projectId: string, endpointId: string): Promise<EndpointOperations>;
}

export function endpointCalls(call: Call, http: HttpClient): EndpointCalls {
  const compute = (p: string, e: string) => `compute ${e} in project ${p}`;

  return {
    list: (p) =>
      call(
        route("GET /projects/{project_id}/endpoints", { project_id: p }),
        "list",
        `the computes of project ${p}`,
        EndpointsResponseSchema,
        { map: (r) => r.endpoints },
      ),
    get: (p, e) =>
      call(
        route("GET /projects/{project_id}/endpoints/{endpoint_id}", { project_id: p, endpoint_id: e }),
        "read",
        compute(p, e),
        EndpointResponseSchema,
        { map: (r) => r.endpoint },
      ),
    listByBranch: (p, b) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/endpoints", { project_id: p, branch_id: b }),
        "list",
        `the computes of branch ${b} in project ${p}`,
        EndpointsResponseSchema,
        { map: (r) => r.endpoints },
      ),
    create: (p, body) =>
      call(
        route("POST /projects/{project_id}/endpoints", { project_id: p }),
        "create",
        `a ${body?.type ?? "read_write"} compute on branch ${body?.branch_id} in project ${p}`,
        EndpointOperationsSchema,
        { body: { endpoint: body } },
      ),
    update: (p, e, body) =>
      call(
        route("PATCH /projects/{project_id}/endpoints/{endpoint_id}", { project_id: p, endpoint_id: e }),
        "update",
        compute(p, e),
        EndpointOperationsSchema,
        { body: { endpoint: body } },
      ),
    delete: (p, e) =>
      deleteOr204(
        http,
        route("DELETE /projects/{project_id}/endpoints/{endpoint_id}", { project_id: p, endpoint_id: e }),
        compute(p, e),
        EndpointOperationsSchema,
      ),
    start: (p, e) =>
      call(
        route("POST /projects/{project_id}/endpoints/{endpoint_id}/start", { project_id: p, endpoint_id: e }),
        "start",
        compute(p, e),
        EndpointOperationsSchema,
      ),
    suspend: (p, e) =>
      call(
        route("POST /projects/{project_id}/endpoints/{endpoint_id}/suspend", {
          project_id: p,
          endpoint_id: e,
        }),
        "suspend",
        compute(p, e),
        EndpointOperationsSchema,
      ),
    restart: (p, e) =>
      call(
        route("POST /projects/{project_id}/endpoints/{endpoint_id}/restart", {
          project_id: p,
          endpoint_id: e,
        }),
        "restart",
        compute(p, e),
        EndpointOperationsSchema,
      ),
  };
}
