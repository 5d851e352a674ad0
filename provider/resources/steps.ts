/**
 * What the steps of every resource share (part of the kit, `kit.ts`): creating an object once
 * ({@link createOnce}) and keeping a half-made one in the stack ({@link keptInStack}), the operations
 * still to wait for ({@link pendingOperations}), the progress line, refresh's inputs, "gone" only
 * when the key can see the project, derived names and the annotations naming a branch's stack.
 */
import type * as pulumi from "@pulumi/pulumi";
import { createHash } from "crypto";
import { ApiError, type NeonClient, type Operation } from "../api";
import { isSucceeded, isTerminal, OperationError } from "../operations";
import { INTERNAL_KEYS, type ResourceDef, type Bag } from "./definition";
import type { ResourceLogger } from "./engine-log";
import { clause, type Runtime } from "./runtime";
import type { DefinedDiff } from "./compare";

export { INTERNAL_KEYS } from "./definition";

/** True when the inputs of `olds` are empty: the resource is new (not an update or a replacement). */
export function isNewResource(olds: Bag): boolean {
  return Object.keys(olds).filter((k) => !k.startsWith("__")).length === 0;
}

/**
 * Raised by create when the object exists but did not become ready: the engine keeps it in state
 * (with `properties`), so that a later `up` finishes or deletes it.
 */
export class InitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Bag,
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
export function keptInStack(what: string, err: unknown, id: string, outs: Bag): InitError {
  // An operation's own advice (the console) would contradict this one: the next `up` is the remedy.
  const reason = err instanceof OperationError ? err.summary : clause(err);
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

/**
 * The operations of a project still worth waiting for that `match` names (its branch's, its
 * compute's), newest first: read over the pager back to `since` (an ISO time: the object's creation,
 * at most 500 operations), or the newest 100 (one page) without it. `includeFailed` keeps those that ended in error or were cancelled — waiting on them
 * fails, which is right when they belong to the change at hand (a brand-new object's); otherwise only
 * the unfinished ones.
 */
export async function pendingOperations(
  api: NeonClient,
  projectId: string,
  match: (o: Operation) => boolean,
  opts: { includeFailed: boolean; since?: string },
): Promise<Operation[]> {
  const done = opts.includeFailed ? isSucceeded : isTerminal;
  const since = opts.since ? Date.parse(opts.since) : undefined;
  const out: Operation[] = [];
  let read = 0;
  for await (const o of api.operations.list(projectId, { limit: 100 })) {
    if (since !== undefined && Date.parse(o.created_at) < since) break;
    if (match(o) && !done(o.status)) out.push(o);
    if (++read >= (since === undefined ? 100 : 500)) break;
  }
  return out;
}

/**
 * Splits a resource id (or an `importId`) `<projectId>/<part>` into its two parts; throws naming the
 * remedy for any other shape. `what` is the object as messages name it ("snapshot schedule"), `part`
 * the second part's name ("branchId").
 */
export function splitProjectScoped(id: string, what: string, part: string): [string, string] {
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1 || id.indexOf("/", slash + 1) !== -1) {
    throw new Error(
      `Failed to read ${what} "${id}": the id is not "<projectId>/<${part}>". Remove the resource from the ` +
        `stack with \`pulumi state delete\` and import the ${what} with importId.`,
    );
  }
  return [id.slice(0, slash), id.slice(slash + 1)];
}

/**
 * The progress line of a step that waits for operations: "`done`; waiting for create_branch,
 * start_compute`after`"; just `done` when there is nothing to wait for (`after` speaks of the wait).
 */
export function waitingLine(done: string, operations: readonly { action: string }[], after = ""): string {
  if (operations.length === 0) return done;
  return `${done}; waiting for ${operations.map((o) => o.action).join(", ")}${after}`;
}

/**
 * The inputs after a refresh: those the program gave, as they now are. The program's input names
 * are recorded at each write as `__inputNames` (values the platform chose are not something the
 * program asked for); states without that record fall back to every input present in the old
 * outputs. `always` are the inputs that name the object (by default the required ones), reported
 * whatever was recorded.
 */
export function refreshInputs(
  def: ResourceDef,
  old: Bag,
  outs: Bag,
  always: readonly string[] = requiredInputNames(def),
): Bag {
  const given = Array.isArray(old.__inputNames) ? (old.__inputNames as string[]) : undefined;
  const inputs: Bag = {};
  for (const p of def.properties.filter((q) => q.input)) {
    const k = p.name;
    const wanted = given ? given.includes(k) : k in old;
    if ((wanted || always.includes(k)) && outs[k] !== undefined) inputs[k] = outs[k];
  }
  for (const k of INTERNAL_KEYS) if (outs[k] !== undefined) inputs[k] = outs[k];
  return inputs;
}

/** The names of a resource's required inputs. */
export function requiredInputNames(def: ResourceDef): string[] {
  return def.properties.filter((p) => p.input === "required").map((p) => p.name);
}

/**
 * The inputs that describe an object read by `pulumi import` as it is (they become its code): each
 * input whose change does something to the object (not read at creation only, not a trigger) that
 * the outputs hold; a flag whose absence means `false` (`true`) only when it is `true` (`false`).
 */
export function definedImportInputs(def: ResourceDef, outs: Bag): Bag {
  const inputs: Bag = {};
  for (const p of def.properties) {
    if (!p.input || p.change === "create-only" || p.change === "none" || p.compare === "trigger") continue;
    if (outs[p.name] === undefined) continue;
    if (p.compare === "false-when-absent" && outs[p.name] !== true) continue;
    if (p.compare === "true-when-absent" && outs[p.name] !== false) continue;
    inputs[p.name] = outs[p.name];
  }
  return inputs;
}

/** The names of the inputs set in `inputs`, as {@link refreshInputs} reads them back. */
export function givenInputNames(def: ResourceDef, inputs: Bag): string[] {
  return def.properties.filter((p) => p.input && inputs[p.name] !== undefined).map((p) => p.name);
}

/**
 * The outputs a step returns: `fields` without the absent ones, and the names of the inputs the
 * program gave (an earlier step's record when there is one, else read from `inputs`).
 */
export function stateOf(def: ResourceDef, inputs: Bag, fields: Bag): Bag {
  const outs: Bag = {
    ...fields,
    __inputNames: Array.isArray(inputs.__inputNames) ? inputs.__inputNames : givenInputNames(def, inputs),
  };
  for (const k of Object.keys(outs)) if (outs[k] === undefined) delete outs[k];
  return outs;
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
 * Reads the object `importId` names; a 404 becomes an error that names it and says how to go on
 * (`what`: "branch", "compute", "project").
 */
export async function readImported<T>(what: string, importId: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ApiError && err.kind === "not_found") {
      throw err.withRemedy(
        `${what[0].toUpperCase()}${what.slice(1)} ${importId} does not exist (or the API key cannot see it). ` +
          `Check importId, or remove it to create a new ${what}.`,
      );
    }
    throw err;
  }
}

/**
 * Sends a delete and waits for the operations it started. A 404 means "already gone" once the key is
 * known to see the project ({@link confirmGone}); `what` names the object in that message.
 */
export async function deleteAndWait(
  rt: Runtime,
  projectId: string,
  what: string,
  send: () => Promise<{ operations: Operation[] } | undefined>,
  log: ResourceLogger,
): Promise<void> {
  const r = await send().catch(async (err: unknown) => {
    if (!(err instanceof ApiError && err.kind === "not_found")) throw err;
    await confirmGone(rt.client(), projectId, what, "delete", err);
    return undefined;
  });
  if (r) await rt.waitFor(projectId, r.operations, log);
}

/**
 * The update step of a resource every input change of which replaces it (ApiKey, ProjectPermission):
 * the engine calls update only for an input that changes nothing (an `importId` added later), so the
 * outputs stay, with the new inputs.
 */
export async function keepOutputs(
  _rt: Runtime,
  _id: string,
  olds: Bag,
  news: Bag,
): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: { ...olds, ...news } };
}

/** The engine's diff result for a definition-derived diff. */
export function diffResult(d: DefinedDiff, deleteBeforeReplace: boolean): pulumi.dynamic.DiffResult {
  // A step may add a replacement of its own (an unfinished creation): then nothing is stable.
  const stables = d.replaces.length === 0 ? d.stables : [];
  return { changes: d.changes, replaces: d.replaces, stables, deleteBeforeReplace };
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
    [OWNER_KEYS.resource]: resourceHash(urn),
  };
}

/** The hash of a URN a branch's annotation carries (`pulumi-resource`). */
function resourceHash(urn: string): string {
  return createHash("sha256").update(urn).digest("hex").slice(0, 16);
}

/** True when a branch's annotation says this very resource (`urn`: its stack and its URN) created it. */
export function madeForResource(annotation: Record<string, string>, urn: string | undefined): boolean {
  return (
    urn !== undefined &&
    createdByStack(annotation, urn) &&
    annotation[OWNER_KEYS.resource] === resourceHash(urn)
  );
}

/** The stack a branch's annotation names as its maker (`<project>/<stack>`), if it names one. */
export function annotatedStack(annotation: Record<string, string>): string | undefined {
  const project = annotation[OWNER_KEYS.project];
  const stack = annotation[OWNER_KEYS.stack];
  return project && stack ? `${project}/${stack}` : undefined;
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
