/**
 * The provider's settings, once: their names, types, environment fallbacks and docs, and the one
 * parser both faces use. The dynamic provider reads them as `neon:<name>`, the plugin as
 * `neoncompute:<name>` (and as an explicit provider's arguments); the plugin schema and the docs are
 * generated from this list. Dependency-free.
 */
import { UNKNOWN, type PropertyDef } from "./definition";

/** One setting: a property with the environment variable it falls back to (none for `apiKeyEnv`). */
export type SettingDef = PropertyDef & { env?: string };

/** Every setting of the provider, in docs order. */
export const SETTINGS: readonly SettingDef[] = [
  {
    name: "apiKey",
    type: "string",
    secret: true,
    env: "NEON_API_KEY",
    description:
      "The Neon API key the provider acts with (a personal, organization or project-scoped key). " +
      "Falls back to the `NEON_API_KEY` environment variable.",
  },
  {
    name: "apiKeyEnv",
    type: "string",
    description:
      "The name of an environment variable holding the API key (e.g. `STAGING_NEON_API_KEY`), instead of " +
      "`apiKey`: the provider reads that variable in its own process each time it starts (preview, up, " +
      "refresh, destroy), so the state keeps only the name, never the key. Set the variable in the " +
      "environment of every `pulumi` command that uses this provider. Not together with `apiKey`; when " +
      "set, `NEON_API_KEY` is not read.",
  },
  {
    name: "apiUrl",
    type: "string",
    env: "NEON_API_URL",
    description:
      "Base URL of the control API v2 (default `https://console.neon.tech/api/v2`). Falls back to `NEON_API_URL`.",
  },
  {
    name: "operationTimeoutSeconds",
    type: "integer",
    env: "NEON_OPERATION_TIMEOUT_SECONDS",
    description:
      "Deadline in seconds of one wait on the control plane's operations (default 1200). A resource's " +
      "`customTimeouts` take precedence for its create, update and delete. Falls back to " +
      "`NEON_OPERATION_TIMEOUT_SECONDS`.",
  },
  {
    name: "requestTimeoutSeconds",
    type: "integer",
    env: "NEON_REQUEST_TIMEOUT_SECONDS",
    description:
      "How long one request may go unanswered, in seconds, before it is retried (default 30). Falls back " +
      "to `NEON_REQUEST_TIMEOUT_SECONDS`.",
  },
];

/** Environment variables the program's process reads (not settings of a provider instance). */
export const PROGRAM_ENVIRONMENT: readonly { name: string; description: string }[] = [
  {
    name: "NEON_COMPUTE_ADMISSION",
    description:
      "`off` turns off the fair share of the engine's steps per project during `up` (dynamic `Compute` " +
      "resources; on by default). See docs/guide.md.",
  },
];

/** Settings of one provider instance, as parsed by {@link parseSettings}. */
export interface ProviderSettings {
  apiKey?: string;
  /** The name of the environment variable the key is read from when the client is made. */
  apiKeyEnv?: string;
  apiUrl?: string;
  /** Deadline for one wait on operations, in seconds. */
  operationTimeoutSeconds?: number;
  /** How long one request may go unanswered, in seconds. */
  requestTimeoutSeconds?: number;
}

/** A configuration problem, against one setting. */
export interface SettingFailure {
  property: string;
  reason: string;
}

/** Default deadline of one wait on operations (and of one request's retries). */
export const DEFAULT_OPERATION_TIMEOUT_SECONDS = 20 * 60;
/** Default time one request may go unanswered. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;

/** Examples of the timeouts, for messages. */
const EXAMPLE_SECONDS: Record<string, number> = { operationTimeoutSeconds: 1800, requestTimeoutSeconds: 60 };

/**
 * The one "no API key" message: how to set the key in the face's `namespace` (`neon` for the dynamic
 * resources, `neoncompute` for the plugin), and why refresh and destroy may not see a new one.
 */
export function noApiKeyMessage(namespace: string, user: "provider" | "lookup" = "provider"): string {
  const set = `Set it with \`pulumi config set --secret ${namespace}:apiKey <key>\` or the NEON_API_KEY environment variable`;
  if (user === "lookup") {
    // Lookups run in the program, with the program's configuration: no saved provider state.
    return `Failed to run a Neon lookup: no API key is set. ${set}.`;
  }
  return (
    `Failed to configure the Neon provider: no API key is set. ${set}` +
    (namespace === "neon"
      ? ""
      : ", or pass apiKey (or apiKeyEnv, the name of a variable holding it) to the Provider resource") +
    ". `pulumi refresh` and `pulumi destroy` use the configuration saved in the stack's state by the last " +
    "update: if the key was added or changed since, run them with `--run-program`, or set NEON_API_KEY."
  );
}

/** A portable environment variable name (POSIX: letters, digits and `_`, not starting with a digit). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Whether an `apiKeyEnv` value looks like a key pasted where its variable's name belongs: long, with
 * lowercase letters and digits (the service's keys are 64 such characters; variable names are short
 * and mostly upper case). Such a value is never repeated in a message.
 */
function looksLikeKey(name: string): boolean {
  return name.length >= 32 && /[a-z]/.test(name) && /[0-9]/.test(name);
}

/** Why the variable `apiKeyEnv` names gives no key, and the remedy (the name only, never a value). */
export function unsetKeyVariableReason(namespace: string, variable: string): string {
  return (
    `${namespace}:apiKeyEnv names the environment variable ${variable}, which is not set or is empty. ` +
    `Set ${variable} to the API key in the environment of the \`pulumi\` command (preview, up, refresh ` +
    "and destroy each read it when the provider starts), or name the variable that holds the key"
  );
}

/**
 * The API key of a provider instance, read now: from the variable `apiKeyEnv` names when it is set
 * (never `NEON_API_KEY` then: a missing variable must not fall through to another account's key),
 * else `apiKey`, else `NEON_API_KEY`. Throws the face's "no key" message when there is none.
 */
export function apiKeyOf(settings: ProviderSettings, namespace: string, env: NodeJS.ProcessEnv): string {
  if (settings.apiKeyEnv !== undefined) {
    const key = env[settings.apiKeyEnv];
    if (!key)
      throw new Error(
        `Failed to configure the Neon provider: ${unsetKeyVariableReason(namespace, settings.apiKeyEnv)}.`,
      );
    return key;
  }
  const key = settings.apiKey ?? env.NEON_API_KEY;
  if (!key) throw new Error(noApiKeyMessage(namespace));
  return key;
}

/**
 * Parses one provider instance's settings: `get(name)` gives the configured value of a setting
 * (undefined when unset), `keys` every key configured in the namespace (to catch misspellings).
 * Values not known yet are not judged. The timeouts fall back to their environment variables here;
 * the key and URL when the client is made (a key set after the last update still counts).
 */
export function parseSettings(
  namespace: string,
  get: (name: string) => unknown,
  keys: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { settings: ProviderSettings; failures: SettingFailure[] } {
  const names = SETTINGS.map((s) => s.name);
  const failures: SettingFailure[] = [];
  for (const key of keys) {
    if (names.includes(key)) continue;
    failures.push({
      property: key,
      reason:
        `${namespace}:${key} is not a setting of the ${namespace === "neon" ? "Neon" : namespace} provider${didYouMean(key, names, `${namespace}:`)} ` +
        `(the settings are ${names.join(", ")}; rename it with \`pulumi config rm ${namespace}:${key}\` ` +
        `and \`pulumi config set\`)`,
    });
  }
  const value = (name: string): string | undefined => {
    const v = get(name);
    return v === undefined || v === null || v === "" || v === UNKNOWN ? undefined : String(v);
  };
  const seconds = (name: string): number | undefined => {
    const configured = value(name);
    const fromEnv =
      configured === undefined && get(name) !== UNKNOWN ? env[envOf(name)] || undefined : undefined;
    const v = configured ?? fromEnv;
    if (v === undefined) return undefined;
    if (Number(v) > 0) return Number(v);
    failures.push({
      property: name,
      reason:
        configured !== undefined
          ? `${namespace}:${name} is "${v}"; set it to a number of seconds greater than 0, ` +
            `e.g. \`pulumi config set ${namespace}:${name} ${EXAMPLE_SECONDS[name]}\``
          : `the environment variable ${envOf(name)} (read because ${namespace}:${name} is not set) is "${v}"; ` +
            `set it to a number of seconds greater than 0, e.g. ${envOf(name)}=${EXAMPLE_SECONDS[name]}, or unset it`,
    });
    return undefined;
  };
  const settings: ProviderSettings = {
    apiKey: value("apiKey"),
    apiKeyEnv: value("apiKeyEnv"),
    apiUrl: value("apiUrl"),
    operationTimeoutSeconds: seconds("operationTimeoutSeconds"),
    requestTimeoutSeconds: seconds("requestTimeoutSeconds"),
  };
  const keyEnv = settings.apiKeyEnv;
  if (keyEnv !== undefined) {
    failures.push(
      ...keyVariableFailures(
        namespace,
        keyEnv,
        settings.apiKey !== undefined || get("apiKey") === UNKNOWN,
        env,
      ),
    );
  } else if (
    !settings.apiKey &&
    get("apiKey") !== UNKNOWN &&
    get("apiKeyEnv") !== UNKNOWN &&
    !env.NEON_API_KEY
  ) {
    failures.push({ property: "apiKey", reason: noApiKeyMessage(namespace) });
  }
  if (settings.apiUrl && !/^https?:\/\/\S+$/.test(settings.apiUrl)) {
    failures.push({
      property: "apiUrl",
      reason: `${namespace}:apiUrl "${settings.apiUrl}" is not an http(s) URL (e.g. https://console.neon.tech/api/v2)`,
    });
  }
  return { settings, failures };
}

/**
 * What is wrong with `apiKeyEnv` = `name`: set beside `apiKey`, not a variable's name, or naming a
 * variable that is unset or empty in `env` (the provider's process). The messages name the variable
 * only when it is a valid name that does not look like a key, and never give its value.
 */
export function keyVariableFailures(
  namespace: string,
  name: string,
  withApiKey: boolean,
  env: NodeJS.ProcessEnv,
): SettingFailure[] {
  const fail = (reason: string) => [{ property: "apiKeyEnv", reason }];
  if (withApiKey) {
    return fail(
      `${namespace}:apiKey and ${namespace}:apiKeyEnv are both set; keep one: apiKeyEnv (the name of ` +
        "an environment variable holding the key) keeps the key out of the state, apiKey stores it encrypted",
    );
  }
  if (!ENV_NAME.test(name) || looksLikeKey(name)) {
    return fail(
      `${namespace}:apiKeyEnv is not the name of an environment variable` +
        (looksLikeKey(name) ? " (it looks like an API key)" : "") +
        "; give the variable's name (letters, digits and `_`, not starting with a digit, e.g. " +
        "STAGING_NEON_API_KEY) and put the key itself in that variable",
    );
  }
  return env[name] ? [] : fail(unsetKeyVariableReason(namespace, name));
}

/** Throws one error naming every failure (for the faces that cannot report failures one by one). */
export function settingsOrThrow(parsed: { settings: ProviderSettings; failures: SettingFailure[] }) {
  if (parsed.failures.length === 0) return parsed.settings;
  const reasons = parsed.failures.map((f) =>
    f.reason.replace(/^Failed to configure the Neon provider: /, ""),
  );
  throw new Error(`Failed to configure the Neon provider: ${reasons.join("; ").replace(/\.\s*$/, "")}.`);
}

function envOf(name: string): string {
  return SETTINGS.find((s) => s.name === name)?.env ?? "";
}

/** The known name nearest to `name` (edit distance, case-insensitive): for "did you mean" advice. */
export function closest(name: string, known: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
    for (let i = 1; i <= x.length; i++) {
      const row = [i];
      for (let j = 1; j <= y.length; j++) {
        row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      }
      prev = row;
    }
    return prev[y.length];
  };
  // Only a close spelling: a few edits for its length, or one name inside the other (`operationTimeout`).
  const x = name.toLowerCase();
  const close = (k: string): boolean => {
    const y = k.toLowerCase();
    return (
      distance(x, y) <= Math.max(2, Math.floor(x.length / 3)) ||
      (x.length >= 3 && (y.includes(x) || x.includes(y)))
    );
  };
  return known.filter(close).sort((a, b) => distance(name, a) - distance(name, b))[0];
}

/** `; did you mean <x>?` for a close spelling (see {@link closest}), else nothing. */
export function didYouMean(name: string, known: readonly string[], prefix = ""): string {
  const c = closest(name, known);
  return c === undefined ? "" : `; did you mean ${prefix}${c}?`;
}
