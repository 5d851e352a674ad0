/**
 * The definitions of the lookups. The plugin schema (functions `<pkg>:index:getProjects` …) and
 * `docs/api/lookups.md` are generated from them, with the object types they return
 * (`object-types.ts`); so are their TypeScript types (`shapes.ts`). Dependency-free.
 */
import type { LookupDef, PropertyDef } from "../resources/definition";
import { COMPUTE_INFO_PROPERTIES } from "./object-types";
export {
  OBJECT_TYPES,
  PROJECT_TYPE,
  OPERATION_TYPE,
  COMPUTE_INFO_TYPE,
  BRANCH_INFO_TYPE,
} from "./object-types";

const arg = (
  name: string,
  type: PropertyDef["type"],
  input: "required" | "optional",
  description: string,
): PropertyDef => ({ name, type, input, description });

export const GET_PROJECTS: LookupDef = {
  name: "getProjects",
  description:
    "The projects the API key can see, in the service's order, following the cursor up to `limit`.",
  args: [
    arg(
      "orgId",
      "string",
      "optional",
      "Only projects of this organization (a personal key needs it to list an organization's projects).",
    ),
    arg("search", "string", "optional", "Partial match on the project's name or id."),
    { ...arg("limit", "integer", "optional", "At most this many projects (default 100)."), default: 100 },
  ],
  result: [
    { name: "projects", type: { arrayOf: "ProjectInfo" }, output: "always", description: "The projects." },
  ],
  wraps: "projects",
  examples: {
    yaml: [
      "variables:",
      "  projects:",
      "    fn::invoke:",
      "      function: neoncompute:index:getProjects",
      "      arguments: { limit: 10 }",
      "      return: projects",
    ].join("\n"),
    typescript: "const projects = await getProjects({ limit: 10 });",
  },
};

export const GET_OPERATIONS: LookupDef = {
  name: "getOperations",
  description:
    "A project's operations, newest first as the service returns them, following the cursor page by page " +
    "until `limit` operations (of `endpointId`, when given) are found or the history ends.",
  args: [
    arg("projectId", "string", "required", "Project whose operations to list."),
    arg("endpointId", "string", "optional", "Only operations of this compute (`ep-…`)."),
    arg(
      "limit",
      "integer",
      "required",
      "At most this many operations (required: a project's history can be long).",
    ),
    arg(
      "pageSize",
      "integer",
      "optional",
      "Operations per request (default: `limit`, at most 100; the service serves up to 1000).",
    ),
  ],
  result: [
    { name: "operations", type: { arrayOf: "Operation" }, output: "always", description: "The operations." },
  ],
  wraps: "operations",
  examples: {
    yaml: [
      "variables:",
      "  recent:",
      "    fn::invoke:",
      "      function: neoncompute:index:getOperations",
      "      arguments: { projectId: shiny-wind-123456, limit: 20 }",
      "      return: operations",
    ].join("\n"),
    typescript: 'const recent = await getOperations({ projectId: "shiny-wind-123456", limit: 20 });',
  },
};

export const GET_COMPUTE: LookupDef = {
  name: "getCompute",
  description: "One compute; fails (HTTP 404) when it does not exist or the key cannot see it.",
  args: [
    arg("projectId", "string", "required", "Project that holds the compute."),
    arg("endpointId", "string", "required", "The compute's id (`ep-…`)."),
  ],
  result: COMPUTE_INFO_PROPERTIES,
  examples: {
    yaml: [
      "variables:",
      "  primary:",
      "    fn::invoke:",
      "      function: neoncompute:index:getCompute",
      "      arguments: { projectId: shiny-wind-123456, endpointId: ep-cool-sky-123456 }",
    ].join("\n"),
    typescript:
      'const primary = await getCompute({ projectId: "shiny-wind-123456", endpointId: "ep-cool-sky-123456" });',
  },
};

export const GET_COMPUTES: LookupDef = {
  name: "getComputes",
  description: "The computes of a project, or of one of its branches.",
  args: [
    arg("projectId", "string", "required", "Project whose computes to list."),
    arg("branchId", "string", "optional", "Only the computes of this branch (`br-…`)."),
  ],
  result: [
    { name: "computes", type: { arrayOf: "ComputeInfo" }, output: "always", description: "The computes." },
  ],
  wraps: "computes",
  examples: {
    yaml: [
      "variables:",
      "  computes:",
      "    fn::invoke:",
      "      function: neoncompute:index:getComputes",
      "      arguments: { projectId: shiny-wind-123456 }",
      "      return: computes",
    ].join("\n"),
    typescript: 'const computes = await getComputes({ projectId: "shiny-wind-123456" });',
  },
};

export const GET_CONNECTION_URI: LookupDef = {
  name: "getConnectionUri",
  description:
    "The connection string of a role and database on a compute, as a secret: it carries the role's " +
    "password. Fails (HTTP 404) naming the branch, compute, role or database that does not exist. In a " +
    "preview of a database rename, TypeScript's `getConnectionUriOutput` gives an unknown value; a YAML or " +
    "plugin-SDK program that passes `db.name` should make the invoke wait for the update, e.g. " +
    '`databaseName: { fn::select: [0, ["${db.name}", "${db.databaseId}"]] }`, since the plugin\'s ' +
    "preview shows the new name before the database has it.",
  args: [
    arg("projectId", "string", "required", "The project."),
    arg("branchId", "string", "optional", "The branch (default: the project's default branch)."),
    arg(
      "computeId",
      "string",
      "optional",
      "The compute to connect to (`ep-…`, on that branch; default: the branch's read_write compute).",
    ),
    arg("databaseName", "string", "required", "The database."),
    arg("roleName", "string", "required", "The role to connect as."),
    {
      ...arg(
        "pooled",
        "boolean",
        "optional",
        "Connect through the connection pooler (`-pooler` host). Default false.",
      ),
      default: false,
    },
  ],
  result: [
    {
      name: "uri",
      type: "string",
      output: "always",
      secret: true,
      description:
        "`postgresql://<role>:<password>@<host>/<database>?sslmode=require`: it carries the password (a " +
        "secret in `getConnectionUriOutput`'s result and in the plugin's).",
    },
  ],
  examples: {
    yaml: [
      "variables:",
      "  conn:",
      "    fn::invoke:",
      "      function: neoncompute:index:getConnectionUri",
      "      arguments: { projectId: shiny-wind-123456, branchId: br-cool-sky-12345678, databaseName: app, roleName: app }",
      "      return: uri",
    ].join("\n"),
    typescript: [
      "const conn = getConnectionUriOutput({",
      "  projectId: branch.projectId,",
      "  branchId: branch.id,",
      "  databaseName: db.name,",
      "  roleName: role.name,",
      "}); // a secret Output<{ uri }>",
    ].join("\n"),
  },
};

export const GET_ROLE_PASSWORD: LookupDef = {
  name: "getRolePassword",
  description:
    "A role's password, read from the service when the program needs it (`reveal_password`), as a secret: " +
    "nothing keeps it unless the program passes it to something that stores it (a resource's input, a " +
    "stack output). For a full connection string use `getConnectionUri`. Fails naming the role or branch " +
    "that does not exist, and — saying why and what to do — for a project that does not store role " +
    "passwords (`store_passwords` false: the service answers 412), whose passwords can only be reset.",
  args: [
    arg("projectId", "string", "required", "The project."),
    arg("branchId", "string", "optional", "The branch (default: the project's default branch)."),
    arg("roleName", "string", "required", "The role whose password to read."),
  ],
  result: [
    {
      name: "password",
      type: "string",
      output: "always",
      secret: true,
      description:
        "The role's current password (a secret in `getRolePasswordOutput`'s result and in the plugin's).",
    },
  ],
  examples: {
    yaml: [
      "variables:",
      "  appPassword:",
      "    fn::invoke:",
      "      function: neoncompute:index:getRolePassword",
      "      arguments: { projectId: shiny-wind-123456, branchId: br-cool-sky-12345678, roleName: app }",
      "      return: password",
    ].join("\n"),
    typescript: [
      "const password = getRolePasswordOutput({",
      "  projectId: role.projectId,",
      "  branchId: role.branchId,",
      "  roleName: role.name,",
      "}).password; // a secret Output<string>",
    ].join("\n"),
  },
};

export const GET_BRANCHES: LookupDef = {
  name: "getBranches",
  description:
    "The branches of a project, every page, with their annotations and the stack that made each (for a " +
    "branch this package made): what a sweep of leaked preview branches reads.",
  args: [
    arg("projectId", "string", "required", "Project whose branches to list."),
    arg("search", "string", "optional", "Only branches whose name or id contains this text."),
  ],
  result: [
    { name: "branches", type: { arrayOf: "BranchInfo" }, output: "always", description: "The branches." },
  ],
  wraps: "branches",
  examples: {
    yaml: [
      "variables:",
      "  branches:",
      "    fn::invoke:",
      "      function: neoncompute:index:getBranches",
      "      arguments: { projectId: shiny-wind-123456 }",
      "      return: branches",
    ].join("\n"),
    typescript:
      'const leaked = (await getBranches({ projectId: "shiny-wind-123456" })).filter((b) => b.stack);',
  },
};

export const GET_SCHEMA_DIFF: LookupDef = {
  name: "getSchemaDiff",
  description:
    "What a branch changed in a database's schema: the unified difference between a base branch's " +
    "schema and this branch's (Neon's `compare_schema`), and whether there is one. The base is `baseBranchId`, " +
    "else the branch's parent, read and always named in the request. For a pull request's review: the " +
    "preview branch against the branch it was made from. A database the base does not have (the one a pull " +
    "request's role owns and migrates) is wholly new: the branch's schema against an empty one, every line " +
    "added, and no difference while it holds no object. Fails naming what is missing — the branch, the " +
    "base, or the database on the branch (found by reads) — and for a root branch without `baseBranchId`.",
  args: [
    arg("projectId", "string", "required", "The project."),
    arg("branchId", "string", "required", "The branch whose schema is compared (`br-…`)."),
    arg(
      "databaseName",
      "string",
      "required",
      "The database whose schema is compared (on the base too, when the base has it).",
    ),
    arg(
      "baseBranchId",
      "string",
      "optional",
      "The branch to compare with (default: the branch's parent, read and sent).",
    ),
    arg("lsn", "string", "optional", "Compare the branch's schema as of this LSN (default: now)."),
    arg(
      "timestamp",
      "string",
      "optional",
      "Compare the branch's schema as of this time (RFC 3339; default: now).",
    ),
    arg("baseLsn", "string", "optional", "Compare the base's schema as of this LSN (default: now)."),
    arg(
      "baseTimestamp",
      "string",
      "optional",
      "Compare the base's schema as of this time (RFC 3339; default: now).",
    ),
  ],
  result: [
    {
      name: "diff",
      type: "string",
      output: "always",
      description:
        "The unified difference of the two `pg_dump --schema-only` texts (`-` base, `+` branch); empty when they agree.",
    },
    {
      name: "changed",
      type: "boolean",
      output: "always",
      description: "Whether the schemas differ (`diff` is not empty).",
    },
  ],
  examples: {
    yaml: [
      "variables:",
      "  schemaDiff:",
      "    fn::invoke:",
      "      function: neoncompute:index:getSchemaDiff",
      "      arguments: { projectId: shiny-wind-123456, branchId: ${preview.id}, databaseName: app }",
      "      return: diff",
    ].join("\n"),
    typescript: [
      "const schema = getSchemaDiffOutput({",
      "  projectId: preview.projectId,",
      "  branchId: preview.id,",
      '  databaseName: "app",',
      "}); // Output<{ diff, changed }>",
    ].join("\n"),
  },
};

/** Every lookup of the package. */
export const LOOKUPS: readonly LookupDef[] = [
  GET_PROJECTS,
  GET_OPERATIONS,
  GET_COMPUTE,
  GET_COMPUTES,
  GET_BRANCHES,
  GET_CONNECTION_URI,
  GET_ROLE_PASSWORD,
  GET_SCHEMA_DIFF,
];
