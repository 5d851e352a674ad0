/**
 * Response conformance against the official OpenAPI document shipped in
 * `@neondatabase/api-client` (OpenAPI 3.0). The document's schemas are turned
 * into JSON Schema for ajv:
 *
 * - `$ref` to `#/components/schemas/X` → `openapi#/definitions/X` (siblings of a
 *   `$ref` are ignored, as OpenAPI 3.0 says);
 * - `nullable: true` → `anyOf: [schema, {type: "null"}]`;
 * - `allOf` whose members are all object schemas is merged into one object
 *   (properties and required lists united), so that
 * - every object schema with `properties` and no `additionalProperties` gets
 *   `additionalProperties: false`: a response carrying a field the API does not
 *   declare fails, as does a missing required field or a wrong type.
 *
 * Formats are checked by ajv-formats (date-time, uuid, email, int32, int64, …).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import YAML from "yaml";

type Schema = Record<string, unknown>;

const SPEC_PATH = resolve(
  __dirname,
  "../../node_modules/@neondatabase/api-client/public-v2-for-users.gen.yaml",
);
const doc = YAML.parse(readFileSync(SPEC_PATH, "utf8")) as {
  paths: Record<string, Record<string, { responses: Record<string, Schema> }>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Schema> };
};
const components = doc.components.schemas;
// The product spec (which wins over the OpenAPI document) lists `locked` among the fields of a
// project in the project list; the OpenAPI ProjectListItem does not declare it.
(components.ProjectListItem.properties as Schema).locked = { type: "boolean" };
const REF = "#/components/schemas/";
const DROP = new Set([
  "example",
  "examples",
  "description",
  "deprecated",
  "externalDocs",
  "xml",
  "readOnly",
  "writeOnly",
  "discriminator",
  "title",
]);

function refName(ref: string): string {
  if (!ref.startsWith(REF)) throw new Error(`Unsupported $ref ${ref}`);
  return ref.slice(REF.length);
}

function isObjectSchema(s: Schema): boolean {
  return s.type === "object" || s.properties !== undefined;
}

/**
 * True for a property the document marks deprecated: `deprecated: true`, or (as for `Endpoint.proxy_host`)
 * only a description that starts with "DEPRECATED".
 */
export function isDeprecated(property: Schema): boolean {
  return property.deprecated === true || /^DEPRECATED\b/.test(String(property.description ?? ""));
}

/** The deprecated properties of a component schema, e.g. `deprecatedProperties("Endpoint")`. */
export function deprecatedProperties(schemaName: string): string[] {
  const props = (components[schemaName].properties ?? {}) as Record<string, Schema>;
  return Object.keys(props).filter((k) => isDeprecated(props[k]));
}

/**
 * Converts one OpenAPI schema node to JSON Schema (see the module comment). With `deprecatedOptional`,
 * deprecated properties are left out of `required` (a service may drop them).
 */
export function convert(node: unknown, deprecatedOptional = false): unknown {
  if (Array.isArray(node)) return node.map((n) => convert(n, deprecatedOptional));
  if (!node || typeof node !== "object") return node;
  const s = node as Schema;
  if (typeof s.$ref === "string")
    return { $ref: `${docId(deprecatedOptional)}#/definitions/${refName(s.$ref)}` };
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (DROP.has(k) || k.startsWith("x-") || k === "nullable") continue;
    if (k === "properties" || k === "patternProperties") {
      out[k] = Object.fromEntries(
        Object.entries(v as Schema).map(([p, ps]) => [p, convert(ps, deprecatedOptional)]),
      );
    } else if (k === "required" && deprecatedOptional) {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      out[k] = (v as string[]).filter((r) => !(props[r] && isDeprecated(props[r])));
    } else if (k === "default" || k === "enum" || k === "required") {
      out[k] = v;
    } else {
      out[k] = convert(v, deprecatedOptional);
    }
  }
  if (Array.isArray(s.allOf)) mergeAllOf(out, s.allOf as Schema[], deprecatedOptional);
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return s.nullable === true ? { anyOf: [out, { type: "null" }] } : out;
}

/** Folds `allOf` members that are all object schemas into `out` itself. */
function mergeAllOf(out: Schema, members: Schema[], deprecatedOptional: boolean): void {
  const resolved = members.map((m) => (typeof m.$ref === "string" ? components[refName(m.$ref)] : m));
  if (!resolved.every((m) => isObjectSchema(m) || Array.isArray(m.allOf))) return;
  const merged = resolved.map((m) => convert(m, deprecatedOptional) as Schema);
  if (merged.some((m) => m.anyOf)) return; // a nullable member: keep the plain allOf
  const props: Schema = { ...((out.properties as Schema) ?? {}) };
  const required = new Set<string>((out.required as string[]) ?? []);
  for (const m of merged) {
    for (const [k, v] of Object.entries((m.properties as Schema) ?? {})) {
      props[k] = props[k] === undefined ? v : { allOf: [props[k], v] };
    }
    for (const r of (m.required as string[]) ?? []) required.add(r);
  }
  delete out.allOf;
  out.type = "object";
  out.properties = props;
  if (required.size) out.required = [...required];
}

const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
addFormats(ajv);
ajv.addFormat("int", true);
ajv.addFormat("uint64", true);
ajv.addFormat("binary", true);
ajv.addFormat("", true);
for (const deprecatedOptional of [false, true]) {
  ajv.addSchema({
    $id: docId(deprecatedOptional),
    definitions: Object.fromEntries(
      Object.entries(components).map(([k, v]) => [k, convert(v, deprecatedOptional)]),
    ),
  });
}

/** The document as converted strictly, or with deprecated properties optional. */
function docId(deprecatedOptional: boolean): string {
  return deprecatedOptional ? "openapi-deprecated-optional" : "openapi";
}

const cache = new Map<string, ValidateFunction>();

/** The JSON Schema of the response `status` of `method path` (falling back to `default`). */
export function responseSchema(
  method: string,
  path: string,
  status: number,
  deprecatedOptional = false,
): Schema {
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`The OpenAPI document has no ${method} ${path}`);
  let resp = op.responses[String(status)] ?? op.responses.default;
  if (!resp)
    throw new Error(`The OpenAPI document declares no ${status} (nor default) for ${method} ${path}`);
  if (typeof resp.$ref === "string") resp = doc.components.responses[resp.$ref.split("/").pop()!];
  const schema = (resp.content as Record<string, { schema: Schema }> | undefined)?.["application/json"]
    ?.schema;
  if (!schema) throw new Error(`${method} ${path} ${status} has no JSON body in the OpenAPI document`);
  return convert(schema, deprecatedOptional) as Schema;
}

/** True when the document declares `status` for the route with no body (e.g. a VPC endpoint's assignment). */
export function declaresNoBody(method: string, path: string, status: number): boolean {
  const resp = doc.paths[path]?.[method.toLowerCase()]?.responses[String(status)];
  return resp !== undefined && typeof resp.$ref !== "string" && resp.content === undefined;
}

/** True when the document declares `status` explicitly for the route (e.g. 204 on DELETE endpoint). */
export function declaresStatus(method: string, path: string, status: number): boolean {
  return doc.paths[path]?.[method.toLowerCase()]?.responses[String(status)] !== undefined;
}

export function hasRoute(method: string, path: string): boolean {
  return doc.paths[path]?.[method.toLowerCase()] !== undefined;
}

/** Validates a response body; returns the ajv error text, or undefined when it conforms. */
export function conformanceErrors(
  method: string,
  path: string,
  status: number,
  body: unknown,
  deprecatedOptional = false,
): string | undefined {
  const key = `${method} ${path} ${status} ${deprecatedOptional}`;
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(responseSchema(method, path, status, deprecatedOptional));
    cache.set(key, validate);
  }
  if (validate(body)) return undefined;
  return ajv.errorsText(validate.errors, { separator: "\n", dataVar: "body" });
}
