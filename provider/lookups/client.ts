/**
 * The API client of the lookups, in the Pulumi program's own process.
 *
 * Lookups run in the program (not in the dynamic provider process), where `new pulumi.Config("neon")`
 * reads the stack's configuration. The key stays in this module's memory: lookups return plain data,
 * never a closure or an output that carries it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as pulumi from "@pulumi/pulumi";
import { keyVariableFailures, noApiKeyMessage } from "../resources/settings";
import type { NeonClient } from "../api";
import type * as api from "../api";

let cached: { key: string; url: string | undefined; client: NeonClient } | undefined;

function stackConfig(key: string): string | undefined {
  try {
    return new pulumi.Config("neon").get(key) || undefined;
  } catch {
    // Outside a Pulumi program (a script or a test) there is no stack configuration.
    return undefined;
  }
}

// The client of the call running now, when a provider serves the lookups (see withLookupClient).
const scoped = new AsyncLocalStorage<NeonClient>();

/**
 * Runs `fn` with the lookups using `client`: the provider plugin serves them as invokes with the
 * client of its own runtime (`<pkg>:apiKey`), not the program's `neon:*` config.
 * @internal
 */
export function withLookupClient<T>(client: NeonClient, fn: () => Promise<T>): Promise<T> {
  return scoped.run(client, fn);
}

/**
 * The client for `neon:apiKey` (or the variable `neon:apiKeyEnv` names) / `neon:apiUrl`, else
 * `NEON_API_KEY` / `NEON_API_URL`.
 * @internal
 */
export function lookupClient(): NeonClient {
  const given = scoped.getStore();
  if (given) return given;
  // `neon:apiKeyEnv` names the variable that holds the key, as for the stack's resources, and is
  // judged as they judge it: a key pasted there is never repeated in the message.
  const variable = stackConfig("apiKeyEnv");
  if (variable) {
    const [failure] = keyVariableFailures("neon", variable, stackConfig("apiKey") !== undefined, process.env);
    if (failure) throw new Error(`Failed to run a Neon lookup: ${failure.reason}.`);
  }
  const key = variable ? process.env[variable] : (stackConfig("apiKey") ?? process.env.NEON_API_KEY);
  const url = stackConfig("apiUrl") ?? process.env.NEON_API_URL;
  if (!key) {
    throw new Error(noApiKeyMessage("neon", "lookup"));
  }
  if (!cached || cached.key !== key || cached.url !== url) {
    // Loaded at the first lookup: a program that makes only resources never loads the client.
    const { createNeonClient } = require("../api") as typeof api;
    cached = { key, url, client: createNeonClient({ apiKey: key, baseUrl: url || undefined }) };
  }
  return cached.client;
}

/** How long after an argument resolves the client is loaded: what waited on that value goes first. */
export const EARLY_LOAD_DELAY_MS = 100;
let earlyLoad: "none" | "scheduled" | "done" = "none";

/**
 * Loads the client (the API's module, its zod schemas and axios: about 0.2 s of CPU in the program)
 * soon after the first argument of an `…Output` lookup that waits on something resolves — in a
 * preview environment the branch's id, while its role and database are still being made — rather
 * than once the last one has, at the end of the update, where the load is all there is left to wait
 * for. Whatever fails here (no key, say) is left for the lookup itself to report.
 * @internal
 */
export function loadClientEarly(args: object): void {
  // A preview runs the lookup only when every argument is known, and loads the client then itself.
  if (earlyLoad !== "none" || pulumi.runtime.isDryRun()) return;
  const schedule = () => {
    if (earlyLoad !== "none") return;
    earlyLoad = "scheduled";
    setTimeout(() => {
      earlyLoad = "done";
      try {
        lookupClient();
      } catch {
        // The lookup reports it.
      }
    }, EARLY_LOAD_DELAY_MS).unref();
  };
  for (const value of Object.values(args ?? {})) {
    if (pulumi.Output.isInstance(value)) value.apply(schedule);
    else if (value instanceof Promise) value.then(schedule, () => undefined);
  }
}
