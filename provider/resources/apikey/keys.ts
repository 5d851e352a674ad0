/**
 * The property names of `ApiKey`, in one place. Dependency-free: the resource class (program
 * process) and the provider implementation both use it.
 */

/** Every input of `ApiKey`, in the order diffs and docs list them. */
export const APIKEY_INPUT_KEYS = ["name", "orgId", "projectId", "rotationTrigger", "importId"] as const;

/**
 * Inputs whose change replaces the key (a key cannot be edited). `importId` is not compared: it
 * only matters when the resource is created.
 */
export const APIKEY_REPLACE_PROPERTIES = ["name", "orgId", "projectId", "rotationTrigger"] as const;

/** Outputs read from the API, beyond the inputs echoed back. */
export const APIKEY_API_OUTPUT_KEYS = [
  "keyId",
  "token",
  "createdAt",
  "createdBy",
  "lastUsedAt",
  "lastUsedFromAddr",
] as const;

/** Outputs the engine stores encrypted (set through the `additionalSecretOutputs` resource option). */
export const APIKEY_SECRET_OUTPUTS = ["token"] as const;
