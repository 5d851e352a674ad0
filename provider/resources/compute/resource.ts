/**
 * `Compute`'s TypeScript face: its args and outputs types (generated from its definition into `types.ts`,
 * with the definition's docs) and its dynamic class, made from its registry entry; the plugin's class
 * is in `plugin.ts`.
 */
import { dynamicClass, dynamicTypeToken } from "../../dynamic/class";
import { outputNames } from "../definition";
import { COMPUTE_DEFINITION } from "./definition";
import { compute } from "./kind";
import type { ComputeArgs, ComputeOutputs } from "./types";

export type { ComputeArgs, ComputeOutputs } from "./types";

/** The type token of the dynamic class: `pulumi-nodejs:dynamic/neon:Compute`. */
export const COMPUTE_TYPE_TOKEN = dynamicTypeToken(COMPUTE_DEFINITION);

/** The keys seeded on every {@link Compute} so that each output appears on the class. */
export const COMPUTE_OUTPUT_KEYS: readonly string[] = outputNames(COMPUTE_DEFINITION.properties);

/**
 * A Neon compute endpoint: the Postgres server attached to a branch.
 *
 * Every change blocks until the control plane's operations finish, so resources that depend on a
 * compute only proceed once it is ready. Credentials: stack config `neon:apiKey` (secret) and
 * `neon:apiUrl`, or the `NEON_API_KEY` / `NEON_API_URL` environment variables.
 */
export const Compute = dynamicClass<ComputeArgs, ComputeOutputs>(compute);
export type Compute = InstanceType<typeof Compute>;
