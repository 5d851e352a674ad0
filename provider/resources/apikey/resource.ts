/**
 * `ApiKey`'s TypeScript face: its args and outputs types (generated from its definition into `types.ts`,
 * with the definition's docs) and its dynamic class, made from its registry entry; the plugin's class
 * is in `plugin.ts`.
 */
import { dynamicClass, dynamicTypeToken } from "../../dynamic/class";
import { outputNames } from "../definition";
import { APIKEY_DEFINITION } from "./definition";
import { apiKey } from "./kind";
import type { ApiKeyArgs, ApiKeyOutputs } from "./types";

export type { ApiKeyArgs, ApiKeyOutputs } from "./types";

/** The type token of the dynamic class: `pulumi-nodejs:dynamic/neon:ApiKey`. */
export const APIKEY_TYPE_TOKEN = dynamicTypeToken(APIKEY_DEFINITION);

/** The keys seeded on every {@link ApiKey} so that each output appears on the class. */
export const APIKEY_OUTPUT_KEYS: readonly string[] = outputNames(APIKEY_DEFINITION.properties);

/**
 * A Neon API key: personal (no `orgId`/`projectId`), organization (`orgId`) or project-scoped
 * (`projectId`). Its `token` is a secret output, known only for keys this stack created.
 *
 * Any input change replaces the key, creating the new key before revoking the old one, so resources
 * that use the token switch to the new one without an outage. Deleting the resource revokes the key.
 * Credentials of the provider itself: stack config `neon:apiKey` (secret) and `neon:apiUrl`, or the
 * `NEON_API_KEY` / `NEON_API_URL` environment variables.
 */
export const ApiKey = dynamicClass<ApiKeyArgs, ApiKeyOutputs>(apiKey);
export type ApiKey = InstanceType<typeof ApiKey>;
