/**
 * The property names of `Compute`, in one place. Dependency-free: the resource class (program
 * process) and the provider implementation both use it.
 */

/** Every input of `Compute`, in the order diffs and docs list them. */
export const COMPUTE_INPUT_KEYS = [
  "projectId",
  "branchId",
  "type",
  "cu",
  "minCu",
  "maxCu",
  "suspendTimeoutSeconds",
  "pgSettings",
  "poolerEnabled",
  "poolerMode",
  "disabled",
  "name",
  "provisioner",
  "regionId",
  "restartTrigger",
  "adoptExistingPrimary",
  "operationTimeoutSeconds",
  "importId",
] as const;

/** Inputs whose change needs a new compute. */
export const REPLACE_PROPERTIES = ["projectId", "type", "regionId"] as const;

// `cu` is compared through minCu/maxCu (check resolves it); `importId` and `adoptExistingPrimary`
// only matter at create.
// `operationTimeoutSeconds` bounds the provider's own waits: changing it changes nothing on the compute.
const NOT_COMPARED: readonly string[] = ["cu", "importId", "adoptExistingPrimary", "operationTimeoutSeconds"];

/** Inputs changed in place with a PATCH (or, for restartTrigger, a restart call). */
export const UPDATE_PROPERTIES = COMPUTE_INPUT_KEYS.filter(
  (k) => !(REPLACE_PROPERTIES as readonly string[]).includes(k) && !NOT_COMPARED.includes(k),
);

/** Outputs read from the API, beyond the inputs echoed back. */
export const COMPUTE_API_OUTPUT_KEYS = [
  "endpointId",
  "host",
  "proxyHost",
  "currentState",
  "pendingState",
  "creationSource",
  "createdAt",
  "updatedAt",
  "lastActive",
  "startedAt",
  "suspendedAt",
  "computeReleaseVersion",
  "adopted",
  "ramGb",
  "lfcGb",
  "maxConnections",
  "tempDiskGiB",
] as const;
