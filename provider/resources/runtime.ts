/**
 * The runtime every resource shares inside the provider process: settings from `configure()` and
 * the environment, the one API client, the per-project change queue and the engine logger.
 *
 * It lives only in the provider process (loaded by each resource's shim with `require`); nothing
 * here is serialized into state. Credentials stay in this module.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";
import { createNeonClient, type NeonClient, type Operation } from "../api";
import { isSucceeded } from "../operations";
import { resourceLogger, type ResourceLogger } from "./engine-log";

type Props = Record<string, unknown>;

/** Settings read by `configure()`; exported for tests. */
export interface ProviderSettings {
  apiKey?: string;
  apiUrl?: string;
  /** Deadline for one wait on operations, in seconds. */
  operationTimeoutSeconds?: number;
  /** Receives every message the provider shows in `pulumi up` (tests). */
  logSink?: (line: string) => void;
}

/** Default deadline of one wait on operations (and of one request's retries). */
export const DEFAULT_OPERATION_TIMEOUT_SECONDS = 20 * 60;

let settings: ProviderSettings = {};
let cachedClient: { key: string; url: string | undefined; client: NeonClient } | undefined;

/** Replaces the provider settings; `configure()` and tests call it. */
export function setSettings(next: ProviderSettings): void {
  settings = { ...next };
  cachedClient = undefined;
}

/** Reads `neon:apiKey`, `neon:apiUrl` and `neon:operationTimeoutSeconds`, falling back to the environment. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  const timeout =
    req.config.get("neon:operationTimeoutSeconds") ?? process.env.NEON_OPERATION_TIMEOUT_SECONDS;
  if (timeout !== undefined && !(Number(timeout) > 0)) {
    throw new Error(
      `Failed to configure the Neon provider: neon:operationTimeoutSeconds is "${timeout}"; ` +
        "set it to a number of seconds greater than 0, e.g. `pulumi config set neon:operationTimeoutSeconds 1800`.",
    );
  }
  setSettings({
    ...settings,
    apiKey: req.config.get("neon:apiKey") || undefined,
    apiUrl: req.config.get("neon:apiUrl") || undefined,
    operationTimeoutSeconds: timeout ? Number(timeout) : undefined,
  });
}

/** The shared API client for the configured key and URL. */
export function client(): NeonClient {
  const key = settings.apiKey ?? process.env.NEON_API_KEY;
  const url = settings.apiUrl ?? process.env.NEON_API_URL;
  if (!key) {
    throw new Error(
      "Failed to configure the Neon provider: no API key is set. " +
        "Set it with `pulumi config set --secret neon:apiKey <key>` or the NEON_API_KEY environment variable.",
    );
  }
  if (!cachedClient || cachedClient.key !== key || cachedClient.url !== url) {
    // One client per process: every resource shares it, so their operation polls are shared too.
    cachedClient = {
      key,
      url,
      client: createNeonClient({ apiKey: key, baseUrl: url || undefined, retryDeadlineMs: deadlineMs() }),
    };
  }
  return cachedClient.client;
}

/** The logger of the resource whose inputs or outputs are `props` (they carry its `__urn`). */
export function logger(props: Props): ResourceLogger {
  return resourceLogger(typeof props.__urn === "string" ? props.__urn : undefined, settings.logSink);
}

// A deadline for the calls made inside one engine request: the plugin passes the request's
// `customTimeouts` value here (dynamic providers never receive it).
const requestDeadline = new AsyncLocalStorage<number>();

/** Runs `fn` with waits bounded by `seconds` (a resource's `customTimeouts`) instead of the setting. */
export function withDeadline<T>(seconds: number | undefined, fn: () => Promise<T>): Promise<T> {
  return seconds && seconds > 0 ? requestDeadline.run(seconds * 1000, fn) : fn();
}

/** The deadline of one wait on operations, in milliseconds. */
export function deadlineMs(): number {
  const fromRequest = requestDeadline.getStore();
  if (fromRequest !== undefined) return fromRequest;
  const s = settings.operationTimeoutSeconds;
  return (s && s > 0 ? s : DEFAULT_OPERATION_TIMEOUT_SECONDS) * 1000;
}

/** Waits for the given operations of a project (those not already done), reporting progress. */
export async function waitFor(
  projectId: string,
  operations: Operation[],
  log: ResourceLogger,
): Promise<void> {
  const ids = operations.filter((o) => !isSucceeded(o.status)).map((o) => o.id);
  if (ids.length === 0) return;
  await client().waitForOperations(projectId, ids, {
    deadlineMs: deadlineMs(),
    onProgress: (p) => log.progress(`${p.action}: ${p.status} (${Math.round(p.elapsedMs / 1000)} s)`),
  });
}

// The control plane runs one operation per project at a time and answers 423 to any change
// while one runs. Changes of one project made from this process therefore go one after the
// other: each sends its request once the previous one's operations have finished, instead of
// many resources retrying 423s against each other (fewer requests, no backoff gaps).
const projectQueues = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier `serialized` call for the same project has settled. */
export function serialized<T>(projectId: string, fn: () => Promise<T>): Promise<T> {
  const previous = projectQueues.get(projectId) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  projectQueues.set(projectId, settled);
  void settled.then(() => {
    if (projectQueues.get(projectId) === settled) projectQueues.delete(projectId);
  });
  return run;
}

/** An error message as the middle of a sentence: without its final period. */
export function clause(err: unknown): string {
  return String((err as Error)?.message ?? err).replace(/\.\s*$/, "");
}

/** A copy of `o` without its `undefined` values (the engine refuses them in outputs). */
export function stripUndefined<T extends Props>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
