/**
 * Secret values on the wire. The plugin tells the engine it accepts secrets, so secret inputs and
 * configuration arrive as `{ <sig>: <secret sig>, value }` objects; the implementation wants plain
 * values, and outputs that must stay secret go back wrapped the same way.
 */

import type { Bag } from "../resources/definition";

/** The signature key and value Pulumi uses to mark a secret on the wire. */
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** True when `v` is a wire-format secret. */
export function isSecret(v: unknown): v is { value: unknown } {
  return Boolean(v && typeof v === "object" && (v as Bag)[SIG] === SECRET_SIG);
}

/** A plain copy of `v` with every secret replaced by its value. */
export function reveal(v: unknown): unknown {
  if (isSecret(v)) return reveal(v.value);
  if (Array.isArray(v)) return v.map(reveal);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v as Bag).map(([k, x]) => [k, reveal(x)]));
  }
  return v;
}

/** True when `v` is a secret or holds one (in a map or a list, at any depth). */
function holdsSecret(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(holdsSecret);
  return Boolean(v && typeof v === "object" && Object.values(v as Bag).some(holdsSecret));
}

/**
 * The top-level keys of `props` whose values are or hold secrets: a map with one secret value (a
 * branch's `annotations`) goes back secret as a whole, since outputs are marked per top-level key.
 */
export function secretKeys(props: Bag | undefined): string[] {
  return Object.entries(props ?? {})
    .filter(([, v]) => holdsSecret(v))
    .map(([k]) => k);
}

/** `v` marked secret. */
export function secret(v: unknown): unknown {
  return { [SIG]: SECRET_SIG, value: v };
}

/** A copy of `props` whose `keys` (when present) are marked secret. */
export function conceal(props: Bag, keys: Iterable<string>): Bag {
  const out = { ...props };
  for (const k of keys) if (out[k] !== undefined && !isSecret(out[k])) out[k] = secret(out[k]);
  return out;
}
