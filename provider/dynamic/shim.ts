/**
 * The resource provider as Pulumi stores it (docs/decisions/0001).
 *
 * Pulumi serializes a dynamic resource's provider into the state of every resource and runs that
 * copy for `read` and `delete`. The shim therefore captures strings — a module path (and, for the
 * two resources of 0.1.0, the resource's name) — and nothing else (no client, no key, no schema); it loads the
 * implementation with `require` inside the provider process. The path is by package name, resolved
 * from the program's folder: the same string works on every machine that installed the package (in
 * this repository `npm run build:link` builds and links the package into node_modules).
 */
import type * as pulumi from "@pulumi/pulumi";

type Impl = Required<pulumi.dynamic.ResourceProvider>;

/** A provider whose every method loads `implModule` and calls the same method there. */
export function dynamicShim(resource: string, implModule: string): pulumi.dynamic.ResourceProvider {
  function loadImpl(): Impl {
    try {
      return require(implModule);
    } catch (err) {
      throw new Error(
        `Failed to load the ${resource} provider from ${implModule} (${(err as Error).message}). ` +
          "Install @neon-labs-unofficial/pulumi-neon-compute in the program's project (npm install), " +
          'or in a checkout of it run "npm run build:link" (which builds dist/ and links the package).',
      );
    }
  }
  return forwarding(loadImpl);
}

/**
 * The one provider of every resource released after 0.1.0: each method loads the package's one
 * dynamic entry (`entryModule`, see `impl.ts`) and calls the same method of the resource the request
 * is for, which the entry tells from the request's `__urn`. Their states name one module, which can
 * stay where it is however the package's folders change, and a program serializes this object once
 * for all of them (Pulumi keeps one text per provider object). Compute's and ApiKey's states name
 * their own modules, through {@link dynamicShim}.
 */
export function entryShim(entryModule: string): pulumi.dynamic.ResourceProvider {
  function entry(): Entry {
    try {
      return require(entryModule);
    } catch (err) {
      throw new Error(
        `Failed to load the Neon resources' provider from ${entryModule} (${(err as Error).message}). ` +
          "Install @neon-labs-unofficial/pulumi-neon-compute in the program's project (npm install), " +
          'or in a checkout of it run "npm run build:link" (which builds dist/ and links the package).',
      );
    }
  }
  return {
    configure: (req) => entry().configure(req),
    check: (olds, news) => entry().resourceOf(news).check(olds, news),
    diff: (id, olds, news) => entry().resourceOf(news).diff(id, olds, news),
    create: (inputs) => entry().resourceOf(inputs).create(inputs),
    read: (id, props) => entry().resourceOf(props).read(id, props),
    update: (id, olds, news) => entry().resourceOf(news).update(id, olds, news),
    delete: (id, props) => entry().resourceOf(props).delete(id, props),
  };
}

/** What the one dynamic entry (`impl.ts`) exports to the shim. */
interface Entry {
  configure: Impl["configure"];
  resourceOf(props: Record<string, unknown> | undefined): Impl;
}

/** Each method loads the implementation and calls its own (the parameter's name is part of states' text). */
function forwarding(loadImpl: () => Impl): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => loadImpl().configure(req),
    check: (olds, news) => loadImpl().check(olds, news),
    diff: (id, olds, news) => loadImpl().diff(id, olds, news),
    create: (inputs) => loadImpl().create(inputs),
    read: (id, props) => loadImpl().read(id, props),
    update: (id, olds, news) => loadImpl().update(id, olds, news),
    delete: (id, props) => loadImpl().delete(id, props),
  };
}
