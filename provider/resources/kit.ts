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
 * - a create whose object exists but did not become ready keeps it in state ({@link InitError});
 * - where a new object is made — the project, the parent branch, the branch its {@link TargetDef}s
 *   name — is read before a create or a replacement is sent, and `check` fails naming the property
 *   when it is not there ({@link targetFailures}): a delete-first replacement never deletes what it
 *   cannot recreate;
 * - a create that fails after this run's replacement deleted the old object says so.
 *
 * The faces (the dynamic provider, the plugin) and the tests all call resources through `bind`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Bag, Checked, ObjectTypeDef, ResourceDef, Stated, TargetDef } from "./definition";
import type { CheckFailure } from "./check";
import { definedChangedKeys } from "./compare";
import type { Runtime } from "./runtime";
import { definedImportInputs, InitError } from "./steps";
import { namedWhereIdWanted, targetFailures } from "./targets";

// The kit's other parts, for the resource folders: one import.
export * from "./steps";
export { targetFailures, unfinishedCreation } from "./targets";

export { UNKNOWN, type Bag, type Checked, type Stated, type TargetDef } from "./definition";

/**
 * What a resource's `check` answers: its inputs typed when they passed, or the inputs as given with
 * the failures, each naming a property.
 */
export type CheckResult<I extends object> =
  { inputs: Checked<I>; failures?: undefined } | { inputs: Bag; failures: CheckFailure[] };

/**
 * A resource's own steps: what only it knows, typed as the requests of pulumi-go-provider's `infer`
 * are. Each gets the instance's runtime first; `check` turns the engine's inputs into the typed
 * inputs (`I`) that `create`, `update` and `diff` receive; `read`, `diff`, `update` and `delete`
 * receive the state as its outputs (`O`).
 */
export interface ResourceSteps<I extends object = object, O extends object = object> {
  /** `olds`: the inputs the last `check` returned (none for a new resource). */
  check(rt: Runtime, olds: Stated<I>, news: Bag): Promise<CheckResult<I>>;
  diff(rt: Runtime, id: string, olds: Stated<O>, news: Checked<I>): Promise<pulumi.dynamic.DiffResult>;
  /**
   * The inputs that differ, for the engine's detailed diff; left out, the definition's (every input
   * whose change does something, compared as the definition says: {@link definedChangedKeys}).
   */
  changedKeys?(olds: Stated<O>, news: Checked<I>): string[];
  create(rt: Runtime, inputs: Checked<I>): Promise<pulumi.dynamic.CreateResult>;
  read(rt: Runtime, id: string, props?: Stated<O>): Promise<pulumi.dynamic.ReadResult>;
  /**
   * The inputs that describe a resource read by `pulumi import` as it is (they become its code); left
   * out, the definition's ({@link definedImportInputs}).
   */
  importInputs?(outs: Stated<O>): Bag;
  update(rt: Runtime, id: string, olds: Stated<O>, news: Checked<I>): Promise<pulumi.dynamic.UpdateResult>;
  delete(rt: Runtime, id: string, props: Stated<O>): Promise<void>;
  /**
   * For an adopted object, instead of a delete: undoes what taking it over changed that would stand
   * in the way afterwards (e.g. a database given to the stack's role goes back to its owner).
   */
  release?(rt: Runtime, id: string, props: Stated<O>): Promise<void>;
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
export interface ResourceKind<I extends object = object> {
  definition: ResourceDef;
  steps: ResourceSteps<I>;
  /** What the resource is called in messages (`compute`, `API key`). */
  noun: string;
  /** The input that adopts an existing object, if the resource can (named in delete's note). */
  adoptInput?: string;
  /**
   * Only for the resources released in 0.1.0 (Compute, ApiKey): the module their dynamic shim loads
   * by package path and the label it names in its load error, as their states hold them (never
   * change). Every other resource's shim loads the package's one dynamic entry by its name.
   */
  releasedDynamic?: { module: string; label: string };
  classes?: ClassOptions;
  /** Object types its inputs use (`{ object: "<Name>" }`), for the schema and the docs. */
  objectTypes?: readonly ObjectTypeDef[];
  /** Where a new object is made (see {@link TargetDef}); the project first. */
  targets?: readonly TargetDef[];
  /**
   * Inputs that name an object only the create makes (a role's `name`): the plugin's preview of a
   * create shows them unknown, so that an invoke given them waits for the create.
   */
  unknownAtCreate?: readonly string[];
}

/** The inputs that differ between old outputs and new inputs, for the engine's detailed diff. */
export function changedKeysOf(kind: ResourceKind, olds: Bag, news: Bag): string[] {
  return kind.steps.changedKeys?.(olds, news) ?? definedChangedKeys(kind.definition, olds, news);
}

/** A resource's update step, typed by its checked inputs and its outputs. */
export type UpdateStep<I extends object, O extends object> = ResourceSteps<I, O>["update"];

/**
 * A step that takes over an object that exists (`adopt`, `importId`, `adoptDefault`): the runtime,
 * the checked inputs as the engine gave them, and what the resource parsed from them.
 */
export type TakeOverStep<I extends object, A> = (
  rt: Runtime,
  inputs: Checked<I>,
  parsed: A,
) => Promise<pulumi.dynamic.CreateResult>;

/** The inputs that describe an object `pulumi import` read, as it is: the resource's own, else the definition's. */
export function importInputsOf(kind: ResourceKind, outs: Bag): Bag {
  return kind.steps.importInputs?.(outs) ?? definedImportInputs(kind.definition, outs);
}

/** A resource's steps with the kit's rules, for one runtime: what the faces call. */
export interface BoundResource {
  check(olds: Bag, news: Bag): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Bag): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props?: Bag): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Bag): Promise<void>;
}

/** The kit's rules around a resource's steps (see the module comment). */
export function bind(kind: ResourceKind, rt: Runtime): BoundResource {
  const s = kind.steps;
  const timed = <T>(props: Bag, fn: () => Promise<T>) =>
    rt.withOperationTimeout(props.operationTimeoutSeconds, fn);
  return afterLinesArrive(rt, {
    check: async (olds, news) => {
      rt.ledger.markChecked(news);
      const given = stringInputs(kind.definition, news);
      warnDeprecated(rt, kind.definition, given);
      const result = await s.check(rt, olds, given);
      if (!kind.targets) return result;
      const failures = result.failures?.length
        ? await namedWhereIdWanted(rt, kind.targets, given, result.failures)
        : await targetFailures(rt, kind.targets, olds, result.inputs ?? given);
      return failures.length > 0 ? { inputs: result.inputs ?? given, failures } : result;
    },
    diff: (id, olds, news) => s.diff(rt, id, olds, news),
    create: async (inputs) => {
      try {
        const made = await timed(inputs, () => s.create(rt, inputs));
        rt.ledger.noteMade(kind.noun, made.id);
        return made;
      } catch (err) {
        throw withReplacedNote(rt, kind, inputs, err);
      }
    },
    read: (id, props) => s.read(rt, id, props),
    update: (id, olds, news) => timed(news, () => s.update(rt, id, olds, news)),
    delete: async (id, props) => {
      if (rt.ledger.takenOverThisRun(kind.noun, id)) {
        // A create of this update (a create-first replacement, a resource renamed without an alias)
        // took this very object over: deleting it — or releasing it — would pull it from under that one.
        rt.logger(props ?? {}).info(
          `left ${kind.noun} ${id} in place: a create of this update took it over for its resource`,
        );
        return;
      }
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
      await timed(props ?? {}, () => s.delete(rt, id, props ?? {}));
      if (typeof props?.__urn === "string") rt.ledger.noteDeleted(props.__urn, `${kind.noun} ${id}`);
    },
  });
}

/** A warning for each retired input the program sets (once per resource and run). */
function warnDeprecated(rt: Runtime, def: ResourceDef, news: Bag): void {
  for (const p of def.properties) {
    if (!p.input || !p.deprecated || news[p.name] === undefined) continue;
    if (rt.ledger.firstTime(`${String(news.__urn)} deprecated ${p.name}`))
      rt.logger(news).warn(`${p.name} is deprecated: ${p.deprecated}`);
  }
}

/**
 * `b` whose every step answers (or fails) only once the engine has the lines it said: a refresh
 * whose last read says why a branch is gone would otherwise race its answer to the engine's end.
 */
function afterLinesArrive(rt: Runtime, b: BoundResource): BoundResource {
  const after = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } finally {
      await rt.flushLog();
    }
  };
  return {
    check: (olds, news) => after(() => b.check(olds, news)),
    diff: (id, olds, news) => after(() => b.diff(id, olds, news)),
    create: (inputs) => after(() => b.create(inputs)),
    read: (id, props) => after(() => b.read(id, props)),
    update: (id, olds, news) => after(() => b.update(id, olds, news)),
    delete: (id, props) => after(() => b.delete(id, props)),
  };
}

/**
 * A create that failed after this run's replacement deleted the old object (delete first): the
 * message says the old one is gone and what the next `up` does.
 */
function withReplacedNote(rt: Runtime, kind: ResourceKind, inputs: Bag, err: unknown): unknown {
  const urn = inputs.__urn;
  const gone = typeof urn === "string" ? rt.ledger.deletedThisRun(urn) : undefined;
  if (!gone || err instanceof InitError || !(err instanceof Error)) return err;
  err.message =
    `${err.message.replace(/\s+$/, "")} Note: ${gone} was already deleted by this replacement (it had to go ` +
    `first); fix the cause and run \`pulumi up\` again to create the new ${kind.noun}.`;
  return err;
}

/**
 * A number given for a string input, as a string: Pulumi YAML passes number-like config values
 * (`"2026"`) as numbers, and a trigger or a name is still meant as the text the user wrote.
 */
export function stringInputs(def: ResourceDef, news: Bag): Bag {
  let out: Bag | undefined;
  for (const p of def.properties) {
    const v = news[p.name];
    if (p.input && p.type === "string" && !p.enum && typeof v === "number" && Number.isFinite(v)) {
      out ??= { ...news };
      out[p.name] = String(v);
    }
  }
  return out ?? news;
}
