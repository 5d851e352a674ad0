/**
 * The runtime every resource shares inside the provider process: settings from `configure()` and
 * the environment, the one API client, the per-project change queue and the engine logger.
 *
 * It lives only in the provider process (loaded by each resource's shim with `require`); nothing
 * here is serialized into state. Credentials stay in this module.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";
import {
  ApiError,
  createNeonClient,
  OperationError,
  type NeonClient,
  type Operation,
  type RetryInfo,
} from "../api";
import { isSucceeded } from "../operations";
import { resourceLogger, type ResourceLogger } from "./engine-log";
import { closest, SETTINGS } from "./settings";

export { closest };

type Props = Record<string, unknown>;

/** Settings read by `configure()`; exported for tests. */
export interface ProviderSettings {
  apiKey?: string;
  apiUrl?: string;
  /** Deadline for one wait on operations, in seconds. */
  operationTimeoutSeconds?: number;
  /** How long one request may go unanswered, in seconds. */
  requestTimeoutSeconds?: number;
  /** Receives every message the provider shows in `pulumi up` (tests). */
  logSink?: (line: string) => void;
}

/** Default deadline of one wait on operations (and of one request's retries). */
export const DEFAULT_OPERATION_TIMEOUT_SECONDS = 20 * 60;
/** Default time one request may go unanswered. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30;

/** The provider's configuration keys (namespace `neon:`), with their environment fallbacks. */
export const CONFIG_KEYS: Readonly<Record<string, string>> = Object.fromEntries(
  SETTINGS.map((s) => [s.name, s.env]),
);

let settings: ProviderSettings = {};
let cachedClient: { key: string; url: string | undefined; client: NeonClient } | undefined;

/** Replaces the provider settings; `configure()` and tests call it. */
export function setSettings(next: ProviderSettings): void {
  settings = { ...next };
  cachedClient = undefined;
}

/** The configuration the engine passed, as `namespace:key` → value (empty when not readable). */
function rawConfig(req: pulumi.dynamic.ConfigureRequest): Record<string, unknown> {
  const raw = (req.config as unknown as { rawConfig?: unknown }).rawConfig;
  return raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
}

/**
 * Reads `neon:apiKey`, `neon:apiUrl`, `neon:operationTimeoutSeconds` and `neon:requestTimeoutSeconds`,
 * falling back to the environment. Runs at preview too, so a missing key, a misspelled `neon:` key
 * or a bad timeout is reported before anything changes.
 */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  const unknown = Object.keys(rawConfig(req))
    .filter((k) => k.startsWith("neon:"))
    .map((k) => k.slice("neon:".length))
    .filter((k) => !(k in CONFIG_KEYS));
  if (unknown.length > 0) {
    const known = Object.keys(CONFIG_KEYS);
    const advice = unknown.map((k) => `neon:${k} (did you mean neon:${closest(k, known)}?)`).join(", ");
    throw new Error(
      `Failed to configure the Neon provider: unknown configuration ${advice}. The provider reads ` +
        `${known.map((k) => `neon:${k}`).join(", ")}; rename the key with \`pulumi config rm\` and \`pulumi config set\`.`,
    );
  }
  const read = (key: string) => req.config.get(`neon:${key}`) ?? process.env[CONFIG_KEYS[key]];
  const next: ProviderSettings = {
    ...settings,
    apiKey: req.config.get("neon:apiKey") || undefined,
    apiUrl: req.config.get("neon:apiUrl") || undefined,
    operationTimeoutSeconds: seconds("operationTimeoutSeconds", read("operationTimeoutSeconds"), 1800),
    requestTimeoutSeconds: seconds("requestTimeoutSeconds", read("requestTimeoutSeconds"), 60),
  };
  if (!next.apiKey && !process.env.NEON_API_KEY) throw new Error(NO_KEY_MESSAGE);
  setSettings(next);
}

const NO_KEY_MESSAGE =
  "Failed to configure the Neon provider: no API key is set. Set it with " +
  "`pulumi config set --secret neon:apiKey <key>` or the NEON_API_KEY environment variable. " +
  "`pulumi refresh` and `pulumi destroy` use the configuration saved in the stack's state by the last " +
  "update: if the key was added or changed since, run them with `--run-program`, or set NEON_API_KEY.";

function seconds(key: string, value: string | undefined, example: number): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!(n > 0)) {
    throw new Error(
      `Failed to configure the Neon provider: neon:${key} is "${value}"; set it to a number of seconds ` +
        `greater than 0, e.g. \`pulumi config set neon:${key} ${example}\`.`,
    );
  }
  return n;
}

/** The shared API client for the configured key and URL. */
export function client(): NeonClient {
  const key = settings.apiKey ?? process.env.NEON_API_KEY;
  const url = settings.apiUrl ?? process.env.NEON_API_URL;
  if (!key) throw new Error(NO_KEY_MESSAGE);
  if (!cachedClient || cachedClient.key !== key || cachedClient.url !== url) {
    // One client per process: every resource shares it, so their operation polls are shared too.
    const log = resourceLogger(undefined, settings.logSink);
    cachedClient = {
      key,
      url,
      client: createNeonClient({
        apiKey: key,
        baseUrl: url || undefined,
        // The stack's setting, never a resource's own deadline: the client is shared by every resource.
        retryDeadlineMs: settingsDeadlineMs(),
        timeoutMs: requestTimeoutMs(),
        onRetry: (r) => {
          const line = retryLine(r);
          if (line) log.info(line);
        },
      }),
    };
  }
  return cachedClient.client;
}

/** The progress line for a retry the user should know about (423 is the project queue: no line). */
export function retryLine(r: RetryInfo): string | undefined {
  const what = r.route ?? `${r.method} ${r.path}`;
  const count =
    r.maxAttempts !== undefined && Number.isFinite(r.maxAttempts)
      ? `retrying ${r.attempt + 1}/${r.maxAttempts}`
      : `retrying (attempt ${r.attempt + 1})`;
  const wait = `in ${(r.delayMs / 1000).toFixed(1)} s`;
  switch (r.reason) {
    case "locked":
      return undefined;
    case "network":
      return r.timedOut
        ? `no answer from ${what} in ${Math.round((r.timeoutMs ?? 0) / 1000)} s; ${count} ${wait}`
        : `the connection for ${what} failed; ${count} ${wait}`;
    case "rate_limited":
      return `${what} was rate limited (HTTP 429); ${count} ${wait}`;
    default:
      return `${what} answered HTTP ${r.status ?? "?"}; ${count} ${wait}`;
  }
}

function requestTimeoutMs(): number {
  const s = settings.requestTimeoutSeconds;
  return (s && s > 0 ? s : DEFAULT_REQUEST_TIMEOUT_SECONDS) * 1000;
}

/** The logger of the resource whose inputs or outputs are `props` (they carry its `__urn`). */
export function logger(props: Props): ResourceLogger {
  return resourceLogger(typeof props.__urn === "string" ? props.__urn : undefined, settings.logSink);
}

// A resource's own `operationTimeoutSeconds` input, for the steps of the lifecycle call running now
// (the engine never passes `customTimeouts` to dynamic providers).
const resourceDeadline = new AsyncLocalStorage<number>();

/** Runs `fn` with waits on operations bounded by `seconds` (when given) instead of the provider's setting. */
export function withOperationTimeout<T>(seconds: unknown, fn: () => Promise<T>): Promise<T> {
  return typeof seconds === "number" && seconds > 0 ? resourceDeadline.run(seconds * 1000, fn) : fn();
}

// A deadline for the calls made inside one engine request: the plugin passes the request's
// `customTimeouts` value here (dynamic providers never receive it). It wins over the input above.
const requestDeadline = new AsyncLocalStorage<number>();

/** Runs `fn` with waits bounded by `seconds` (a resource's `customTimeouts`) instead of the setting. */
export function withDeadline<T>(seconds: number | undefined, fn: () => Promise<T>): Promise<T> {
  return seconds && seconds > 0 ? requestDeadline.run(seconds * 1000, fn) : fn();
}

/** The deadline of the provider's setting (or the default), in milliseconds. */
function settingsDeadlineMs(): number {
  const s = settings.operationTimeoutSeconds;
  return (s && s > 0 ? s : DEFAULT_OPERATION_TIMEOUT_SECONDS) * 1000;
}

/** The deadline of one wait on operations, in milliseconds. */
export function deadlineMs(): number {
  const fromRequest = requestDeadline.getStore();
  if (fromRequest !== undefined) return fromRequest;
  const own = resourceDeadline.getStore();
  if (own !== undefined) return own;
  return settingsDeadlineMs();
}

/**
 * Waits for the given operations of a project (those not already done), reporting progress.
 * Resolves with the final view of every operation given.
 */
export async function waitFor(
  projectId: string,
  operations: Operation[],
  log: ResourceLogger,
): Promise<Operation[]> {
  const pending = operations.filter((o) => !isSucceeded(o.status));
  if (pending.length === 0) return operations;
  const done = await client().waitForOperations(projectId, pending, {
    deadlineMs: deadlineMs(),
    onProgress: (p) => log.progress(`${p.action}: ${p.status} (${Math.round(p.elapsedMs / 1000)} s)`),
  });
  const byId = new Map(done.map((o) => [o.id, o]));
  return operations.map((o) => byId.get(o.id) ?? o);
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

// URNs whose new inputs were checked in this process. The engine checks before it diffs in a preview
// or an update, but a refresh diffs without checking (to display what changed outside Pulumi):
// warnings about what an update will do, and reads made to vet a change, belong to the former only.
const checkedUrns = new Set<string>();

/** Records that the engine checked these inputs (called by `check`). */
export function markChecked(news: Props): void {
  if (typeof news.__urn === "string") checkedUrns.add(news.__urn);
}

/** True when `diff` runs for a preview or an update (its inputs were checked), not for a refresh. */
export function isPlanning(news: Props): boolean {
  return typeof news.__urn === "string" && checkedUrns.has(news.__urn);
}

// The dynamic provider host prints every error of read and delete to stderr with its stack trace
// (`${err}: ${err.stack}`) before the engine reports it, so an expected API error showed three
// times, twice with a trace. Expected errors are reported by the engine alone: the host's echo of
// exactly that error is dropped. Anything unexpected (a bug) keeps its trace.
const echoesToDrop = new Set<string>();
let consolePatched = false;

function dropHostEcho(err: Error): void {
  if (!consolePatched) {
    consolePatched = true;
    const original = console.error.bind(console);
    console.error = (...args: unknown[]) => {
      if (args.length === 1 && typeof args[0] === "string" && echoesToDrop.delete(args[0])) return;
      original(...args);
    };
  }
  if (echoesToDrop.size > 100) echoesToDrop.clear();
  echoesToDrop.add(`${String(err)}: ${err.stack}`);
}

/** True for the errors this provider raises on purpose (API answers, failed waits, its own advice). */
export function isExpectedError(err: unknown): err is Error {
  return (
    err instanceof ApiError ||
    err instanceof OperationError ||
    (err instanceof Error && err.constructor === Error && err.message.startsWith("Failed to "))
  );
}

/** Runs a read or delete so that an expected error is reported once, by the engine, without a trace. */
export async function reportedOnce<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isExpectedError(err)) dropHostEcho(err);
    throw err;
  }
}

/** An error message as the middle of a sentence: without its final period. */
export function clause(err: unknown): string {
  return String((err as Error)?.message ?? err).replace(/\.\s*$/, "");
}

/** A copy of `o` without its `undefined` values (the engine refuses them in outputs). */
export function stripUndefined<T extends Props>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
