/**
 * `ApiKey`'s TypeScript face: its inputs and outputs as types (with the docs editors show), held
 * equal to its definition at compile time, and its dynamic class, made by the kit from its registry
 * entry (`../classes.ts`); the plugin's class is in `plugin.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { dynamicClass, dynamicTypeToken } from "../classes";
import { outputNames, type Agree, type InputsAgree, type OutputName } from "../definition";
import { APIKEY_DEFINITION } from "./definition";
import { apiKey } from "./kind";

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

/** Outputs of a {@link ApiKey}. */
export interface ApiKeyOutputs {
  /** The key's numeric id, as the API and console list it. */
  keyId: number;
  /**
   * The secret token, sent as `Authorization: Bearer <token>`. Stored encrypted in the state; absent
   * for an imported key (the service shows a token only when the key is created).
   */
  token?: string;
  /** The key's name. */
  name: string;
  /** The organization of an organization or project-scoped key; absent for a personal key. */
  orgId?: string;
  /** The one project a project-scoped key may access; absent for other key types. */
  projectId?: string;
  /** The value of `rotationTrigger` this key was created for. */
  rotationTrigger?: string;
  /** When the key was created (ISO 8601 UTC). */
  createdAt: string;
  /** Id of the user who created the key (the owner of the provider's API key at the time). */
  createdBy: string;
  /** When the key was last used, as of the last read (refresh); absent if never used. */
  lastUsedAt?: string;
  /** The address the key was last used from, as of the last read (refresh); absent if never used. */
  lastUsedFromAddr?: string;
  /** The `importId` input, as given. */
  importId?: string;
}

// Compile-time: the types above and the definition name the same inputs (and required ones) and outputs.
const argsAgree: InputsAgree<ApiKeyArgs, typeof APIKEY_DEFINITION> = true;
const outputsAgree: Agree<keyof ApiKeyOutputs, OutputName<typeof APIKEY_DEFINITION>> = true;
void argsAgree;
void outputsAgree;

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
