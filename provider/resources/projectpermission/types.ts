// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `ProjectPermission`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link ProjectPermission}. */
export interface ProjectPermissionArgs {
  /** The project to share. Changing it grants access to the new project, then revokes it on this one. */
  projectId: pulumi.Input<string>;
  /**
   * The email address of the account given access (at most 256 characters), kept in lower case: the provider
   * compares addresses without regard to case. Changing it grants the new address first, then revokes the old
   * one.
   */
  email: pulumi.Input<string>;
  /**
   * Adopt an existing grant instead of creating one: `"<projectId>/<permissionId>"` (the permission ids are
   * listed by the API's project access list). `projectId` and `email` must describe the grant as it is. Read
   * at creation only: remove it before changing `projectId` or `email`. Deleting the resource revokes the
   * access.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link ProjectPermission}. */
export interface ProjectPermissionOutputs {
  /** The project to share. Changing it grants access to the new project, then revokes it on this one. */
  projectId: string;
  /**
   * The email address of the account given access (at most 256 characters), kept in lower case: the provider
   * compares addresses without regard to case. Changing it grants the new address first, then revokes the old
   * one.
   */
  email: string;
  /**
   * Adopt an existing grant instead of creating one: `"<projectId>/<permissionId>"` (the permission ids are
   * listed by the API's project access list). `projectId` and `email` must describe the grant as it is. Read
   * at creation only: remove it before changing `projectId` or `email`. Deleting the resource revokes the
   * access.
   */
  importId?: string;
  /** The grant's id, as the API's project access list names it. */
  permissionId: string;
  /** When the access was granted (ISO 8601 UTC). */
  grantedAt: string;
}

/** Inputs of a {@link ProjectPermission} after `check`: what its steps receive. */
export interface ProjectPermissionInputs {
  /** The project to share. Changing it grants access to the new project, then revokes it on this one. */
  projectId: string;
  /**
   * The email address of the account given access (at most 256 characters), kept in lower case: the provider
   * compares addresses without regard to case. Changing it grants the new address first, then revokes the old
   * one.
   */
  email: string;
  /**
   * Adopt an existing grant instead of creating one: `"<projectId>/<permissionId>"` (the permission ids are
   * listed by the API's project access list). `projectId` and `email` must describe the grant as it is. Read
   * at creation only: remove it before changing `projectId` or `email`. Deleting the resource revokes the
   * access.
   */
  importId?: string;
}
