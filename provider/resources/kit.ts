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
import { createHash } from "crypto";
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Branch, type NeonClient } from "../api";
import { isTerminal } from "../operations";
import type { ObjectTypeDef, ResourceDef } from "./definition";
import type { CheckFailure } from "./check";
import { definedChangedKeys } from "./compare";
import type { ResourceLogger } from "./engine-log";
import { clause, type Runtime } from "./runtime";

type Props = Record<string, unknown>;

/** The value Pulumi passes to `check`/`diff` for inputs not yet known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Properties the faces add for the provider's own use; never user inputs. */
export const INTERNAL_KEYS = ["__provider", "__urn"] as const;

/**
 * Inputs as `check` returned them: the resource's typed inputs (`<Name>Inputs`, generated from its
 * definition into `types.ts`) and the faces' own keys (`__urn`).
 */
export type Checked<I extends object> = I & Props;

/**
 * A resource's own steps: what only it knows. Each gets the instance's runtime first; create and
 * update get the inputs `check` parsed, typed.
 */
export interface ResourceSteps<I extends object = object> {
  check(rt: Runtime, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(rt: Runtime, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  /**
   * The inputs that differ, for the engine's detailed diff; left out, the definition's (every input
   * whose change does something, compared as the definition says: {@link definedChangedKeys}).
   */
  changedKeys?(olds: Props, news: Props): string[];
  create(rt: Runtime, inputs: Checked<I>): Promise<pulumi.dynamic.CreateResult>;
  read(rt: Runtime, id: string, props?: Props): Promise<pulumi.dynamic.ReadResult>;
  /** The inputs that describe a resource read by `pulumi import` as it is (they become its code). */
  importInputs(outs: Props): Props;
  update(rt: Runtime, id: string, olds: Props, news: Checked<I>): Promise<pulumi.dynamic.UpdateResult>;
  delete(rt: Runtime, id: string, props: Props): Promise<void>;
  /**
   * For an adopted object, instead of a delete: undoes what taking it over changed that would stand
   * in the way afterwards (e.g. a database given to the stack's role goes back to its owner).
   */
  release?(rt: Runtime, id: string, props: Props): Promise<void>;
}

/**
 * An input naming where a new object is made: a project, or a branch of the project the resource's
 * `project` target names. Read by `check` when the resource is new or the value changed.
 */
export interface TargetDef {
  property: string;
  kind: "project" | "branch";
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
export function changedKeysOf(kind: ResourceKind, olds: Props, news: Props): string[] {
  return kind.steps.changedKeys?.(olds, news) ?? definedChangedKeys(kind.definition, olds, news);
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
    check: async (olds, news) => {
      rt.markChecked(news);
      const given = stringInputs(kind.definition, news);
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
        rt.noteMade(kind.noun, made.id);
        return made;
      } catch (err) {
        throw withReplacedNote(rt, kind, inputs, err);
      }
    },
    read: (id, props) => s.read(rt, id, props),
    update: (id, olds, news) => timed(news, () => s.update(rt, id, olds, news)),
    delete: async (id, props) => {
      if (rt.takenOverThisRun(kind.noun, id)) {
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
      if (typeof props?.__urn === "string") rt.noteDeleted(props.__urn, `${kind.noun} ${id}`);
    },
  };
}

/** True when the inputs of `olds` are empty: the resource is new (not an update or a replacement). */
export function isNewResource(olds: Props): boolean {
  return Object.keys(olds).filter((k) => !k.startsWith("__")).length === 0;
}

const knownString = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;

/**
 * Reads where a new object would be made and returns a failure per target that is not there: a
 * project the key cannot see, a branch not in the project. Runs when the resource is new or a
 * target changed (a replacement, which deletes first); never for a value not known yet. One read
 * when everything is there (the branch, which proves its project); a second only to say which is
 * missing. Other errors (an invalid key: 401) are thrown, so the preview fails with them.
 */
export async function targetFailures(
  rt: Runtime,
  targets: readonly TargetDef[],
  olds: Props,
  news: Props,
): Promise<CheckFailure[]> {
  const project = targets.find((t) => t.kind === "project");
  if (!project) return [];
  const projectId = news[project.property];
  if (!knownString(projectId)) return [];
  const isNew = isNewResource(olds);
  if (!isNew && !targets.some((t) => news[t.property] !== undefined && olds[t.property] !== news[t.property]))
    return [];
  const branch = targets.find((t) => t.kind === "branch" && news[t.property] !== undefined);
  const branchId = branch ? news[branch.property] : undefined;
  if (branch && !knownString(branchId)) return [];
  const api = rt.client();
  if (branch && knownString(branchId)) {
    let found: Branch | undefined;
    try {
      found = await api.branches.get(projectId, branchId);
    } catch (err) {
      if (!(err instanceof ApiError && err.kind === "not_found")) throw err;
    }
    if (found) {
      // A branch whose creation was cancelled never becomes ready: say so now, instead of retrying
      // "branch not ready yet" until the deadline.
      const why =
        found.current_state === "init"
          ? await unfinishedCreation(api, projectId, branchId, found)
          : undefined;
      if (!why) return [];
      return [
        {
          property: branch.property,
          reason:
            `${branch.property} ${branchId}: the branch's creation did not finish (${why}), and nothing running will ` +
            "make it ready; run `pulumi up` again so that the Branch resource that made it replaces it (it holds no " +
            `data of its own yet), or give ${branch.property} another branch`,
        },
      ];
    }
  }
  try {
    await api.projects.get(projectId);
  } catch (err) {
    if (!(err instanceof ApiError && err.kind === "not_found")) throw err;
    return [
      {
        property: project.property,
        reason:
          `${project.property} ${projectId}: the API key cannot see this project (it does not exist, or the key is ` +
          `scoped to another project); check ${project.property}, or use a key with access to it`,
      },
    ];
  }
  if (!branch) return [];
  const byName = await branchNamed(rt, projectId, String(branchId));
  return [
    {
      property: branch.property,
      reason:
        `${branch.property} ${String(branchId)}: project ${projectId} has no such branch` +
        (byName ? ` (${byName})` : "") +
        `; check ${branch.property}`,
    },
  ];
}

/**
 * Why a branch in `init` will never become ready — its `create_branch` operation ended cancelled or
 * in error and nothing runs on it — or `undefined` when it is ready, gone or still being made.
 */
export async function unfinishedCreation(
  api: NeonClient,
  projectId: string,
  id: string,
  read?: Branch,
): Promise<string | undefined> {
  let b = read;
  if (!b) {
    try {
      b = await api.branches.get(projectId, id);
    } catch (err) {
      if (err instanceof ApiError && err.kind === "not_found") return undefined;
      throw err;
    }
  }
  if (b.current_state !== "init" || b.pending_state) return undefined;
  const ops = (await api.operations.listPage(projectId, { limit: 100 })).operations.filter(
    (o) => o.branch_id === id,
  );
  if (ops.some((o) => !isTerminal(o.status))) return undefined;
  // Only on evidence: its create_branch ended cancelled or in error (a branch whose operations are not
  // among the newest, or whose create finished, is not judged).
  const create = ops.find((o) => o.action === "create_branch");
  if (!create || !["cancelled", "error"].includes(create.status)) return undefined;
  return `its create_branch operation ${create.id} ended ${create.status}`;
}

/** "`main` is a branch name; its id is br-…", when `value` is the name of a branch of the project. */
async function branchNamed(rt: Runtime, projectId: string, value: string): Promise<string | undefined> {
  const found = (await rt.client().branches.list(projectId)).find((b) => b.name === value);
  return found ? `"${value}" is the name of a branch; its id is ${found.id}` : undefined;
}

/**
 * A check failure for a branch target that is no branch id (`parentId: "main"`): when the value is
 * the name of a branch of the project, the failure says its id. One read, only when it failed.
 */
async function namedWhereIdWanted(
  rt: Runtime,
  targets: readonly TargetDef[],
  news: Props,
  failures: CheckFailure[],
): Promise<CheckFailure[]> {
  const project = targets.find((t) => t.kind === "project");
  const projectId = project ? news[project.property] : undefined;
  const branch = targets.find((t) => t.kind === "branch" && failures.some((f) => f.property === t.property));
  const value = branch ? news[branch.property] : undefined;
  if (!branch || !knownString(projectId) || !knownString(value) || value.startsWith("br-")) return failures;
  if (failures.some((f) => f.property === project?.property)) return failures;
  let hint: string | undefined;
  try {
    hint = await branchNamed(rt, projectId, value);
  } catch {
    return failures; // only a hint: the failure stands without it
  }
  if (!hint) return failures;
  return failures.map((f) =>
    f.property === branch.property ? { ...f, reason: `${f.reason} (${hint})` } : f,
  );
}

/**
 * A create that failed after this run's replacement deleted the old object (delete first): the
 * message says the old one is gone and what the next `up` does.
 */
function withReplacedNote(rt: Runtime, kind: ResourceKind, inputs: Props, err: unknown): unknown {
  const urn = inputs.__urn;
  const gone = typeof urn === "string" ? rt.deletedThisRun(urn) : undefined;
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
 * The error of a create whose object exists but did not become ready: the object (`what`, as
 * messages describe it) stays in the stack with its outputs as they are, so that the next `up`
 * finishes it or `destroy` removes it.
 */
export function keptInStack(what: string, err: unknown, id: string, outs: Props): InitError {
  const reason = clause(err);
  return new InitError(
    `Failed to finish creating ${what}: ${reason}. It is kept in the stack; run \`pulumi up\` again to retry, or \`pulumi destroy\` to remove it.`,
    id,
    outs,
    [reason],
  );
}

/** How {@link createOnce} sends a create and recognises what a lost answer made. */
export interface CreateOnce<R, F> {
  log: ResourceLogger;
  /** Sends the create request. */
  send(): Promise<R>;
  /** The object a create whose answer was lost made, if any (throws when it cannot tell which). */
  find(): Promise<F | undefined>;
  /** The create's result for an object found after a lost answer (its operations still to wait for). */
  finish(found: F): Promise<R>;
  /** The found object as messages name it. */
  describe(found: F): string;
  /** The first send's error when it may not have created anything: thrown as is unless this says otherwise. */
  refused?(err: unknown): Promise<R>;
  /** Whether a failed send may have created the object (default: the request may have reached the service). */
  mayHaveMade?(err: unknown): boolean;
}

/**
 * Creates an object once. A create whose answer is lost may have made the object: it is looked for
 * (`find`) before anything is sent again — found, it is this create's object; not found, the create
 * is sent once more, and a 409 or a lost answer to that is looked up the same way. Never a second
 * object, never a 409 loop.
 */
export async function createOnce<R, F>(c: CreateOnce<R, F>): Promise<R> {
  const mayHaveMade = c.mayHaveMade ?? ((e: unknown) => e instanceof ApiError && e.mayHaveReachedServer);
  let found: F | undefined;
  try {
    return await c.send();
  } catch (err) {
    if (!mayHaveMade(err)) {
      if (c.refused) return c.refused(err);
      throw err;
    }
    found = await c.find();
    if (!found) {
      c.log.info("the answer to the create request was lost and nothing was created; sending it again");
      try {
        return await c.send();
      } catch (again) {
        if (!(mayHaveMade(again) || (again instanceof ApiError && again.kind === "conflict"))) throw again;
        found = await c.find();
        if (!found) throw again;
      }
    }
  }
  c.log.info(`the answer to the create request was lost; found ${c.describe(found)}, which it created`);
  return c.finish(found);
}

/** The progress line of a step that waits for operations: "`done`; waiting for create_branch, start_compute". */
export function waitingLine(done: string, operations: readonly { action: string }[], after = ""): string {
  return `${done}; waiting for ${operations.map((o) => o.action).join(", ") || "nothing"}${after}`;
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

/** The annotation keys naming the stack (and the resource) that created a branch. */
export const OWNER_KEYS = {
  project: "pulumi-project",
  stack: "pulumi-stack",
  resource: "pulumi-resource",
} as const;

/** `urn:pulumi:<stack>::<project>::…` → its stack and project (undefined for another shape). */
function stackOf(urn: string): { stack: string; project: string } | undefined {
  const m = /^urn:pulumi:([^:]+)::([^:]+)::/.exec(urn);
  return m ? { stack: m[1], project: m[2] } : undefined;
}

/**
 * The annotations a branch gets at create: the Pulumi project and stack of the resource that made
 * it, and a hash of its URN (the URN itself may be long and names the program's structure).
 */
export function ownerAnnotations(urn: string | undefined): Record<string, string> {
  const s = urn ? stackOf(urn) : undefined;
  if (!s || !urn) return {};
  return {
    [OWNER_KEYS.project]: s.project,
    [OWNER_KEYS.stack]: s.stack,
    [OWNER_KEYS.resource]: createHash("sha256").update(urn).digest("hex").slice(0, 16),
  };
}

/** True when a branch's annotation says the stack of `urn` created it. */
export function createdByStack(annotation: Record<string, string>, urn: string | undefined): boolean {
  const s = urn ? stackOf(urn) : undefined;
  return (
    s !== undefined &&
    annotation[OWNER_KEYS.stack] === s.stack &&
    annotation[OWNER_KEYS.project] === s.project
  );
}
