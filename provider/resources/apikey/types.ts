// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `ApiKey`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link ApiKey}. */
export interface ApiKeyArgs {
  /**
   * The key's name (1–64 characters), as the console lists it. Names need not be unique. Changing it rotates
   * the key.
   */
  name: pulumi.Input<string>;
  /**
   * Organization of an organization key (all projects of the organization, admin-level access; created only
   * with the personal key of an organization administrator). Without `orgId` and `projectId` the key is a
   * personal key of the provider key's owner. Changing it rotates the key.
   */
  orgId?: pulumi.Input<string>;
  /**
   * Project of a project-scoped key (member-level access to that one project; any organization member may
   * create one). The organization is found from the project when `orgId` is not given. Changing it rotates
   * the key.
   */
  projectId?: pulumi.Input<string>;
  /** Any string; changing it rotates the key (a new key is created before the old one is revoked). */
  rotationTrigger?: pulumi.Input<string>;
  /**
   * Adopt an existing key instead of creating one: `"<keyId>"` for a personal key, `"<orgId>/<keyId>"` for an
   * organization or project-scoped key. `name` and `projectId` must describe the key as it is. The service
   * shows a token only at creation, so an imported key has no `token` output. Deleting the resource revokes
   * the key.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link ApiKey}. */
export interface ApiKeyOutputs {
  /** The key's numeric id, as the API and console list it. */
  keyId: number;
  /**
   * The secret token, sent as `Authorization: Bearer <token>`. Stored encrypted in the state; absent for an
   * imported key (the service shows a token only when the key is created).
   */
  token?: string;
  /**
   * The key's name (1–64 characters), as the console lists it. Names need not be unique. Changing it rotates
   * the key.
   */
  name: string;
  /**
   * Organization of an organization key (all projects of the organization, admin-level access; created only
   * with the personal key of an organization administrator). Without `orgId` and `projectId` the key is a
   * personal key of the provider key's owner. Changing it rotates the key.
   */
  orgId?: string;
  /**
   * Project of a project-scoped key (member-level access to that one project; any organization member may
   * create one). The organization is found from the project when `orgId` is not given. Changing it rotates
   * the key.
   */
  projectId?: string;
  /** Any string; changing it rotates the key (a new key is created before the old one is revoked). */
  rotationTrigger?: string;
  /**
   * Adopt an existing key instead of creating one: `"<keyId>"` for a personal key, `"<orgId>/<keyId>"` for an
   * organization or project-scoped key. `name` and `projectId` must describe the key as it is. The service
   * shows a token only at creation, so an imported key has no `token` output. Deleting the resource revokes
   * the key.
   */
  importId?: string;
  /** When the key was created (ISO 8601 UTC). */
  createdAt: string;
  /** Id of the user who created the key (the owner of the provider's API key at the time). */
  createdBy: string;
  /** When the key was last used, as of the last read (refresh); absent if never used. */
  lastUsedAt?: string;
  /** The address the key was last used from, as of the last read (refresh); absent if never used. */
  lastUsedFromAddr?: string;
}

/** Inputs of a {@link ApiKey} after `check`: what its steps receive. */
export interface ApiKeyInputs {
  /**
   * The key's name (1–64 characters), as the console lists it. Names need not be unique. Changing it rotates
   * the key.
   */
  name: string;
  /**
   * Organization of an organization key (all projects of the organization, admin-level access; created only
   * with the personal key of an organization administrator). Without `orgId` and `projectId` the key is a
   * personal key of the provider key's owner. Changing it rotates the key.
   */
  orgId?: string;
  /**
   * Project of a project-scoped key (member-level access to that one project; any organization member may
   * create one). The organization is found from the project when `orgId` is not given. Changing it rotates
   * the key.
   */
  projectId?: string;
  /** Any string; changing it rotates the key (a new key is created before the old one is revoked). */
  rotationTrigger?: string;
  /**
   * Adopt an existing key instead of creating one: `"<keyId>"` for a personal key, `"<orgId>/<keyId>"` for an
   * organization or project-scoped key. `name` and `projectId` must describe the key as it is. The service
   * shows a token only at creation, so an imported key has no `token` output. Deleting the resource revokes
   * the key.
   */
  importId?: string;
}
