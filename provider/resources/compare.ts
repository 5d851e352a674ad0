/**
 * How a change of an input is judged, from the definition: each input says what a change does
 * (`change`) and how old and new values are compared (`compare`, default `value`). The kit derives
 * from it a resource's replace / update / refused lists and the keys of the engine's detailed diff;
 * a resource overrides only what is special (Compute's effective sizes). Pure.
 */
import { stableNames, UNKNOWN, type PropertyDef, type ResourceDef, type Bag } from "./definition";

/** Equal as JSON, absent counting as `null`. */
export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Whether input `p` differs between the old outputs and the new inputs, by its `compare`. */
export function inputChanged(p: PropertyDef, olds: Bag, news: Bag): boolean {
  const next = news[p.name];
  const old = olds[p.name];
  if (next === UNKNOWN) return true;
  switch (p.compare ?? "value") {
    case "kept-when-absent":
      return next !== undefined && !same(old, next);
    case "nested":
      if (next === undefined) return false;
      if (typeof next !== "object" || next === null) return !same(old, next);
      return Object.entries(next as Bag).some(([k, v]) => v === UNKNOWN || !same(((old ?? {}) as Bag)[k], v));
    case "false-when-absent":
      return (next ?? false) !== (old ?? false);
    case "true-when-absent":
      return (next ?? true) !== (old ?? true);
    case "trigger":
      return next !== undefined && next !== old;
    case "instant":
      // One instant, however written: the service answers `…00.000Z` for `…00Z`.
      if (typeof next === "string" && typeof old === "string") return Date.parse(next) !== Date.parse(old);
      return !same(old, next);
    case "value":
    default:
      return !same(old, next);
  }
}

/** Whether the input named `key` of `def` changed (see {@link inputChanged}). */
export function changedInput(def: ResourceDef, key: string, olds: Bag, news: Bag): boolean {
  const p = def.properties.find((q) => q.name === key && q.input);
  if (!p) throw new Error(`${def.name} has no input ${key}`);
  return inputChanged(p, olds, news);
}

/** The inputs that changed, by what their change does: the diff a resource's definition implies. */
export interface DefinedDiff {
  /** Changes that need a new object. */
  replaces: string[];
  /** Changes made in place (`update` and `restart`). */
  updates: string[];
  /** Changes the resource refuses (set at creation, never replaced). */
  refused: string[];
  changes: boolean;
  /** The outputs an update keeps ({@link stableNames}); none when the object is replaced. */
  stables: string[];
}

/** The diff a definition implies between old outputs and new inputs (inputs in definition order). */
export function definedDiff(def: ResourceDef, olds: Bag, news: Bag): DefinedDiff {
  const changed = def.properties.filter((p) => p.input && inputChanged(p, olds, news));
  const by = (...effects: string[]) =>
    changed.filter((p) => effects.includes(p.change ?? "")).map((p) => p.name);
  const d = { replaces: by("replace"), updates: by("update", "restart"), refused: by("refused") };
  const changes = d.replaces.length + d.updates.length + d.refused.length > 0;
  return { ...d, changes, stables: d.replaces.length === 0 ? stableNames(def.properties) : [] };
}

/** The keys of the engine's detailed diff: every input whose change does something. */
export function definedChangedKeys(def: ResourceDef, olds: Bag, news: Bag): string[] {
  const d = definedDiff(def, olds, news);
  return [...d.replaces, ...d.refused, ...d.updates];
}
