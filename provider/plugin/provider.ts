/**
 * The plugin's `Provider` (the interface `@pulumi/pulumi/provider` serves): dispatches each request
 * by type token to the resource's face (`faces.ts`), and each invoke to the lookup of the same name.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as provider from "@pulumi/pulumi/provider";
import * as lookups from "../lookups";
import { LOOKUPS } from "../lookups/definitions";
import { FACES, type ResourceFace } from "./faces";
import { PACKAGE, schemaJson } from "./schema";
import { conceal, reveal, secretKeys } from "./secrets";

type Props = Record<string, unknown>;

/** Properties the dynamic face carries in state and the plugin never returns. */
const DYNAMIC_ONLY = ["__provider", "__urn"];

/** The type token of a URN: `urn:pulumi:<stack>::<project>::<parent$>…<type>::<name>`. */
export function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

function faceOf(urn: string): ResourceFace {
  const type = typeOfUrn(urn);
  const prefix = `${PACKAGE}:index:`;
  const face = type.startsWith(prefix) ? FACES[type.slice(prefix.length)] : undefined;
  if (!face) {
    throw new Error(
      `Failed to handle ${urn}: ${type} is not a resource of the ${PACKAGE} provider; ` +
        `its resources are ${Object.keys(FACES)
          .map((n) => prefix + n)
          .join(", ")}.`,
    );
  }
  return face;
}

function clean(props: Props | undefined): Props {
  return Object.fromEntries(Object.entries(props ?? {}).filter(([k]) => !DYNAMIC_ONLY.includes(k)));
}

/** Keys to return as secrets: the definition's secret outputs and whatever arrived secret. */
function secretsOf(face: ResourceFace, ...sources: (Props | undefined)[]): Set<string> {
  const keys = new Set(face.definition.properties.filter((p) => p.secret).map((p) => p.name));
  for (const s of sources) for (const k of secretKeys(s)) keys.add(k);
  return keys;
}

/** The provider's result, with internal keys removed and secrets wrapped. */
function outputs(face: ResourceFace, props: Props | undefined, ...sources: (Props | undefined)[]): Props {
  return conceal(clean(props), secretsOf(face, ...sources));
}

/** A failed create/update that keeps the resource carries its properties: clean and wrap them too. */
function rethrow(err: unknown, face: ResourceFace, ...sources: (Props | undefined)[]): never {
  const e = err as { properties?: Props };
  if (e && typeof e === "object" && e.properties) e.properties = outputs(face, e.properties, ...sources);
  throw err;
}

const plain = (p: unknown): Props => (reveal(p ?? {}) as Props) ?? {};

/** Runs a lookup by token: `neoncompute:index:getProjects` … */
async function invoke(token: string, args: Props): Promise<provider.InvokeResult> {
  const name = token.startsWith(`${PACKAGE}:index:`) ? token.slice(`${PACKAGE}:index:`.length) : "";
  const def = LOOKUPS.find((l) => l.name === name);
  const fn = def
    ? (lookups as unknown as Record<string, (a: Props) => Promise<unknown>>)[def.name]
    : undefined;
  if (!def || !fn) {
    throw new Error(
      `Failed to invoke ${token}: not a function of the ${PACKAGE} provider; its functions are ` +
        `${LOOKUPS.map((l) => `${PACKAGE}:index:${l.name}`).join(", ")}.`,
    );
  }
  const result = await fn(plain(args));
  return { outputs: def.wraps ? { [def.wraps]: result } : (result as Props) };
}

/** The plugin's provider object. */
export function createProvider(version: string): provider.Provider & {
  diffDetailed(id: string, urn: string, olds: Props, news: Props): Promise<DetailedDiff>;
} {
  return {
    version,
    getSchema: async () => schemaJson(version),

    async check(urn, olds, news) {
      const face = faceOf(urn);
      const result = await face.check(plain(olds), { ...plain(news), __urn: urn });
      return {
        inputs: result.inputs ? outputs(face, result.inputs as Props, news) : undefined,
        failures: result.failures,
      };
    },

    async diff(id, urn, olds, news) {
      return this.diffDetailed(id, urn, olds, news);
    },

    async diffDetailed(id, urn, olds, news) {
      const face = faceOf(urn);
      const o = plain(olds);
      const n = { ...plain(news), __urn: urn };
      const result = await face.diff(id, o, n);
      return { ...result, diffs: result.changes ? face.changedKeys(o, n) : [] };
    },

    async create(urn, inputs) {
      const face = faceOf(urn);
      try {
        const result = await face.create({ ...plain(inputs), __urn: urn });
        return { id: result.id, outs: outputs(face, result.outs, inputs) };
      } catch (err) {
        rethrow(err, face, inputs);
      }
    },

    async read(id, urn, props) {
      const face = faceOf(urn);
      const state = props && Object.keys(props).length > 0 ? { ...plain(props), __urn: urn } : undefined;
      const result = await face.read(id, state);
      if (!result.id) return {};
      const outs = outputs(face, result.props, props);
      // `pulumi import`: no state, so the inputs are what the resource is.
      const inputs = state ? clean(result.inputs) : face.importInputs(clean(result.props));
      return { id: result.id, props: outs, inputs: conceal(inputs, secretKeys(props)) };
    },

    async update(id, urn, olds, news) {
      const face = faceOf(urn);
      try {
        const result = await face.update(id, plain(olds), { ...plain(news), __urn: urn });
        return { outs: outputs(face, result.outs, news) };
      } catch (err) {
        rethrow(err, face, news);
      }
    },

    async delete(id, urn, props) {
      await faceOf(urn).delete(id, { ...plain(props), __urn: urn });
    },

    invoke: (token, args) => invoke(token, args),
  };
}

/** A diff result with the names of the inputs that differ. */
export type DetailedDiff = pulumi.dynamic.DiffResult & { diffs: string[] };
