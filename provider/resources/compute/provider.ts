/**
 * The `Compute` resource provider as Pulumi stores it.
 *
 * Pulumi serializes this object into the state of every `Compute` resource
 * and runs that copy for `read` and `delete`. It is therefore a thin shim:
 * it captures two strings and nothing else (no client, no key, no zod
 * schema), and loads the real implementation (`impl.ts`, compiled to
 * `dist/`) with `require` inside the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as path from "path";

type Impl = Required<pulumi.dynamic.ResourceProvider>;

// The implementation as installed from npm (the path real users get), then the compiled
// file of this checkout (a source checkout, where the package is not in node_modules).
const packageImpl = "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/compute/impl";
const checkoutImpl = __filename.endsWith(".ts")
  ? path.resolve(__dirname, "../../../dist/provider/resources/compute/impl.js")
  : path.join(__dirname, "impl.js");

function loadImpl(): Impl {
  try {
    return require(packageImpl);
  } catch (first) {
    try {
      return require(checkoutImpl);
    } catch {
      throw new Error(
        `Failed to load the Compute provider: neither ${packageImpl} nor ${checkoutImpl} could be loaded ` +
          `(${(first as Error).message}). Install the package, or run "npm run build" in the checkout.`,
      );
    }
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
