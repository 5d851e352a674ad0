/**
 * The definition of `Role`: every input and output with its type, docs and what a change does.
 * The plugin schema and `docs/api/Role.md` are generated from it, the key lists and input checks
 * derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ResourceDef } from "../definition";
import { createOnlyFlag, createdAtOutput, fixedInput, importIdInput, triggerInput } from "../definition";

export const ROLE_DEFINITION = {
  name: "Role",
  description:
    "A Postgres role of a branch, with its password as a secret output. Changing `passwordRotationTrigger` " +
    "resets the password through the service and reports the new one only when the reset has finished (the " +
    "old one works until then). Creating a role drops the open connections to the branch's computes. The " +
    "roles the service made (a project's owner role, the roles a branch inherits) are managed with `adopt` " +
    "or `importId`.",
  importId: {
    format: "<projectId>/<branchId>/<roleName>",
    example: "shiny-wind-123456/br-cool-sky-12345678/app",
  },
  aliases: ["pulumi-nodejs:dynamic/neon:Role"],
  properties: [
    fixedInput("projectId", "The project. Changing it replaces the role (the old one is deleted first)."),
    fixedInput(
      "branchId",
      "The branch that holds the role. Changing it replaces the role (the old one is deleted first).",
    ),
    fixedInput(
      "name",
      "The role's name, 1–63 bytes, unique in the branch. Changing it replaces the role; a role that owns a " +
        "database is not replaced (the preview fails and says how to move its databases first).",
    ),
    {
      name: "noLogin",
      type: "boolean",
      input: "optional",
      output: "optional",
      change: "replace",
      compare: "false-when-absent",
      description: "A role that cannot log in (no password). Changing it replaces the role.",
    },
    triggerInput(
      "passwordRotationTrigger",
      "update",
      "Any string; a change resets the role's password through the service, waits until the reset has " +
        "finished and then reports the new `password`. The old password works until then.",
    ),
    {
      name: "passwordInState",
      type: "boolean",
      input: "optional",
      output: "optional",
      change: "update",
      compare: "true-when-absent",
      description:
        "`false` keeps the role's password out of the stack's state: the `password` output is absent (not " +
        "secret: absent), a refresh, `importId` or `adopt` never reads it, and a rotation is still made and " +
        "waited for (`pulumi import`, which cannot see this input, reads it; the next `up` drops it). " +
        "Read the password when it is needed with the `getRolePassword` or `getConnectionUri` lookup, or the " +
        "`neon-connection-string` command. Switching to `false` drops the stored password at the next `up` " +
        "without resetting it (the backend's earlier checkpoints still hold it, encrypted: change " +
        "`passwordRotationTrigger` too if they matter); switching back reads it once. Refused for a project that does not store " +
        "passwords (`store_passwords` off): there a password can be learnt only when it is reset. Default `true`.",
    },
    createOnlyFlag(
      "adopt",
      "Manage the role of this name that already exists on the branch (the project's owner role, or one the " +
        "branch inherited from its parent) instead of creating it; destroy leaves it in place.",
    ),
    importIdInput(
      'Adopt an existing role instead of creating one: `"<projectId>/<branchId>/<roleName>"`. Deleting the ' +
        "resource deletes the role (use `adopt` to leave it in place).",
    ),
    {
      name: "password",
      type: "string",
      output: "optional",
      secret: true,
      description:
        "The role's password: stored encrypted in the state, shown as `[secret]`. Absent with `passwordInState: " +
        "false`, for a `noLogin` role, and for an adopted or imported role of a project that does not store " +
        "passwords (rotate it to get one).",
    },
    {
      name: "protected",
      type: "boolean",
      stable: true,
      output: "always",
      description: "Whether the service manages the role itself (such roles cannot be deleted).",
    },
    createdAtOutput("optional", "When the role was created (ISO 8601 UTC)."),
    {
      name: "adopted",
      type: "boolean",
      output: "optional",
      description: "`true` for a role taken over with `adopt` (destroy leaves it in place).",
    },
  ],
  notes: [
    "A replacement (another `projectId`, `branchId`, `name` or `noLogin`) deletes the old role first: role names are unique in a branch.",
    "The service refuses to delete a role that owns a database: delete the database (or give it another `ownerName`) first. Declaring the database with `ownerName: role.name` orders this for you.",
  ],
  examples: {
    title: "A role and its password",
    yaml: [
      "resources:",
      "  app:",
      "    type: neoncompute:index:Role",
      "    properties:",
      "      projectId: shiny-wind-123456",
      "      branchId: br-cool-sky-12345678",
      "      name: app",
      '      passwordRotationTrigger: "2026-11"',
      "outputs:",
      "  password: ${app.password}",
    ].join("\n"),
    typescript: [
      'import { Role } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'const app = new Role("app", {',
      '  projectId: "shiny-wind-123456",',
      '  branchId: "br-cool-sky-12345678",',
      '  name: "app",',
      '  passwordRotationTrigger: "2026-11", // change it to rotate the password',
      "});",
      "export const password = app.password; // a secret output",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
