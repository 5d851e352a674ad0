/**
 * The `Compute` resource provider as Pulumi stores it.
 *
 * Pulumi serializes this object into the state of every `Compute` resource
 * and runs that copy for `read` and `delete`. It is therefore a thin shim:
 * it captures one string and nothing else (no client, no key, no zod
 * schema), and loads the real implementation (`impl.ts`, compiled to
 * `dist/`) with `require` inside the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";

type Impl = Required<pulumi.dynamic.ResourceProvider>;

// The implementation by package path, resolved from the program's folder inside the provider
// process: the same string works on every machine that installed the package (no local paths
// in state). In this repository `npm run build:link` builds and links the package into node_modules (scripts/link-self.js).
const implModule = "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/compute/impl";

function loadImpl(): Impl {
  try {
    return require(implModule);
  } catch (err) {
    throw new Error(
      `Failed to load the Compute provider from ${implModule} (${(err as Error).message}). ` +
        "Install @neon-labs-unofficial/pulumi-neon-compute in the program's project (npm install), " +
        'or in a checkout of it run "npm run build:link" (which builds dist/ and links the package).',
    );
  }
}

/** The single provider instance shared by every `Compute` resource. */
export const computeProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => loadImpl().configure(req),
  check: (olds, news) => loadImpl().check(olds, news),
  diff: (id, olds, news) => loadImpl().diff(id, olds, news),
  create: (inputs) => loadImpl().create(inputs),
  read: (id, props) => loadImpl().read(id, props),
  update: (id, olds, news) => loadImpl().update(id, olds, news),
  delete: (id, props) => loadImpl().delete(id, props),
};
