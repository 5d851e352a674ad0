/**
 * The shape of a resource's or lookup's definition: one list of properties (name, type, whether it
 * is an input and/or an output, required, default, description, what a change does, secret) from
 * which the plugin schema (`provider/plugin/schema.ts`) and the API docs (`docs/api/*.md`) are
 * generated, and from which the key lists and input checks are derived (`check.ts`).
 *
 * Dependency-free data: the program process, the provider process and the generators all load it.
 */

/**
 * Values as the engine passes them: a step's inputs before `check`, a state before the kit hands it
 * on. Only the kit and the faces hold one; a resource's steps get {@link Checked} inputs and
 * {@link Stated} outputs.
 */
export type Bag = Record<string, unknown>;

/**
 * Inputs as `check` returned them: the resource's typed inputs (`<Name>Inputs`, generated from its
 * definition into `types.ts`) and the faces' own keys (`__urn`). At a preview a value may still be
 * unknown ({@link UNKNOWN}); `create` and `update` only ever get known ones.
 */
export type Checked<I extends object> = I & Bag;

/**
 * A state as the engine holds it: the resource's outputs (`<Name>Outputs`), as this or an earlier
 * version wrote them (so each may be missing), and the faces' own keys.
 */
export type Stated<O extends object> = Partial<O> & Bag;

/** The value Pulumi passes for inputs not yet known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Properties the faces add for the provider's own use; never user inputs. */
export const INTERNAL_KEYS = ["__provider", "__urn"] as const;

/**
 * An input naming where a new object is made: a project, or a branch of the project the resource's
 * `project` target names. Read by `check` when the resource is new or the value changed.
 */
export interface TargetDef {
  property: string;
  kind: "project" | "branch";
}

/** The module of the dynamic resources' type tokens: `pulumi-nodejs:dynamic/neon:<Name>`. */
export const DYNAMIC_MODULE = "neon";

/** The plugin's package name (docs/decisions/0011): not `neon`, which the registry's bridged package owns. */
export const PACKAGE = "neoncompute";

/** A property's type. Object types are named by their key in {@link Definitions.types}. */
export type PropertyType =
  "string" | "number" | "integer" | "boolean" | { map: "string" } | { arrayOf: string } | { object: string };
// `arrayOf` names an object type of the package, or a plain type ("string": a list of strings).

/** Whether an `arrayOf` names a plain type (a list of strings) rather than an object type. */
export function isPlainType(name: string): name is "string" | "number" | "integer" | "boolean" {
  return name === "string" || name === "number" || name === "integer" || name === "boolean";
}

/** The TypeScript type of a plain type. */
export const plainTs = (name: "string" | "number" | "integer" | "boolean"): string =>
  name === "integer" ? "number" : name;

/** What changing an input does to an existing resource. */
export type ChangeEffect =
  /** Applied in place, without interrupting the resource. */
  | "update"
  /** Applied in place; the compute restarts and drops its open connections. */
  | "restart"
  /** Needs a new resource: the old one is deleted (or, for API keys, revoked after the new one exists). */
  | "replace"
  /** Read only when the resource is created; later changes do nothing. */
  | "create-only"
  /** Set at creation; a later change fails at preview (the resource is never replaced, e.g. a project). */
  | "refused"
  /** Shapes how the provider works (e.g. a wait deadline); a change does nothing to the resource. */
  | "none";

/**
 * How a resource's diff compares an input's new value with the old one (default `value`):
 * `value` — any difference, left out = cleared; `kept-when-absent` — left out, the current value
 * stands (the service's choice); `nested` — an object compared key by key, only the keys given,
 * left out = kept; `false-when-absent` / `true-when-absent` — a flag whose absence means `false` / `true`;
 * `trigger` — changes when
 * given a new value (left out = nothing to do); `instant` — an RFC 3339 time compared as the instant.
 */
export type Comparison =
  "value" | "kept-when-absent" | "nested" | "false-when-absent" | "true-when-absent" | "trigger" | "instant";

/** One property of a resource, an object type, or a lookup's arguments or result. */
export interface PropertyDef {
  name: string;
  type: PropertyType;
  /** Allowed values (strings only). */
  enum?: readonly string[];
  /** Markdown, one paragraph; the dynamic class's TSDoc says the same. */
  description: string;
  /** An input of the resource (or an argument of the lookup): `required` or `optional`. */
  input?: "required" | "optional";
  /** An output of the resource (or a field of an object/result): always present or sometimes absent. */
  output?: "always" | "optional";
  /** The value the provider uses when the input is left out (it goes into the schema). */
  default?: string | number | boolean;
  /** What the platform does when the input is left out (docs only). */
  platformDefault?: string;
  /** What changing the input does (inputs of resources only). */
  change?: ChangeEffect;
  /** How a diff compares old and new values (inputs of resources only; see {@link Comparison}). */
  compare?: Comparison;
  /** Compared through other properties in diffs (e.g. `cu` through `minCu`/`maxCu`). */
  comparedThrough?: readonly string[];
  /** Stored encrypted in the state and shown as `[secret]`. */
  secret?: boolean;
  /**
   * Never changes while the object lives (an id, a creation time, a setting fixed at creation): an
   * update's preview shows the old value as known instead of "computed".
   */
  stable?: boolean;
  /**
   * Retired: what to use instead. The schema and the generated types mark it deprecated, and a
   * program that sets it gets a warning at preview.
   */
  deprecated?: string;
}

/** A resource: its token's type name, its docs and its properties. */
export interface ResourceDef {
  /** The type name: `<pkg>:index:<name>` for the plugin, `pulumi-nodejs:dynamic/neon:<name>` for the dynamic face. */
  name: string;
  /** Markdown: what the resource is. */
  description: string;
  properties: readonly PropertyDef[];
  /** How `pulumi import` names an existing resource, and an example. */
  importId: { format: string; example: string };
  /** Type tokens the resource was known under before (aliases: moving a stack changes nothing). */
  aliases: readonly string[];
  /** Short example programs (docs). */
  examples: { title: string; yaml: string; typescript: string };
  /** Extra notes for the docs (markdown paragraphs). */
  notes?: readonly string[];
}

/** A lookup (a function of the package): its arguments and result. */
export interface LookupDef {
  /** The function name: `<pkg>:index:<name>`. */
  name: string;
  description: string;
  /** Arguments: properties with `input` set. */
  args: readonly PropertyDef[];
  /**
   * The result: its fields (properties with `output` set). When `wraps` is set, the TypeScript
   * function returns the value of that single field (a list), the plugin returns the object.
   */
  result: readonly PropertyDef[];
  wraps?: string;
  examples: { yaml: string; typescript: string };
}

/** An object type used by lookups' results. */
export interface ObjectTypeDef {
  name: string;
  /** Its TypeScript name when it differs from the schema's `name` (`Operation` is `OperationInfo`). */
  typescriptName?: string;
  description: string;
  properties: readonly PropertyDef[];
}

/** Names of the inputs of a definition, in order. */
export function inputNames(props: readonly PropertyDef[]): string[] {
  return props.filter((p) => p.input).map((p) => p.name);
}

/** Names of the outputs of a definition, in order. */
export function outputNames(props: readonly PropertyDef[]): string[] {
  return props.filter((p) => p.output).map((p) => p.name);
}

/** Names of the inputs whose change replaces the resource, in order. */
export function replaceNames(props: readonly PropertyDef[]): string[] {
  return props.filter((p) => p.input && p.change === "replace").map((p) => p.name);
}

/**
 * Names of the outputs an update (not a replacement) keeps: those marked {@link PropertyDef.stable}
 * and the inputs whose change would replace the object.
 */
export function stableNames(props: readonly PropertyDef[]): string[] {
  return props
    .filter((p) => p.output && (p.stable || (p.input && p.change === "replace")))
    .map((p) => p.name);
}

/** Names of the outputs the engine stores encrypted. */
export function secretNames(props: readonly PropertyDef[]): string[] {
  return props.filter((p) => p.secret).map((p) => p.name);
}

/** A required string input that is always an output and whose change replaces the resource (an id, a name). */
export function fixedInput(name: string, description: string): PropertyDef {
  return { name, type: "string", input: "required", output: "always", change: "replace", description };
}

/** The `importId` input every resource has: read when the resource is created, never after. */
export function importIdInput(description: string): PropertyDef {
  return {
    name: "importId",
    type: "string",
    input: "optional",
    output: "optional",
    change: "create-only",
    description,
  };
}

/** The `createdAt` output (ISO 8601 UTC, as the service gives it). */
export function createdAtOutput(output: "always" | "optional", description: string): PropertyDef {
  return { name: "createdAt", type: "string", output, stable: true, description };
}

/** A compute's size as an object type gives it (`BranchCompute`, `ProjectDefaultCompute`). */
export const COMPUTE_SIZE_PROPERTIES: readonly PropertyDef[] = [
  {
    name: "cu",
    type: "number",
    input: "optional",
    output: "optional",
    description: "A fixed size in compute units (sets `minCu` and `maxCu` to it).",
  },
  {
    name: "minCu",
    type: "number",
    input: "optional",
    output: "optional",
    description: "Autoscaling lower bound in compute units (with `maxCu`).",
  },
  {
    name: "maxCu",
    type: "number",
    input: "optional",
    output: "optional",
    description: "Autoscaling upper bound in compute units (with `minCu`).",
  },
];

/** An optional boolean input read only when the resource is created (`adopt`, `adoptDefault`, …). */
export function createOnlyFlag(name: string, description: string): PropertyDef {
  return { name, type: "boolean", input: "optional", output: "optional", change: "create-only", description };
}

/** An optional string input whose new value asks for an action (a reset, a rotation); left out, nothing is done. */
export function triggerInput(name: string, change: ChangeEffect, description: string): PropertyDef {
  return {
    name,
    type: "string",
    input: "optional",
    output: "optional",
    change,
    compare: "trigger",
    description,
  };
}

/** An optional field of an object type (both given and read back). */
export function optionalField(name: string, type: PropertyType, description: string): PropertyDef {
  return { name, type, input: "optional", output: "optional", description };
}

/**
 * The `name` input of a resource the provider names itself when it is left out, so that a killed
 * run's object is found again (docs/decisions/0002); renamed in place.
 */
export function autoNameInput(description: string): PropertyDef {
  return {
    name: "name",
    type: "string",
    input: "optional",
    output: "always",
    change: "update",
    compare: "kept-when-absent",
    platformDefault: "derived from the resource's name and a hash of its URN",
    description,
  };
}
