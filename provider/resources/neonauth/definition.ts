/**
 * The definition of `NeonAuth`: every input and output with its type, docs and what a change does.
 * The plugin schema and `docs/api/NeonAuth.md` are generated from it, the key lists and input checks
 * derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ObjectTypeDef, ResourceDef } from "../definition";
import { createdAtOutput, fixedInput, importIdInput } from "../definition";

/** What a NeonAuth is called in messages. */
export const NEON_AUTH_NOUN = "Neon Auth";

/** The OAuth providers Neon Auth offers (`NeonAuthOauthProviderId`). */
export const OAUTH_PROVIDER_IDS = ["google", "github", "microsoft", "vercel"] as const;

/** One OAuth provider of a branch's Neon Auth (`NeonAuthAddOAuthProviderRequest`). */
export const NEON_AUTH_OAUTH_PROVIDER_TYPE = {
  name: "NeonAuthOauthProvider",
  description:
    "An OAuth provider users of a branch's Neon Auth sign in with: the app's own OAuth client, or, without " +
    "`clientId`, Neon's shared development credentials.",
  properties: [
    {
      name: "id",
      type: "string",
      enum: OAUTH_PROVIDER_IDS,
      input: "required",
      output: "always",
      description: "The provider: `google`, `github`, `microsoft` or `vercel`.",
    },
    {
      name: "clientId",
      type: "string",
      input: "optional",
      output: "optional",
      description:
        "The app's OAuth client id at the provider; without it, Neon's shared credentials are used.",
    },
    {
      name: "clientSecret",
      type: "string",
      input: "optional",
      output: "optional",
      secret: true,
      description:
        "The OAuth client's secret (with `clientId`). Secret: stored encrypted, sent only in the request that " +
        "sets it, never read back (the service does not answer it).",
    },
  ],
} as const satisfies ObjectTypeDef;

export const NEON_AUTH_DEFINITION = {
  name: "NeonAuth",
  description:
    "Neon Auth on a branch (Beta in Neon's API): the branch's user sign-in service, its users kept in the " +
    "`neon_auth` schema of one database. One per branch: a branch that already has Neon Auth that no resource " +
    "of the stack manages fails at preview with the exact `importId`, and two resources of one branch fail " +
    "there too. Enabling it starts no operation. Its settings (trusted domains, OAuth providers, email and " +
    "password sign-in, localhost) change in place; its `baseUrl` and `jwksUrl` are outputs (the JWKS holds the " +
    "public keys that verify its users' tokens: give it to a `DataApi`). Deleting the resource disables Neon " +
    "Auth and keeps the users' data unless `deleteDataOnDestroy`.",
  importId: { format: "<projectId>/<branchId>", example: "shiny-wind-123456/br-cool-sky-12345678" },
  aliases: ["pulumi-nodejs:dynamic/neon:NeonAuth"],
  properties: [
    fixedInput(
      "projectId",
      "The project. Changing it enables Neon Auth on the new branch (after disabling it here).",
    ),
    fixedInput(
      "branchId",
      "The branch (`br-…`) Neon Auth serves. Changing it disables Neon Auth here, then enables it on the new " +
        "branch (the users stay with this branch's database).",
    ),
    {
      name: "databaseName",
      type: "string",
      input: "optional",
      output: "always",
      change: "replace",
      compare: "kept-when-absent",
      platformDefault: "the branch's first database",
      description:
        "The database whose `neon_auth` schema holds the users; checked at preview against the branch's " +
        "databases. Changing it disables Neon Auth and enables it over the new database.",
    },
    {
      name: "authProvider",
      type: "string",
      enum: ["better_auth", "stack"],
      input: "optional",
      output: "always",
      change: "replace",
      compare: "kept-when-absent",
      platformDefault: "better_auth",
      description: "The auth engine: `better_auth` (Neon Auth today) or `stack` (the earlier one).",
    },
    {
      name: "emailAndPassword",
      type: "boolean",
      input: "optional",
      output: "optional",
      change: "update",
      compare: "kept-when-absent",
      platformDefault: "enabled",
      description: "Whether users sign up and in with an email and a password. Changed in place.",
    },
    {
      name: "allowLocalhost",
      type: "boolean",
      input: "optional",
      output: "optional",
      change: "update",
      compare: "kept-when-absent",
      description:
        "Whether sign-in flows work from `localhost` without a trusted domain for it (for development). " +
        "Changed in place.",
    },
    {
      name: "trustedDomains",
      type: { arrayOf: "string" },
      input: "optional",
      output: "optional",
      change: "update",
      compare: "kept-when-absent",
      description:
        "The domains (URLs such as `https://app.example.com`) users may be sent back to after signing in: the " +
        "branch's whole list, in any order. Changed in place; left out, the list is not managed.",
    },
    {
      name: "oauthProviders",
      type: { arrayOf: "NeonAuthOauthProvider" },
      input: "optional",
      output: "optional",
      change: "update",
      compare: "kept-when-absent",
      secret: true,
      description:
        "The OAuth providers users sign in with, at most one per `id`: the branch's whole list. Changed in place " +
        "(a provider added, changed or removed on its own); left out, the list is not managed. Secret as a " +
        "whole, since it holds the clients' secrets.",
    },
    {
      name: "deleteDataOnDestroy",
      type: "boolean",
      input: "optional",
      output: "optional",
      change: "update",
      description:
        "Whether disabling Neon Auth (the resource's delete, or a replacement's) also drops the `neon_auth` " +
        "schema and its users. Default false: the users stay in the database. A change is recorded in the " +
        "stack (nothing is sent), so the next delete follows it.",
    },
    importIdInput(
      'Manage the Neon Auth a branch already has: `"<projectId>/<branchId>"`, naming this very branch. The ' +
        "declared settings are then applied. Read at creation only. Deleting the resource disables it.",
    ),
    {
      name: "baseUrl",
      type: "string",
      output: "optional",
      stable: true,
      description: "The URL of the branch's auth service (what an app's auth client is given).",
    },
    {
      name: "jwksUrl",
      type: "string",
      output: "always",
      stable: true,
      description: "The URL of the JWKS: the public keys that verify the tokens Neon Auth issues.",
    },
    {
      name: "authProviderProjectId",
      type: "string",
      output: "always",
      stable: true,
      description: "The id of the branch's project at the auth engine.",
    },
    {
      name: "publishableClientKey",
      type: "string",
      output: "optional",
      stable: true,
      description:
        "The client key an app's frontend is given (the service answers it when Neon Auth is enabled only: " +
        "absent for an imported one).",
    },
    {
      name: "secretServerKey",
      type: "string",
      output: "optional",
      stable: true,
      secret: true,
      description:
        "The server key an app's backend is given (answered when Neon Auth is enabled only: absent for an " +
        "imported one). Secret.",
    },
    createdAtOutput("always", "When Neon Auth was enabled on the branch (ISO 8601 UTC)."),
  ],
  notes: [
    "The users' tokens are JWTs signed by a key the JWKS at `jwksUrl` publishes: a `DataApi` with " +
      '`authProvider: "neon_auth"` accepts them.',
    "A replacement (a change of `projectId`, `branchId`, `databaseName` or `authProvider`) disables Neon Auth " +
      "before enabling it again, and that disable is the resource's delete: with `deleteDataOnDestroy: true` it " +
      "drops the `neon_auth` schema of the old database with every user, and the new Neon Auth starts with none " +
      "(with false, the default, the users stay in that schema). The delete follows the value the stack held " +
      "before the run, not the program's: to keep the users through a replacement, set " +
      "`deleteDataOnDestroy: false` and run `pulumi up` (nothing is sent) before the change that replaces.",
  ],
  examples: {
    title: "Neon Auth with GitHub sign-in and one trusted domain",
    yaml: [
      "resources:",
      "  auth:",
      "    type: neoncompute:index:NeonAuth",
      "    properties:",
      "      projectId: shiny-wind-123456",
      "      branchId: br-cool-sky-12345678",
      "      trustedDomains: [https://app.example.com]",
      "      oauthProviders:",
      "        - id: github",
      "          clientId: Iv1.0123456789abcdef",
      "          clientSecret: ${githubClientSecret}",
      "outputs:",
      "  jwksUrl: ${auth.jwksUrl}",
    ].join("\n"),
    typescript: [
      'import * as pulumi from "@pulumi/pulumi";',
      'import { NeonAuth } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      "const config = new pulumi.Config();",
      'const auth = new NeonAuth("auth", {',
      '  projectId: "shiny-wind-123456",',
      '  branchId: "br-cool-sky-12345678",',
      '  trustedDomains: ["https://app.example.com"],',
      '  oauthProviders: [{ id: "github", clientId: "Iv1.0123456789abcdef", clientSecret: config.requireSecret("githubClientSecret") }],',
      "});",
      "export const jwksUrl = auth.jwksUrl;",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
