/**
 * TypeScript classes over the plugin (`neoncompute:index:*` types): the same inputs and outputs as
 * the dynamic classes, served by `pulumi-resource-neoncompute` instead of the dynamic provider, so
 * `pulumi import`, explicit `Provider`s and `customTimeouts` work. Built from the definitions: the
 * output keys, secret outputs and aliases (from the dynamic type tokens, so that a stack moves to
 * the plugin without replacing anything) are not written twice.
 *
 * Programs load these in their own process; they need the plugin on PATH (see the README).
 */
import * as pulumi from "@pulumi/pulumi";
import type { ApiKey as DynamicApiKey, ApiKeyArgs } from "../resources/apikey/resource";
import { APIKEY_DEFINITION } from "../resources/apikey/definition";
import type { Compute as DynamicCompute, ComputeArgs } from "../resources/compute/resource";
import { admit } from "../resources/compute/admission";
import { COMPUTE_DEFINITION } from "../resources/compute/definition";
import type { ResourceDef } from "../resources/definition";
import type { ComputeInfo, OperationInfo, ProjectInfo } from "../lookups/types";
import type { GetComputeArgs, GetComputesArgs, GetOperationsArgs, GetProjectsArgs } from "../lookups";

const PACKAGE = "neoncompute";

function seeded(def: ResourceDef, args: object): Record<string, unknown> {
  const outputs = def.properties.filter((p) => p.output).map((p) => [p.name, undefined]);
  return { ...Object.fromEntries(outputs), ...args };
}

function options(
  def: ResourceDef,
  opts: pulumi.CustomResourceOptions | undefined,
): pulumi.CustomResourceOptions {
  const secrets = def.properties.filter((p) => p.secret).map((p) => p.name);
  return {
    ...opts,
    aliases: [...def.aliases.map((type) => ({ type })), ...(opts?.aliases ?? [])],
    additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets],
  };
}

/** The outputs of a class: its declared `Output` fields. */
type OutputsOf<T> = Omit<T, keyof pulumi.dynamic.Resource>;

/** A Neon compute endpoint, served by the plugin. Inputs and outputs: see `docs/api/Compute.md`. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the outputs are the dynamic class's
export interface Compute extends OutputsOf<DynamicCompute> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Compute extends pulumi.CustomResource {
  static readonly __pulumiType = `${PACKAGE}:index:Compute`;

  constructor(name: string, args: ComputeArgs, opts?: pulumi.CustomResourceOptions) {
    // As the dynamic class: a fair share of the engine's parallel steps per project during `up`.
    const admitted = admit(args, opts);
    super(Compute.__pulumiType, name, seeded(COMPUTE_DEFINITION, admitted.args), {
      ...options(COMPUTE_DEFINITION, opts),
      // As the dynamic class: replacements delete first, also when forced (docs/decisions/0005).
      deleteBeforeReplace: opts?.deleteBeforeReplace ?? true,
    });
    admitted.track(this);
  }
}

/** A Neon API key, served by the plugin. Inputs and outputs: see `docs/api/ApiKey.md`. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the outputs are the dynamic class's
export interface ApiKey extends OutputsOf<DynamicApiKey> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class ApiKey extends pulumi.CustomResource {
  static readonly __pulumiType = `${PACKAGE}:index:ApiKey`;

  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(ApiKey.__pulumiType, name, seeded(APIKEY_DEFINITION, args), options(APIKEY_DEFINITION, opts));
  }
}

/** Arguments of an explicit {@link Provider}: one Neon account. */
export interface ProviderArgs {
  /** The API key (stored encrypted). Default: `neoncompute:apiKey`, else `NEON_API_KEY`. */
  apiKey?: pulumi.Input<string>;
  /** Base URL of the control API v2. Default: `neoncompute:apiUrl`, else `NEON_API_URL`, else Neon's. */
  apiUrl?: pulumi.Input<string>;
  /** Deadline in seconds of one wait on operations (default 1200). */
  operationTimeoutSeconds?: pulumi.Input<number>;
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
