/**
 * Inputs of the `DataApi` resource and `check`'s pure part: validation at `pulumi preview`. Pure.
 */
import { z } from "zod";
import { checkAgainst, inputsChecked, inputSchema, type InputsCheck } from "../check";
import type { Bag } from "../kit";
import { apiId, branchIdRule, pgName } from "../branch-objects/objects";
import { isWebUrl } from "../neonauth/inputs";
import { DATA_API_DEFINITION, DATA_API_SETTINGS_TYPE } from "./definition";
import type { DataApiInputs } from "./types";

/** `"<projectId>/<branchId>/<databaseName>"`. */
export const IMPORT_ID_PATTERN = /^([a-z0-9-]{1,60})\/(br-[a-z0-9-]{1,60})\/(.+)$/;

const SETTING_NAMES: string[] = DATA_API_SETTINGS_TYPE.properties.map((p) => p.name);
const whole = (min: number) =>
  z
    .number({ error: `must be a whole number, at least ${min}` })
    .int({ error: "must be a whole number" })
    .min(min, {
      error: `must be at least ${min}`,
    });

const settingsSchema = z
  .looseObject(
    {
      dbSchemas: z.array(z.string().min(1, { error: "a schema name must not be empty" }), {
        error: 'must be a list of schema names, e.g. ["public"]',
      }),
      dbMaxRows: whole(1),
      dbAnonRole: z.string({ error: "must be a string" }),
      dbAggregatesEnabled: z.boolean({ error: "must be true or false" }),
      dbExtraSearchPath: z.string({ error: "must be a string" }),
      jwtRoleClaimKey: z.string({ error: "must be a string" }),
      jwtCacheMaxLifetime: whole(0),
      openapiMode: z.enum(["ignore-privileges", "disabled"], {
        error: "must be ignore-privileges or disabled",
      }),
      serverCorsAllowedOrigins: z.string({ error: "must be a string" }),
      serverTimingEnabled: z.boolean({ error: "must be true or false" }),
    },
    { error: "must be an object of settings, e.g. { dbMaxRows: 1000 }" },
  )
  .partial()
  .superRefine((s, ctx) => {
    for (const k of Object.keys(s).filter((key) => !SETTING_NAMES.includes(key))) {
      ctx.addIssue({
        code: "custom",
        message: `has no setting ${k} (the settings are ${SETTING_NAMES.join(", ")})`,
      });
    }
  });

const inputsSchema = inputSchema(DATA_API_DEFINITION, {
  projectId: apiId("a project id (1–60 lower-case letters, digits and dashes)"),
  branchId: branchIdRule('is required: the id of the branch of the database ("br-…")'),
  databaseName: pgName("database"),
  jwksUrl: z.string({ error: "must be a string" }).refine(isWebUrl, {
    error: 'must be the http(s) URL of a JWKS, e.g. "https://auth.example.com/.well-known/jwks.json"',
  }),
  settings: settingsSchema,
  importId: z.string({ error: "must be a string" }).regex(IMPORT_ID_PATTERN, {
    error: 'must name the database whose Data API to manage, as "<projectId>/<branchId>/<databaseName>"',
  }),
});

/** Validates raw inputs and the rules between them. Values not known yet (preview) are not judged. */
export function checkInputs(news: Bag): InputsCheck<DataApiInputs> {
  const checked = checkAgainst(DATA_API_DEFINITION, inputsSchema, news);
  const { failures } = checked;
  const inputs: Bag = { ...news };
  if (!checked.parsed) return inputsChecked(inputs, failures);
  const v = checked.value as Partial<DataApiInputs>;
  const provider = v.authProvider ?? "neon_auth";
  // The provider sends the value that matters: left out is the definition's default, written down.
  if (news.authProvider === undefined) inputs.authProvider = provider;
  if (provider === "external" && news.jwksUrl === undefined) {
    failures.push({
      property: "jwksUrl",
      reason: 'is required with authProvider "external": the URL of the provider\'s JWKS',
    });
  }
  if (provider === "neon_auth") {
    for (const k of ["jwksUrl", "providerName"] as const) {
      if (news[k] !== undefined) {
        failures.push({
          property: k,
          reason: `is for authProvider "external"; with "neon_auth" the branch's Neon Auth keys are used: remove ${k}`,
        });
      }
    }
  }
  const parts = typeof v.importId === "string" ? IMPORT_ID_PATTERN.exec(v.importId) : null;
  if (
    parts &&
    typeof v.projectId === "string" &&
    typeof v.branchId === "string" &&
    typeof v.databaseName === "string" &&
    v.importId !== `${v.projectId}/${v.branchId}/${v.databaseName}`
  ) {
    failures.push({
      property: "importId",
      reason:
        `importId ${v.importId} names another database than this resource's ` +
        `(${v.projectId}/${v.branchId}/${v.databaseName}): make them the same, or remove importId`,
    });
  }
  return inputsChecked(inputs, failures);
}
