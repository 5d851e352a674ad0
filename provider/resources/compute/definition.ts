/**
 * The definition of `Compute`: every input and output with its type, default, docs and what a
 * change does. The plugin schema and `docs/api/Compute.md` are generated from it, the key lists,
 * the diff's property lists and the input checks are derived from it, and the class's args/outputs
 * types are held equal to it at compile time. Dependency-free.
 */
import type { ResourceDef } from "../definition";
import { createOnlyFlag, createdAtOutput, fixedInput, importIdInput } from "../definition";

const SIZE = "0.25, 0.5, 1–16, or 18–56 in steps of 2";

/** What a program that sets a retired pooler setting is told. */
export const POOLER_RETIRED =
  "Neon retired the compute's pooler settings (2026-06-20): pooling is always available through the " +
  "`-pooler` host (getConnectionUri with `pooled: true`). Remove it; it is no longer sent.";

export const COMPUTE_DEFINITION = {
  name: "Compute",
  description:
    "A Neon compute endpoint: the Postgres server attached to a branch. Every change blocks until the " +
    "control plane's operations finish, so resources that depend on a compute only proceed once it is ready.",
  importId: { format: "<projectId>/<endpointId>", example: "shiny-wind-123456/ep-cool-sky-123456" },
  aliases: ["pulumi-nodejs:dynamic/neon:Compute"],
  properties: [
    {
      name: "endpointId",
      type: "string",
      stable: true,
      output: "always",
      description: "The endpoint id (`ep-…`).",
    },
    fixedInput(
      "projectId",
      "Project that holds the branch (`^[a-z0-9-]{1,60}$`). Changing it replaces the compute.",
    ),
    {
      name: "branchId",
      type: "string",
      input: "required",
      output: "always",
      change: "update",
      description:
        "Branch the compute is attached to (`br-…`). Changing it moves the compute in place; a branch holds " +
        "at most one `read_write` compute, so moving one onto a branch that has one fails.",
    },
    {
      name: "type",
      type: "string",
      enum: ["read_write", "read_only"],
      input: "optional",
      output: "always",
      default: "read_write",
      change: "replace",
      description:
        "`read_write` (the default; the branch's primary compute, one per branch) or `read_only` (a read " +
        "replica; any number per branch). Changing it replaces the compute, deleting the old one first.",
    },
    {
      name: "cu",
      type: "number",
      input: "optional",
      change: "restart",
      comparedThrough: ["minCu", "maxCu"],
      description:
        `Fixed size in compute units (1 CU = 1 vCPU + 4 GB RAM): ${SIZE}. ` +
        "Shorthand for `minCu = maxCu = cu`; do not combine with `minCu`/`maxCu`. Changing the size restarts " +
        "the compute and drops its connections.",
    },
    {
      name: "minCu",
      type: "number",
      input: "optional",
      output: "always",
      change: "restart",
      platformDefault: "the project's default size",
      description:
        "Lower autoscaling bound in CU (set together with `maxCu`). Autoscaling (min ≠ max) is offered up to " +
        "16 CU. Changing a bound restarts the compute and drops its connections.",
    },
    {
      name: "maxCu",
      type: "number",
      input: "optional",
      output: "always",
      change: "restart",
      platformDefault: "the project's default size",
      description: "Upper autoscaling bound in CU (set together with `minCu`); at least `minCu`.",
    },
    {
      name: "suspendTimeoutSeconds",
      type: "integer",
      input: "optional",
      output: "always",
      change: "update",
      platformDefault: "the project's setting (300 s unless changed)",
      description:
        "Seconds of inactivity before the compute scales to zero: `-1` never, `0` the platform default " +
        "(300 s), otherwise 60–604800.",
    },
    {
      name: "pgSettings",
      type: { map: "string" },
      input: "optional",
      output: "always",
      change: "update",
      description:
        'Postgres settings for this compute, as strings (e.g. `{ work_mem: "65536" }`). Removing a key removes it.',
    },
    {
      name: "poolerEnabled",
      type: "boolean",
      input: "optional",
      output: "optional",
      change: "none",
      description:
        "Retired: Neon removed the compute's pooler settings (sunset 2026-06-20); pooling is always " +
        "available through the compute's `-pooler` host. Kept so that stacks that set it keep working: " +
        "it is neither sent nor compared, and its output is the value given.",
      deprecated: POOLER_RETIRED,
    },
    {
      name: "poolerMode",
      type: "string",
      enum: ["transaction"],
      input: "optional",
      output: "optional",
      change: "none",
      description: "Retired with `poolerEnabled`: neither sent nor compared; its output is the value given.",
      deprecated: POOLER_RETIRED,
    },
    {
      name: "disabled",
      type: "boolean",
      input: "optional",
      output: "always",
      change: "update",
      platformDefault: "`false`",
      description: "`true` suspends the compute and refuses connections until set back to `false`.",
    },
    {
      name: "name",
      type: "string",
      input: "optional",
      output: "optional",
      change: "update",
      platformDefault: "derived from the resource's name and a hash of its URN",
      description:
        "Display name, 1–64 characters; unique per branch and type (a compute already carrying it is never adopted silently nor joined by a second one).",
    },
    {
      name: "provisioner",
      type: "string",
      enum: ["k8s-neonvm", "k8s-pod", "serverless-platform"],
      input: "optional",
      output: "always",
      change: "update",
      platformDefault: "the platform's",
      description:
        "`k8s-neonvm` (needed for autoscaling), `k8s-pod` or `serverless-platform`. Default: the platform's.",
    },
    {
      name: "regionId",
      type: "string",
      input: "optional",
      output: "always",
      change: "replace",
      platformDefault: "the project's region",
      description: "Region; only the project's own region is accepted. Changing it replaces the compute.",
    },
    {
      name: "restartTrigger",
      type: "string",
      input: "optional",
      output: "optional",
      change: "restart",
      description:
        "Any string; changing it restarts the compute if it is active (an idle compute has nothing to restart).",
    },
    createOnlyFlag(
      "adoptExistingPrimary",
      "`true` takes over the branch's existing read_write compute (every project's default branch has " +
        "one) instead of failing because the branch's one read_write slot is taken: the declared settings " +
        "are applied to it. When the branch has none, a compute is created as usual. `destroy` leaves an " +
        'adopted compute in place (it existed before the stack); only for `type: "read_write"`.',
    ),
    {
      name: "operationTimeoutSeconds",
      type: "number",
      input: "optional",
      output: "optional",
      change: "none",
      platformDefault: "`neon:operationTimeoutSeconds` (1200)",
      description:
        "Seconds this resource waits for the control plane's operations of one step (create, update, " +
        "delete) before failing; default `neon:operationTimeoutSeconds` (1200). Pulumi does not pass " +
        "`customTimeouts` to dynamic providers, so this input is how to set a per-resource deadline. " +
        "Changing it changes nothing on the compute.",
    },
    importIdInput(
      'Adopt an existing compute instead of creating one: `"<projectId>/<endpointId>"`. The other inputs ' +
        "must describe the compute as it is (the import changes nothing and fails naming any difference). " +
        "Once imported, deleting the resource deletes the compute (use `retainOnDelete` to keep it). " +
        "`pulumi import` does not work for dynamic resources; this input is the way to import.",
    ),
    {
      name: "host",
      type: "string",
      stable: true,
      output: "always",
      description: "Connection host name; a re-created compute gets a new one.",
    },
    {
      name: "proxyHost",
      type: "string",
      stable: true,
      output: "optional",
      description:
        "The host name of the region's connection proxy (deprecated by the API; absent when the service leaves it out).",
    },
    {
      name: "currentState",
      type: "string",
      output: "always",
      description: "`init`, `active` or `idle` when last read.",
    },
    {
      name: "pendingState",
      type: "string",
      output: "optional",
      description: "The state a transition under way leads to (`active` or `idle`), when last read.",
    },
    {
      name: "creationSource",
      type: "string",
      output: "always",
      description: "What created the compute, as the API reports it (e.g. `api`, `console`).",
    },
    createdAtOutput("always", "When the compute was created (ISO 8601 UTC)."),
    {
      name: "updatedAt",
      type: "string",
      output: "always",
      description: "When the compute was last changed (ISO 8601 UTC).",
    },
    {
      name: "lastActive",
      type: "string",
      output: "optional",
      description: "When the compute was last active (ISO 8601 UTC); absent before its first start.",
    },
    {
      name: "startedAt",
      type: "string",
      output: "optional",
      description: "When the compute last started, as the API reports it.",
    },
    {
      name: "suspendedAt",
      type: "string",
      output: "optional",
      description: "When the compute last suspended (scaled to zero), as the API reports it.",
    },
    {
      name: "computeReleaseVersion",
      type: "string",
      output: "optional",
      description: "The compute software release the compute runs, as the API reports it.",
    },
    {
      name: "adopted",
      type: "boolean",
      output: "optional",
      description:
        "`true` when this resource adopted the branch's existing read_write compute " +
        "(`adoptExistingPrimary`); `destroy` then leaves the compute in place.",
    },
    {
      name: "ramGb",
      type: "number",
      output: "always",
      description: "RAM in GB at the maximum size (4 GB per CU).",
    },
    {
      name: "lfcGb",
      type: "number",
      output: "always",
      description: "Local file cache in GB at the maximum size (75 % of RAM).",
    },
    {
      name: "maxConnections",
      type: "integer",
      output: "optional",
      description:
        "Postgres `max_connections` for fixed sizes up to 38 CU (not stated for autoscaling or larger sizes).",
    },
    {
      name: "tempDiskGiB",
      type: "number",
      output: "always",
      description: "Local temporary disk in GiB: the larger of 20 and 15 × the maximum size.",
    },
  ],
  notes: [
    "Replacements delete the old compute first (a branch holds one read_write compute), also when forced " +
      "with `--replace` or `replaceOnChanges`.",
    "A size change restarts the compute; `pulumi preview` warns about it.",
  ],
  examples: {
    title: "A read replica on a branch",
    yaml: [
      "resources:",
      "  replica:",
      "    type: neoncompute:index:Compute",
      "    properties:",
      "      projectId: shiny-wind-123456",
      "      branchId: br-small-sun-123456",
      "      type: read_only",
      "      cu: 0.5",
      "      suspendTimeoutSeconds: 300",
    ].join("\n"),
    typescript: [
      'import { plugin } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'const replica = new plugin.Compute("replica", {',
      '  projectId: "shiny-wind-123456",',
      '  branchId: "br-small-sun-123456",',
      '  type: "read_only",',
      "  cu: 0.5,",
      "  suspendTimeoutSeconds: 300,",
      "});",
      "export const host = replica.host;",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
