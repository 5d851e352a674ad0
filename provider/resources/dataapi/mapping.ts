/**
 * `DataApi`'s mapping to and from the API: its resource id (`<projectId>/<branchId>/<databaseName>`, as
 * `importId` writes it), its settings in the service's names, and its outputs. Pure.
 */
import type { DataApi, DataApiSettings } from "../../api";
import { stateOf, type Bag } from "../kit";
import { DATA_API_DEFINITION } from "./definition";
import { IMPORT_ID_PATTERN } from "./inputs";
import type { DataApiSettingsInputs } from "./types";

/** Where a Data API is: the database it serves. */
export interface DataApiRef {
  projectId: string;
  branchId: string;
  databaseName: string;
}

/** The resource id: `"<projectId>/<branchId>/<databaseName>"`. */
export const resourceId = (r: DataApiRef): string => `${r.projectId}/${r.branchId}/${r.databaseName}`;

/** Splits a resource id (or an `importId`); throws naming the remedy for any other shape. */
export function parseDataApiRef(id: string): DataApiRef {
  const m = IMPORT_ID_PATTERN.exec(id);
  if (!m) {
    throw new Error(
      `Failed to read Data API "${id}": the id is not "<projectId>/<branchId>/<databaseName>". Remove the ` +
        "resource from the stack with `pulumi state delete` and import the Data API with importId.",
    );
  }
  return { projectId: m[1], branchId: m[2], databaseName: m[3] };
}

/** `the Data API of database "neondb" of branch br-… in project p`. */
export const describeDataApi = (r: DataApiRef): string =>
  `the Data API of database "${r.databaseName}" of branch ${r.branchId} in project ${r.projectId}`;

/** Each setting's name in the service's API. */
const API_NAMES: Record<keyof DataApiSettingsInputs, keyof DataApiSettings> = {
  dbSchemas: "db_schemas",
  dbMaxRows: "db_max_rows",
  dbAnonRole: "db_anon_role",
  dbAggregatesEnabled: "db_aggregates_enabled",
  dbExtraSearchPath: "db_extra_search_path",
  jwtRoleClaimKey: "jwt_role_claim_key",
  jwtCacheMaxLifetime: "jwt_cache_max_lifetime",
  openapiMode: "openapi_mode",
  serverCorsAllowedOrigins: "server_cors_allowed_origins",
  serverTimingEnabled: "server_timing_enabled",
};

/** The declared settings in the service's names. */
export function toApiSettings(s: DataApiSettingsInputs | undefined): DataApiSettings {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s ?? {})) {
    const name = API_NAMES[k as keyof DataApiSettingsInputs];
    if (name && v !== undefined) out[name] = v;
  }
  return out as DataApiSettings;
}

/** The service's settings of the keys the program declares (those it manages), in the program's names. */
export function fromApiSettings(
  s: DataApiSettings | null | undefined,
  declared: DataApiSettingsInputs | undefined,
): DataApiSettingsInputs | undefined {
  if (!declared) return undefined;
  // No settings in the answer (the document: SubZero only, nullable): as declared, not drift.
  if (!s) return declared;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(declared) as (keyof DataApiSettingsInputs)[]) {
    const v = s?.[API_NAMES[k]];
    if (v !== undefined) out[k] = v;
  }
  return out as DataApiSettingsInputs;
}

/** The outputs: the inputs as given (for the next diff) and the Data API as the service holds it. */
export function toOutputs(inputs: Bag, ref: DataApiRef, d: DataApi): Bag {
  return stateOf(DATA_API_DEFINITION, inputs, {
    ...inputs,
    projectId: ref.projectId,
    branchId: ref.branchId,
    databaseName: ref.databaseName,
    settings: fromApiSettings(d.settings, inputs.settings as DataApiSettingsInputs | undefined),
    url: d.url,
    status: d.status,
  });
}
