/**
 * The dynamic face's classes (program side): a resource's `pulumi.dynamic.Resource` class, made from
 * its registry entry, and the provider object its states hold (the shim, `shim.ts`). The plugin's
 * classes share their seeding and options (`resources/classes.ts`).
 */
import * as pulumi from "@pulumi/pulumi";
import { DYNAMIC_MODULE, type ResourceDef } from "../resources/definition";
import { admitted, options, seeded, type ResourceClass } from "../resources/classes";
import type { ResourceKind } from "../resources/kit";
import { dynamicShim, entryShim } from "./shim";

/** The type token of a resource's dynamic class. */
export function dynamicTypeToken(def: ResourceDef): string {
  return `pulumi-nodejs:dynamic/${DYNAMIC_MODULE}:${def.name}`;
}

/** The package path of the one dynamic entry (`impl.ts`) every resource after 0.1.0 is loaded through. */
export const DYNAMIC_ENTRY = "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/dynamic/impl";

/**
 * The provider object Pulumi serializes into the state of each of the resource's dynamic resources: a
 * shim, which captures one or two strings and nothing else. Compute and ApiKey, released in 0.1.0,
 * keep the module and label their states hold (`ResourceKind.releasedDynamic`); every other resource
 * shares one object, which loads the package's one entry and finds the resource by its URN (one
 * serialization per program for all of them). The text must not change for an existing resource (a
 * test pins it): states hold it.
 */
export function dynamicProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  const released = kind.releasedDynamic;
  return released ? dynamicShim(released.label, released.module) : ENTRY_PROVIDER;
}

const ENTRY_PROVIDER = entryShim(DYNAMIC_ENTRY);

/** The dynamic resource class of a registry entry. */
export function dynamicClass<Args extends object, Outs>(
  kind: ResourceKind,
): ResourceClass<Args, Outs, pulumi.dynamic.Resource> {
  const def = kind.definition;
  const token = dynamicTypeToken(def);
  // One provider object per resource type (one for all after 0.1.0): it captures strings only.
  const provider = dynamicProvider(kind);
  class DynamicResource extends pulumi.dynamic.Resource {
    // Every dynamic resource has the engine type `pulumi-nodejs:dynamic:Resource`: the class tells them apart.
    static override isInstance(obj: unknown): obj is DynamicResource {
      return obj instanceof DynamicResource;
    }

    constructor(name: string, args: Args, opts?: pulumi.CustomResourceOptions) {
      const a = admitted(kind, args, opts);
      super(
        provider,
        name,
        // Lets the provider attribute its progress lines to this resource in `pulumi up`.
        { ...seeded(def, a.args), __urn: pulumi.createUrn(name, token, opts?.parent) },
        options(kind, opts, false),
        DYNAMIC_MODULE,
        def.name,
      );
      a.track(this);
    }
  }
  Object.defineProperty(DynamicResource, "name", { value: def.name });
  return DynamicResource as unknown as ResourceClass<Args, Outs, pulumi.dynamic.Resource>;
}
