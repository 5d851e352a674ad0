/**
 * The object types the lookups return (`ProjectInfo`, `OperationInfo`, …): their plugin schema types,
 * their docs and their TypeScript types are generated from these. Dependency-free.
 */
import type { ObjectTypeDef, PropertyDef } from "../resources/definition";

/** A string property of an object type (an output). */
export const stringProperty = (
  name: string,
  description: string,
  output: PropertyDef["output"] = "always",
): PropertyDef => ({
  name,
  type: "string",
  output,
  description,
});

const s = stringProperty;

export const PROJECT_TYPE: ObjectTypeDef = {
  name: "ProjectInfo",
  description: "A project as listed by the API.",
  properties: [
    s("id", "Project id."),
    s("name", "Project name."),
    s("regionId", "Region, e.g. `aws-us-east-2`."),
    s("orgId", "Organization that owns the project; absent for a personal project.", "optional"),
    { name: "pgVersion", type: "integer", output: "optional", description: "Postgres major version." },
    s("platformId", "Platform, e.g. `aws`.", "optional"),
    s("provisioner", "Default provisioner of the project's computes.", "optional"),
    s("proxyHost", "Proxy host name of the project's computes.", "optional"),
    s("createdAt", "When the project was created (ISO 8601 UTC)."),
    s("updatedAt", "When the project was last changed (ISO 8601 UTC)."),
  ],
};

export const OPERATION_TYPE: ObjectTypeDef = {
  name: "Operation",
  typescriptName: "OperationInfo",
  description: "A system operation.",
  properties: [
    s("id", "Operation id (UUID)."),
    s("projectId", "Project of the operation."),
    s("branchId", "Branch it concerns, when it concerns one.", "optional"),
    s("endpointId", "Compute it concerns, when it concerns one.", "optional"),
    s("action", "Kind, e.g. `start_compute`, `apply_config`."),
    s(
      "status",
      "`scheduling`, `running`, `finished`, `failed`, `error`, `cancelling`, `cancelled` or `skipped`.",
    ),
    {
      name: "failuresCount",
      type: "integer",
      output: "always",
      description: "Times it failed (a `failed` operation is retried).",
    },
    s("error", "The last error, when the API reports one.", "optional"),
    s("createdAt", "When it was created (ISO 8601 UTC)."),
    s("updatedAt", "When it last changed (ISO 8601 UTC)."),
    {
      name: "totalDurationMs",
      type: "integer",
      output: "optional",
      description: "Total duration in milliseconds, when reported.",
    },
  ],
};

/** A compute as a lookup returns it: `getCompute`'s result and the properties of `ComputeInfo`. */
export const COMPUTE_INFO_PROPERTIES: readonly PropertyDef[] = [
  s("endpointId", "Endpoint id (`ep-…`)."),
  s("projectId", "Project that holds it."),
  s("branchId", "Branch it is attached to."),
  s("type", "`read_write` (the branch's primary) or `read_only` (a read replica)."),
  s("host", "Connection host name."),
  s("regionId", "Region."),
  s("currentState", "`init`, `active` or `idle`."),
  s("pendingState", "The state a change under way leads to.", "optional"),
  { name: "minCu", type: "number", output: "always", description: "Lower autoscaling bound in CU." },
  {
    name: "maxCu",
    type: "number",
    output: "always",
    description: "Upper autoscaling bound in CU (equal to `minCu` for a fixed size).",
  },
  {
    name: "suspendTimeoutSeconds",
    type: "integer",
    output: "always",
    description: "Seconds of inactivity before it scales to zero (`-1` never, `0` the platform default).",
  },
  {
    name: "pgSettings",
    type: { map: "string" },
    output: "always",
    description: "Postgres settings of the compute.",
  },
  {
    name: "poolerEnabled",
    type: "boolean",
    output: "optional",
    description:
      "Whether connection pooling is on, as the service still reports it: a retired setting (pooling is " +
      "always available through the `-pooler` host), absent when the service leaves it out.",
    deprecated:
      "Neon retired the pooler settings (2026-06-20): use the `-pooler` host (getConnectionUri `pooled`).",
  },
  { name: "disabled", type: "boolean", output: "always", description: "Whether the compute is disabled." },
  s("name", "Display name, when it has one.", "optional"),
  s("provisioner", "Provisioner, e.g. `k8s-neonvm`."),
  s("createdAt", "When it was created (ISO 8601 UTC)."),
  s("updatedAt", "When it was last changed (ISO 8601 UTC)."),
  s("lastActive", "When it was last active, when known.", "optional"),
];

export const COMPUTE_INFO_TYPE: ObjectTypeDef = {
  name: "ComputeInfo",
  description: "A compute (endpoint) as a lookup returns it.",
  properties: COMPUTE_INFO_PROPERTIES,
};

export const BRANCH_INFO_TYPE: ObjectTypeDef = {
  name: "BranchInfo",
  description: "A branch as a lookup returns it, with its annotations.",
  properties: [
    s("branchId", "Branch id (`br-…`)."),
    s("projectId", "Project that holds it."),
    s("name", "Branch name."),
    s("parentId", "The branch it was made from; absent for the root branch.", "optional"),
    {
      name: "default",
      type: "boolean",
      output: "always",
      description: "Whether it is the project's default branch.",
    },
    { name: "protected", type: "boolean", output: "always", description: "Whether it is protected." },
    s("currentState", "`init`, `ready`, `resetting` or `archived`, when the service says.", "optional"),
    s("expiresAt", "When the service deletes it, when set (ISO 8601 UTC).", "optional"),
    s("createdAt", "When it was created (ISO 8601 UTC)."),
    {
      name: "annotations",
      type: { map: "string" },
      output: "always",
      description: "Its annotations (`{}` when none), the provider's own included.",
    },
    s(
      "stack",
      "The Pulumi stack that made it, as `<project>/<stack>`, when its annotations name one (a branch this package made).",
      "optional",
    ),
  ],
};

/** Every object type of the package. */
export const OBJECT_TYPES: readonly ObjectTypeDef[] = [
  PROJECT_TYPE,
  OPERATION_TYPE,
  COMPUTE_INFO_TYPE,
  BRANCH_INFO_TYPE,
];
