// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `Compute`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link Compute}. */
export interface ComputeArgs {
  /** Project that holds the branch (`^[a-z0-9-]{1,60}$`). Changing it replaces the compute. */
  projectId: pulumi.Input<string>;
  /**
   * Branch the compute is attached to (`br-…`). Changing it moves the compute in place; a branch holds at
   * most one `read_write` compute, so moving one onto a branch that has one fails.
   */
  branchId: pulumi.Input<string>;
  /**
   * `read_write` (the default; the branch's primary compute, one per branch) or `read_only` (a read replica;
   * any number per branch). Changing it replaces the compute, deleting the old one first.
   */
  type?: pulumi.Input<"read_write" | "read_only">;
  /**
   * Fixed size in compute units (1 CU = 1 vCPU + 4 GB RAM): 0.25, 0.5, 1–16, or 18–56 in steps of 2.
   * Shorthand for `minCu = maxCu = cu`; do not combine with `minCu`/`maxCu`. Changing the size restarts the
   * compute and drops its connections.
   */
  cu?: pulumi.Input<number>;
  /**
   * Lower autoscaling bound in CU (set together with `maxCu`). Autoscaling (min ≠ max) is offered up to 16
   * CU. Changing a bound restarts the compute and drops its connections.
   */
  minCu?: pulumi.Input<number>;
  /** Upper autoscaling bound in CU (set together with `minCu`); at least `minCu`. */
  maxCu?: pulumi.Input<number>;
  /**
   * Seconds of inactivity before the compute scales to zero: `-1` never, `0` the platform default (300 s),
   * otherwise 60–604800.
   */
  suspendTimeoutSeconds?: pulumi.Input<number>;
  /**
   * Postgres settings for this compute, as strings (e.g. `{ work_mem: "65536" }`). Removing a key removes it.
   */
  pgSettings?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Retired: Neon removed the compute's pooler settings (sunset 2026-06-20); pooling is always available
   * through the compute's `-pooler` host. Kept so that stacks that set it keep working: it is neither sent
   * nor compared, and its output is the value given.
   * @deprecated Neon retired the compute's pooler settings (2026-06-20): pooling is always available through
   * the `-pooler` host (getConnectionUri with `pooled: true`). Remove it; it is no longer sent.
   */
  poolerEnabled?: pulumi.Input<boolean>;
  /**
   * Retired with `poolerEnabled`: neither sent nor compared; its output is the value given.
   * @deprecated Neon retired the compute's pooler settings (2026-06-20): pooling is always available through
   * the `-pooler` host (getConnectionUri with `pooled: true`). Remove it; it is no longer sent.
   */
  poolerMode?: pulumi.Input<"transaction">;
  /** `true` suspends the compute and refuses connections until set back to `false`. */
  disabled?: pulumi.Input<boolean>;
  /**
   * Display name, 1–64 characters; unique per branch and type (a compute already carrying it is never adopted
   * silently nor joined by a second one).
   */
  name?: pulumi.Input<string>;
  /** `k8s-neonvm` (needed for autoscaling), `k8s-pod` or `serverless-platform`. Default: the platform's. */
  provisioner?: pulumi.Input<"k8s-neonvm" | "k8s-pod" | "serverless-platform">;
  /** Region; only the project's own region is accepted. Changing it replaces the compute. */
  regionId?: pulumi.Input<string>;
  /**
   * Any string; changing it restarts the compute if it is active (an idle compute has nothing to restart).
   */
  restartTrigger?: pulumi.Input<string>;
  /**
   * `true` takes over the branch's existing read_write compute (every project's default branch has one)
   * instead of failing because the branch's one read_write slot is taken: the declared settings are applied
   * to it. When the branch has none, a compute is created as usual. `destroy` leaves an adopted compute in
   * place (it existed before the stack); only for `type: "read_write"`.
   */
  adoptExistingPrimary?: pulumi.Input<boolean>;
  /**
   * Seconds this resource waits for the control plane's operations of one step (create, update, delete)
   * before failing; default `neon:operationTimeoutSeconds` (1200). Pulumi does not pass `customTimeouts` to
   * dynamic providers, so this input is how to set a per-resource deadline. Changing it changes nothing on
   * the compute.
   */
  operationTimeoutSeconds?: pulumi.Input<number>;
  /**
   * Adopt an existing compute instead of creating one: `"<projectId>/<endpointId>"`. The other inputs must
   * describe the compute as it is (the import changes nothing and fails naming any difference). Once
   * imported, deleting the resource deletes the compute (use `retainOnDelete` to keep it). `pulumi import`
   * does not work for dynamic resources; this input is the way to import.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link Compute}. */
export interface ComputeOutputs {
  /** The endpoint id (`ep-…`). */
  endpointId: string;
  /** Project that holds the branch (`^[a-z0-9-]{1,60}$`). Changing it replaces the compute. */
  projectId: string;
  /**
   * Branch the compute is attached to (`br-…`). Changing it moves the compute in place; a branch holds at
   * most one `read_write` compute, so moving one onto a branch that has one fails.
   */
  branchId: string;
  /**
   * `read_write` (the default; the branch's primary compute, one per branch) or `read_only` (a read replica;
   * any number per branch). Changing it replaces the compute, deleting the old one first.
   */
  type: "read_write" | "read_only";
  /**
   * Lower autoscaling bound in CU (set together with `maxCu`). Autoscaling (min ≠ max) is offered up to 16
   * CU. Changing a bound restarts the compute and drops its connections.
   */
  minCu: number;
  /** Upper autoscaling bound in CU (set together with `minCu`); at least `minCu`. */
  maxCu: number;
  /**
   * Seconds of inactivity before the compute scales to zero: `-1` never, `0` the platform default (300 s),
   * otherwise 60–604800.
   */
  suspendTimeoutSeconds: number;
  /**
   * Postgres settings for this compute, as strings (e.g. `{ work_mem: "65536" }`). Removing a key removes it.
   */
  pgSettings: Record<string, string>;
  /**
   * Retired: Neon removed the compute's pooler settings (sunset 2026-06-20); pooling is always available
   * through the compute's `-pooler` host. Kept so that stacks that set it keep working: it is neither sent
   * nor compared, and its output is the value given.
   * @deprecated Neon retired the compute's pooler settings (2026-06-20): pooling is always available through
   * the `-pooler` host (getConnectionUri with `pooled: true`). Remove it; it is no longer sent.
   */
  poolerEnabled?: boolean;
  /**
   * Retired with `poolerEnabled`: neither sent nor compared; its output is the value given.
   * @deprecated Neon retired the compute's pooler settings (2026-06-20): pooling is always available through
   * the `-pooler` host (getConnectionUri with `pooled: true`). Remove it; it is no longer sent.
   */
  poolerMode?: "transaction";
  /** `true` suspends the compute and refuses connections until set back to `false`. */
  disabled: boolean;
  /**
   * Display name, 1–64 characters; unique per branch and type (a compute already carrying it is never adopted
   * silently nor joined by a second one).
   */
  name?: string;
  /** `k8s-neonvm` (needed for autoscaling), `k8s-pod` or `serverless-platform`. Default: the platform's. */
  provisioner: "k8s-neonvm" | "k8s-pod" | "serverless-platform";
  /** Region; only the project's own region is accepted. Changing it replaces the compute. */
  regionId: string;
  /**
   * Any string; changing it restarts the compute if it is active (an idle compute has nothing to restart).
   */
  restartTrigger?: string;
  /**
   * `true` takes over the branch's existing read_write compute (every project's default branch has one)
   * instead of failing because the branch's one read_write slot is taken: the declared settings are applied
   * to it. When the branch has none, a compute is created as usual. `destroy` leaves an adopted compute in
   * place (it existed before the stack); only for `type: "read_write"`.
   */
  adoptExistingPrimary?: boolean;
  /**
   * Seconds this resource waits for the control plane's operations of one step (create, update, delete)
   * before failing; default `neon:operationTimeoutSeconds` (1200). Pulumi does not pass `customTimeouts` to
   * dynamic providers, so this input is how to set a per-resource deadline. Changing it changes nothing on
   * the compute.
   */
  operationTimeoutSeconds?: number;
  /**
   * Adopt an existing compute instead of creating one: `"<projectId>/<endpointId>"`. The other inputs must
   * describe the compute as it is (the import changes nothing and fails naming any difference). Once
   * imported, deleting the resource deletes the compute (use `retainOnDelete` to keep it). `pulumi import`
   * does not work for dynamic resources; this input is the way to import.
   */
  importId?: string;
  /** Connection host name; a re-created compute gets a new one. */
  host: string;
  /**
   * The host name of the region's connection proxy (deprecated by the API; absent when the service leaves it
   * out).
   */
  proxyHost?: string;
  /** `init`, `active` or `idle` when last read. */
  currentState: string;
  /** The state a transition under way leads to (`active` or `idle`), when last read. */
  pendingState?: string;
  /** What created the compute, as the API reports it (e.g. `api`, `console`). */
  creationSource: string;
  /** When the compute was created (ISO 8601 UTC). */
  createdAt: string;
  /** When the compute was last changed (ISO 8601 UTC). */
  updatedAt: string;
  /** When the compute was last active (ISO 8601 UTC); absent before its first start. */
  lastActive?: string;
  /** When the compute last started, as the API reports it. */
  startedAt?: string;
  /** When the compute last suspended (scaled to zero), as the API reports it. */
  suspendedAt?: string;
  /** The compute software release the compute runs, as the API reports it. */
  computeReleaseVersion?: string;
  /**
   * `true` when this resource adopted the branch's existing read_write compute (`adoptExistingPrimary`);
   * `destroy` then leaves the compute in place.
   */
  adopted?: boolean;
  /** RAM in GB at the maximum size (4 GB per CU). */
  ramGb: number;
  /** Local file cache in GB at the maximum size (75 % of RAM). */
  lfcGb: number;
  /** Postgres `max_connections` for fixed sizes up to 38 CU (not stated for autoscaling or larger sizes). */
  maxConnections?: number;
  /** Local temporary disk in GiB: the larger of 20 and 15 × the maximum size. */
  tempDiskGiB: number;
}

/** Inputs of a {@link Compute} after `check`: what its steps receive. */
export interface ComputeInputs {
  /** Project that holds the branch (`^[a-z0-9-]{1,60}$`). Changing it replaces the compute. */
  projectId: string;
  /**
   * Branch the compute is attached to (`br-…`). Changing it moves the compute in place; a branch holds at
   * most one `read_write` compute, so moving one onto a branch that has one fails.
   */
  branchId: string;
  /**
   * `read_write` (the default; the branch's primary compute, one per branch) or `read_only` (a read replica;
   * any number per branch). Changing it replaces the compute, deleting the old one first.
   */
  type: "read_write" | "read_only";
  /**
   * Fixed size in compute units (1 CU = 1 vCPU + 4 GB RAM): 0.25, 0.5, 1–16, or 18–56 in steps of 2.
   * Shorthand for `minCu = maxCu = cu`; do not combine with `minCu`/`maxCu`. Changing the size restarts the
   * compute and drops its connections.
   */
  cu?: number;
  /**
   * Lower autoscaling bound in CU (set together with `maxCu`). Autoscaling (min ≠ max) is offered up to 16
   * CU. Changing a bound restarts the compute and drops its connections.
   */
  minCu?: number;
  /** Upper autoscaling bound in CU (set together with `minCu`); at least `minCu`. */
  maxCu?: number;
  /**
   * Seconds of inactivity before the compute scales to zero: `-1` never, `0` the platform default (300 s),
   * otherwise 60–604800.
   */
  suspendTimeoutSeconds?: number;
  /**
   * Postgres settings for this compute, as strings (e.g. `{ work_mem: "65536" }`). Removing a key removes it.
   */
  pgSettings?: Record<string, string>;
  /**
   * Retired: Neon removed the compute's pooler settings (sunset 2026-06-20); pooling is always available
   * through the compute's `-pooler` host. Kept so that stacks that set it keep working: it is neither sent
   * nor compared, and its output is the value given.
   * @deprecated Neon retired the compute's pooler settings (2026-06-20): pooling is always available through
   * the `-pooler` host (getConnectionUri with `pooled: true`). Remove it; it is no longer sent.
   */
  poolerEnabled?: boolean;
  /**
   * Retired with `poolerEnabled`: neither sent nor compared; its output is the value given.
   * @deprecated Neon retired the compute's pooler settings (2026-06-20): pooling is always available through
   * the `-pooler` host (getConnectionUri with `pooled: true`). Remove it; it is no longer sent.
   */
  poolerMode?: "transaction";
  /** `true` suspends the compute and refuses connections until set back to `false`. */
  disabled?: boolean;
  /**
   * Display name, 1–64 characters; unique per branch and type (a compute already carrying it is never adopted
   * silently nor joined by a second one).
   */
  name?: string;
  /** `k8s-neonvm` (needed for autoscaling), `k8s-pod` or `serverless-platform`. Default: the platform's. */
  provisioner?: "k8s-neonvm" | "k8s-pod" | "serverless-platform";
  /** Region; only the project's own region is accepted. Changing it replaces the compute. */
  regionId?: string;
  /**
   * Any string; changing it restarts the compute if it is active (an idle compute has nothing to restart).
   */
  restartTrigger?: string;
  /**
   * `true` takes over the branch's existing read_write compute (every project's default branch has one)
   * instead of failing because the branch's one read_write slot is taken: the declared settings are applied
   * to it. When the branch has none, a compute is created as usual. `destroy` leaves an adopted compute in
   * place (it existed before the stack); only for `type: "read_write"`.
   */
  adoptExistingPrimary?: boolean;
  /**
   * Seconds this resource waits for the control plane's operations of one step (create, update, delete)
   * before failing; default `neon:operationTimeoutSeconds` (1200). Pulumi does not pass `customTimeouts` to
   * dynamic providers, so this input is how to set a per-resource deadline. Changing it changes nothing on
   * the compute.
   */
  operationTimeoutSeconds?: number;
  /**
   * Adopt an existing compute instead of creating one: `"<projectId>/<endpointId>"`. The other inputs must
   * describe the compute as it is (the import changes nothing and fails naming any difference). Once
   * imported, deleting the resource deletes the compute (use `retainOnDelete` to keep it). `pulumi import`
   * does not work for dynamic resources; this input is the way to import.
   */
  importId?: string;
}
