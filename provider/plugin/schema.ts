/**
 * The plugin's Pulumi package schema, generated from the resources' and lookups' definitions (the
 * same data the docs and the key lists come from). `pulumi package get-schema` prints it, and the
 * Python and Go SDKs in `sdk/` are generated from it.
 */
import { LOOKUPS, OBJECT_TYPES, RESOURCES as KINDS } from "../registry";
import { PACKAGE } from "../resources/classes";
import type { PropertyDef, PropertyType, ResourceDef } from "../resources/definition";
import { isPlainType } from "../resources/definition";
import { SETTINGS } from "../resources/settings";

export { PACKAGE };

/** The resources the plugin serves, in schema order (the registry's). */
export const RESOURCES: readonly ResourceDef[] = KINDS.map((k) => k.definition);

/** `neoncompute:index:<name>`. */
export function token(name: string): string {
  return `${PACKAGE}:index:${name}`;
}

/** The provider's own settings: stack config `neoncompute:<name>` or an explicit `Provider`'s arguments. */
export const CONFIG = SETTINGS;

type Json = Record<string, unknown>;

function typeSpec(t: PropertyType): Json {
  if (typeof t === "string") return { type: t };
  if ("map" in t) return { type: "object", additionalProperties: { type: t.map } };
  if ("arrayOf" in t) {
    // A list of plain values (`NeonAuth.trustedDomains`) or of one of the package's object types.
    const items = isPlainType(t.arrayOf) ? { type: t.arrayOf } : { $ref: `#/types/${token(t.arrayOf)}` };
    return { type: "array", items };
  }
  return { $ref: `#/types/${token(t.object)}` };
}

function propertySpec(p: PropertyDef, withDefault: boolean): Json {
  const spec: Json = { ...typeSpec(p.type), description: describe(p) };
  if (withDefault && p.default !== undefined) spec.default = p.default;
  if (p.secret) spec.secret = true;
  if (p.change === "replace") spec.willReplaceOnChanges = true;
  if (p.deprecated) spec.deprecationMessage = p.deprecated;
  return spec;
}

function describe(p: PropertyDef): string {
  const allowed = p.enum ? ` One of: ${p.enum.map((v) => `\`${v}\``).join(", ")}.` : "";
  return p.description + (p.description.includes("`" + p.enum?.[0] + "`") ? "" : allowed);
}

function properties(props: readonly PropertyDef[], withDefault: boolean): Json {
  return Object.fromEntries(props.map((p) => [p.name, propertySpec(p, withDefault)]));
}

function resourceSpec(r: ResourceDef): Json {
  const inputs = r.properties.filter((p) => p.input);
  const outputs = r.properties.filter((p) => p.output);
  return {
    description: `${r.description}\n\n## Import\n\n\`\`\`sh\npulumi import ${token(r.name)} <name> ${r.importId.format}\n\`\`\`\n`,
    properties: properties(outputs, false),
    required: outputs.filter((p) => p.output === "always").map((p) => p.name),
    inputProperties: properties(inputs, true),
    requiredInputs: inputs.filter((p) => p.input === "required").map((p) => p.name),
    aliases: r.aliases.map((type) => ({ type })),
  };
}

/** The package schema as an object. */
export function schemaObject(version: string): Json {
  const configProps = Object.fromEntries(
    CONFIG.map((c) => [
      c.name,
      { ...typeSpec(c.type), description: c.description, ...(c.secret ? { secret: true } : {}) },
    ]),
  );
  return {
    name: PACKAGE,
    displayName: "Neon compute (unofficial)",
    version,
    description:
      "Neon compute endpoints and API keys through the control API v2, with lookups. A provider plugin over " +
      "the same implementation as the @neon-labs-unofficial/pulumi-neon-compute dynamic provider.",
    keywords: ["pulumi", "neon", "postgres", "category/database", "kind/native"],
    license: "Apache-2.0",
    publisher: "neon-labs-unofficial",
    meta: { moduleFormat: "(.*)" },
    config: { variables: configProps },
    provider: {
      description: "The provider: one Neon account (API key and URL) per instance.",
      properties: Object.fromEntries(CONFIG.filter((c) => !c.secret).map((c) => [c.name, typeSpec(c.type)])),
      inputProperties: configProps,
    },
    resources: Object.fromEntries(RESOURCES.map((r) => [token(r.name), resourceSpec(r)])),
    functions: Object.fromEntries(
      LOOKUPS.map((l) => [
        token(l.name),
        {
          description: l.description,
          inputs: {
            properties: properties(l.args, true),
            required: l.args.filter((p) => p.input === "required").map((p) => p.name),
          },
          outputs: {
            properties: properties(l.result, false),
            required: l.result.filter((p) => p.output === "always").map((p) => p.name),
          },
        },
      ]),
    ),
    types: Object.fromEntries(
      OBJECT_TYPES.map((t) => [
        token(t.name),
        {
          type: "object",
          description: t.description,
          properties: properties(t.properties, false),
          required: t.properties.filter((p) => p.output === "always").map((p) => p.name),
        },
      ]),
    ),
    language: {
      nodejs: {
        packageName: "@neon-labs-unofficial/pulumi-neoncompute",
        respectSchemaVersion: true,
      },
      python: { packageName: "pulumi_neoncompute", respectSchemaVersion: true },
      go: {
        importBasePath: "github.com/neon-labs-unofficial/pulumi-neon-compute/sdk/go/neoncompute",
        respectSchemaVersion: true,
      },
    },
  };
}

/** The package schema as the plugin serves it (JSON). */
export function schemaJson(version: string): string {
  return JSON.stringify(schemaObject(version), null, 2) + "\n";
}
