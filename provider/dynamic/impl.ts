/**
 * The package's one dynamic entry: the module the shim of every resource released after 0.1.0 loads
 * inside Pulumi's dynamic provider process (`entryShim` in `shim.ts`), by its package path
 * `@neon-labs-unofficial/pulumi-neon-compute/dist/provider/dynamic/impl`. States name this path: it
 * stays. Compute's and ApiKey's states name `resources/compute/impl` and `resources/apikey/impl`,
 * which stay too (docs/decisions/0001).
 */
import type * as pulumi from "@pulumi/pulumi";
import { dynamicImpl } from "./host";

const made = new Map<string, Required<pulumi.dynamic.ResourceProvider>>();

/** The provider of the resource named `name` (`Branch`), as the dynamic host calls it. */
export function resource(name: string): Required<pulumi.dynamic.ResourceProvider> {
  let impl = made.get(name);
  if (!impl) {
    impl = dynamicImpl(name);
    made.set(name, impl);
  }
  return impl;
}
