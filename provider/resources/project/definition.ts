/**
 * The definition of `Project`: every input and output with its type, docs and what a change does.
 * The plugin schema and `docs/api/Project.md` are generated from it, the key lists and input checks
 * derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ObjectTypeDef, ResourceDef } from "../definition";
import { autoNameInput, COMPUTE_SIZE_PROPERTIES, createdAtOutput, optionalField } from "../definition";

/** The compute settings a project gives each compute created in it. */
export const PROJECT_DEFAULT_COMPUTE_TYPE = {
  name: "ProjectDefaultCompute",
  description:
    "The settings a project gives each compute created in it that does not set its own (changed in place).",
  properties: [
    ...COMPUTE_SIZE_PROPERTIES,
    optionalField(
      "suspendTimeoutSeconds",
      "integer",
      "Seconds of inactivity before a compute suspends: `-1` never, `0` the service's default (300 s), " +
        "60–604800. A compute whose own `suspendTimeoutSeconds` is `0` follows this value.",
    ),
  ],
} as const satisfies ObjectTypeDef;

const CREATE_TIME =
  "Set when the project is created; a later change fails at preview (a project is never replaced: " +
  "its branches and databases would go with it).";

export const PROJECT_DEFINITION = {
  name: "Project",
  description:
    "A Neon project with its default branch, primary compute, owner role and database. A project is " +
    "**never replaced**: a change that would need a new project fails at preview and names the property. " +
    "A killed run or a lost answer is reconciled by the project's name (never a second, billed project). " +
    "Destroy deletes the project with every branch, compute and database in it.",
  importId: { format: "<projectId>", example: "shiny-wind-123456" },
  aliases: ["pulumi-nodejs:dynamic/neon:Project"],
  properties: [
    autoNameInput(
      "The project's name, 1–256 characters. Renamed in place. Without it the provider names the project " +
        "`<resource name>-<hash>`, so that a killed run's project is found again (names are not unique in Neon).",
    ),
    {
      name: "regionId",
      type: "string",
      stable: true,
      input: "optional",
      output: "always",
      change: "refused",
      compare: "kept-when-absent",
      platformDefault: "the service's default region",
      description: `The region, e.g. \`aws-us-east-2\`. ${CREATE_TIME}`,
    },
    {
      name: "pgVersion",
      type: "integer",
      stable: true,
      input: "optional",
      output: "always",
      change: "refused",
      compare: "kept-when-absent",
      platformDefault: "17",
      description: `The Postgres major version, 14–19 (19 is rolling out: the service accepts it only in the regions where it is enabled). ${CREATE_TIME}`,
    },
    {
      name: "defaultBranchName",
      type: "string",
      input: "optional",
      output: "optional",
      change: "refused",
      compare: "kept-when-absent",
      platformDefault: "`main`",
      description: `The name of the default branch at creation (rename it later with a \`Branch\` that has \`adoptDefault\`). ${CREATE_TIME}`,
    },
    {
      name: "databaseName",
      type: "string",
      input: "optional",
      output: "always",
      change: "refused",
      compare: "kept-when-absent",
      platformDefault: "`neondb`",
      description: `The database created with the project. ${CREATE_TIME}`,
    },
    {
      name: "roleName",
      type: "string",
      input: "optional",
      output: "always",
      change: "refused",
      compare: "kept-when-absent",
      platformDefault: "`<databaseName>_owner`",
      description: `The role that owns the database. ${CREATE_TIME}`,
    },
    {
      name: "orgId",
      type: "string",
      input: "optional",
      output: "optional",
      change: "refused",
      compare: "kept-when-absent",
      platformDefault: "the organization of an organization key; a personal project for a personal key",
      description: `The organization that owns the project (needed with a personal key for an organization project). ${CREATE_TIME}`,
    },
    {
      name: "historyRetentionSeconds",
      type: "integer",
      input: "optional",
      output: "always",
      change: "update",
      compare: "kept-when-absent",
      platformDefault: "86400 (one day)",
      description:
        "How far back the project's history is kept (point-in-time restore), 0–2592000 seconds. Changed in place.",
    },
    {
      name: "defaultCompute",
      type: { object: "ProjectDefaultCompute" },
      input: "optional",
      output: "optional",
      change: "update",
      compare: "nested",
      description:
        "The size and suspend timeout computes created in the project get unless they set their own. Changed in " +
        "place; computes that already exist keep their settings (except a suspend timeout of `0`, which follows it).",
    },
    {
      name: "passwordInState",
      type: "boolean",
      input: "optional",
      output: "optional",
      change: "update",
      compare: "true-when-absent",
      description:
        "`false` keeps the owner role's password out of the stack's state: the `connectionUri` output is absent " +
        "(not secret: absent) and a refresh or an `importId` never reads it (`pulumi import`, which cannot see " +
        "this input, does; the next `up` drops it). Read the connection string when it is " +
        "needed with the `getConnectionUri` lookup or the `neon-connection-string` command. Switching to `false` " +
        "drops the stored URI at the next `up` (the password is not reset); switching back reads it once. Refused " +
        "for an imported project that does not store passwords (`store_passwords` off). Default `true`.",
    },
    {
      name: "importId",
      type: "string",
      input: "optional",
      output: "optional",
      change: "create-only",
      compare: "kept-when-absent",
      description:
        "Adopt an existing project instead of creating one: its id. The declared inputs must describe it as it " +
        "is. Deleting the resource deletes the project.",
    },
    {
      name: "defaultBranchId",
      type: "string",
      stable: true,
      output: "always",
      description: "The id of the project's default branch.",
    },
    {
      name: "primaryComputeId",
      type: "string",
      output: "optional",
      description: "The id of the default branch's read_write compute.",
    },
    {
      name: "host",
      type: "string",
      output: "optional",
      description: "The host name of the default branch's read_write compute.",
    },
    {
      name: "connectionUri",
      type: "string",
      output: "optional",
      secret: true,
      description:
        "A `postgresql://` URI for `roleName` on `databaseName` through the primary compute. A secret: stored " +
        "encrypted, shown as `[secret]`. Absent with `passwordInState: false`.",
    },
    createdAtOutput("optional", "When the project was created (ISO 8601 UTC)."),
    {
      name: "onDelete",
      type: "string",
      output: "always",
      description:
        "What deleting this resource does (the project with all its branches, computes and databases), so that " +
        "`pulumi preview --diff` of a delete shows it.",
    },
  ],
  notes: [
    "Branches are `Branch` resources with `projectId: project.id`; the default branch is managed with a " +
      "`Branch` that sets `adoptDefault: true`.",
    "A change of `regionId`, `pgVersion`, `defaultBranchName`, `databaseName`, `roleName` or `orgId` is refused " +
      "at preview: to move, create a second `Project` beside this one, move the data, then remove this one.",
  ],
  examples: {
    title: "A project, a branch with its compute, and a read replica",
    yaml: [
      "resources:",
      "  app:",
      "    type: neoncompute:index:Project",
      "    properties:",
      "      regionId: aws-us-east-2",
      "      defaultCompute:",
      "        minCu: 0.25",
      "        maxCu: 1",
      "  dev:",
      "    type: neoncompute:index:Branch",
      "    properties:",
      "      projectId: ${app.id}",
      "      compute:",
      "        minCu: 0.25",
      "        maxCu: 0.5",
      "outputs:",
      "  projectId: ${app.id}",
      "  connectionUri: ${app.connectionUri}",
    ].join("\n"),
    typescript: [
      'import { Branch, Project } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'const app = new Project("app", { regionId: "aws-us-east-2", defaultCompute: { minCu: 0.25, maxCu: 1 } });',
      'const dev = new Branch("dev", { projectId: app.id, compute: { minCu: 0.25, maxCu: 0.5 } });',
      "export const connectionUri = app.connectionUri;",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
