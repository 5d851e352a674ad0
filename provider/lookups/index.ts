/**
 * Lookups: plain async functions a Pulumi program calls to read Neon data (like the `getX` functions
 * of Pulumi packages), each with an `…Output` variant that takes `pulumi.Input`s and returns a
 * `pulumi.Output`. They read `neon:apiKey` / `neon:apiUrl` from the stack's configuration, else
 * `NEON_API_KEY` / `NEON_API_URL`, and return plain camelCase data (never the key).
 */
import * as pulumi from "@pulumi/pulumi";
// Not "../api": its index loads the client and its zod schemas, which a program needs only when it looks up.
import { collectAll, paginate } from "../api/pager";
import { loadClientEarly, lookupClient } from "./client";
import { asRunError, never, PROGRAM, type LookupSeams } from "./errors";
import { unknownAtPreview, type PreviewUnknown } from "./preview";
import { compareWithBase } from "./schema";
import * as connection from "./connection";

/** @internal (the provider plugin's invokes and the tests) */
export { withLookupClient } from "./client";
/** @internal (the provider plugin's invokes) */
export { asRunError } from "./errors";
/** @internal (the tests) */
export type { LookupSeams } from "./errors";
/** @internal (the provider plugin's invokes) */
export { unknownAtPreview } from "./preview";
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
  GetRolePasswordArgs,
  GetSchemaDiffArgs,
  RolePassword,
  SchemaDiff,
} from "./shapes";

// The argument and result types are generated from the definitions (`npm run types:gen`).
export type * from "./shapes";

/** The largest page the operations list serves. */
const MAX_OPERATIONS_PAGE = 1000;
/** The largest page the projects list serves. */
const MAX_PROJECTS_PAGE = 400;

/** {@link getProjects}, failing with the service's or the argument check's own error. */
async function readProjects(args: GetProjectsArgs = {}): Promise<ProjectInfo[]> {
  const limit = positiveInt(args.limit ?? 100, "getProjects", "limit");
  const projects = lookupClient().projects.list({
    orgId: args.orgId,
    search: args.search,
    limit: Math.min(limit, MAX_PROJECTS_PAGE),
  });
  return (await collectAll(projects, { limit })).map(projectInfo);
}

/**
 * The projects the API key can see, in the service's order, following the cursor up to `limit`.
 * A failure is a `pulumi.RunError` of one line.
 */
export function getProjects(args: GetProjectsArgs = {}): Promise<ProjectInfo[]> {
  return plainly(readProjects(args));
}

/** {@link getOperations}, failing with the service's or the argument check's own error. */
async function readOperations(args: GetOperationsArgs): Promise<OperationInfo[]> {
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

/**
 * A project's operations, newest first as the service returns them, following the cursor page by
 * page until `limit` operations (of `endpointId`, when given) are found or the history ends.
 * A failure is a `pulumi.RunError` of one line.
 */
export function getOperations(args: GetOperationsArgs): Promise<OperationInfo[]> {
  return plainly(readOperations(args));
}

/** {@link getCompute}, failing with the service's or the argument check's own error. */
async function readCompute(args: GetComputeArgs): Promise<ComputeInfo> {
  return computeInfo(await lookupClient().endpoints.get(args.projectId, args.endpointId));
}

/**
 * One compute; fails (HTTP 404) when it does not exist or the key cannot see it.
 * A failure is a `pulumi.RunError` of one line.
 */
export function getCompute(args: GetComputeArgs): Promise<ComputeInfo> {
  return plainly(readCompute(args));
}

/** {@link getComputes}, failing with the service's or the argument check's own error. */
async function readComputes(args: GetComputesArgs): Promise<ComputeInfo[]> {
  const api = lookupClient();
  const endpoints = args.branchId
    ? await api.endpoints.listByBranch(args.projectId, args.branchId)
    : await api.endpoints.list(args.projectId);
  return endpoints.map(computeInfo);
}

/**
 * The computes of a project, or of one of its branches.
 * A failure is a `pulumi.RunError` of one line.
 */
export function getComputes(args: GetComputesArgs): Promise<ComputeInfo[]> {
  return plainly(readComputes(args));
}

/** {@link getBranches}, failing with the service's or the argument check's own error. */
async function readBranches(args: GetBranchesArgs): Promise<BranchInfo[]> {
  const listed = await lookupClient().branches.listAnnotated(args.projectId, { search: args.search });
  return listed.map((x) => branchInfo(x.branch, x.annotation));
}

/**
 * The branches of a project, every page, with their annotations and the stack that made each (for a
 * branch this package made): what a sweep of leaked preview branches reads.
 * A failure is a `pulumi.RunError` of one line.
 */
export function getBranches(args: GetBranchesArgs): Promise<BranchInfo[]> {
  return plainly(readBranches(args));
}

/** {@link getConnectionUri}, failing with the service's or the argument check's own error. */
function readConnectionUri(args: GetConnectionUriArgs): Promise<ConnectionUri> {
  return connection.readConnectionUri(lookupClient(), args);
}

/**
 * The connection string of a role and database on a compute. It carries the role's password: prefer
 * {@link getConnectionUriOutput}, whose result is a secret; a program that uses this one must wrap
 * the value in `pulumi.secret` before exporting it.
 * A failure is a `pulumi.RunError` of one line.
 */
export function getConnectionUri(args: GetConnectionUriArgs): Promise<ConnectionUri> {
  return plainly(readConnectionUri(args));
}

/** {@link getRolePassword}, failing with the service's or the argument check's own error. */
function readRolePassword(args: GetRolePasswordArgs): Promise<RolePassword> {
  return connection.readRolePassword(lookupClient(), args);
}

/**
 * A role's password, read from the service now (`reveal_password`). Prefer {@link getRolePasswordOutput},
 * whose result is a secret; a program that uses this one must wrap the value in `pulumi.secret` before
 * passing it on. A project that does not store passwords fails saying why and what to do.
 * A failure is a `pulumi.RunError` of one line.
 */
export function getRolePassword(args: GetRolePasswordArgs): Promise<RolePassword> {
  return plainly(readRolePassword(args));
}

/** {@link getSchemaDiff}, failing with the service's or the argument check's own error. */
async function readSchemaDiff(args: GetSchemaDiffArgs): Promise<SchemaDiff> {
  connection.requireStrings("getSchemaDiff", args, ["projectId", "branchId", "databaseName"]);
  const diff = await compareWithBase(lookupClient(), args);
  return { diff, changed: diff.trim() !== "" };
}

/**
 * What a branch changed in a database's schema: the unified difference between a base branch's schema
 * (default: the branch's parent) and the branch's (Neon's `compare_schema`), and whether there is one.
 * A failure is a `pulumi.RunError` of one line.
 */
export function getSchemaDiff(args: GetSchemaDiffArgs): Promise<SchemaDiff> {
  return plainly(readSchemaDiff(args));
}

/** Arguments of a lookup's `…Output` variant: each argument may be a `pulumi.Input`. */
export type OutputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** {@link getProjects} for `pulumi.Input` arguments. */
export function getProjectsOutput(args: OutputArgs<GetProjectsArgs> = {}): pulumi.Output<ProjectInfo[]> {
  return lookupOutput("getProjects", args, readProjects);
}

/** {@link getOperations} for `pulumi.Input` arguments. */
export function getOperationsOutput(args: OutputArgs<GetOperationsArgs>): pulumi.Output<OperationInfo[]> {
  return lookupOutput("getOperations", args, readOperations);
}

/** {@link getCompute} for `pulumi.Input` arguments. */
export function getComputeOutput(args: OutputArgs<GetComputeArgs>): pulumi.Output<ComputeInfo> {
  return lookupOutput("getCompute", args, readCompute);
}

/** {@link getBranches} for `pulumi.Input` arguments. */
export function getBranchesOutput(args: OutputArgs<GetBranchesArgs>): pulumi.Output<BranchInfo[]> {
  return lookupOutput("getBranches", args, readBranches);
}

/** {@link getComputes} for `pulumi.Input` arguments. */
export function getComputesOutput(args: OutputArgs<GetComputesArgs>): pulumi.Output<ComputeInfo[]> {
  return lookupOutput("getComputes", args, readComputes);
}

/** {@link getSchemaDiff} for `pulumi.Input` arguments. */
export function getSchemaDiffOutput(args: OutputArgs<GetSchemaDiffArgs>): pulumi.Output<SchemaDiff> {
  return lookupOutput("getSchemaDiff", args, readSchemaDiff);
}

/** {@link getConnectionUri} for `pulumi.Input` arguments; the result is a secret. */
export function getConnectionUriOutput(args: OutputArgs<GetConnectionUriArgs>): pulumi.Output<ConnectionUri> {
  return pulumi.secret(lookupOutput("getConnectionUri", args, readConnectionUri));
}

/** {@link getRolePassword} for `pulumi.Input` arguments; the result is a secret. */
export function getRolePasswordOutput(args: OutputArgs<GetRolePasswordArgs>): pulumi.Output<RolePassword> {
  return pulumi.secret(lookupOutput("getRolePassword", args, readRolePassword));
}

/**
 * The lookups as the plugin's invokes call them: by name, failing with the service's or the argument
 * check's own error (not yet a `RunError`), in the client scope the caller set (`withLookupClient`).
 * @internal
 */
export const LOOKUP_CALLS: Readonly<Record<string, (args: never) => Promise<unknown>>> = {
  getProjects: readProjects,
  getOperations: readOperations,
  getCompute: readCompute,
  getComputes: readComputes,
  getBranches: readBranches,
  getConnectionUri: readConnectionUri,
  getRolePassword: readRolePassword,
  getSchemaDiff: readSchemaDiff,
};

/**
 * A lookup's `…Output` variant: `read` once every argument is known. Its `Output` never rejects (see
 * {@link failProgram}): a failure fails the program with one line and leaves the `Output` without a
 * value, what depends on it unregistered; at preview, a 404 about something this run may make, or that
 * is going away, is an unknown value with one warning instead ({@link unknownAtPreview}).
 * @internal
 */
export function lookupOutput<A, R>(
  name: string,
  args: OutputArgs<A>,
  read: (a: A) => Promise<R>,
  seams: LookupSeams = PROGRAM,
): pulumi.Output<R> {
  loadClientEarly(args);
  // The ids a resource of the program gave (an Output): what the stack holds, not typed by hand.
  const given = args as Record<string, unknown>;
  const fromProgram = (key: string) => pulumi.Output.isInstance(given?.[key]);
  return pulumi.output(args).apply(async (a): Promise<R> => {
    try {
      return await read(a as unknown as A);
    } catch (err) {
      const unknown = seams.isDryRun()
        ? await atPreview(name, a as Record<string, unknown>, err, fromProgram)
        : undefined;
      if (unknown) {
        seams.warn(unknown.warning);
        return pulumi.unknown as unknown as R;
      }
      seams.fail(asRunError(err));
      return never<R>();
    }
  }) as unknown as pulumi.Output<R>;
}

/** {@link unknownAtPreview} with the program's client; nothing it meets escapes (the error stands then). */
async function atPreview(
  name: string,
  args: Record<string, unknown>,
  err: unknown,
  fromProgram: (key: string) => boolean,
): Promise<PreviewUnknown | undefined> {
  try {
    return await unknownAtPreview(name, args, err, { api: lookupClient(), fromProgram });
  } catch {
    return undefined;
  }
}

/** A plain lookup's promise, its failure a one-line `RunError` ({@link asRunError}). */
function plainly<T>(p: Promise<T>): Promise<T> {
  return p.catch((err: unknown) => Promise.reject(asRunError(err)));
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
