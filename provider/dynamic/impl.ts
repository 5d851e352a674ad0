/**
 * The package's one dynamic entry: the module the shim of every resource released after 0.1.0 loads
 * inside Pulumi's dynamic provider process (`entryShim` in `shim.ts`), by its package path
 * `@neon-labs-unofficial/pulumi-neon-compute/dist/provider/dynamic/impl`. States name this path: it
 * stays, and so do `configure` and `resourceOf`, which the shim calls. Compute's and ApiKey's states
 * name `resources/compute/impl` and `resources/apikey/impl`, which stay too (docs/decisions/0001).
 */
import type * as pulumi from "@pulumi/pulumi";
import { DYNAMIC_MODULE, UNKNOWN } from "../resources/definition";
import { configureProcess, dynamicImpl } from "./host";

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

/** The configure of the process, the same for every resource type (the process's one runtime). */
export const configure = configureProcess;

const TYPE_PREFIX = `pulumi-nodejs:dynamic/${DYNAMIC_MODULE}:`;

/**
 * The provider of the resource a request is for, by the type token in its `__urn`
 * (`urn:pulumi:<stack>::<project>::<parents' types>$pulumi-nodejs:dynamic/<module>:Branch::<name>`):
 * the program's inputs carry it, and the state's outputs keep it (`keepUrn` in `host.ts`).
 */
export function resourceOf(
  props: Record<string, unknown> | undefined,
): Required<pulumi.dynamic.ResourceProvider> {
  const urn = props?.__urn;
  // The engine asks the diff of what depends on a resource it replaces deleting first with the inputs
  // taken from that resource unknown: a child's `__urn` (made from its parent's URN) among them. The
  // state's outputs, which the diff and the update receive as olds, tell then.
  if (urn === UNKNOWN) return BY_OLDS;
  const type = typeof urn === "string" ? urn.split("::")[2]?.split("$").pop() : undefined;
  if (!type?.startsWith(TYPE_PREFIX)) {
    throw new Error(
      `Failed to tell which Neon resource this is: its properties have ${typeof urn === "string" ? `the URN ${urn}, not one of this package's types (${TYPE_PREFIX}<Resource>)` : "no __urn"}. ` +
        "A state of this package's resources keeps the URN in every resource's outputs: put `__urn` back " +
        "in the entry's outputs (`pulumi stack export`, edit, `pulumi stack import`), or remove the entry " +
        "with `pulumi state delete <urn>` and adopt the object again with the resource's importId input.",
    );
  }
  return resource(type.slice(TYPE_PREFIX.length));
}

/** The resource a request with an unknown `__urn` is for, from the state's outputs (its olds). */
const BY_OLDS: Required<pulumi.dynamic.ResourceProvider> = {
  configure: (req) => configure(req),
  check: (olds, news) => resourceOf(olds).check(olds, news),
  diff: (id, olds, news) => resourceOf(olds).diff(id, olds, { ...news, __urn: olds.__urn }),
  update: (id, olds, news) => resourceOf(olds).update(id, olds, { ...news, __urn: olds.__urn }),
  create: (inputs) => resourceOf(undefined).create(inputs),
  read: (id, props) => resourceOf(props).read(id, props),
  delete: (id, props) => resourceOf(props).delete(id, props),
};
