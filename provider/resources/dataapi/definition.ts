/**
 * The definition of `DataApi`: every input and output with its type, docs and what a change does.
 * The plugin schema and `docs/api/DataApi.md` are generated from it, the key lists and input checks
 * derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ObjectTypeDef, ResourceDef } from "../definition";
import { createOnlyFlag, fixedInput, importIdInput, optionalField } from "../definition";

/** What a DataApi is called in messages. */
export const DATA_API_NOUN = "Data API";

/** The settings of a Data API (`DataAPISettings`), each optional: left out, the service's stands. */
export const DATA_API_SETTINGS_TYPE = {
  name: "DataApiSettings",
  description: "Settings of a Data API; each one left out keeps the service's value.",
  properties: [
    optionalField(
      "dbSchemas",
      { arrayOf: "string" },
      'The schemas the API exposes (the service: `["public"]`).',
    ),
    optionalField("dbMaxRows", "integer", "The most rows one request returns."),
    optionalField(
      "dbAnonRole",
      "string",
      "The database role of requests without a token (the service: `anonymous`).",
    ),
    optionalField(
      "dbAggregatesEnabled",
      "boolean",
      "Whether aggregate functions may be used (the service: true).",
    ),
    optionalField("dbExtraSearchPath", "string", "More schemas for the search path."),
    optionalField(
      "jwtRoleClaimKey",
      "string",
      "The token claim that names the database role (the service: `.role`).",
    ),
    optionalField("jwtCacheMaxLifetime", "integer", "How long verified tokens are cached, in seconds."),
    {
      ...optionalField(
        "openapiMode",
        "string",
        "The OpenAPI description's mode: `ignore-privileges` or `disabled` (the service's).",
      ),
      enum: ["ignore-privileges", "disabled"],
    },
    optionalField("serverCorsAllowedOrigins", "string", "The origins browsers may call the API from (CORS)."),
    optionalField("serverTimingEnabled", "boolean", "Whether answers carry server timing headers."),
  ],
} as const satisfies ObjectTypeDef;

export const DATA_API_DEFINITION = {
  name: "DataApi",
  description:
    "The Data API of a database of a branch: a REST interface over its tables at `url`, for requests that " +
    "carry a token of its auth provider (the branch's Neon Auth, or an external provider's JWKS). One per " +
    "database: a database whose Data API no resource of the stack manages fails at preview with the exact " +
    "`importId`; an unknown database, a `jwksUrl` that is no URL, and `neon_auth` on a branch without Neon Auth " +
    "(declare a `NeonAuth` it depends on) fail there too, with nothing sent. Creating it starts no operation. " +
    "Its settings change in place; its auth provider is fixed (a change replaces it). Deleting the resource " +
    "deletes the Data API: its URL stops answering.",
  importId: {
    format: "<projectId>/<branchId>/<databaseName>",
    example: "shiny-wind-123456/br-cool-sky-12345678/neondb",
  },
  aliases: ["pulumi-nodejs:dynamic/neon:DataApi"],
  properties: [
    fixedInput("projectId", "The project. Changing it replaces the Data API."),
    fixedInput("branchId", "The branch (`br-…`) of the database. Changing it replaces the Data API."),
    fixedInput(
      "databaseName",
      "The database the API serves; checked at preview against the branch's databases. Changing it replaces " +
        "the Data API.",
    ),
    {
      name: "authProvider",
      type: "string",
      enum: ["neon_auth", "external"],
      input: "optional",
      output: "optional",
      change: "replace",
      default: "neon_auth",
      description:
        "Whose tokens the API accepts: `neon_auth` (the branch's Neon Auth; declare a `NeonAuth` for the branch " +
        "and make this resource depend on it) or `external` (give `jwksUrl`). Changing it replaces the Data API.",
    },
    {
      name: "jwksUrl",
      type: "string",
      input: "optional",
      output: "optional",
      change: "replace",
      description:
        "With `external`: the URL of the provider's JWKS (an http(s) URL, checked at preview). Changing it " +
        "replaces the Data API.",
    },
    {
      name: "providerName",
      type: "string",
      input: "optional",
      output: "optional",
      change: "replace",
      description:
        "With `external`: the provider's name (Clerk, Auth0, …). Changing it replaces the Data API.",
    },
    {
      name: "jwtAudience",
      type: "string",
      input: "optional",
      output: "optional",
      change: "replace",
      description:
        "Tokens whose audience claim differs are refused (tokens without one are still accepted, as Neon's " +
        "document warns). Changing it replaces the Data API.",
    },
    createOnlyFlag(
      "addDefaultGrants",
      "Grant authenticated users every permission on the tables of the `public` schema when the API is created.",
    ),
    {
      name: "settings",
      type: { object: "DataApiSettings" },
      input: "optional",
      output: "optional",
      change: "update",
      compare: "nested",
      description: "The API's settings; only those given are set, in place.",
    },
    importIdInput(
      'Manage the Data API a database already has: `"<projectId>/<branchId>/<databaseName>"`, naming this very ' +
        "database. The declared settings are then applied. Read at creation only. Deleting the resource deletes it.",
    ),
    {
      name: "url",
      type: "string",
      output: "always",
      stable: true,
      description: "The API's URL: `GET <url>/<table>` with `Authorization: Bearer <token>` reads a table.",
    },
    {
      name: "status",
      type: "string",
      output: "optional",
      description: "The state of the API's deployment, as the service reports it.",
    },
  ],
  notes: [
    "Tokens are checked against the auth provider's public keys: with `neon_auth`, those the branch's " +
      "`NeonAuth.jwksUrl` publishes.",
    "A replacement deletes the Data API before creating it again (its URL does not answer in between); it " +
      "drops no table and no user. The users are Neon Auth's: a replacement of the `NeonAuth` of the branch with " +
      "`deleteDataOnDestroy: true` drops them (see its notes), and tokens for them are no longer issued.",
  ],
  examples: {
    title: "The Data API of a branch's database, with Neon Auth",
    yaml: [
      "resources:",
      "  auth:",
      "    type: neoncompute:index:NeonAuth",
      "    properties:",
      "      projectId: shiny-wind-123456",
      "      branchId: br-cool-sky-12345678",
      "  api:",
      "    type: neoncompute:index:DataApi",
      "    properties:",
      "      projectId: ${auth.projectId}",
      "      branchId: ${auth.branchId}",
      "      databaseName: neondb",
      "      authProvider: neon_auth",
      "      settings:",
      "        dbMaxRows: 1000",
      "outputs:",
      "  dataApiUrl: ${api.url}",
    ].join("\n"),
    typescript: [
      'import { DataApi, NeonAuth } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'const auth = new NeonAuth("auth", { projectId: "shiny-wind-123456", branchId: "br-cool-sky-12345678" });',
      'const api = new DataApi("api", {',
      "  projectId: auth.projectId,",
      "  branchId: auth.branchId,",
      '  databaseName: "neondb",',
      '  authProvider: "neon_auth",',
      "  settings: { dbMaxRows: 1000 },",
      "});",
      "export const dataApiUrl = api.url;",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
