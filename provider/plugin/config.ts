/**
 * The plugin's own configuration: `neoncompute:apiKey`, `neoncompute:apiUrl`,
 * `neoncompute:operationTimeoutSeconds` and `neoncompute:requestTimeoutSeconds` of the stack (default provider), or the arguments of an
 * explicit `Provider` resource, with the `NEON_*` environment variables as fallbacks. Pure.
 *
 * The stock provider server answers CheckConfig "unimplemented" and drops Configure's values; the
 * plugin's server (`server.ts`) answers both with these functions instead.
 */
import type { ProviderSettings } from "../resources/runtime";
import { UNKNOWN } from "../resources/compute/inputs";
import { closest } from "../resources/settings";
import { CONFIG, PACKAGE } from "./schema";
import { reveal } from "./secrets";

type Props = Record<string, unknown>;

/** Keys the engine itself adds to a provider's inputs. */
const ENGINE_KEYS = ["version", "pluginDownloadURL"];

/** A configuration problem reported at preview, against one key. */
export interface ConfigFailure {
  property: string;
  reason: string;
}

/**
 * CheckConfig: every key must be a setting of the package, an API key must be set (here or in
 * `NEON_API_KEY`), the timeout must be a positive number and the URL an http(s) URL. Values not
 * known yet (an explicit provider fed from another resource's output) are not judged.
 */
export function checkConfig(news: Props, env: NodeJS.ProcessEnv = process.env): ConfigFailure[] {
  const values = reveal(news) as Props;
  const failures: ConfigFailure[] = [];
  const names = CONFIG.map((c) => c.name);
  for (const key of Object.keys(values)) {
    if (names.includes(key) || ENGINE_KEYS.includes(key)) continue;
    failures.push({
      property: key,
      reason:
        `${PACKAGE}:${key} is not a setting of the ${PACKAGE} provider; did you mean ${PACKAGE}:${closest(key, names)}? ` +
        `(the settings are ${names.join(", ")})` +
        ` (remove it with \`pulumi config rm ${PACKAGE}:${key}\`)`,
    });
  }
  const known = (k: string) => values[k] !== undefined && values[k] !== "" && values[k] !== UNKNOWN;
  if (!known("apiKey") && values.apiKey !== UNKNOWN && !env.NEON_API_KEY) {
    failures.push({
      property: "apiKey",
      reason:
        `no API key is set: run \`pulumi config set --secret ${PACKAGE}:apiKey <key>\`, set NEON_API_KEY, ` +
        "or pass apiKey to the Provider resource",
    });
  }
  for (const [key, example] of [
    ["operationTimeoutSeconds", 1800],
    ["requestTimeoutSeconds", 60],
  ] as const) {
    if (known(key) && !(Number(values[key]) > 0)) {
      failures.push({
        property: key,
        reason:
          `${PACKAGE}:${key} is "${String(values[key])}"; set it to a number of seconds greater than 0, ` +
          `e.g. \`pulumi config set ${PACKAGE}:${key} ${example}\``,
      });
    }
  }
  if (known("apiUrl") && !/^https?:\/\/\S+$/.test(String(values.apiUrl))) {
    failures.push({
      property: "apiUrl",
      reason: `${PACKAGE}:apiUrl "${String(values.apiUrl)}" is not an http(s) URL (e.g. https://console.neon.tech/api/v2)`,
    });
  }
  return failures;
}

/**
 * The settings of one provider instance from Configure's `args` (the provider's inputs) or, from
 * engines that send only those, its `variables` (`neoncompute:config:apiKey` → value). Unset values
 * fall back to the environment when the client is made (`runtime.client()`).
 */
export function settingsFrom(args: Props | undefined, variables: Record<string, string>): ProviderSettings {
  const a = (reveal(args ?? {}) as Props) ?? {};
  const get = (name: string): string | undefined => {
    const v = a[name] ?? variables[`${PACKAGE}:config:${name}`] ?? variables[`${PACKAGE}:${name}`];
    if (v === undefined || v === null || v === "" || v === UNKNOWN) return undefined;
    return String(v);
  };
  const seconds = (name: string, env: string | undefined): number | undefined => {
    const value = get(name) ?? env;
    if (value === undefined) return undefined;
    if (!(Number(value) > 0)) {
      throw new Error(
        `Failed to configure the ${PACKAGE} provider: ${name} is "${value}"; set it to a ` +
          "number of seconds greater than 0.",
      );
    }
    return Number(value);
  };
  return {
    apiKey: get("apiKey"),
    apiUrl: get("apiUrl"),
    operationTimeoutSeconds: seconds("operationTimeoutSeconds", process.env.NEON_OPERATION_TIMEOUT_SECONDS),
    requestTimeoutSeconds: seconds("requestTimeoutSeconds", process.env.NEON_REQUEST_TIMEOUT_SECONDS),
  };
}

/** DiffConfig: which settings differ. A new key or URL never replaces resources: it is another login. */
export function diffConfig(olds: Props, news: Props): string[] {
  const o = reveal(olds) as Props;
  const n = reveal(news) as Props;
  return CONFIG.map((c) => c.name).filter((k) => JSON.stringify(o[k]) !== JSON.stringify(n[k]));
}
