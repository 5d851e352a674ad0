/**
 * The definition of `ProjectPermission`: every input and output with its type, docs and what a change
 * does. The plugin schema and `docs/api/ProjectPermission.md` are generated from it, the key lists and
 * input checks derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ResourceDef } from "../definition";
import { fixedInput, importIdInput } from "../definition";

/** What a ProjectPermission is called in messages. */
export const PROJECT_PERMISSION_NOUN = "project access";

export const PROJECT_PERMISSION_DEFINITION = {
  name: "ProjectPermission",
  description:
    "Access to a project for another Neon account, by its email address (the console's project sharing). " +
    "A grant starts no operation: nothing waits for the project's lock. An address that already has access " +
    "through a grant no resource of the stack manages fails at preview with the exact `importId` (the service " +
    "does not record who made a grant: also one a killed run made, or one a resource renamed without an alias " +
    "holds). A change of " +
    "`projectId` or `email` grants the new access before the old one is revoked. Deleting the resource revokes " +
    "the access.",
  importId: {
    format: "<projectId>/<permissionId>",
    example: "shiny-wind-123456/9c8c2cbc-5b1b-4f29-9e6b-1b0d4b5c2d11",
  },
  aliases: ["pulumi-nodejs:dynamic/neon:ProjectPermission"],
  properties: [
    fixedInput(
      "projectId",
      "The project to share. Changing it grants access to the new project, then revokes it on this one.",
    ),
    fixedInput(
      "email",
      "The email address of the account given access (at most 256 characters), kept in lower case: the " +
        "provider compares addresses without regard to case. Changing it grants the new address first, then " +
        "revokes the old one.",
    ),
    importIdInput(
      'Adopt an existing grant instead of creating one: `"<projectId>/<permissionId>"` (the permission ids ' +
        "are listed by the API's project access list). `projectId` and `email` must describe the grant as " +
        "it is. Read at creation only: remove it before changing `projectId` or `email`. Deleting the resource " +
        "revokes the access.",
    ),
    {
      name: "permissionId",
      type: "string",
      stable: true,
      output: "always",
      description: "The grant's id, as the API's project access list names it.",
    },
    {
      name: "grantedAt",
      type: "string",
      stable: true,
      output: "always",
      description: "When the access was granted (ISO 8601 UTC).",
    },
  ],
  notes: [
    "The service keeps no mark of who made a grant: a grant a killed run made (its state lost) is found at " +
      "the next preview like anyone else's, with the `importId` that takes it over.",
  ],
  examples: {
    title: "Share a project with a teammate",
    yaml: [
      "resources:",
      "  reviewer:",
      "    type: neoncompute:index:ProjectPermission",
      "    properties:",
      "      projectId: shiny-wind-123456",
      "      email: reviewer@example.com",
      "outputs:",
      "  grantedAt: ${reviewer.grantedAt}",
    ].join("\n"),
    typescript: [
      'import { plugin } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'const reviewer = new plugin.ProjectPermission("reviewer", { projectId: "shiny-wind-123456", email: "reviewer@example.com" });',
      "export const grantedAt = reviewer.grantedAt;",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
