/**
 * The plugin face's classes (program side): a resource's `pulumi.CustomResource` class of type
 * `neoncompute:index:<Name>`, made from its registry entry and served by `pulumi-resource-neoncompute`.
 * The dynamic face's classes share their seeding and options (`resources/classes.ts`).
 */
import * as pulumi from "@pulumi/pulumi";
import { PACKAGE } from "../resources/definition";
import { admitted, options, seeded, type ResourceClass } from "../resources/classes";
import type { ResourceKind } from "../resources/kit";

/** The plugin class of a registry entry (type `neoncompute:index:<Name>`). */
export function pluginClass<Args extends object, Outs>(
  kind: ResourceKind,
): ResourceClass<Args, Outs, pulumi.CustomResource> {
  const def = kind.definition;
  class PluginResource extends pulumi.CustomResource {
    static readonly __pulumiType = `${PACKAGE}:index:${def.name}`;

    // As generated SDKs do: by type token, so that it holds across copies of the package.
    static override isInstance(obj: unknown): obj is PluginResource {
      return (
        typeof obj === "object" &&
        obj !== null &&
        (obj as { __pulumiType?: unknown }).__pulumiType === PluginResource.__pulumiType
      );
    }

    constructor(name: string, args: Args, opts?: pulumi.CustomResourceOptions) {
      const a = admitted(kind, args, opts);
      // Aliases from the dynamic type token: a stack moves to the plugin without replacing anything.
      super(PluginResource.__pulumiType, name, seeded(def, a.args), options(kind, opts, true));
      a.track(this);
    }
  }
  Object.defineProperty(PluginResource, "name", { value: def.name });
  return PluginResource as unknown as ResourceClass<Args, Outs, pulumi.CustomResource>;
}
