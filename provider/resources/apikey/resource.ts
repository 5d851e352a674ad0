import * as pulumi from "@pulumi/pulumi";
import { apiKeyProvider } from "./provider";
import { APIKEY_API_OUTPUT_KEYS, APIKEY_INPUT_KEYS, APIKEY_SECRET_OUTPUTS } from "./keys";

/** The module and type of the resource's type token: `pulumi-nodejs:dynamic/neon:ApiKey`. */
export const APIKEY_MODULE = "neon";
export const APIKEY_TYPE = "ApiKey";
export const APIKEY_TYPE_TOKEN = `pulumi-nodejs:dynamic/${APIKEY_MODULE}:${APIKEY_TYPE}`;

/** The keys seeded on every {@link ApiKey} so that each output appears on the class. */
export const APIKEY_OUTPUT_KEYS: readonly string[] = [
  ...APIKEY_API_OUTPUT_KEYS,
  ...APIKEY_INPUT_KEYS.filter((k) => !["name", "importId"].includes(k)),
];

/** Inputs of an {@link ApiKey}. */
export interface ApiKeyArgs {
  /** The key's name (1–64 characters), as the console lists it. Names need not be unique. Changing it rotates the key. */
  name: pulumi.Input<string>;
  /**
   * Organization of an organization key (all projects of the organization, admin-level access;
   * created only with the personal key of an organization administrator). Without `orgId` and
   * `projectId` the key is a personal key of the provider key's owner. Changing it rotates the key.
   */
  orgId?: pulumi.Input<string>;
  /**
   * Project of a project-scoped key (member-level access to that one project; any organization member
   * may create one). The organization is found from the project when `orgId` is not given. Changing it
   * rotates the key.
   */
  projectId?: pulumi.Input<string>;
  /** Any string; changing it rotates the key (a new key is created before the old one is revoked). */
  rotationTrigger?: pulumi.Input<string>;
  /**
   * Adopt an existing key instead of creating one: `"<keyId>"` for a personal key, `"<orgId>/<keyId>"` for
   * an organization or project-scoped key. `name` and `projectId` must describe the key as it is. The
   * service shows a token only at creation, so an imported key has no `token` output. Deleting the
   * resource revokes the key.
   */
  importId?: pulumi.Input<string>;
}

/**
 * A Neon API key: personal (no `orgId`/`projectId`), organization (`orgId`) or project-scoped
 * (`projectId`). Its `token` is a secret output, known only for keys this stack created.
 *
 * Any input change replaces the key, creating the new key before revoking the old one, so resources
 * that use the token switch to the new one without an outage. Deleting the resource revokes the key.
 * Credentials of the provider itself: stack config `neon:apiKey` (secret) and `neon:apiUrl`, or the
 * `NEON_API_KEY` / `NEON_API_URL` environment variables.
 */
export class ApiKey extends pulumi.dynamic.Resource {
  /** The key's numeric id, as the API and console list it. */
  declare readonly keyId: pulumi.Output<number>;
  /**
   * The secret token, sent as `Authorization: Bearer <token>`. Stored encrypted in the state; absent
   * for an imported key (the service shows a token only when the key is created).
   */
  declare readonly token: pulumi.Output<string | undefined>;
  /** The key's name. */
  declare readonly name: pulumi.Output<string>;
  /** The organization of an organization or project-scoped key; absent for a personal key. */
  declare readonly orgId: pulumi.Output<string | undefined>;
  /** The one project a project-scoped key may access; absent for other key types. */
  declare readonly projectId: pulumi.Output<string | undefined>;
  /** The value of `rotationTrigger` this key was created for. */
  declare readonly rotationTrigger: pulumi.Output<string | undefined>;
  /** When the key was created (ISO 8601 UTC). */
  declare readonly createdAt: pulumi.Output<string>;
  /** Id of the user who created the key (the owner of the provider's API key at the time). */
  declare readonly createdBy: pulumi.Output<string>;
  /** When the key was last used, as of the last read (refresh); absent if never used. */
  declare readonly lastUsedAt: pulumi.Output<string | undefined>;
  /** The address the key was last used from, as of the last read (refresh); absent if never used. */
  declare readonly lastUsedFromAddr: pulumi.Output<string | undefined>;

  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      apiKeyProvider,
      name,
      {
        // Every output is seeded so that it appears on the class; given inputs take precedence.
        ...Object.fromEntries(APIKEY_OUTPUT_KEYS.map((key) => [key, undefined])),
        ...args,
        // Lets the provider attribute its log lines to this resource in `pulumi up`.
        __urn: pulumi.createUrn(name, APIKEY_TYPE_TOKEN, opts?.parent),
      },
      // The token is stored encrypted; no deleteBeforeReplace, so a rotation creates the new key first.
      {
        ...opts,
        additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...APIKEY_SECRET_OUTPUTS],
      },
      APIKEY_MODULE,
      APIKEY_TYPE,
    );
  }
}
