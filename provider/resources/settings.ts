/**
 * The provider's settings, once: their names, types, environment fallbacks and docs. The dynamic
 * provider reads them as `neon:<name>`, the plugin as `neoncompute:<name>` (and as an explicit
 * provider's arguments); the plugin schema and the docs are generated from this list. Dependency-free.
 */
import type { PropertyDef } from "./definition";

/** One setting: a property with the environment variable it falls back to. */
export type SettingDef = PropertyDef & { env: string };

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

/** The known name nearest to `name` (edit distance, case-insensitive): for "did you mean" advice. */
export function closest(name: string, known: readonly string[]): string {
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
  return [...known].sort((a, b) => distance(name, a) - distance(name, b))[0];
}
