/**
 * `diff` for `ApiKey`: a pure comparison of the old outputs (which carry the old inputs) with the
 * new, checked inputs. A key cannot be edited, so every change replaces it, and the replacement is
 * created before the old key is revoked: programs that hand the token on switch to the new one
 * while the old one still works.
 */
import type { Bag } from "../kit";
import { UNKNOWN } from "./inputs";
import { replaceNames, stableNames, type ResourceDef } from "../definition";
import { APIKEY_DEFINITION } from "./definition";

/** Inputs whose change replaces the key (a key cannot be edited); `importId` only matters at create. */
const REPLACE_PROPERTIES = replaceNames((APIKEY_DEFINITION as ResourceDef).properties);

/** The outputs an update keeps (the definition says which). */
const STABLE_OUTPUTS = stableNames((APIKEY_DEFINITION as ResourceDef).properties);

/** The result of comparing old and new inputs. */
export interface ApiKeyDiff {
  changes: boolean;
  replaces: string[];
  stables: string[];
  /** Always false: the new key exists before the old one is revoked. */
  deleteBeforeReplace: false;
}

/** True when `key` differs between the old outputs and the new inputs. */
export function propertyChanged(key: string, olds: Bag, news: Bag): boolean {
  const next = news[key];
  if (next === UNKNOWN) return true;
  // A trigger removed asks for nothing: there is no new value to rotate to.
  if (key === "rotationTrigger" && next === undefined) return false;
  // With projectId alone the provider finds the organization itself; the old output records it.
  if (key === "orgId" && next === undefined && news.projectId !== undefined) return false;
  return olds[key] !== next;
}

/** Compares old outputs with new inputs; see the module comment. */
export function diffApiKey(olds: Bag, news: Bag): ApiKeyDiff {
  const replaces = REPLACE_PROPERTIES.filter((k) => propertyChanged(k, olds, news));
  return {
    changes: replaces.length > 0,
    replaces: [...replaces],
    stables: replaces.length === 0 ? STABLE_OUTPUTS : [],
    deleteBeforeReplace: false,
  };
}
