/**
 * TypeScript classes over the plugin (`neoncompute:index:*` types): the same inputs and outputs as
 * the dynamic classes, served by `pulumi-resource-neoncompute` instead of the dynamic provider, so
 * `pulumi import`, explicit `Provider`s and `customTimeouts` work. The classes are made by the kit
 * from each resource's registry entry (`../resources/classes.ts`): output keys, secret outputs and
 * aliases (from the dynamic type tokens, so that a stack moves to the plugin without replacing
 * anything) are not written twice.
 *
 * Programs load these in their own process; they need the plugin on PATH (see the README).
 */
import * as pulumi from "@pulumi/pulumi";
import { PACKAGE } from "../resources/classes";
import type { BranchInfo, ComputeInfo, OperationInfo, ProjectInfo } from "../lookups/types";
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
  OutputArgs,
  RolePassword,
  SchemaDiff,
} from "../lookups";

// Every resource of the registry, generated (`npm run types:gen`).
export * from "./resources";

/** Arguments of an explicit {@link Provider}: one Neon account. */
export interface ProviderArgs {
  /** The API key (stored encrypted). Default: `neoncompute:apiKey`, else `NEON_API_KEY`. */
  apiKey?: pulumi.Input<string>;
  /**
   * The name of an environment variable holding the key, instead of `apiKey`: read by the plugin at
   * every preview, up, refresh and destroy, so the state keeps only the name.
   */
  apiKeyEnv?: pulumi.Input<string>;
  /** Base URL of the control API v2. Default: `neoncompute:apiUrl`, else `NEON_API_URL`, else Neon's. */
  apiUrl?: pulumi.Input<string>;
  /** Deadline in seconds of one wait on operations (default 1200). */
  operationTimeoutSeconds?: pulumi.Input<number>;
  /** How long one request may go unanswered, in seconds, before it is retried (default 30). */
  requestTimeoutSeconds?: pulumi.Input<number>;
}

/** An explicit provider: pass it as `provider` to resources and lookups to use another account. */
export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    const inputs = {
      ...args,
      apiKey: args.apiKey === undefined ? undefined : pulumi.secret(args.apiKey),
    };
    super(PACKAGE, name, inputs, opts);
  }
}

function invoke<T>(name: string, args: object, opts?: pulumi.InvokeOptions): Promise<T> {
  return pulumi.runtime.invoke(`${PACKAGE}:index:${name}`, args, opts) as unknown as Promise<T>;
}

/** The projects the API key can see (the plugin's `getProjects`). */
export async function getProjects(
  args: GetProjectsArgs = {},
  opts?: pulumi.InvokeOptions,
): Promise<ProjectInfo[]> {
  return (await invoke<{ projects: ProjectInfo[] }>("getProjects", args, opts)).projects;
}

/** A project's operations, newest first (the plugin's `getOperations`). */
export async function getOperations(
  args: GetOperationsArgs,
  opts?: pulumi.InvokeOptions,
): Promise<OperationInfo[]> {
  return (await invoke<{ operations: OperationInfo[] }>("getOperations", args, opts)).operations;
}

/** One compute (the plugin's `getCompute`). */
export function getCompute(args: GetComputeArgs, opts?: pulumi.InvokeOptions): Promise<ComputeInfo> {
  return invoke<ComputeInfo>("getCompute", args, opts);
}

/** The computes of a project or branch (the plugin's `getComputes`). */
export async function getComputes(
  args: GetComputesArgs,
  opts?: pulumi.InvokeOptions,
): Promise<ComputeInfo[]> {
  return (await invoke<{ computes: ComputeInfo[] }>("getComputes", args, opts)).computes;
}

/** The branches of a project with their annotations (the plugin's `getBranches`). */
export async function getBranches(args: GetBranchesArgs, opts?: pulumi.InvokeOptions): Promise<BranchInfo[]> {
  return (await invoke<{ branches: BranchInfo[] }>("getBranches", args, opts)).branches;
}

/** What a branch changed in a database's schema (the plugin's `getSchemaDiff`). */
export function getSchemaDiff(args: GetSchemaDiffArgs, opts?: pulumi.InvokeOptions): Promise<SchemaDiff> {
  return invoke<SchemaDiff>("getSchemaDiff", args, opts);
}

/** {@link getSchemaDiff} for `pulumi.Input` arguments. */
export function getSchemaDiffOutput(
  args: OutputArgs<GetSchemaDiffArgs>,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<SchemaDiff> {
  return pulumi.runtime.invokeOutput<SchemaDiff>(`${PACKAGE}:index:getSchemaDiff`, args, opts);
}

/**
 * The connection string of a role and database (the plugin's `getConnectionUri`). It carries the
 * role's password: prefer {@link getConnectionUriOutput}, whose result is a secret.
 */
export function getConnectionUri(
  args: GetConnectionUriArgs,
  opts?: pulumi.InvokeOptions,
): Promise<ConnectionUri> {
  return invoke<ConnectionUri>("getConnectionUri", args, opts);
}

/** {@link getConnectionUri} for `pulumi.Input` arguments; the result is a secret. */
export function getConnectionUriOutput(
  args: OutputArgs<GetConnectionUriArgs>,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<ConnectionUri> {
  return pulumi.secret(
    pulumi.runtime.invokeOutput<ConnectionUri>(`${PACKAGE}:index:getConnectionUri`, args, opts),
  );
}

/**
 * A role's password, read from the service now (the plugin's `getRolePassword`): prefer
 * {@link getRolePasswordOutput}, whose result is a secret.
 */
export function getRolePassword(
  args: GetRolePasswordArgs,
  opts?: pulumi.InvokeOptions,
): Promise<RolePassword> {
  return invoke<RolePassword>("getRolePassword", args, opts);
}

/** {@link getRolePassword} for `pulumi.Input` arguments; the result is a secret. */
export function getRolePasswordOutput(
  args: OutputArgs<GetRolePasswordArgs>,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<RolePassword> {
  return pulumi.secret(
    pulumi.runtime.invokeOutput<RolePassword>(`${PACKAGE}:index:getRolePassword`, args, opts),
  );
}
