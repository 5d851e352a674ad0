/**
 * The plugin's `Provider` (the interface `@pulumi/pulumi/provider` serves): dispatches each request
 * by type token to the resource's registry entry, bound by the kit to this plugin process's runtime,
 * and each invoke to the lookup of the same name. What differs from the dynamic face is only
 * transport: the URN comes with each request instead of an `__urn` input, secrets arrive and leave
 * wrapped, and `pulumi import` (a read without state) needs the inputs to write into code.
 */
import type { Bag } from "../resources/definition";
import type * as pulumi from "@pulumi/pulumi";
import type * as provider from "@pulumi/pulumi/provider";
import * as lookups from "../lookups";
import { LOOKUPS, RESOURCES } from "../registry";
import { PACKAGE } from "../resources/classes";
import {
  bind,
  changedKeysOf,
  importInputsOf,
  INTERNAL_KEYS,
  type BoundResource,
  type ResourceKind,
} from "../resources/kit";
import { Runtime } from "../resources/runtime";
import { schemaJson } from "./schema";
import { conceal, reveal, secretKeys } from "./secrets";

/** The type token of a URN: `urn:pulumi:<stack>::<project>::<parent$>…<type>::<name>`. */
export function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

function kindOf(urn: string, resources: readonly ResourceKind[]): ResourceKind {
  const type = typeOfUrn(urn);
  const prefix = `${PACKAGE}:index:`;
  const kind = type.startsWith(prefix)
    ? resources.find((r) => r.definition.name === type.slice(prefix.length))
    : undefined;
  if (!kind) {
    throw new Error(
      `Failed to handle ${urn}: ${type} is not a resource of the ${PACKAGE} provider; ` +
        `its resources are ${resources.map((r) => prefix + r.definition.name).join(", ")}.`,
    );
  }
  return kind;
}

function clean(props: Bag | undefined): Bag {
  return Object.fromEntries(
    Object.entries(props ?? {}).filter(([k]) => !(INTERNAL_KEYS as readonly string[]).includes(k)),
  );
}

/** Keys to return as secrets: the definition's secret outputs and whatever arrived secret. */
function secretsOf(kind: ResourceKind, ...sources: (Bag | undefined)[]): Set<string> {
  const keys = new Set(kind.definition.properties.filter((p) => p.secret).map((p) => p.name));
  for (const s of sources) for (const k of secretKeys(s)) keys.add(k);
  return keys;
}

/** The provider's result, with internal keys removed and secrets wrapped. */
function outputs(kind: ResourceKind, props: Bag | undefined, ...sources: (Bag | undefined)[]): Bag {
  return conceal(clean(props), secretsOf(kind, ...sources));
}

/** A failed create/update that keeps the resource carries its properties: clean and wrap them too. */
function rethrow(err: unknown, kind: ResourceKind, ...sources: (Bag | undefined)[]): never {
  const e = err as { properties?: Bag };
  if (e && typeof e === "object" && e.properties) e.properties = outputs(kind, e.properties, ...sources);
  throw err;
}

const plain = (p: unknown): Bag => (reveal(p ?? {}) as Bag) ?? {};

/**
 * Runs a lookup by token (`neoncompute:index:getProjects` …) with the runtime's client. At preview, a
 * 404 about a branch the stack holds and the service deleted (at its expiry) says so and names the
 * remedy: an invoke's result cannot be unknown (the engine refuses one), so unlike the TypeScript face's
 * lookups it fails the preview. Its errors are one line ({@link lookups.asRunError}).
 */
async function invoke(
  rt: Runtime,
  token: string,
  args: Bag,
  preview = false,
): Promise<provider.InvokeResult> {
  const name = token.startsWith(`${PACKAGE}:index:`) ? token.slice(`${PACKAGE}:index:`.length) : "";
  const def = LOOKUPS.find((l) => l.name === name);
  const call = def ? lookups.LOOKUP_CALLS[def.name] : undefined;
  if (!def || !call) {
    throw new Error(
      `Failed to invoke ${token}: not a function of the ${PACKAGE} provider; its functions are ` +
        `${LOOKUPS.map((l) => `${PACKAGE}:index:${l.name}`).join(", ")}.`,
    );
  }
  const a = plain(args);
  let result: unknown;
  try {
    result = await lookups.withLookupClient(rt.client(), () => call(a as never));
  } catch (err) {
    const gone = preview ? await goneAtPreview(rt, name, a, err) : undefined;
    throw lookups.asRunError(gone ? new Error(`Failed to run ${name}: ${gone}.`, { cause: err }) : err);
  }
  const outs = def.wraps ? { [def.wraps]: result } : (result as Bag);
  // A secret field (a connection string) leaves the plugin marked secret.
  return {
    outputs: conceal(
      outs,
      def.result.filter((p) => p.secret).map((p) => p.name),
    ),
  };
}

/** Why a lookup's 404 at preview is about a branch of the stack that is gone, if it is. */
async function goneAtPreview(
  rt: Runtime,
  name: string,
  args: Bag,
  err: unknown,
): Promise<string | undefined> {
  try {
    const unknown = await lookups.unknownAtPreview(name, args, err, {
      api: rt.client(),
      fromProgram: (key, id) =>
        key === "branchId" && declaredBranch(rt, String(args.projectId), id) !== undefined,
      expiryOf: (projectId, branchId) => declaredBranch(rt, projectId, branchId)?.expiresAt,
    });
    return unknown?.kind === "gone" ? unknown.reason : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What this run knows of branch `branchId`, as a lookup may ask it: a Branch of the program declares
 * it (its diff ran in this preview or update, before an invoke given its id), with the expiry it gives.
 */
function declaredBranch(
  rt: Runtime,
  projectId: string,
  branchId: string,
): { expiresAt: string | null } | undefined {
  const at = rt.ledger.expiryPlanned.get(`${projectId}/${branchId}`);
  return at === undefined ? undefined : { expiresAt: at };
}

/**
 * The plugin's provider object; `configure` hands it the runtime of this plugin process's settings.
 * It serves the registry's resources (`resources`: a test passes a registry with one more).
 */
export function createProvider(
  version: string,
  resources: readonly ResourceKind[] = RESOURCES,
): provider.Provider & {
  diffDetailed(id: string, urn: string, olds: Bag, news: Bag): Promise<DetailedDiff>;
  /** The inputs an update changes (no reads, no warnings): for the preview of an update. */
  changedKeys(urn: string, olds: Bag, news: Bag): string[];
  /** Inputs unknown in the preview of a create (see `ResourceKind.unknownAtCreate`). */
  unknownAtCreate(urn: string): readonly string[];
  /** A lookup by token, `preview` as the engine's request says (Invoke). */
  invokeAt(token: string, args: Bag, preview: boolean): Promise<provider.InvokeResult>;
  /** Makes `rt` this provider instance's runtime (Configure). */
  useRuntime(rt: Runtime): void;
  /** This provider instance's runtime. */
  runtime(): Runtime;
} {
  let rt = new Runtime({ namespace: PACKAGE });
  const bound = (urn: string): { kind: ResourceKind; r: BoundResource } => {
    const kind = kindOf(urn, resources);
    return { kind, r: bind(kind, rt) };
  };
  return {
    version,
    getSchema: async () => schemaJson(version),
    useRuntime: (next) => {
      rt = next;
    },
    runtime: () => rt,
    changedKeys: (urn, olds, news) => changedKeysOf(kindOf(urn, resources), plain(olds), plain(news)),
    unknownAtCreate: (urn) => kindOf(urn, resources).unknownAtCreate ?? [],

    async check(urn, olds, news) {
      const { kind, r } = bound(urn);
      const result = await r.check(plain(olds), { ...plain(news), __urn: urn });
      return {
        inputs: result.inputs ? outputs(kind, result.inputs as Bag, news) : undefined,
        failures: result.failures,
      };
    },

    async diff(id, urn, olds, news) {
      return this.diffDetailed(id, urn, olds, news);
    },

    async diffDetailed(id, urn, olds, news) {
      const { kind, r } = bound(urn);
      const o = plain(olds);
      const n = { ...plain(news), __urn: urn };
      const result = await r.diff(id, o, n);
      // A replacement no input asks for (a branch whose creation did not finish) is named too.
      const keys = result.changes ? [...changedKeysOf(kind, o, n), ...(result.replaces ?? [])] : [];
      const inputs = kind.definition.properties.filter((p) => p.input).map((p) => p.name);
      return { ...result, diffs: [...new Set(keys)], inputs };
    },

    async create(urn, inputs) {
      const { kind, r } = bound(urn);
      try {
        const result = await r.create({ ...plain(inputs), __urn: urn });
        return { id: result.id, outs: outputs(kind, result.outs, inputs) };
      } catch (err) {
        rethrow(err, kind, inputs);
      }
    },

    async read(id, urn, props) {
      const { kind, r } = bound(urn);
      const state = props && Object.keys(props).length > 0 ? { ...plain(props), __urn: urn } : undefined;
      const result = await r.read(id, state);
      if (!result.id) return {};
      const outs = outputs(kind, result.props, props);
      // `pulumi import`: no state, so the inputs are what the resource is.
      const inputs = state ? clean(result.inputs) : importInputsOf(kind, clean(result.props));
      return { id: result.id, props: outs, inputs: conceal(inputs, secretKeys(props)) };
    },

    async update(id, urn, olds, news) {
      const { kind, r } = bound(urn);
      try {
        const result = await r.update(id, plain(olds), { ...plain(news), __urn: urn });
        return { outs: outputs(kind, result.outs, news) };
      } catch (err) {
        rethrow(err, kind, news);
      }
    },

    async delete(id, urn, props) {
      await bound(urn).r.delete(id, { ...plain(props), __urn: urn });
    },

    invoke: (token, args) => invoke(rt, token, args),
    invokeAt: (token, args, preview) => invoke(rt, token, args, preview),
  };
}

/** A diff result with the names of the inputs that differ. */
export type DetailedDiff = pulumi.dynamic.DiffResult & { diffs: string[]; inputs: string[] };
