/**
 * The definition of `ProjectJwks`: every input and output with its type, docs and what a change does.
 * The plugin schema and `docs/api/ProjectJwks.md` are generated from it, the key lists and input checks
 * derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ResourceDef } from "../definition";
import { createdAtOutput, fixedInput, importIdInput } from "../definition";

/** What a ProjectJwks is called in messages. */
export const PROJECT_JWKS_NOUN = "JWKS";

/**
 * The inputs that say which key set a JWKS is and where it applies: a change of one of them makes a
 * new JWKS beside the old one before the old one goes, so tokens keep being accepted throughout; a
 * change of the others (same URL, same scope) deletes the old one first (see the description).
 */
export const JWKS_PLACE_KEYS = ["projectId", "branchId", "jwksUrl"] as const;

const REPLACED =
  "The service cannot change a JWKS: a change replaces it (see the resource's description for the order).";

export const PROJECT_JWKS_DEFINITION = {
  name: "ProjectJwks",
  description:
    "A JWKS URL of a project: the JSON Web Key Set that JWTs sent to the project's computes (Neon RLS, the " +
    "Data API with an external auth provider) are checked against, for every branch or, with `branchId`, one. " +
    "The service has no update: any change replaces the JWKS. A change of `projectId`, `branchId` or " +
    "`jwksUrl` adds the new JWKS before the old one is removed (tokens are accepted throughout, and a refused " +
    "add leaves the old one); a change of `providerName`, `roleNames` or `jwtAudience` alone removes the old " +
    "JWKS first, since the new one has the same URL and scope, which the service may hold once (Neon's document " +
    "says nothing of it) — the preview has checked what the add needs (the project, the branch, its roles). " +
    "A JWKS of the same URL and scope that no resource of the stack manages (one made in the console, or by a " +
    "killed run: the service keeps no mark of who made it) fails at preview with the exact `importId`, but for " +
    "one exactly as declared on a branch this stack made (see the notes). " +
    "Deleting the resource removes the JWKS.",
  importId: {
    format: "<projectId>/<jwksId>",
    example: "shiny-wind-123456/6f1c1a0e-2d3b-4c5d-8e9f-0a1b2c3d4e5f",
  },
  aliases: ["pulumi-nodejs:dynamic/neon:ProjectJwks"],
  properties: [
    fixedInput("projectId", `The project. ${REPLACED}`),
    {
      name: "branchId",
      type: "string",
      input: "optional",
      output: "optional",
      change: "replace",
      description:
        "The branch the JWKS applies to (`br-…`); without it, every branch of the project. Required with " +
        `\`roleNames\`. ${REPLACED}`,
    },
    {
      name: "providerName",
      type: "string",
      input: "required",
      output: "always",
      change: "replace",
      description: `The authentication provider's name, 1–256 characters (\`Clerk\`, \`Auth0\`, \`Stytch\`). ${REPLACED}`,
    },
    {
      name: "jwksUrl",
      type: "string",
      input: "required",
      output: "always",
      change: "replace",
      description:
        "The HTTPS URL that serves the JSON Web Key Set (`https://…/.well-known/jwks.json`); checked at preview, " +
        `without fetching it. ${REPLACED}`,
    },
    {
      name: "roleNames",
      type: { arrayOf: "string" },
      input: "optional",
      output: "optional",
      change: "replace",
      description:
        "The Postgres roles whose logins the JWKS's tokens may use (Neon RLS; deprecated in Neon's document), " +
        "1–10 distinct names of roles the branch `branchId` has (checked at preview: declare them as `Role` " +
        "resources). The provider asks the service not to create them, so no role appears behind the stack's " +
        "back. Without it, the service's default roles (`authenticator`, `authenticated`, `anonymous`), which " +
        `it creates itself. ${REPLACED}`,
    },
    {
      name: "jwtAudience",
      type: "string",
      input: "optional",
      output: "optional",
      change: "replace",
      description: `The \`aud\` value the JWTs must carry; without it, any. ${REPLACED}`,
    },
    importIdInput(
      'Adopt an existing JWKS instead of adding one: `"<projectId>/<jwksId>"` (the API\'s list of the ' +
        "project's JWKS names them). `providerName`, `jwksUrl`, `branchId`, `roleNames` and `jwtAudience` must " +
        "describe it as it is. Read at creation only. Deleting the resource removes the JWKS.",
    ),
    {
      name: "jwksId",
      type: "string",
      stable: true,
      output: "always",
      description: "The JWKS's id, as the API's list of the project's JWKS names it.",
    },
    createdAtOutput("always", "When the JWKS was added (ISO 8601 UTC)."),
  ],
  notes: [
    "`pulumi up --replace` gives the provider neither the old state nor a diff: the replacement is checked as a " +
      "new resource and created before the old JWKS is removed. On a branch this stack made (its annotation " +
      "names the stack), a JWKS exactly as declared and added after the branch is the stack's own (this " +
      "resource's, or a killed run's): the preview passes and the create removes it first, then adds the new " +
      "one. One of every branch, or of a branch made elsewhere, cannot be told from a JWKS no resource manages " +
      "and is refused with its `importId`: to renew it, `pulumi destroy --target` the resource, then `pulumi up`.",
  ],
  examples: {
    title: "Accept an auth provider's tokens on a branch",
    yaml: [
      "resources:",
      "  clerk:",
      "    type: neoncompute:index:ProjectJwks",
      "    properties:",
      "      projectId: shiny-wind-123456",
      "      branchId: br-cool-sky-12345678",
      "      providerName: Clerk",
      "      jwksUrl: https://example.clerk.accounts.dev/.well-known/jwks.json",
      "outputs:",
      "  jwksId: ${clerk.jwksId}",
    ].join("\n"),
    typescript: [
      'import { ProjectJwks } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'const clerk = new ProjectJwks("clerk", {',
      '  projectId: "shiny-wind-123456",',
      '  branchId: "br-cool-sky-12345678",',
      '  providerName: "Clerk",',
      '  jwksUrl: "https://example.clerk.accounts.dev/.well-known/jwks.json",',
      "});",
      "export const jwksId = clerk.jwksId;",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
