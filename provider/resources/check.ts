/**
 * `check`, once for every resource: inputs are validated against a zod schema derived from the
 * resource's definition (its input names, which are required, their types and allowed values), with
 * the resource's own rules for the properties that need more (a pattern, a range, a message naming
 * the remedy). Values not known yet (preview) are set aside, neither validated nor altered; every
 * problem becomes one `CheckFailure` naming the property.
 *
 * Pure: no network, no clock.
 */
import { z } from "zod";
import {
  INTERNAL_KEYS,
  UNKNOWN,
  type Bag,
  type Checked,
  type PropertyDef,
  type ResourceDef,
} from "./definition";
import { didYouMean } from "./settings";

/**
 * A name people read and type (a project, a branch, a role, a database): 1–`max` characters with no
 * control character (a newline, a NUL) and no space at either end, which the service or Postgres
 * refuses or keeps in a way nobody can type back. Control characters are Unicode's (C0, DEL and C1,
 * such as U+0085) and the line and paragraph separators U+2028 and U+2029, which break a line as a
 * newline does.
 */
export function displayName(max: number) {
  return z
    .string({ error: "must be a string" })
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` })
    .refine((s) => !/[\p{Cc}\u2028\u2029]/u.test(s), {
      error: "must not contain a control character or line break (a newline, a tab, a NUL, U+0085, U+2028)",
      abort: true,
    })
    .refine((s) => s.trim() === s, { error: "must not begin or end with a space" });
}

/** A validation failure reported against one input property. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** The schema a property's type and enum give, for properties without a rule of their own. */
function baseSchema(p: PropertyDef): z.ZodType {
  if (p.enum)
    return z.enum(p.enum as [string, ...string[]], { error: `must be one of ${p.enum.join(", ")}` });
  switch (p.type) {
    case "string":
      return z.string({ error: "must be a string" });
    case "number":
      return z.number({ error: "must be a number" });
    case "integer":
      return z.number({ error: "must be a whole number" }).int({ error: "must be a whole number" });
    case "boolean":
      return z.boolean({ error: "must be true or false" });
    default:
      if ("map" in p.type) {
        return z.record(z.string(), z.string({ error: "values must be strings" }), {
          error: "must be a map of names to string values",
        });
      }
      // An object or a list has no schema of its own: the resource gives a rule for it.
      throw new Error(`the input ${p.name} is ${JSON.stringify(p.type)}: give a check rule for it`);
  }
}

/**
 * The strict input schema of a resource: one key per input of the definition, required ones
 * required. `rules` replaces the derived schema of a property (give it without `.optional()`);
 * a rule for a name that is not an input is a programming error and throws.
 */
export function inputSchema(def: ResourceDef, rules: Readonly<Record<string, z.ZodType>> = {}) {
  const inputs = def.properties.filter((p) => p.input);
  for (const name of Object.keys(rules)) {
    if (!inputs.some((p) => p.name === name)) {
      throw new Error(`${def.name}: a check rule for ${name}, which is not an input of the definition`);
    }
  }
  const shape: Record<string, z.ZodType> = {};
  for (const p of inputs) {
    const s = rules[p.name] ?? withName(def, () => baseSchema(p));
    shape[p.name] = p.input === "required" ? s : s.optional();
  }
  return z.strictObject(shape);
}

function withName<T>(def: ResourceDef, f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw new Error(`${def.name}: ${(err as Error).message}`);
  }
}

/** A resource's checked inputs (normalised, unknown values left as they are) and what is wrong with them. */
export interface InputsCheck<I extends object = object> {
  inputs: Checked<I>;
  failures: CheckFailure[];
}

/**
 * A resource's checked inputs: `news` as given (values not known yet kept as they are), typed as
 * the resource's inputs. The type is the definition's (`types.ts` is generated from it) and so is
 * the schema `checkAgainst` judged them by; where `failures` is not empty the step answers them with
 * the inputs as given instead.
 */
export function inputsChecked<I extends object>(news: Bag, failures: CheckFailure[]): InputsCheck<I> {
  return { inputs: { ...news } as Checked<I>, failures };
}

/** The outcome of {@link checkAgainst}. */
export interface AgainstSchema {
  /** The known values, parsed when they passed. */
  value: Bag;
  /** Inputs whose value is not known yet. */
  unknownKeys: Set<string>;
  failures: CheckFailure[];
  /** True when every known value passed the schema (but for problems left to `up`: see {@link checkAgainst}). */
  parsed: boolean;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (i === 0 ? String(p) : `.${String(p)}`)).join("");
}

/** Whether `v` is a value not known yet (in a list, typed as what it will be). */
export const isUnknown = (v: unknown): boolean => v === UNKNOWN;

/** Whether `v` is a value not known yet or holds one (in a list or an object, at any depth). */
export function holdsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(holdsUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(holdsUnknown);
  return false;
}

/**
 * Whether a problem the schema found at `path` of `known` may be one of a value not known yet: the
 * value at the path is or holds one, or one stands on the way to it (a list whose element is unknown,
 * an object whose field is). Judged when the value is known, at `up`.
 */
function aboutUnknown(known: Bag, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  let v: unknown = known;
  for (const key of path) {
    if (v === UNKNOWN) return true;
    if (v === null || typeof v !== "object") return false;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return holdsUnknown(v);
}

/**
 * Validates `news` against `schema` (from {@link inputSchema}). Unknown values are left out of the
 * validation (a required input that is merely unknown is not reported missing), and so are the
 * unknown entries of a map; a problem of a list or an object that holds an unknown value (a list of
 * domains one of which is an output of another resource) is left to `up`, where it is known.
 */
export function checkAgainst(def: ResourceDef, schema: z.ZodObject, news: Bag): AgainstSchema {
  const known: Bag = {};
  const unknownKeys = new Set<string>();
  for (const [key, value] of Object.entries(news)) {
    if ((INTERNAL_KEYS as readonly string[]).includes(key)) continue;
    if (value === undefined || value === null) continue;
    if (value === UNKNOWN) {
      unknownKeys.add(key);
      continue;
    }
    const p = def.properties.find((q) => q.name === key);
    const isMap = p && typeof p.type === "object" && "map" in p.type;
    if (isMap && value && typeof value === "object" && !Array.isArray(value)) {
      known[key] = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== UNKNOWN));
      continue;
    }
    known[key] = value;
  }
  const shape = Object.fromEntries(Object.entries(schema.shape).filter(([k]) => !unknownKeys.has(k)));
  const result = z.strictObject(shape).safeParse(known);
  const failures: CheckFailure[] = [];
  if (!result.success) {
    const names = def.properties.filter((p) => p.input).map((p) => p.name);
    for (const issue of result.error.issues) {
      if (aboutUnknown(known, issue.path)) continue;
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) {
          failures.push({
            property: key,
            reason:
              `${key} is not an input of ${def.name}${didYouMean(key, names)} ` +
              `(the inputs are ${names.join(", ")})`,
          });
        }
        continue;
      }
      const property = formatPath(issue.path);
      failures.push({ property, reason: `${property} ${issue.message}` });
    }
  }
  // Where the only problems were of unknown values, the known values stand as given (nothing is
  // altered by the schemas), unknown ones inside them.
  return {
    value: result.success ? (result.data as Bag) : known,
    unknownKeys,
    failures,
    parsed: failures.length === 0,
  };
}
