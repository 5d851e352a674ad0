/**
 * `diff` for `Compute`: a pure comparison of the old outputs (which carry the
 * old inputs) with the new, checked inputs.
 *
 * Values are compared in their effective form, so a platform default written
 * out (or echoed back by the API after a refresh) is not a change.
 */
import { SUSPEND_TIMEOUT_DEFAULT_SECONDS, UNKNOWN } from "./inputs";
import { inputNames, replaceNames, stableNames, type ResourceDef } from "../definition";
import type { Bag, Checked, Stated } from "../kit";
import { COMPUTE_DEFINITION } from "./definition";
import type { ComputeInputs, ComputeOutputs } from "./types";

const DEFINITION: ResourceDef = COMPUTE_DEFINITION;

/**
 * The state key holding the project's default suspend timeout, recorded beside a compute whose own is
 * `0` ("the project's default"), so that the next diff compares 0 with what it means for that project.
 */
export const PROJECT_SUSPEND_DEFAULT_KEY = "__projectSuspendTimeoutSeconds";

/** Every input of `Compute`, in the order diffs and docs list them. */
export const COMPUTE_INPUT_KEYS: readonly string[] = inputNames(DEFINITION.properties);

/** Inputs whose change needs a new compute. */
export const REPLACE_PROPERTIES: readonly string[] = replaceNames(DEFINITION.properties);

/**
 * Inputs changed in place (a PATCH, or for restartTrigger a restart call). Inputs compared through
 * others (`cu` through minCu/maxCu), read at create only, or shaping only the provider are not.
 */
export const UPDATE_PROPERTIES: readonly string[] = DEFINITION.properties
  .filter((p) => p.input && (p.change === "update" || p.change === "restart") && !p.comparedThrough)
  .map((p) => p.name);

/** The outputs an update keeps (the definition says which). */
const STABLE_OUTPUTS = stableNames(DEFINITION.properties);

/** The result of comparing old and new inputs. */
export interface ComputeDiff {
  changes: boolean;
  replaces: string[];
  /** In-place updates, in a stable order. */
  updates: string[];
  stables: string[];
  deleteBeforeReplace: boolean;
  /** Set when the change restarts the compute and drops its connections. */
  restartWarning?: string;
}

// How each property reads when it is left unset, so that "unset" and "the default" compare equal.
// Properties in DONT_CARE_WHEN_UNSET are "don't care" when unset: the platform picks a value and
// leaving the input out never asks to change it (removing such an input keeps the current value).
function effective(key: string, value: unknown, projectDefault: number): unknown {
  switch (key) {
    case "type":
      return value ?? "read_write";
    case "suspendTimeoutSeconds":
      // 0 means "the project's default" (its own setting, else the service's 300 s).
      return value === 0 ? projectDefault : value;
    case "pgSettings":
      return value ?? {};
    case "disabled":
      return value ?? false;
    default:
      return value;
  }
}

const DONT_CARE_WHEN_UNSET = new Set([
  "name",
  "provisioner",
  "regionId",
  "minCu",
  "maxCu",
  "restartTrigger",
  // The platform (or the project's settings) decides; the API echoes whatever that is.
  "suspendTimeoutSeconds",
]);

/** Deep equality of plain JSON values, ignoring key order. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
    return ka.every((k) => sameValue((a as Bag)[k], (b as Bag)[k]));
  }
  return false;
}

function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * True when `key` differs between the old and new inputs. `news` is the checked inputs, or (to find
 * what an imported compute sets) its outputs.
 */
export function propertyChanged(key: string, olds: Stated<ComputeOutputs>, news: Bag): boolean {
  const next = news[key];
  if (containsUnknown(next)) return true;
  if (next === undefined && DONT_CARE_WHEN_UNSET.has(key)) {
    // restartTrigger removed: nothing to restart. A size removed: keep what runs.
    return false;
  }
  // The project's default suspend timeout as read when the old outputs were written (only when it mattered).
  const d = olds[PROJECT_SUSPEND_DEFAULT_KEY];
  const projectDefault = typeof d === "number" && d !== 0 ? d : SUSPEND_TIMEOUT_DEFAULT_SECONDS;
  return !sameValue(effective(key, olds[key], projectDefault), effective(key, next, projectDefault));
}

/** Compares old outputs with new inputs; see the module comment. */
export function diffCompute(olds: Stated<ComputeOutputs>, news: Checked<ComputeInputs>): ComputeDiff {
  const replaces = REPLACE_PROPERTIES.filter((k) => propertyChanged(k, olds, news));
  const updates = UPDATE_PROPERTIES.filter((k) => propertyChanged(k, olds, news));
  const result: ComputeDiff = {
    changes: replaces.length > 0 || updates.length > 0,
    replaces: [...replaces],
    updates: [...updates],
    stables: replaces.length === 0 ? STABLE_OUTPUTS : [],
    // A branch holds one read_write compute, so the old one has to go before its replacement comes;
    // read_only computes are replaced the same way (see docs/decisions/0005), so a replacement never
    // runs beside the compute it replaces — nor beside one carrying its explicit name. Asked for on
    // every diff: the engine also replaces for the replaceOnChanges option, and reads this then too.
    deleteBeforeReplace: true,
  };
  if (replaces.length === 0) result.restartWarning = sizeChangeWarning(olds, news);
  return result;
}

/**
 * The warning for a size change (minCu or maxCu differ): it restarts the compute and drops its
 * connections. One rule for a `Compute` and a branch's own compute (`Branch.compute`).
 */
export function sizeChangeWarning(olds: Bag, news: Bag): string | undefined {
  if (!propertyChanged("minCu", olds, news) && !propertyChanged("maxCu", olds, news)) return undefined;
  return (
    `changing the compute size (${describeSize(olds)} → ${describeSize(news)}) restarts the compute ` +
    "and drops its open connections"
  );
}

function describeSize(p: Bag): string {
  const min = p.minCu;
  const max = p.maxCu;
  if (min === UNKNOWN || max === UNKNOWN) return "(known after apply)";
  if (min === undefined && max === undefined) return "platform default";
  return min === max ? `${String(min)} CU` : `${String(min)}–${String(max)} CU`;
}
