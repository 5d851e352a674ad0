/**
 * Lookups: plain async functions a Pulumi program calls to read Neon data (like the `getX` functions
 * of Pulumi packages), each with an `…Output` variant that takes `pulumi.Input`s and returns a
 * `pulumi.Output`. They read `neon:apiKey` / `neon:apiUrl` from the stack's configuration, else
 * `NEON_API_KEY` / `NEON_API_URL`, and return plain camelCase data (never the key).
 */
import * as pulumi from "@pulumi/pulumi";
// Not "../api": its index loads the client and its zod schemas, which a program needs only when it looks up.
import { collectAll, paginate } from "../api/pager";
import { ApiError } from "../http/errors";
import { loadClientEarly, lookupClient } from "./client";
import { asRunError } from "./errors";
import { compareWithBase } from "./schema";

/** @internal (the provider plugin's invokes and the tests) */
export { withLookupClient } from "./client";
import {
  branchInfo,
  computeInfo,
  operationInfo,
  projectInfo,
  type BranchInfo,
  type ComputeInfo,
  type OperationInfo,
  type ProjectInfo,
} from "./types";

import type {
  ConnectionUri,
  GetBranchesArgs,
  GetComputeArgs,
  GetComputesArgs,
  GetConnectionUriArgs,
  GetOperationsArgs,
  GetProjectsArgs,
  GetSchemaDiffArgs,
  SchemaDiff,
} from "./shapes";

// The argument and result types are generated from the definitions (`npm run types:gen`).
export type * from "./shapes";

/** The largest page the operations list serves. */
const MAX_OPERATIONS_PAGE = 1000;
/** The largest page the projects list serves. */
const MAX_PROJECTS_PAGE = 400;

/** The projects the API key can see, in the service's order, following the cursor up to `limit`. */
export async function getProjects(args: GetProjectsArgs = {}): Promise<ProjectInfo[]> {
  const limit = positiveInt(args.limit ?? 100, "getProjects", "limit");
  const projects = lookupClient().projects.list({
    orgId: args.orgId,
    search: args.search,
    limit: Math.min(limit, MAX_PROJECTS_PAGE),
  });
  return (await collectAll(projects, { limit })).map(projectInfo);
}

/**
 * A project's operations, newest first as the service returns them, following the cursor page by
 * page until `limit` operations (of `endpointId`, when given) are found or the history ends.
 */
export async function getOperations(args: GetOperationsArgs): Promise<OperationInfo[]> {
  const limit = positiveInt(args.limit, "getOperations", "limit");
  const pageSize = positiveInt(args.pageSize ?? Math.min(limit, 100), "getOperations", "pageSize");
  if (pageSize > MAX_OPERATIONS_PAGE) {
    throw new RangeError(
      `Failed to list operations: pageSize must be at most ${MAX_OPERATIONS_PAGE}, got ${pageSize}.`,
    );
  }
  const api = lookupClient();
  const all = paginate(pageSize, async (cursor) => {
    const page = await api.operations.listPage(args.projectId, { limit: pageSize, cursor });
    return { items: page.operations, cursor: page.cursor };
  });
  const matching = args.endpointId ? filter(all, (o) => o.endpoint_id === args.endpointId) : all;
  return (await collectAll(matching, { limit })).map(operationInfo);
}

/** One compute; fails (HTTP 404) when it does not exist or the key cannot see it. */
export async function getCompute(args: GetComputeArgs): Promise<ComputeInfo> {
  return computeInfo(await lookupClient().endpoints.get(args.projectId, args.endpointId));
}

/** The computes of a project, or of one of its branches. */
export async function getComputes(args: GetComputesArgs): Promise<ComputeInfo[]> {
  const api = lookupClient();
  const endpoints = args.branchId
    ? await api.endpoints.listByBranch(args.projectId, args.branchId)
    : await api.endpoints.list(args.projectId);
  return endpoints.map(computeInfo);
}

/**
 * The branches of a project, every page, with their annotations and the stack that made each (for a
 * branch this package made): what a sweep of leaked preview branches reads.
 */
export async function getBranches(args: GetBranchesArgs): Promise<BranchInfo[]> {
  const listed = await lookupClient().branches.listAnnotated(args.projectId, { search: args.search });
  return listed.map((x) => branchInfo(x.branch, x.annotation));
}

/**
 * The connection string of a role and database on a compute. It carries the role's password: prefer
 * {@link getConnectionUriOutput}, whose result is a secret; a program that uses this one must wrap
 * the value in `pulumi.secret` before exporting it.
 */
export async function getConnectionUri(args: GetConnectionUriArgs): Promise<ConnectionUri> {
  requireStrings("getConnectionUri", args, ["projectId", "databaseName", "roleName"]);
  const uri = await lookupClient().projects.connectionUri(args.projectId, {
    branchId: args.branchId,
    endpointId: args.computeId,
    databaseName: args.databaseName,
    roleName: args.roleName,
    pooled: args.pooled,
  });
  return { uri };
}

/**
 * What a branch changed in a database's schema: the unified difference between a base branch's schema
 * (default: the branch's parent) and the branch's (Neon's `compare_schema`), and whether there is one.
 */
export async function getSchemaDiff(args: GetSchemaDiffArgs): Promise<SchemaDiff> {
  requireStrings("getSchemaDiff", args, ["projectId", "branchId", "databaseName"]);
  const diff = await compareWithBase(lookupClient(), args);
  return { diff, changed: diff.trim() !== "" };
}

/** Arguments of a lookup's `…Output` variant: each argument may be a `pulumi.Input`. */
export type OutputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** {@link getProjects} for `pulumi.Input` arguments. */
export function getProjectsOutput(args: OutputArgs<GetProjectsArgs> = {}): pulumi.Output<ProjectInfo[]> {
  return outputOf(args, getProjects);
}

/** {@link getOperations} for `pulumi.Input` arguments. */
export function getOperationsOutput(args: OutputArgs<GetOperationsArgs>): pulumi.Output<OperationInfo[]> {
  return outputOf(args, getOperations);
}

/** {@link getCompute} for `pulumi.Input` arguments. */
export function getComputeOutput(args: OutputArgs<GetComputeArgs>): pulumi.Output<ComputeInfo> {
  return outputOf(args, getCompute);
}

/** {@link getBranches} for `pulumi.Input` arguments. */
export function getBranchesOutput(args: OutputArgs<GetBranchesArgs>): pulumi.Output<BranchInfo[]> {
  return outputOf(args, getBranches);
}

/** {@link getComputes} for `pulumi.Input` arguments. */
export function getComputesOutput(args: OutputArgs<GetComputesArgs>): pulumi.Output<ComputeInfo[]> {
  return outputOf(args, getComputes);
}

/** {@link getSchemaDiff} for `pulumi.Input` arguments. */
export function getSchemaDiffOutput(args: OutputArgs<GetSchemaDiffArgs>): pulumi.Output<SchemaDiff> {
  return outputOf(args, getSchemaDiff);
}

/** {@link getConnectionUri} for `pulumi.Input` arguments; the result is a secret. */
export function getConnectionUriOutput(args: OutputArgs<GetConnectionUriArgs>): pulumi.Output<ConnectionUri> {
  loadClientEarly(args);
  return pulumi.secret(
    pulumi.output(args).apply(async (a) => {
      try {
        return await getConnectionUri(a as unknown as GetConnectionUriArgs);
      } catch (err) {
        // A preview shows a renamed database (or role) under its new name before the update made
        // it: not there yet is not an error then, the uri is simply not known until the update.
        if (
          pulumi.runtime.isDryRun() &&
          err instanceof ApiError &&
          err.kind === "not_found" &&
          (await whereExists(a as unknown as GetConnectionUriArgs))
        ) {
          void pulumi.log.warn(
            `getConnectionUri: ${err.apiMessage.replace(/[.\s]+$/, "")}; the connection string is unknown in ` +
              "this preview (right when this update creates or renames the database or role; otherwise check " +
              "databaseName and roleName, or `pulumi up` fails here)",
          );
          return pulumi.unknown as unknown as ConnectionUri;
        }
        throw asRunError(err);
      }
    }) as unknown as pulumi.Output<ConnectionUri>,
  );
}

/**
 * At preview, whether the project (and the branch, when given) exist: then a missing database or role
 * may be one this update creates or renames; otherwise the arguments are wrong, and the preview fails.
 */
async function whereExists(a: GetConnectionUriArgs): Promise<boolean> {
  const api = lookupClient();
  try {
    await (a.branchId ? api.branches.get(a.projectId, a.branchId) : api.projects.get(a.projectId));
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.kind === "not_found") return false;
    throw asRunError(err);
  }
}

function outputOf<A, R>(args: OutputArgs<A>, fn: (a: A) => Promise<R>): pulumi.Output<R> {
  loadClientEarly(args);
  return pulumi.output(args).apply(async (a) => {
    try {
      return await fn(a as unknown as A);
    } catch (err) {
      throw asRunError(err);
    }
  }) as unknown as pulumi.Output<R>;
}

/** Refuses, before any request, an argument that is required and is not a non-empty string. */
function requireStrings<A extends object>(fn: string, args: A, names: readonly (keyof A & string)[]): void {
  for (const name of names) {
    const v = (args as Record<string, unknown> | undefined)?.[name];
    if (typeof v !== "string" || v === "") {
      throw new RangeError(
        `Failed to run ${fn}: ${name} is required (a string), got ${v === undefined ? "nothing" : JSON.stringify(v)}.`,
      );
    }
  }
}

function positiveInt(value: number, fn: string, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`Failed to run ${fn}: ${name} must be a positive whole number, got ${value}.`);
  }
  return value;
}

async function* filter<T>(items: AsyncIterable<T>, keep: (item: T) => boolean): AsyncIterable<T> {
  for await (const item of items) if (keep(item)) yield item;
}
