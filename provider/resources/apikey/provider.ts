/**
 * The `ApiKey` resource provider as Pulumi stores it.
 *
 * Pulumi serializes this object into the state of every `ApiKey` resource and runs that copy for
 * `read` and `delete`. Like the `Compute` shim (docs/decisions/0001) it captures one string, the
 * implementation's module path, and loads the implementation with `require` inside the provider
 * process: no client, no key, no schema in state.
 */
import type * as pulumi from "@pulumi/pulumi";

type Impl = Required<pulumi.dynamic.ResourceProvider>;

// By package path, resolved from the program's folder inside the provider process: the same string
// works on every machine that installed the package.
const implModule = "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/apikey/impl";

function loadImpl(): Impl {
  try {
    return require(implModule);
  } catch (err) {
    throw new Error(
      `Failed to load the ApiKey provider from ${implModule} (${(err as Error).message}). ` +
        "Install @neon-labs-unofficial/pulumi-neon-compute in the program's project (npm install), " +
        'or in a checkout of it run "npm ci" (which builds dist/ and links the package).',
    );
  }
}

/** The single provider instance shared by every `ApiKey` resource. */
export const apiKeyProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => loadImpl().configure(req),
  check: (olds, news) => loadImpl().check(olds, news),
  diff: (id, olds, news) => loadImpl().diff(id, olds, news),
  create: (inputs) => loadImpl().create(inputs),
  read: (id, props) => loadImpl().read(id, props),
  update: (id, olds, news) => loadImpl().update(id, olds, news),
  delete: (id, props) => loadImpl().delete(id, props),
};
