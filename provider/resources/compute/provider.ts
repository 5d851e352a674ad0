/**
 * The `Compute` resource provider as Pulumi stores it: a shim that loads `impl.ts` (compiled to
 * `dist/`) inside the provider process (see `../shim.ts`).
 */
import { dynamicShim } from "../shim";

/** The single provider instance shared by every `Compute` resource. */
export const computeProvider = dynamicShim(
  "Compute",
  "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/compute/impl",
);
