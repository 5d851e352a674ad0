/**
 * The definition of `Database`: every input and output with its type, docs and what a change does.
 * The plugin schema and `docs/api/Database.md` are generated from it, the key lists and input checks
 * derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ResourceDef } from "../definition";
import { createOnlyFlag, createdAtOutput, fixedInput, importIdInput } from "../definition";

export const DATABASE_DEFINITION = {
  name: "Database",
  description:
    "A Postgres database of a branch. A rename or an owner change is made in place (the database keeps its " +
    "id and data); only another project or branch replaces it. A lost answer is reconciled by the name; a " +
    "name held by a database this stack did not create fails with the exact `importId`. The databases the " +
    "service made (a project's first database, the ones a branch inherits) are managed with `adopt` or " +
    "`importId`. Delete waits.",
  importId: {
    format: "<projectId>/<branchId>/<databaseName>",
    example: "shiny-wind-123456/br-cool-sky-12345678/app",
  },
  aliases: ["pulumi-nodejs:dynamic/neon:Database"],
  properties: [
    fixedInput(
      "projectId",
      "The project. Changing it replaces the database (its data is lost: the preview says so).",
    ),
    fixedInput(
      "branchId",
      "The branch that holds the database. Changing it replaces the database (its data is lost: the preview says so).",
    ),
    {
      name: "name",
      type: "string",
      input: "required",
      output: "always",
      change: "update",
      description:
        "The database's name, 1–63 bytes, unique in the branch. Renamed in place: id and data stay.",
    },
    {
      name: "ownerName",
      type: "string",
      input: "required",
      output: "always",
      change: "update",
      description:
        "The role that owns the database (a role of the same branch; `role.name` of a `Role` orders the two). " +
        "Changed in place.",
    },
    createOnlyFlag(
      "adopt",
      "Manage the database of this name that already exists on the branch (the project's first database, or " +
        "one the branch inherited) instead of creating it: the declared owner is applied; destroy leaves it in place.",
    ),
    importIdInput(
      'Adopt an existing database instead of creating one: `"<projectId>/<branchId>/<databaseName>"`; the ' +
        "declared inputs must describe it as it is. Deleting the resource deletes the database.",
    ),
    {
      name: "databaseId",
      type: "integer",
      stable: true,
      output: "always",
      description: "The service's id of the database: it stays the same through renames.",
    },
    createdAtOutput("optional", "When the database was created (ISO 8601 UTC)."),
    {
      name: "adopted",
      type: "boolean",
      output: "optional",
      description: "`true` for a database taken over with `adopt` (destroy leaves it in place).",
    },
  ],
  notes: [
    "The resource's id is the database's id, which a rename keeps; `pulumi import` takes `<projectId>/<branchId>/<databaseName>`.",
  ],
  examples: {
    title: "A database owned by a role",
    yaml: [
      "resources:",
      "  owner:",
      "    type: neoncompute:index:Role",
      "    properties: { projectId: shiny-wind-123456, branchId: br-cool-sky-12345678, name: app }",
      "  appdb:",
      "    type: neoncompute:index:Database",
      "    properties:",
      "      projectId: shiny-wind-123456",
      "      branchId: br-cool-sky-12345678",
      "      name: app",
      "      ownerName: ${owner.name}",
    ].join("\n"),
    typescript: [
      'import { Database, Role } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'const where = { projectId: "shiny-wind-123456", branchId: "br-cool-sky-12345678" };',
      'const owner = new Role("owner", { ...where, name: "app" });',
      'const appdb = new Database("appdb", { ...where, name: "app", ownerName: owner.name });',
    ].join("\n"),
  },
} as const satisfies ResourceDef;
