// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `Role`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link Role}. */
export interface RoleArgs {
  /** The project. Changing it replaces the role (the old one is deleted first). */
  projectId: pulumi.Input<string>;
  /** The branch that holds the role. Changing it replaces the role (the old one is deleted first). */
  branchId: pulumi.Input<string>;
  /**
   * The role's name, 1–63 bytes, unique in the branch. Changing it replaces the role; a role that owns a
   * database is not replaced (the preview fails and says how to move its databases first).
   */
  name: pulumi.Input<string>;
  /** A role that cannot log in (no password). Changing it replaces the role. */
  noLogin?: pulumi.Input<boolean>;
  /**
   * Any string; a change resets the role's password through the service, waits until the reset has finished
   * and then reports the new `password`. The old password works until then.
   */
  passwordRotationTrigger?: pulumi.Input<string>;
  /**
   * `false` keeps the role's password out of the stack's state: the `password` output is absent (not secret:
   * absent), a refresh, `importId` or `adopt` never reads it, and a rotation is still made and waited for
   * (`pulumi import`, which cannot see this input, reads it; the next `up` drops it). Read the password when
   * it is needed with the `getRolePassword` or `getConnectionUri` lookup, or the `neon-connection-string`
   * command. Switching to `false` drops the stored password at the next `up` without resetting it (the
   * backend's earlier checkpoints still hold it, encrypted: change `passwordRotationTrigger` too if they
   * matter); switching back reads it once. Refused for a project that does not store passwords
   * (`store_passwords` off): there a password can be learnt only when it is reset. Default `true`.
   */
  passwordInState?: pulumi.Input<boolean>;
  /**
   * Manage the role of this name that already exists on the branch (the project's owner role, or one the
   * branch inherited from its parent) instead of creating it; destroy leaves it in place.
   */
  adopt?: pulumi.Input<boolean>;
  /**
   * Adopt an existing role instead of creating one: `"<projectId>/<branchId>/<roleName>"`. Deleting the
   * resource deletes the role (use `adopt` to leave it in place).
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link Role}. */
export interface RoleOutputs {
  /** The project. Changing it replaces the role (the old one is deleted first). */
  projectId: string;
  /** The branch that holds the role. Changing it replaces the role (the old one is deleted first). */
  branchId: string;
  /**
   * The role's name, 1–63 bytes, unique in the branch. Changing it replaces the role; a role that owns a
   * database is not replaced (the preview fails and says how to move its databases first).
   */
  name: string;
  /** A role that cannot log in (no password). Changing it replaces the role. */
  noLogin?: boolean;
  /**
   * Any string; a change resets the role's password through the service, waits until the reset has finished
   * and then reports the new `password`. The old password works until then.
   */
  passwordRotationTrigger?: string;
  /**
   * `false` keeps the role's password out of the stack's state: the `password` output is absent (not secret:
   * absent), a refresh, `importId` or `adopt` never reads it, and a rotation is still made and waited for
   * (`pulumi import`, which cannot see this input, reads it; the next `up` drops it). Read the password when
   * it is needed with the `getRolePassword` or `getConnectionUri` lookup, or the `neon-connection-string`
   * command. Switching to `false` drops the stored password at the next `up` without resetting it (the
   * backend's earlier checkpoints still hold it, encrypted: change `passwordRotationTrigger` too if they
   * matter); switching back reads it once. Refused for a project that does not store passwords
   * (`store_passwords` off): there a password can be learnt only when it is reset. Default `true`.
   */
  passwordInState?: boolean;
  /**
   * Manage the role of this name that already exists on the branch (the project's owner role, or one the
   * branch inherited from its parent) instead of creating it; destroy leaves it in place.
   */
  adopt?: boolean;
  /**
   * Adopt an existing role instead of creating one: `"<projectId>/<branchId>/<roleName>"`. Deleting the
   * resource deletes the role (use `adopt` to leave it in place).
   */
  importId?: string;
  /**
   * The role's password: stored encrypted in the state, shown as `[secret]`. Absent with `passwordInState:
   * false`, for a `noLogin` role, and for an adopted or imported role of a project that does not store
   * passwords (rotate it to get one).
   */
  password?: string;
  /** Whether the service manages the role itself (such roles cannot be deleted). */
  protected: boolean;
  /** When the role was created (ISO 8601 UTC). */
  createdAt?: string;
  /** `true` for a role taken over with `adopt` (destroy leaves it in place). */
  adopted?: boolean;
}

/** Inputs of a {@link Role} after `check`: what its steps receive. */
export interface RoleInputs {
  /** The project. Changing it replaces the role (the old one is deleted first). */
  projectId: string;
  /** The branch that holds the role. Changing it replaces the role (the old one is deleted first). */
  branchId: string;
  /**
   * The role's name, 1–63 bytes, unique in the branch. Changing it replaces the role; a role that owns a
   * database is not replaced (the preview fails and says how to move its databases first).
   */
  name: string;
  /** A role that cannot log in (no password). Changing it replaces the role. */
  noLogin?: boolean;
  /**
   * Any string; a change resets the role's password through the service, waits until the reset has finished
   * and then reports the new `password`. The old password works until then.
   */
  passwordRotationTrigger?: string;
  /**
   * `false` keeps the role's password out of the stack's state: the `password` output is absent (not secret:
   * absent), a refresh, `importId` or `adopt` never reads it, and a rotation is still made and waited for
   * (`pulumi import`, which cannot see this input, reads it; the next `up` drops it). Read the password when
   * it is needed with the `getRolePassword` or `getConnectionUri` lookup, or the `neon-connection-string`
   * command. Switching to `false` drops the stored password at the next `up` without resetting it (the
   * backend's earlier checkpoints still hold it, encrypted: change `passwordRotationTrigger` too if they
   * matter); switching back reads it once. Refused for a project that does not store passwords
   * (`store_passwords` off): there a password can be learnt only when it is reset. Default `true`.
   */
  passwordInState?: boolean;
  /**
   * Manage the role of this name that already exists on the branch (the project's owner role, or one the
   * branch inherited from its parent) instead of creating it; destroy leaves it in place.
   */
  adopt?: boolean;
  /**
   * Adopt an existing role instead of creating one: `"<projectId>/<branchId>/<roleName>"`. Deleting the
   * resource deletes the role (use `adopt` to leave it in place).
   */
  importId?: string;
}
