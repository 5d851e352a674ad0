/**
 * Each resource's TypeScript types, generated from its definition (`npm run types:gen` writes
 * `provider/resources/<name>/types.ts`): the program's `<Name>Args` (every input wrapped in
 * `pulumi.Input`), the `<Name>Outputs` the classes expose, and the `<Name>Inputs` the steps receive
 * after `check`, each property with its definition's description as TSDoc — so the docs an editor
 * shows are the definition's, and a property is declared once. A test fails when a file is stale.
 */
import type { ObjectTypeDef, PropertyDef, PropertyType } from "../../provider/resources/definition";
import { isPlainType, plainTs } from "../../provider/resources/definition";
import { RESOURCES } from "../../provider/registry";
import { LOOKUPS, OBJECT_TYPES } from "../../provider/lookups/definitions";

type Face = "Args" | "Outputs" | "Inputs";

/** The TypeScript type of a property's value in one face. */
function valueType(type: PropertyType, p: PropertyDef, face: Face): string {
  const input = (t: string) => (face === "Args" ? `pulumi.Input<${t}>` : t);
  if (typeof type === "string") {
    if (type === "string") return p.enum ? p.enum.map((v) => JSON.stringify(v)).join(" | ") : "string";
    return type === "boolean" ? "boolean" : "number";
  }
  if ("map" in type) return `Record<string, ${input("string")}>`;
  // A list of one of the resource's object types (`SnapshotSchedule.schedule`), in this face.
  if ("arrayOf" in type && isPlainType(type.arrayOf)) return `${input(plainTs(type.arrayOf))}[]`;
  if ("arrayOf" in type) return `${input(`${type.arrayOf}${face}`)}[]`;
  return `${type.object}${face}`;
}

/** A TSDoc block of `text` at `indent`, wrapped at 110 columns. */
function tsdoc(text: string, indent: string): string {
  const safe = text.replace(/\*\//g, "*\\/");
  const oneLine = `${indent}/** ${safe} */`;
  if (oneLine.length <= 110) return oneLine;
  const lines: string[] = [];
  let line = "";
  for (const word of safe.split(/\s+/)) {
    if (line && `${indent} * ${line} ${word}`.length > 110) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`), `${indent} */`].join("\n");
}

/** A TSDoc block of `text` whose last tag is `@deprecated <reason>`, on lines of its own. */
function deprecatedDoc(text: string, reason: string, indent: string): string {
  const inner = (doc: string) =>
    doc.includes("\n") ? doc.split("\n").slice(1, -1) : [`${indent} * ${doc.trim().slice(4, -3)}`];
  return [
    `${indent}/**`,
    ...inner(tsdoc(text, indent)),
    ...inner(tsdoc(`@deprecated ${reason}`, indent)),
    `${indent} */`,
  ].join("\n");
}

/** Whether a property belongs to a face, and whether it is optional there. */
function member(p: PropertyDef, face: Face): { optional: boolean } | undefined {
  if (face === "Outputs") return p.output ? { optional: p.output === "optional" } : undefined;
  if (!p.input) return undefined;
  // After check, an input with a default has its value.
  return { optional: p.input === "optional" && !(face === "Inputs" && p.default !== undefined) };
}

function iface(name: string, doc: string, props: readonly PropertyDef[], face: Face): string {
  const body = props.flatMap((p) => {
    const m = member(p, face);
    if (!m) return [];
    const t = valueType(p.type, p, face);
    return [
      p.deprecated ? deprecatedDoc(p.description, p.deprecated, "  ") : tsdoc(p.description, "  "),
      `  ${p.name}${m.optional ? "?" : ""}: ${face === "Args" ? `pulumi.Input<${t}>` : t};`,
    ];
  });
  return [tsdoc(doc, ""), `export interface ${name}${face} {`, ...body, "}"].join("\n");
}

/** The object types a resource's properties name (`{ object: "<Name>" }`). */
function objectTypesOf(props: readonly PropertyDef[], known: readonly ObjectTypeDef[]): ObjectTypeDef[] {
  return props.flatMap((p) => {
    const t = p.type;
    const name =
      typeof t !== "object" ? undefined : "object" in t ? t.object : "arrayOf" in t ? t.arrayOf : undefined;
    if (!name || isPlainType(name)) return [];
    const found = known.find((o) => o.name === name);
    if (!found) throw new Error(`${p.name}: object type ${name} is not among the resource's objectTypes`);
    return [found];
  });
}

/** The generated `types.ts` of every resource, by its path in the repository. */
export function resourceTypes(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const kind of RESOURCES) {
    const def = kind.definition;
    const n = def.name;
    const objects = objectTypesOf(def.properties, kind.objectTypes ?? []);
    const parts = [
      `// Generated from definition.ts by \`npm run types:gen\`: do not edit (a test fails when it is stale).`,
      `/** \`${n}\`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after \`check\`. */`,
      `import type * as pulumi from "@pulumi/pulumi";`,
      ...objects.flatMap((o) => [
        iface(o.name, o.description, o.properties, "Args"),
        iface(o.name, `As read: ${o.description}`, o.properties, "Outputs"),
        iface(o.name, `After \`check\`: ${o.description}`, o.properties, "Inputs"),
      ]),
      iface(n, `Inputs of a {@link ${n}}.`, def.properties, "Args"),
      iface(n, `Outputs of a {@link ${n}}.`, def.properties, "Outputs"),
      iface(n, `Inputs of a {@link ${n}} after \`check\`: what its steps receive.`, def.properties, "Inputs"),
    ];
    files[`provider/resources/${n.toLowerCase()}/types.ts`] = parts.join("\n\n") + "\n";
  }
  return files;
}

/** `ApiKey` → `apiKey`: a resource's registry entry's name (provider/registry.ts). */
const camel = (name: string) => name[0].toLowerCase() + name.slice(1);

/** `ProjectPermission` → `PROJECT_PERMISSION`; the names released in 0.1.0 as they were. */
const constant = (name: string) =>
  ({ ApiKey: "APIKEY" })[name] ?? name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();

/**
 * Both faces' classes, generated from the registry (`npm run types:gen` writes
 * `provider/dynamic/resources.ts` and `provider/plugin/resources.ts`): per resource its class, its
 * args and outputs types and, in the dynamic face, its type token (and, for the resources released
 * in 0.1.0, the output keys they exported). A resource is a registry line, not a template per face.
 */
export function faceClasses(): Record<string, string> {
  const head = (face: string) => [
    `// Generated from provider/registry.ts by \`npm run types:gen\`: do not edit (a test fails when it is stale).`,
    `/** The ${face}'s class of every resource of the registry, with its args and outputs types. */`,
  ];
  const imports: string[] = [];
  const reexports: string[] = [];
  const dynamic: string[] = [];
  const plugin: string[] = [];
  for (const kind of RESOURCES) {
    const def = kind.definition;
    const n = def.name;
    const folder = `../resources/${n.toLowerCase()}/types`;
    const types = [...(kind.objectTypes ?? []).map((o) => `${o.name}Args`), `${n}Args`, `${n}Outputs`];
    const doc = (face: string) =>
      tsdoc(`${def.description} ${face} Inputs and outputs: \`docs/api/${n}.md\`.`, "");
    imports.push(`import type { ${n}Args, ${n}Outputs } from "${folder}";`);
    reexports.push(`export type { ${types.join(", ")} } from "${folder}";`);
    dynamic.push(
      `/** The type token of the dynamic class: \`pulumi-nodejs:dynamic/neon:${n}\`. */`,
      `export const ${constant(n)}_TYPE_TOKEN = dynamicTypeToken(registry.${camel(n)}.definition);`,
      ...(kind.releasedDynamic
        ? [
            `/** The keys seeded on every {@link ${n}} so that each output appears on the class. */`,
            `export const ${constant(n)}_OUTPUT_KEYS: readonly string[] = outputNames(registry.${camel(n)}.definition.properties);`,
          ]
        : []),
      doc(
        "A Pulumi dynamic resource (credentials: stack config `neon:apiKey` and `neon:apiUrl`, or `NEON_API_KEY` / `NEON_API_URL`).",
      ),
      `export const ${n} = dynamicClass<${n}Args, ${n}Outputs>(registry.${camel(n)});`,
      `export type ${n} = InstanceType<typeof ${n}>;`,
    );
    plugin.push(
      doc(`Served by the provider plugin as \`neoncompute:index:${n}\`.`),
      `export const ${n} = pluginClass<${n}Args, ${n}Outputs>(registry.${camel(n)});`,
      `export type ${n} = InstanceType<typeof ${n}>;`,
    );
  }
  const file = (face: string, own: string[], body: string[]) =>
    [
      ...head(face),
      ...own,
      `import * as registry from "../registry";`,
      ...imports,
      ...reexports,
      ...body,
    ].join("\n") + "\n";
  return {
    "provider/dynamic/resources.ts": file(
      "dynamic face",
      [
        `import { dynamicClass, dynamicTypeToken } from "./class";`,
        `import { outputNames } from "../resources/definition";`,
      ],
      dynamic,
    ),
    "provider/plugin/resources.ts": file(
      "provider plugin",
      [`import { pluginClass } from "./class";`],
      plugin,
    ),
  };
}

/** The TypeScript type of a lookup's argument or result field (plain values: no `pulumi.Input`). */
function plainType(p: PropertyDef): string {
  const t = p.type;
  if (typeof t === "string") {
    if (t === "string") return p.enum ? p.enum.map((v) => JSON.stringify(v)).join(" | ") : "string";
    return t === "boolean" ? "boolean" : "number";
  }
  if ("map" in t) return "Record<string, string>";
  if ("arrayOf" in t) return `${isPlainType(t.arrayOf) ? plainTs(t.arrayOf) : t.arrayOf}[]`;
  return t.object;
}

/** An interface of plain fields: arguments (`input`) or results (`output`), each with its TSDoc. */
function plainIface(
  name: string,
  doc: string,
  props: readonly PropertyDef[],
  side: "input" | "output",
): string {
  const body = props.flatMap((p) => {
    const presence = p[side];
    if (!presence) return [];
    return [
      p.deprecated ? deprecatedDoc(p.description, p.deprecated, "  ") : tsdoc(p.description, "  "),
      `  ${p.name}${presence === "optional" ? "?" : ""}: ${plainType(p)};`,
    ];
  });
  return [tsdoc(doc, ""), `export interface ${name} {`, ...body, "}"].join("\n");
}

/** `getConnectionUri` → `GetConnectionUri`. */
const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);

/**
 * The lookups' TypeScript types (`npm run types:gen` writes `provider/lookups/shapes.ts`): the object
 * types they return, each lookup's `<Name>Args`, and — for a lookup that returns an object of its own
 * rather than one list or an object type — its result, named after the lookup without `get`
 * (`getSchemaDiff` → `SchemaDiff`).
 */
export function lookupTypes(): Record<string, string> {
  const parts = [
    `// Generated from definitions.ts by \`npm run types:gen\`: do not edit (a test fails when it is stale).`,
    "/** The lookups' TypeScript types: the objects they return, their arguments and their results. */",
    ...OBJECT_TYPES.map((o) => plainIface(o.typescriptName ?? o.name, o.description, o.properties, "output")),
    ...LOOKUPS.flatMap((l) => [
      plainIface(`${pascal(l.name)}Args`, `Arguments of {@link ${l.name}}.`, l.args, "input"),
      // A list it wraps, or an object type's very fields (getCompute's ComputeInfo), has its type already.
      ...(l.wraps || OBJECT_TYPES.some((o) => o.properties === l.result)
        ? []
        : [
            plainIface(
              pascal(l.name).replace(/^Get/, ""),
              `The result of {@link ${l.name}}.`,
              l.result,
              "output",
            ),
          ]),
    ]),
  ];
  return { "provider/lookups/shapes.ts": parts.join("\n\n") + "\n" };
}
