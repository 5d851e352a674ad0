/**
 * The plugin's own configuration: `neoncompute:<setting>` of the stack (default provider), or the
 * arguments of an explicit `Provider` resource, with the `NEON_*` environment variables as
 * fallbacks — parsed by the same `parseSettings` as the dynamic face's. Pure.
 *
 * The stock provider server answers CheckConfig "unimplemented" and drops Configure's values; the
 * plugin's server (`server.ts`) answers both with these functions instead.
 */
import { PACKAGE, type Bag } from "../resources/definition";
import {
  parseSettings,
  settingsOrThrow,
  SETTINGS,
  type ProviderSettings,
  type SettingFailure,
} from "../resources/settings";
import { reveal } from "./secrets";

/** Keys the engine itself adds to a provider's inputs. */
const ENGINE_KEYS = ["version", "pluginDownloadURL"];

/** A configuration problem reported at preview, against one key. */
export type ConfigFailure = SettingFailure;

/**
 * CheckConfig: every key must be a setting of the package, an API key must be set (here or in
 * `NEON_API_KEY`), the timeouts must be positive numbers and the URL an http(s) URL. Values not
 * known yet (an explicit provider fed from another resource's output) are not judged.
 */
export function checkConfig(news: Bag, env: NodeJS.ProcessEnv = process.env): ConfigFailure[] {
  const values = reveal(news) as Bag;
  const keys = Object.keys(values).filter((k) => !ENGINE_KEYS.includes(k));
  return parseSettings(PACKAGE, (name) => values[name], keys, env).failures;
}

/**
 * The settings of one provider instance from Configure's `args` (the provider's inputs) or, from
 * engines that send only those, its `variables` (`neoncompute:config:apiKey` → value). Unset values
 * fall back to the environment.
 */
export function settingsFrom(
  args: Bag | undefined,
  variables: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): ProviderSettings {
  const a = (reveal(args ?? {}) as Bag) ?? {};
  const get = (name: string): unknown =>
    a[name] ?? variables[`${PACKAGE}:config:${name}`] ?? variables[`${PACKAGE}:${name}`];
  // Unknown keys and a missing key are CheckConfig's to report; Configure judges only the values.
  const parsed = parseSettings(PACKAGE, get, [], env);
  return settingsOrThrow({ ...parsed, failures: parsed.failures.filter((f) => f.property !== "apiKey") });
}

/** DiffConfig: which settings differ. A new key or URL never replaces resources: it is another login. */
export function diffConfig(olds: Bag, news: Bag): string[] {
  const o = reveal(olds) as Bag;
  const n = reveal(news) as Bag;
  return SETTINGS.map((c) => c.name).filter((k) => JSON.stringify(o[k]) !== JSON.stringify(n[k]));
}
