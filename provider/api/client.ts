/**
 * Typed calls of the Neon API v2: the client's interface, its operation calls and the operation
 * waiter bound to it; each other area's calls are in their own file (endpoints, branches, projects,
 * roles and databases, API keys, snapshots, anonymized branches), and a 423's reading of the
 * project's lock in `projectlock.ts`.
 */
import type { z } from "zod";
import {
  ApiError,
  createHttpClient,
  ResponseShapeError,
  route,
  type HttpClient,
  type HttpClientOptions,
  type LockWait,
  type Route,
} from "../http";
import {
  describeIssues,
  OperationResponseSchema,
  OperationsPageSchema,
  CurrentUserSchema,
  type CurrentUser,
  type Operation,
} from "./schemas";
import type { Call } from "./call";
import { branchCalls, type BranchCalls } from "./branches";
import { endpointCalls, type EndpointCalls } from "./endpoints";
import { apiKeyCalls, type ApiKeyCalls } from "./keys";
import { projectCalls, type ProjectCalls } from "./projects";
import { databaseCalls, roleCalls, type DatabaseCalls, type RoleCalls } from "./roles";
import { paginate } from "./pager";
import { permissionCalls, type PermissionCalls } from "./permissions";
import { snapshotCalls, type SnapshotCalls } from "./snapshots";
import { anonymizedCalls, type AnonymizedCalls } from "./anonymized";
import { organizationCalls, type OrganizationCalls } from "./organizations";
import { neonAuthCalls, type NeonAuthCalls } from "./neonauth";
import { dataApiCalls, type DataApiCalls } from "./dataapi";
import { projectLockWait } from "./projectlock";
import { jwksCalls, type JwksCalls } from "./jwks";
import { OperationWaiter, type PollErrorClass, type WaitOptions } from "../operations/waiter";
import type { OpHint } from "../operations/step";

/**
 * Options of {@link createNeonClient}: the HTTP client's, without its test-only knobs (retry limits,
 * backoff shapes, extra headers, adapter). `apiKey` is a personal, organization or project-scoped
 * key; `baseUrl` defaults to `https://console.neon.tech/api/v2`; `timeoutMs` (30 s) bounds one
 * request and `retryDeadlineMs` (10 min) one call's retries of 423/429/503/….
 */
export type NeonClientOptions = Pick<
  HttpClientOptions,
  | "apiKey"
  | "baseUrl"
  | "timeoutMs"
  | "retryDeadlineMs"
  | "sleep"
  | "now"
  | "random"
  | "onRetry"
  | "rateLimits"
>;

/** One page of operations. */
export interface OperationsPage {
  operations: Operation[];
  /** Pass back to get the next page; absent at the end. */
  cursor?: string;
}

/** The client. Holds the API key only inside its HTTP instance. */
export interface NeonClient {
  endpoints: EndpointCalls;
  operations: {
    get(projectId: string, operationId: string): Promise<Operation>;
    /** All operations of the project, newest first, fetched page by page as iterated. */
    list(projectId: string, opts?: { limit?: number }): AsyncIterable<Operation>;
    listPage(projectId: string, opts: { limit: number; cursor?: string }): Promise<OperationsPage>;
  };
  projects: ProjectCalls;
  branches: BranchCalls;
  roles: RoleCalls;
  databases: DatabaseCalls;
  permissions: PermissionCalls;
  snapshots: SnapshotCalls;
  /** Anonymized branches: masking rules, their runs and status (Beta). */
  anonymized: AnonymizedCalls;
  /** Organizations: their plan, the regions, private networking and the spending limit. */
  organizations: OrganizationCalls;
  /** Neon Auth of a branch, and the Data API of a branch's database. */
  neonAuth: NeonAuthCalls;
  dataApi: DataApiCalls;
  users: {
    /** The user whose personal API key this client uses (403 for organization and project keys). */
    me(): Promise<CurrentUser>;
  };
  apiKeys: ApiKeyCalls;
  /** A project's JWKS: the key sets its computes check JWTs against. */
  jwks: JwksCalls;
  /**
   * Waits until every given operation of the project is `finished` or
   * `skipped`; rejects with an `OperationError` when one ends in `error` or
   * `cancelled`, stays `failed` past the grace period, or the deadline passes.
   * Give the operations as the starting request answered them (or their ids):
   * their action times the first poll.
   */
  waitForOperations(
    projectId: string,
    operations: ReadonlyArray<string | OpHint>,
    opts?: WaitOptions,
  ): Promise<Operation[]>;
  /** HTTP requests sent by this client so far, retries included. */
  requestCount(): number;
  /** Waits `ms` on the client's clock (injected in tests), as its retries and polls do; `signal` ends it early. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** This machine's time on the client's clock (not the service's: see {@link NeonClient.serviceNow}). */
  now(): number;
  /** The service's time, from the latest answer (see `HttpClient.serviceNow`). */
  serviceNow(): number;
}

/** Page size of operation and project pagers when the caller gives none. */
export const DEFAULT_PAGE_SIZE = 100;

/**
 * How an error of a poll affects the operation waiter: the waiter is given this function instead
 * of knowing `ApiError` (the arrows point resources → api → operations → http).
 */
export function classifyPollError(err: unknown): PollErrorClass {
  if (!(err instanceof ApiError)) return "transient";
  if (err.kind === "not_found") return "not_found";
  // Polling cannot succeed after these; everything else is retried until the wait's deadline.
  if (["unauthorized", "forbidden", "invalid", "invalid_response"].includes(err.kind)) return "fatal";
  return "transient";
}

export { projectLockWait, type OperationsReader } from "./projectlock";
export type { Call } from "./call";
export type { EndpointOperations } from "./endpoints";
export type { SchemaCompareQuery, SchemaQuery } from "./branches";

/** Creates a client. Sends nothing until the first call. */
export function createNeonClient(opts: NeonClientOptions): NeonClient {
  if (!opts || typeof opts.apiKey !== "string" || opts.apiKey.trim() === "") {
    throw new Error(
      "Failed to create the Neon API client: no API key was given. Set neon:apiKey or NEON_API_KEY.",
    );
  }
  // The lock waiter reads the project's operations through the client it serves (bound below).
  let lockWait: (route: Route, since?: number) => Promise<LockWait | undefined> = async () => undefined;
  const http = createHttpClient({ ...opts, lockWait: (route, since) => lockWait(route, since) });
  const client = buildClient(http);
  lockWait = projectLockWait(client, http.clock);
  return client;
}

/** The typed call over an HTTP client: the answer is checked against `schema`, then mapped. */
function typedCall(http: HttpClient): Call {
  return <S extends z.ZodType, T = z.infer<S>>(
    to: Route,
    verb: string,
    thing: string,
    schema: S,
    extra: {
      query?: Record<string, string | number | boolean | undefined>;
      body?: unknown;
      map?: (v: z.infer<S>) => T;
    } = {},
  ): Promise<T> =>
    http.request<T>({
      route: to,
      verb,
      thing,
      query: extra.query,
      body: extra.body,
      parse: (data) => {
        const r = schema.safeParse(data);
        if (!r.success) throw new ResponseShapeError(describeIssues(r.error));
        return extra.map ? extra.map(r.data) : (r.data as T);
      },
    });
}

/** Builds the typed client over an HTTP client (tests pass their own). */
export function buildClient(http: HttpClient): NeonClient {
  const call = typedCall(http);

  const endpoints = endpointCalls(call, http);

  // Every page of a project's operations this client reads (a 423's reading, a lookup) also times
  // the polls of its operation waiter (bound below): no page of history read again to learn it.
  let learn: (ops: Operation[]) => void = () => undefined;
  const listPage: NeonClient["operations"]["listPage"] = (p, { limit, cursor }) =>
    call(
      route("GET /projects/{project_id}/operations", { project_id: p }),
      "list",
      `the operations of project ${p}`,
      OperationsPageSchema,
      {
        query: { limit, cursor },
        map: (r) => {
          learn(r.operations);
          return { operations: r.operations, cursor: r.pagination?.cursor || undefined };
        },
      },
    );

  const operations: NeonClient["operations"] = {
    get: (p, id) =>
      call(
        route("GET /projects/{project_id}/operations/{operation_id}", { project_id: p, operation_id: id }),
        "read",
        `operation ${id} of project ${p}`,
        OperationResponseSchema,
        { map: (r) => r.operation },
      ),
    list: (p, o = {}) => {
      const limit = o.limit ?? DEFAULT_PAGE_SIZE;
      return paginate(limit, async (cursor) => {
        const page = await listPage(p, { limit, cursor });
        return { items: page.operations, cursor: page.cursor };
      });
    },
    listPage,
  };

  const projects = projectCalls(call, DEFAULT_PAGE_SIZE);

  const branches = branchCalls(call, http);

  const users: NeonClient["users"] = {
    me: () => call(route("GET /users/me"), "read", "the current user", CurrentUserSchema),
  };

  const apiKeys = apiKeyCalls(call);

  const waiter = new OperationWaiter({
    listPage: (p, limit) => listPage(p, { limit }),
    get: (p, id) => operations.get(p, id),
    classifyError: classifyPollError,
    clock: http.clock,
  });
  learn = (ops) => waiter.learn(ops);

  return {
    endpoints,
    operations,
    projects,
    branches,
    roles: roleCalls(call, http),
    databases: databaseCalls(call, http),
    permissions: permissionCalls(call),
    snapshots: snapshotCalls(call),
    anonymized: anonymizedCalls(call, http),
    organizations: organizationCalls(call),
    neonAuth: neonAuthCalls(call),
    dataApi: dataApiCalls(call),
    users,
    apiKeys,
    jwks: jwksCalls(call),
    waitForOperations: (p, ids, o) => waiter.wait(p, ids, o),
    requestCount: () => http.requestCount(),
    sleep: (ms, signal) => http.clock.sleep(ms, signal),
    now: () => http.clock.now(),
    serviceNow: () => http.serviceNow(),
  };
}
