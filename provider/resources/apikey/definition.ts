/**
 * The definition of `ApiKey`: every input and output with its type, docs and what a change does.
 * The plugin schema and `docs/api/ApiKey.md` are generated from it, the key lists and input checks
 * derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ResourceDef } from "../definition";
import { createdAtOutput, fixedInput, importIdInput } from "../definition";

export const APIKEY_DEFINITION = {
  name: "ApiKey",
  description:
    "A Neon API key: personal (no `orgId`/`projectId`), organization (`orgId`) or project-scoped " +
    "(`projectId`). Its `token` is a secret output, known only for keys this stack created. Any input " +
    "change replaces the key, creating the new key before revoking the old one, so resources that use " +
    "the token switch to the new one without an outage. Deleting the resource revokes the key.",
  importId: { format: "<keyId> (personal key) or <orgId>/<keyId>", example: "org-cool-breeze-12345678/4242" },
  aliases: ["pulumi-nodejs:dynamic/neon:ApiKey"],
  properties: [
    {
      name: "keyId",
      type: "integer",
      stable: true,
      output: "always",
      description: "The key's numeric id, as the API and console list it.",
    },
    {
      name: "token",
      type: "string",
      stable: true,
      output: "optional",
      secret: true,
      description:
        "The secret token, sent as `Authorization: Bearer <token>`. Stored encrypted in the state; absent " +
        "for an imported key (the service shows a token only when the key is created).",
    },
    fixedInput(
      "name",
      "The key's name (1–64 characters), as the console lists it. Names need not be unique. Changing it rotates the key.",
    ),
    {
      name: "orgId",
      type: "string",
      input: "optional",
      output: "optional",
      change: "replace",
      description:
        "Organization of an organization key (all projects of the organization, admin-level access; " +
        "created only with the personal key of an organization administrator). Without `orgId` and " +
        "`projectId` the key is a personal key of the provider key's owner. Changing it rotates the key.",
    },
    {
      name: "projectId",
      type: "string",
      input: "optional",
      output: "optional",
      change: "replace",
      description:
        "Project of a project-scoped key (member-level access to that one project; any organization member " +
        "may create one). The organization is found from the project when `orgId` is not given. Changing it " +
        "rotates the key.",
    },
    {
      name: "rotationTrigger",
      type: "string",
      input: "optional",
      output: "optional",
      change: "replace",
      description:
        "Any string; changing it rotates the key (a new key is created before the old one is revoked).",
    },
    importIdInput(
      'Adopt an existing key instead of creating one: `"<keyId>"` for a personal key, `"<orgId>/<keyId>"` for ' +
        "an organization or project-scoped key. `name` and `projectId` must describe the key as it is. The " +
        "service shows a token only at creation, so an imported key has no `token` output. Deleting the " +
        "resource revokes the key.",
    ),
    createdAtOutput("always", "When the key was created (ISO 8601 UTC)."),
    {
      name: "createdBy",
      type: "string",
      stable: true,
      output: "always",
      description: "Id of the user who created the key (the owner of the provider's API key at the time).",
    },
    {
      name: "lastUsedAt",
      type: "string",
      output: "optional",
      description: "When the key was last used, as of the last read (refresh); absent if never used.",
    },
    {
      name: "lastUsedFromAddr",
      type: "string",
      output: "optional",
      description:
        "The address the key was last used from, as of the last read (refresh); absent if never used.",
    },
  ],
  notes: [
    "A rotation creates the new key before revoking the old one (no `deleteBeforeReplace`).",
    "An imported key has no `token`: the service shows a token only when a key is created.",
  ],
  examples: {
    title: "A project-scoped key for CI, rotated on demand",
    yaml: [
      "resources:",
      "  ci:",
      "    type: neoncompute:index:ApiKey",
      "    properties:",
      "      name: ci",
      "      projectId: shiny-wind-123456",
      '      rotationTrigger: "2025-01"',
      "outputs:",
      "  token: ${ci.token}",
    ].join("\n"),
    typescript: [
      'import { plugin } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'const ci = new plugin.ApiKey("ci", { name: "ci", projectId: "shiny-wind-123456", rotationTrigger: "2025-01" });',
      "export const token = ci.token; // a secret output",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
