/**
 * The resource provider as Pulumi stores it (docs/decisions/0001).
 *
 * Pulumi serializes a dynamic resource's provider into the state of every resource and runs that
 * copy for `read` and `delete`. The shim therefore captures two strings — the resource's name and its
 * implementation's module path — and nothing else (no client, no key, no schema); it loads the
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
 * A provider whose every method loads the package's one dynamic entry (`entryModule`, see
 * `impl.ts`) and calls the same method of the resource named `resource` there. Resources released
 * after 0.1.0 use it: their states name one module, which can stay where it is however the package's
 * folders change. (Compute's and ApiKey's states name their own modules, through {@link dynamicShim}.)
 */
export function entryShim(resource: string, entryModule: string): pulumi.dynamic.ResourceProvider {
  function loadImpl(): Impl {
    let entry: { resource(name: string): Impl };
    try {
      entry = require(entryModule);
    } catch (err) {
      throw new Error(
        `Failed to load the ${resource} provider from ${entryModule} (${(err as Error).message}). ` +
          "Install @neon-labs-unofficial/pulumi-neon-compute in the program's project (npm install), " +
          'or in a checkout of it run "npm run build:link" (which builds dist/ and links the package).',
      );
    }
    return entry.resource(resource);
  }
  return forwarding(loadImpl);
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
