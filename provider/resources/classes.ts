/**
 * What the program-side classes of both faces share: the dynamic resource class (`dynamic/class.ts`,
 * served by Pulumi's dynamic provider through the resource's shim) and the plugin class
 * (`plugin/class.ts`, served by `pulumi-resource-neoncompute`) both seed every output of the definition
 * so that it appears on the class, mark the definition's secret outputs, and apply the entry's class
 * options (admission, delete-before-replace). A resource folder writes only one line per face.
 */
import * as pulumi from "@pulumi/pulumi";
import { DYNAMIC_MODULE, PACKAGE, secretNames, type ResourceDef } from "./definition";
import type { ResourceKind } from "./kit";

/** The outputs of a resource as `Output` properties of its class. */
export type OutputProperties<O> = { readonly [K in keyof O]-?: pulumi.Output<O[K]> };

/** A resource class: `new Compute(name, args, opts)`, and `Compute.isInstance(x)` as in generated SDKs. */
export type ResourceClass<Args, Outs, Base extends pulumi.CustomResource> = {
  new (name: string, args: Args, opts?: pulumi.CustomResourceOptions): Base & OutputProperties<Outs>;
  /** True for an instance of this very class (not merely any resource). */
  isInstance(obj: unknown): obj is Base & OutputProperties<Outs>;
};

export { DYNAMIC_MODULE, PACKAGE };

/**
 * Every output of the definition, unset: seeded first so that each appears on the class.
 * @internal
 */
export function seeded(def: ResourceDef, args: object): Record<string, unknown> {
  const outputs = def.properties.filter((p) => p.output).map((p) => [p.name, undefined]);
  // A secret input (masking rules) is stored secret in the state's inputs too, given plain or not.
  const given: Record<string, unknown> = { ...args };
  for (const p of def.properties) {
    if (p.secret && p.input && given[p.name] !== undefined) given[p.name] = pulumi.secret(given[p.name]);
  }
  return { ...Object.fromEntries(outputs), ...given };
}

/** @internal */
export function admitted(kind: ResourceKind, args: object, opts: pulumi.CustomResourceOptions | undefined) {
  const admit = kind.classes?.admit;
  return admit
    ? admit(args as { projectId: pulumi.Input<string> }, opts)
    : { args, track: (_: pulumi.Resource) => undefined };
}

/** @internal */
export function options(
  kind: ResourceKind,
  opts: pulumi.CustomResourceOptions | undefined,
  aliases: boolean,
) {
  const def = kind.definition;
  const dbr = kind.classes?.deleteBeforeReplace;
  const secrets = secretNames(def.properties);
  return {
    ...opts,
    ...(aliases ? { aliases: [...def.aliases.map((type) => ({ type })), ...(opts?.aliases ?? [])] } : {}),
    ...(secrets.length > 0
      ? { additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] }
      : {}),
    ...(dbr ? { deleteBeforeReplace: opts?.deleteBeforeReplace ?? true } : {}),
  };
}
