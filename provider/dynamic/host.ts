/**
 * The dynamic face: what the shim of each resource (`shim.ts`) loads inside Pulumi's dynamic
 * provider process, built from the registry. `dynamicImpl("<Resource>")` is a resource's
 * `pulumi.dynamic.ResourceProvider`: its steps, bound by the kit to the process's runtime.
 *
 * A dynamic provider process is one provider instance (the stack's default, or one explicit
 * `Provider`): the host configures each resource type's shim once, with the same configuration, and
 * every shim shares the one runtime made from it (one client, one queue per project). This module
 * keeps two things per process: that binding of process to runtime, and the host's error echoes to
 * drop (`reportedOnce`, the kit's one global patch, docs/decisions/0016); the runtime itself is an
 * object, and the plugin never loads this module.
 */
import type * as pulumi from "@pulumi/pulumi";
import { dynamicHostEngineAddress } from "../resources/engine-log";
import { bind, type BoundResource, type ResourceKind } from "../resources/kit";
import { resourceKind } from "../registry";
import { isExpectedError, Runtime } from "../resources/runtime";
import { InitError } from "../resources/steps";
import { parseSettings, settingsOrThrow } from "../resources/settings";

const processBinding: { runtime?: Runtime; signature?: string; configError?: unknown } = {};

/** The configuration the engine passed, as `namespace:key` → value (empty when not readable). */
function rawConfig(req: pulumi.dynamic.ConfigureRequest): Record<string, unknown> {
  const raw = (req.config as unknown as { rawConfig?: unknown }).rawConfig;
  return raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
}

/**
 * The runtime for a configure request: reads `neon:apiKey`, `neon:apiUrl`,
 * `neon:operationTimeoutSeconds` and `neon:requestTimeoutSeconds`, falling back to the environment.
 * Runs at preview too, so a missing key, a misspelled `neon:` key or a bad timeout is reported before
 * anything changes.
 */
export function runtimeFromConfig(
  req: pulumi.dynamic.ConfigureRequest,
  options: { logSink?: (line: string) => void; env?: NodeJS.ProcessEnv } = {},
): Runtime {
  const keys = Object.keys(rawConfig(req))
    .filter((k) => k.startsWith("neon:"))
    .map((k) => k.slice("neon:".length));
  const settings = settingsOrThrow(
    parseSettings("neon", (name) => req.config.get(`neon:${name}`), keys, options.env),
  );
  return new Runtime({ ...options, settings, namespace: "neon", engineAddress: dynamicHostEngineAddress() });
}

function processRuntime(): Runtime {
  // The host keeps a provider it failed to configure and calls it unconfigured for the next resource
  // of the same text (every type after 0.1.0 shares one): those fail with the configuration's error,
  // never with a runtime of defaults (another account's NEON_API_KEY, say).
  if (processBinding.configError !== undefined) throw processBinding.configError;
  processBinding.runtime ??= new Runtime({ engineAddress: dynamicHostEngineAddress() });
  return processBinding.runtime;
}

/**
 * The configure of every resource type of the process: the one runtime made from the configuration
 * (kept when the same configuration comes again, for another type).
 */
export async function configureProcess(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  let next: Runtime;
  try {
    next = runtimeFromConfig(req);
  } catch (err) {
    processBinding.configError = err;
    throw err;
  }
  processBinding.configError = undefined;
  const signature = JSON.stringify(next.settings);
  if (processBinding.signature !== signature) {
    processBinding.runtime = next;
    processBinding.signature = signature;
  }
}

/** A resource's provider as the dynamic host calls it (see the module comment). */
export function dynamicImpl(resource: string | ResourceKind): Required<pulumi.dynamic.ResourceProvider> {
  // A name of the registry; a test passes a kind of its own.
  const kind = typeof resource === "string" ? resourceKind(resource) : resource;
  const bound = (): BoundResource => bind(kind, processRuntime());
  return {
    configure: configureProcess,
    check: (olds, news) => reportedOnce(() => bound().check(olds, news)),
    diff: (id, olds, news) => reportedOnce(() => bound().diff(id, olds, news)),
    create: async (inputs) => {
      const result = await urnKeptOnError(inputs, () => bound().create(inputs));
      return { ...result, outs: keepUrn(result.outs, inputs, true) };
    },
    read: async (id, props) => {
      const result = await reportedOnce(() => bound().read(id, props));
      return result.props ? { ...result, props: keepUrn(result.props, props) } : result;
    },
    update: async (id, olds, news) => {
      const result = await urnKeptOnError(news, () => bound().update(id, olds, news));
      return { ...result, outs: keepUrn(result.outs, news, true) };
    },
    delete: (id, props) => reportedOnce(() => bound().delete(id, props)),
  };
}

/**
 * A step's outputs with the request's `__urn`: the state's outputs are all that `read` and `delete`
 * get, and the one shim of the resources after 0.1.0 (`entryShim`) finds the resource's type there.
 * The steps spread their inputs into their outputs, so it is there already; this makes sure. A create's
 * or update's request has the resource's current URN (`replace`: it wins, after a rename by alias); a
 * read's has the state's (kept when the outputs have one).
 * @internal
 */
export function keepUrn(
  outs: Record<string, unknown> | undefined,
  from: Record<string, unknown> | undefined,
  replace = false,
): Record<string, unknown> | undefined {
  const urn = from?.__urn;
  return typeof urn === "string" && outs && (replace || outs.__urn === undefined)
    ? { ...outs, __urn: urn }
    : outs;
}

/**
 * A step whose object is kept in the stack despite its error ({@link InitError}) keeps `__urn` too.
 * @internal
 */
export async function urnKeptOnError<T>(from: Record<string, unknown>, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!(err instanceof InitError) || err.properties.__urn !== undefined) throw err;
    const kept = new InitError(err.message, err.id, keepUrn(err.properties, from, true) ?? {}, err.reasons);
    kept.stack = err.stack;
    throw kept;
  }
}

// The dynamic provider host prints every error of check, diff, read and delete to stderr with its stack trace
// (`${err}: ${err.stack}`) before the engine reports it, so an expected API error showed three
// times, twice with a trace. Expected errors are reported by the engine alone: the host's echo of
// exactly that error is dropped. Anything unexpected (a bug) keeps its trace. This is the one patch
// of a global, made only in the host's process (docs/decisions/0016).
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

/** Runs a step the host echoes errors of so that an expected error is reported once, without a trace. */
export async function reportedOnce<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isExpectedError(err)) dropHostEcho(err);
    throw err;
  }
}
