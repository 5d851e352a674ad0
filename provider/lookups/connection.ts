/**
 * What connects to a database, read from the service when it is needed: a role's password
 * (`reveal_password`) and a connection string (`connection_uri`). The lookups and the shipped command
 * `neon-connection-string` (provider/cli) make these reads with the client they are given; nothing here
 * loads Pulumi, and the client's module is loaded by the caller (a program that makes only resources
 * never loads it).
 */
import type { NeonClient } from "../api";
import { isNotFound } from "../http/errors";
import type * as roleCreate from "../resources/role/create";
import type { ConnectionUri, GetConnectionUriArgs, GetRolePasswordArgs, RolePassword } from "./shapes";

/** Refuses, before any request, an argument that is required and is not a non-empty string. */
export function requireStrings<A extends object>(
  fn: string,
  args: A,
  names: readonly (keyof A & string)[],
): void {
  for (const name of names) {
    const v = (args as Record<string, unknown> | undefined)?.[name];
    if (typeof v !== "string" || v === "") {
      throw new RangeError(
        `Failed to run ${fn}: ${name} is required (a string), got ${v === undefined ? "nothing" : JSON.stringify(v)}.`,
      );
    }
  }
}

/** The connection string getConnectionUri reads, a 404 told apart by reads of the branch. */
export async function readConnectionUri(api: NeonClient, args: GetConnectionUriArgs): Promise<ConnectionUri> {
  requireStrings("getConnectionUri", args, ["projectId", "databaseName", "roleName"]);
  const uri = await api.projects
    .connectionUri(args.projectId, {
      branchId: args.branchId,
      endpointId: args.computeId,
      databaseName: args.databaseName,
      roleName: args.roleName,
      pooled: args.pooled,
    })
    .catch(async (err: unknown) => {
      const remedy = isNotFound(err) ? await missingName(api, args) : undefined;
      throw remedy && isNotFound(err) ? err.withRemedy(remedy) : err;
    });
  return { uri };
}

/**
 * The password getRolePassword reads. The 412 of a project that does not store passwords is judged as
 * Role judges it (`revealed`: by the status and the project's `store_passwords`, never by the answer's
 * words), and fails saying why and what to do; a 404 names what the branch lacks, found by reads.
 */
export async function readRolePassword(api: NeonClient, args: GetRolePasswordArgs): Promise<RolePassword> {
  requireStrings("getRolePassword", args, ["projectId", "roleName"]);
  const branchId = args.branchId ?? (await defaultBranchId(api, args.projectId, "getRolePassword"));
  const ref = { projectId: args.projectId, branchId, name: args.roleName };
  // Role's module (and with it the client's) only when a password is read.
  const { revealed } = require("../resources/role/create") as typeof roleCreate;
  const password = await revealed(api, ref, undefined).catch(async (err: unknown) => {
    const remedy = isNotFound(err) ? await missingName(api, { ...args, branchId }) : undefined;
    throw remedy && isNotFound(err) ? err.withRemedy(remedy) : err;
  });
  if (password === undefined) {
    throw new Error(
      `Failed to read the password of role "${args.roleName}" of branch ${branchId}: project ${args.projectId} ` +
        "does not store role passwords (its store_passwords is false; the service answers 412), so a password " +
        "can only be reset, never read again. Rotate it (change the Role's passwordRotationTrigger) and use the " +
        "password that answer gives, or keep the databases in a project that stores passwords.",
    );
  }
  return { password };
}

/** The id of the project's default branch (what a lookup without `branchId` reads). */
export async function defaultBranchId(api: NeonClient, projectId: string, fn: string): Promise<string> {
  const id = (await api.branches.list(projectId)).find((b) => b.default)?.id;
  if (!id) throw new Error(`Failed to run ${fn}: project ${projectId} has no default branch; give branchId.`);
  return id;
}

/**
 * Which of a lookup's names the branch lacks, read from its databases and roles (never from the answer's
 * words); undefined when they are there or the branch cannot be read (the answer stands).
 */
async function missingName(
  api: NeonClient,
  args: { projectId: string; branchId?: string; databaseName?: string; roleName: string },
): Promise<string | undefined> {
  try {
    const branchId = args.branchId ?? (await api.branches.list(args.projectId)).find((b) => b.default)?.id;
    if (!branchId) return undefined;
    const [databases, roles] = await Promise.all([
      args.databaseName === undefined ? [] : api.databases.list(args.projectId, branchId),
      api.roles.list(args.projectId, branchId),
    ]);
    const names = (xs: { name: string }[]) => xs.map((x) => x.name).join(", ") || "none";
    if (args.databaseName !== undefined && !databases.some((d) => d.name === args.databaseName)) {
      return `databaseName "${args.databaseName}" is not a database of branch ${branchId} (its databases: ${names(databases)}).`;
    }
    if (!roles.some((r) => r.name === args.roleName)) {
      return `roleName "${args.roleName}" is not a role of branch ${branchId} (its roles: ${names(roles)}).`;
    }
    return undefined;
  } catch {
    return undefined;
  }
}
