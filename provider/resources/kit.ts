/**
 * The resource kit: what every resource does, written once. A resource folder supplies its
 * definition and its own steps ({@link ResourceSteps}); {@link bind} wraps them with the rules every
 * resource shares, over one {@link Runtime}:
 *
 * - `check` records that the engine checked the inputs (so `diff` knows a preview from a refresh);
 * - create, update and delete wait at most the resource's own `operationTimeoutSeconds`, when it has one;
 * - a resource that adopted an object the stack did not create (`adopted` output) leaves it in place
 *   on delete;
 * - a refresh returns as inputs only what the program gave ({@link refreshInputs});
 * - a 404 counts as "gone" only when the key can see the project ({@link confirmGone});
 * - a create whose object exists but did not become ready keeps it in state ({@link InitError}).
 *
 * The faces (the dynamic provider, the plugin) and the tests all call resources through `bind`.
 */
import { createHash } from "crypto";
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type NeonClient } from "../api";
import type { ObjectTypeDef, ResourceDef } from "./definition";
import type { Runtime } from "./runtime";

type Props = Record<string, unknown>;

/** The value Pulumi passes to `check`/`diff` for inputs not yet known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Properties the faces add for the provider's own use; never user inputs. */
export const INTERNAL_KEYS = ["__provider", "__urn"] as const;

/** A resource's own steps: what only it knows. Each gets the instance's runtime first. */
export interface ResourceSteps {
  check(rt: Runtime, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(rt: Runtime, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  /** The inputs that differ, for the engine's detailed diff. */
  changedKeys(olds: Props, news: Props): string[];
  create(rt: Runtime, inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(rt: Runtime, id: string, props?: Props): Promise<pulumi.dynamic.ReadResult>;
  /** The inputs that describe a resource read by `pulumi import` as it is (they become its code). */
  importInputs(outs: Props): Props;
  update(rt: Runtime, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(rt: Runtime, id: string, props: Props): Promise<void>;
  /**
   * For an adopted object, instead of a delete: undoes what taking it over changed that would stand
   * in the way afterwards (e.g. a database given to the stack's role goes back to its owner).
   */
  release?(rt: Runtime, id: string, props: Props): Promise<void>;
}

/** How the classes of a resource are made (program side). */
export interface ClassOptions {
  /** Replacements delete first unless the program says otherwise (e.g. one read_write per branch). */
  deleteBeforeReplace?: boolean;
  /**
   * Hands registrations to the engine a fair share per project during `up` (Compute's admission):
   * returns the args to register and a hook to call with the new resource.
   */
  admit?: (
    args: { projectId: pulumi.Input<string> },
    opts: pulumi.CustomResourceOptions | undefined,
  ) => { args: object; track(resource: pulumi.Resource): void };
}

/** One entry of the registry: everything about a resource that is not its TypeScript types. */
export interface ResourceKind {
  definition: ResourceDef;
  steps: ResourceSteps;
  /** What the resource is called in messages (`compute`, `API key`). */
  noun: string;
  /** The input that adopts an existing object, if the resource can (named in delete's note). */
  adoptInput?: string;
  /**
   * The module the dynamic face's shim loads by package path, and the label it names in its load
   * error. States store both (in the serialized shim): never change them for an existing resource.
   */
  dynamic: { module: string; label: string };
  classes?: ClassOptions;
  /** Object types its inputs use (`{ object: "<Name>" }`), for the schema and the docs. */
  objectTypes?: readonly ObjectTypeDef[];
}

/** A resource's steps with the kit's rules, for one runtime: what the faces call. */
export interface BoundResource {
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props?: Props): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Props): Promise<void>;
}

/** The kit's rules around a resource's steps (see the module comment). */
export function bind(kind: ResourceKind, rt: Runtime): BoundResource {
  const s = kind.steps;
  const timed = <T>(props: Props, fn: () => Promise<T>) =>
    rt.withOperationTimeout(props.operationTimeoutSeconds, fn);
  return {
    check: (olds, news) => {
      rt.markChecked(news);
      return s.check(rt, olds, stringInputs(kind.definition, news));
    },
    diff: (id, olds, news) => s.diff(rt, id, olds, news),
    create: (inputs) => timed(inputs, () => s.create(rt, inputs)),
    read: (id, props) => s.read(rt, id, props),
    update: (id, olds, news) => timed(news, () => s.update(rt, id, olds, news)),
    delete: async (id, props) => {
      if (props?.adopted === true) {
        // It existed before the stack adopted it (e.g. a branch's primary compute): leave it in place,
        // after undoing what the takeover changed that would stand in the way (the resource's release).
        const release = s.release;
        if (release) await timed(props, () => release(rt, id, props));
        rt.logger(props).info(
          `left ${kind.noun} ${id} in place: it existed before this stack adopted it` +
            (kind.adoptInput ? ` (${kind.adoptInput})` : ""),
        );
        return;
      }
      return timed(props ?? {}, () => s.delete(rt, id, props ?? {}));
    },
  };
}

/**
 * A number given for a string input, as a string: Pulumi YAML passes number-like config values
 * (`"2026"`) as numbers, and a trigger or a name is still meant as the text the user wrote.
 */
export function stringInputs(def: ResourceDef, news: Props): Props {
  let out: Props | undefined;
  for (const p of def.properties) {
    const v = news[p.name];
    if (p.input && p.type === "string" && !p.enum && typeof v === "number" && Number.isFinite(v)) {
      out ??= { ...news };
      out[p.name] = String(v);
    }
  }
  return out ?? news;
}

/**
 * Raised by create when the object exists but did not become ready: the engine keeps it in state
 * (with `properties`), so that a later `up` finishes or deletes it.
 */
export class InitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
    readonly reasons: string[],
  ) {
    super(message);
    this.name = "InitError";
  }
}

/**
 * The inputs after a refresh: those the program gave, as they now are. The program's input names
 * are recorded at each write as `__inputNames` (values the platform chose are not something the
 * program asked for); states without that record fall back to every input present in the old
 * outputs. `always` are inputs every resource has (its identity), reported whatever was recorded.
 */
export function refreshInputs(
  def: ResourceDef,
  old: Props,
  outs: Props,
  always: readonly string[] = [],
): Props {
  const given = Array.isArray(old.__inputNames) ? (old.__inputNames as string[]) : undefined;
  const inputs: Props = {};
  for (const p of def.properties.filter((q) => q.input)) {
    const k = p.name;
    const wanted = given ? given.includes(k) : k in old;
    if ((wanted || always.includes(k)) && outs[k] !== undefined) inputs[k] = outs[k];
  }
  for (const k of INTERNAL_KEYS) if (outs[k] !== undefined) inputs[k] = outs[k];
  return inputs;
}

/** The names of the inputs set in `inputs`, as {@link refreshInputs} reads them back. */
export function givenInputNames(def: ResourceDef, inputs: Props): string[] {
  return def.properties.filter((p) => p.input && inputs[p.name] !== undefined).map((p) => p.name);
}

/**
 * A 404 for an object of a project means "deleted" only when the key can read the project: a
 * project-scoped key used on another project also gets 404 (empty code, "not allowed to perform
 * actions outside the project this key is scoped to"), and dropping a live object from the stack
 * would let the next `up` create a duplicate. Throws when the project cannot be read (the stack
 * keeps the object); returns when the object is gone.
 */
export async function confirmGone(
  api: NeonClient,
  projectId: string,
  what: string,
  verb: "refresh" | "delete",
  notFound: ApiError,
): Promise<void> {
  try {
    await api.projects.get(projectId);
  } catch (err) {
    if (!(err instanceof ApiError && err.kind === "not_found")) throw err;
    throw notFound.withRemedy(
      `The API key cannot see project ${projectId} (${err.apiMessage.replace(/[.\s]+$/, "")}), so it is not ` +
        `known whether ${what} still exists; the stack keeps it unchanged. Run the ${verb} with a ` +
        "key that can see the project (neon:apiKey or NEON_API_KEY). If the project itself was deleted, " +
        "remove the resource from the stack with `pulumi state delete <urn>`.",
    );
  }
}

/**
 * A deterministic auto-name, `<resource name>-<7 hex digits of sha256(URN and parts)>`: a killed
 * run's object is found again by the next run under the same name, and no other resource of any
 * stack derives it (docs/decisions/0002). `parts` are the inputs whose change makes a new object, so
 * that a replacement never takes the object it replaces for its own. Never change the derivation:
 * objects created by earlier versions are found by it.
 */
export function derivedName(
  urn: string,
  parts: readonly string[],
  fallback: string,
  maxLogical: number,
): string {
  const logical = urn.slice(urn.lastIndexOf("::") + 2) || fallback;
  const suffix = createHash("sha256")
    .update([urn, ...parts].join("\n"))
    .digest("hex")
    .slice(0, 7);
  return `${logical.slice(0, maxLogical)}-${suffix}`;
}
