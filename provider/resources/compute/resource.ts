import * as pulumi from "@pulumi/pulumi";
import { admit } from "./admission";
import { computeProvider } from "./provider";
import { COMPUTE_API_OUTPUT_KEYS, COMPUTE_INPUT_KEYS } from "./keys";

/** The module and type of the resource's type token: `pulumi-nodejs:dynamic/neon:Compute`. */
export const COMPUTE_MODULE = "neon";
export const COMPUTE_TYPE = "Compute";
export const COMPUTE_TYPE_TOKEN = `pulumi-nodejs:dynamic/${COMPUTE_MODULE}:${COMPUTE_TYPE}`;

/** The keys seeded on every {@link Compute} so that each output appears on the class. */
export const COMPUTE_OUTPUT_KEYS: readonly string[] = [
  ...COMPUTE_API_OUTPUT_KEYS,
  ...COMPUTE_INPUT_KEYS.filter(
    (k) =>
      ![
        "projectId",
        "branchId",
        "type",
        "cu",
        "importId",
        "adoptExistingPrimary",
        "operationTimeoutSeconds",
      ].includes(k),
  ),
];

/** Inputs of a {@link Compute}. */
export interface ComputeArgs {
  /** Project that holds the branch (`^[a-z0-9-]{1,60}$`). Changing it replaces the compute. */
  projectId: pulumi.Input<string>;
  /**
   * Branch the compute is attached to (`br-…`). Changing it moves the compute in place; a branch holds
   * at most one `read_write` compute, so moving one onto a branch that has one fails.
   */
  branchId: pulumi.Input<string>;
  /**
   * `read_write` (the default; the branch's primary compute, one per branch) or `read_only` (a read
   * replica; any number per branch). Changing it replaces the compute, deleting the old one first.
   */
  type?: pulumi.Input<"read_write" | "read_only">;
  /**
   * Fixed size in compute units (1 CU = 1 vCPU + 4 GB RAM): 0.25, 0.5, 1–16, or 18–56 in steps of 2.
   * Shorthand for `minCu = maxCu = cu`; do not combine with `minCu`/`maxCu`. Changing the size restarts
   * the compute and drops its connections.
   */
  cu?: pulumi.Input<number>;
  /**
   * Lower autoscaling bound in CU (set together with `maxCu`). Autoscaling (min ≠ max) is offered up to
   * 16 CU. Changing a bound restarts the compute and drops its connections.
   */
  minCu?: pulumi.Input<number>;
  /** Upper autoscaling bound in CU (set together with `minCu`); at least `minCu`. */
  maxCu?: pulumi.Input<number>;
  /**
   * Seconds of inactivity before the compute scales to zero: `-1` never, `0` the platform default
   * (300 s), otherwise 60–604800.
   */
  suspendTimeoutSeconds?: pulumi.Input<number>;
  /** Postgres settings for this compute, as strings (e.g. `{ work_mem: "65536" }`). Removing a key removes it. */
  pgSettings?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Connection pooling on this compute (deprecated by the API in favour of the `-pooler` host). */
  poolerEnabled?: pulumi.Input<boolean>;
  /** Pooler mode; `transaction` is the only mode. */
  poolerMode?: pulumi.Input<"transaction">;
  /** `true` suspends the compute and refuses connections until set back to `false`. */
  disabled?: pulumi.Input<boolean>;
  /** Display name, 1–64 characters. */
  name?: pulumi.Input<string>;
  /** `k8s-neonvm` (needed for autoscaling), `k8s-pod` or `serverless-platform`. Default: the platform's. */
  provisioner?: pulumi.Input<"k8s-neonvm" | "k8s-pod" | "serverless-platform">;
  /** Region; only the project's own region is accepted. Changing it replaces the compute. */
  regionId?: pulumi.Input<string>;
  /** Any string; changing it restarts the compute if it is active (an idle compute has nothing to restart). */
  restartTrigger?: pulumi.Input<string>;
  /**
   * Adopt an existing compute instead of creating one: `"<projectId>/<endpointId>"`. The other inputs
   * must describe the compute as it is (the import changes nothing and fails naming any difference).
   * Once imported, deleting the resource deletes the compute (use `retainOnDelete` to keep it).
   * `pulumi import` does not work for dynamic resources; this input is the way to import.
   */
  importId?: pulumi.Input<string>;
  /**
   * `true` takes over the branch's existing read_write compute (every project's default branch has
   * one) instead of failing because the branch's one read_write slot is taken: the declared settings
   * are applied to it. When the branch has none, a compute is created as usual. `destroy` leaves an
   * adopted compute in place (it existed before the stack); only for `type: "read_write"`.
   */
  adoptExistingPrimary?: pulumi.Input<boolean>;
  /**
   * Seconds this resource waits for the control plane's operations of one step (create, update,
   * delete) before failing; default `neon:operationTimeoutSeconds` (1200). Pulumi does not pass
   * `customTimeouts` to dynamic providers, so this input is how to set a per-resource deadline.
   * Changing it changes nothing on the compute.
   */
  operationTimeoutSeconds?: pulumi.Input<number>;
}

/**
 * A Neon compute endpoint: the Postgres server attached to a branch.
 *
 * Every change blocks until the control plane's operations finish, so resources that depend on a
 * compute only proceed once it is ready. Credentials: stack config `neon:apiKey` (secret) and
 * `neon:apiUrl`, or the `NEON_API_KEY` / `NEON_API_URL` environment variables.
 */
export class Compute extends pulumi.dynamic.Resource {
  /** The endpoint id (`ep-…`). */
  declare readonly endpointId: pulumi.Output<string>;
  /** The project that holds the compute. */
  declare readonly projectId: pulumi.Output<string>;
  /** The branch the compute is attached to (`br-…`); a move changes it in place. */
  declare readonly branchId: pulumi.Output<string>;
  /** `read_write` (the branch's primary compute) or `read_only` (a read replica). */
  declare readonly type: pulumi.Output<"read_write" | "read_only">;
  /** Connection host name; a re-created compute gets a new one. */
  declare readonly host: pulumi.Output<string>;
  /** The host name of the region's connection proxy (deprecated by the API; absent when the service leaves it out). */
  declare readonly proxyHost: pulumi.Output<string | undefined>;
  /** `init`, `active` or `idle` when last read. */
  declare readonly currentState: pulumi.Output<string>;
  /** The state a transition under way leads to (`active` or `idle`), when last read. */
  declare readonly pendingState: pulumi.Output<string | undefined>;
  /** The region the compute runs in: always its project's. */
  declare readonly regionId: pulumi.Output<string>;
  /** Lower autoscaling bound in CU (equal to `maxCu` for a fixed size). */
  declare readonly minCu: pulumi.Output<number>;
  /** Upper autoscaling bound in CU (equal to `minCu` for a fixed size). */
  declare readonly maxCu: pulumi.Output<number>;
  /** Seconds of inactivity before the compute scales to zero (`-1` never, `0` the platform default). */
  declare readonly suspendTimeoutSeconds: pulumi.Output<number>;
  /** The compute's Postgres settings. */
  declare readonly pgSettings: pulumi.Output<Record<string, string>>;
  /** Whether connection pooling is on (deprecated by the API in favour of the `-pooler` host). */
  declare readonly poolerEnabled: pulumi.Output<boolean | undefined>;
  /** The pooler mode (`transaction`). */
  declare readonly poolerMode: pulumi.Output<string | undefined>;
  /** `true` while the compute is suspended and refuses connections. */
  declare readonly disabled: pulumi.Output<boolean>;
  /** The compute's display name (the declared one, or `<resource name>-<hash>`). */
  declare readonly name: pulumi.Output<string | undefined>;
  /** `k8s-neonvm`, `k8s-pod` or `serverless-platform`. */
  declare readonly provisioner: pulumi.Output<string>;
  /** The `restartTrigger` value the compute was last restarted for. */
  declare readonly restartTrigger: pulumi.Output<string | undefined>;
  /** What created the compute, as the API reports it (e.g. `api`, `console`). */
  declare readonly creationSource: pulumi.Output<string>;
  /** When the compute was created (ISO 8601 UTC). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the compute was last changed (ISO 8601 UTC). */
  declare readonly updatedAt: pulumi.Output<string>;
  /** When the compute was last active (ISO 8601 UTC); absent before its first start. */
  declare readonly lastActive: pulumi.Output<string | undefined>;
  /** When the compute last started, as the API reports it. */
  declare readonly startedAt: pulumi.Output<string | undefined>;
  /** When the compute last suspended (scaled to zero), as the API reports it. */
  declare readonly suspendedAt: pulumi.Output<string | undefined>;
  /** The compute software release the compute runs, as the API reports it. */
  declare readonly computeReleaseVersion: pulumi.Output<string | undefined>;
  /**
   * `true` when this resource adopted the branch's existing read_write compute
   * (`adoptExistingPrimary`); `destroy` then leaves the compute in place.
   */
  declare readonly adopted: pulumi.Output<boolean | undefined>;
  /** RAM in GB at the maximum size (4 GB per CU). */
  declare readonly ramGb: pulumi.Output<number>;
  /** Local file cache in GB at the maximum size (75 % of RAM). */
  declare readonly lfcGb: pulumi.Output<number>;
  /** Postgres `max_connections` for fixed sizes up to 38 CU (not stated for autoscaling or larger sizes). */
  declare readonly maxConnections: pulumi.Output<number | undefined>;
  /** Local temporary disk in GiB: the larger of 20 and 15 × the maximum size. */
  declare readonly tempDiskGiB: pulumi.Output<number>;

  constructor(name: string, args: ComputeArgs, opts?: pulumi.CustomResourceOptions) {
    // During `up`, a fair share of the engine's parallel steps per project (admission.ts).
    const admitted = admit(args, opts);
    super(
      computeProvider,
      name,
      {
        // Every output is seeded so that it appears on the class; given inputs take precedence.
        ...Object.fromEntries(COMPUTE_OUTPUT_KEYS.map((key) => [key, undefined])),
        ...admitted.args,
        // Lets the provider attribute its progress lines to this resource in `pulumi up`.
        __urn: pulumi.createUrn(name, COMPUTE_TYPE_TOKEN, opts?.parent),
      },
      // Replacements delete first, also when forced (`--replace`, `replaceOnChanges`), where the engine
      // does not ask diff: a branch holds one read_write compute (docs/decisions/0005).
      { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true },
      COMPUTE_MODULE,
      COMPUTE_TYPE,
    );
    admitted.track(this);
  }
}
