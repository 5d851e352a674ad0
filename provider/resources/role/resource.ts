/**
 * `Role`'s TypeScript face: its inputs and outputs as types, held equal to its definition at compile
 * time, and its dynamic class, made by the kit from its registry entry; the plugin's class is in `plugin.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { dynamicClass, dynamicTypeToken } from "../classes";
import { type Agree, type InputsAgree, type OutputName } from "../definition";
import { ROLE_DEFINITION } from "./definition";
import { role } from "./kind";

/** Inputs of a {@link Role}. */
export interface RoleArgs {
  /** The project. Changing it replaces the role. */
  projectId: pulumi.Input<string>;
  /** The branch that holds the role. Changing it replaces the role. */
  branchId: pulumi.Input<string>;
  /** The role's name, 1–63 bytes, unique in the branch. Changing it replaces the role. */
  name: pulumi.Input<string>;
  /** A role that cannot log in (no password). Changing it replaces the role. */
  noLogin?: pulumi.Input<boolean>;
  /** Any string; a change resets the password and reports the new one when the reset has finished. */
  passwordRotationTrigger?: pulumi.Input<string>;
  /** Manage the existing role of this name on the branch; destroy leaves it in place. */
  adopt?: pulumi.Input<boolean>;
  /** Adopt an existing role: `"<projectId>/<branchId>/<roleName>"`; destroy deletes it. */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link Role} (its id is `<projectId>/<branchId>/<name>`). */
export interface RoleOutputs {
  projectId: string;
  branchId: string;
  name: string;
  noLogin?: boolean;
  passwordRotationTrigger?: string;
  adopt?: boolean;
  importId?: string;
  /** The role's password (a secret output); absent for a `noLogin` role or when it cannot be read. */
  password?: string;
  /** Whether the service manages the role itself. */
  protected: boolean;
  /** When the role was created (ISO 8601 UTC). */
  createdAt?: string;
  /** `true` for a role taken over with `adopt`. */
  adopted?: boolean;
}

// Compile-time: the types above and the definition name the same inputs (and required ones) and outputs.
const argsAgree: InputsAgree<RoleArgs, typeof ROLE_DEFINITION> = true;
const outputsAgree: Agree<keyof RoleOutputs, OutputName<typeof ROLE_DEFINITION>> = true;
void argsAgree;
void outputsAgree;

/** The type token of the dynamic class: `pulumi-nodejs:dynamic/neon:Role`. */
export const ROLE_TYPE_TOKEN = dynamicTypeToken(ROLE_DEFINITION);

/** A Postgres role of a branch with its password as a secret output (a Pulumi dynamic resource); see `docs/api/Role.md`. */
export const Role = dynamicClass<RoleArgs, RoleOutputs>(role);
export type Role = InstanceType<typeof Role>;
