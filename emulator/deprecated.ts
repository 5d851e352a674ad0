/**
 * Deprecated response fields. The OpenAPI document still lists these among the required fields, but
 * marks them deprecated (`pooler_mode` with `x-sunset: 2026-06-20`; `proxy_host` "DEPRECATED. Use the
 * host property instead"), and the service may drop them. With `omitDeprecatedFields` the emulator
 * leaves them out of every response, so clients can prove they do not depend on them.
 * (tests/emulator checks this list against the document.)
 */

/** Deprecated fields the emulator emits, by the response key that holds the object (or a list of them). */
export const DEPRECATED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // Endpoint
  endpoint: ["pooler_enabled", "pooler_mode", "proxy_host"],
  endpoints: ["pooler_enabled", "pooler_mode", "proxy_host"],
  // Project and ProjectListItem
  project: ["cpu_used_sec"],
  projects: ["cpu_used_sec"],
  // Branch
  branch: ["cpu_used_sec"],
  branches: ["cpu_used_sec"],
};

/** Request fields Neon retired (the compute's pooler settings, sunset 2026-06-20). */
export const RETIRED_REQUEST_FIELDS: readonly string[] = ["pooler_enabled", "pooler_mode"];

/** True when a request body carries a retired field at any depth. */
export function carriesRetired(body: unknown): boolean {
  if (!body || typeof body !== "object") return false;
  if (Array.isArray(body)) return body.some(carriesRetired);
  return Object.entries(body).some(([k, v]) => RETIRED_REQUEST_FIELDS.includes(k) || carriesRetired(v));
}

function without(record: unknown, fields: readonly string[]): unknown {
  if (!record || typeof record !== "object" || Array.isArray(record)) return record;
  const copy: Record<string, unknown> = { ...(record as Record<string, unknown>) };
  for (const f of fields) delete copy[f];
  return copy;
}

/** A copy of a response body without the deprecated fields (stored records are left untouched). */
export function omitDeprecated(body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [key, fields] of Object.entries(DEPRECATED_FIELDS)) {
    const v = out[key];
    if (v === undefined) continue;
    out[key] = Array.isArray(v) ? v.map((x) => without(x, fields)) : without(v, fields);
  }
  return out;
}
