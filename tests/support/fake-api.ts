/**
 * A stand-in for the parts of the API client that the compute steps read, for unit tests of those
 * steps (no network, no clock): it answers from plain arrays, counts the calls, and answers 404 or
 * fails where a test says so. The steps under test are the real ones; only their I/O is this.
 */
import { ApiError, type Endpoint, type NeonClient, type Operation } from "../../provider/api";

/** An endpoint as the API returns it, with the fields a test does not care about filled in. */
export function endpoint(over: Partial<Endpoint> & { id: string; branch_id: string }): Endpoint {
  return {
    project_id: "p-1",
    type: "read_write",
    host: `${over.id}.example`,
    region_id: "aws-us-east-2",
    current_state: "active",
    autoscaling_limit_min_cu: 1,
    autoscaling_limit_max_cu: 1,
    suspend_timeout_seconds: 0,
    settings: { pg_settings: {} },
    pooler_enabled: false,
    pooler_mode: "transaction",
    disabled: false,
    provisioner: "k8s-neonvm",
    creation_source: "api",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    ...over,
  } as Endpoint;
}

/** An operation as the API lists it. */
export function operation(over: Partial<Operation> & { id: string }): Operation {
  return {
    project_id: "p-1",
    action: "start_compute",
    status: "running",
    failures_count: 0,
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    ...over,
  } as Operation;
}

/** A 404 as the client raises it. */
export function notFound(thing: string): ApiError {
  return new ApiError({
    kind: "not_found",
    method: "GET",
    path: "/x",
    verb: "read",
    thing,
    status: 404,
    apiMessage: "not found",
  } as never);
}

/** What the fake serves, and what it was asked. */
export interface FakeApi {
  api: NeonClient;
  endpoints: Endpoint[];
  operations: Operation[];
  /** Project id → project (absent: 404). */
  projects: Map<
    string,
    {
      id: string;
      region_id: string;
      owner?: { subscription_type?: string };
      default_endpoint_settings?: { suspend_timeout_seconds?: number };
    }
  >;
  /** Branch ids that exist (absent: 404). */
  branches: Set<string>;
  calls: string[];
}

/** A fake client over the given endpoints; every project and branch they name exists. */
export function fakeApi(endpoints: Endpoint[] = [], operations: Operation[] = []): FakeApi {
  const f: FakeApi = {
    endpoints,
    operations,
    projects: new Map(endpoints.map((e) => [e.project_id, { id: e.project_id, region_id: e.region_id }])),
    branches: new Set(endpoints.map((e) => e.branch_id)),
    calls: [],
    api: undefined as never,
  };
  const project = async (id: string) => {
    f.calls.push(`projects.get ${id}`);
    const p = f.projects.get(id);
    if (!p) throw notFound(`project ${id}`);
    return p;
  };
  f.api = {
    projects: { get: project },
    branches: {
      get: async (projectId: string, branchId: string) => {
        f.calls.push(`branches.get ${branchId}`);
        if (!f.branches.has(branchId)) throw notFound(`branch ${branchId}`);
        return { id: branchId, project_id: projectId };
      },
    },
    endpoints: {
      list: async (projectId: string) => {
        f.calls.push(`endpoints.list ${projectId}`);
        return f.endpoints.filter((e) => e.project_id === projectId);
      },
      listByBranch: async (projectId: string, branchId: string) => {
        f.calls.push(`endpoints.listByBranch ${branchId}`);
        return f.endpoints.filter((e) => e.project_id === projectId && e.branch_id === branchId);
      },
    },
    operations: {
      listPage: async (projectId: string) => {
        f.calls.push(`operations.listPage ${projectId}`);
        return { operations: f.operations.filter((o) => o.project_id === projectId) };
      },
      // Newest first, as the service lists them (the fake's list is in that order).
      list: async function* (projectId: string) {
        f.calls.push(`operations.list ${projectId}`);
        yield* f.operations.filter((o) => o.project_id === projectId);
      },
    },
  } as unknown as NeonClient;
  return f;
}
