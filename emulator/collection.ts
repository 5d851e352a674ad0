/**
 * A resource's emulator part in one place. A resource module declares the records it keeps (a
 * {@link collection}: their schema, whether they belong to a project or to a branch, how they are
 * seeded) and its routes, and exports one {@link Resource}; one line in `emulator/resources.ts` serves
 * it (a test passes more to `startEmulator({ resources })`).
 *
 * The store keeps a collection's records per project or branch id, in creation order, and takes part in
 * everything the state does: the state file holds them under the collection's name (validated by its
 * schema on load), deleting a project or branch (and a branch's expiry) removes them, and `reset()`
 * seeds them again. Routes check and change them through {@link Collection.at}, beside the context's
 * own helpers for the rest (`ctx.body`, `ctx.lock`, `ctx.operations`, the errors of `errors.ts`).
 */
import { z } from "zod";
import { notFound } from "./errors";
import type { Ctx, Router, ServiceRouter } from "./context";
import type { Branch, Org, Project } from "./state";
import type { Store } from "./store";

/**
 * What a collection's records belong to, and are removed with (an organization is never removed: its
 * records stay until their routes remove them).
 */
export type Scope = "project" | "branch" | "organization";

/** How a collection is declared (see {@link collection}). */
export interface CollectionSpec<T> {
  /**
   * Its key in the state file, e.g. `"permissions"`: unique among the emulator's collections and not
   * one of the core state's keys (`projects`, `branches`, …).
   */
  name: string;
  /** The record's name in messages: `permission` in "permission <id> not found in project <id>". */
  noun: string;
  /**
   * `project`: kept per project, under `/projects/:project_id/…` routes, removed with the project.
   * `branch`: kept per branch, under `/projects/:project_id/branches/:branch_id/…` routes, removed with
   * the branch (its delete or expiry, and its project's delete). `organization`: kept per organization,
   * under `/organizations/:org_id/…` routes.
   */
  scope: Scope;
  /** A record as stored: validates the state file when it is loaded. */
  schema: z.ZodType<T>;
  /** A record's id, as its routes name it (unique within its project or branch). */
  id(record: T): string;
  /**
   * Records of the seeded state (none without it), made whenever a store is seeded: at the start
   * without a state file, and on `reset()`. `store.state.seed_info` names the seeded projects and
   * branches; ids drawn from `store.rngIds` keep a seed's ids the same from run to run.
   */
  seed?(records: Records<T>, store: Store): void;
}

/** One resource's emulator part: the records it keeps and its routes. */
export interface Resource {
  /** What it is, for messages: "project permissions". */
  name: string;
  /** Its records; none for a resource whose state the core store keeps. */
  collections?: readonly Collection<unknown>[];
  /** Registers its routes (paths under `/api/v2`). */
  routes(r: Router): void;
  /** Registers the public routes of a service it runs (Neon Auth's endpoints, the Data API's URL). */
  service?(s: ServiceRouter): void;
}

/** Declares a resource (see {@link Resource}); the identity, for its type. */
export function resource(r: Resource): Resource {
  return r;
}

/** Declares a collection (see {@link CollectionSpec}). */
export function collection<T>(spec: CollectionSpec<T>): Collection<T> {
  return new Collection(spec);
}

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export class Collection<T> {
  /** Its part of the state file: records per project or branch id. */
  readonly fileSchema: z.ZodType<Record<string, T[]>>;

  constructor(readonly spec: CollectionSpec<T>) {
    this.fileSchema = z.record(z.string(), z.array(spec.schema)).default({}) as z.ZodType<
      Record<string, T[]>
    >;
  }

  get name(): string {
    return this.spec.name;
  }

  get scope(): Scope {
    return this.spec.scope;
  }

  /** This collection's records in a store. */
  in(store: Store): Records<T> {
    return store.records(this);
  }

  /**
   * The project (and, for a branch scope, the branch) the route names in `:project_id`
   * (`:branch_id`), as the caller may see it and brought up to date, with its records. A project the key
   * may not see is a 404 (or the scope refusal of a project-scoped key), as on every project route; an
   * unknown branch is a 404 `Failed to <what>: branch <id> not found in project <id>`.
   */
  at(ctx: Ctx, what: string): Scoped<T> {
    const params = ctx.params();
    if (this.scope === "organization") {
      const org = ctx.org(param(params, "org_id", this.name), what);
      return new Scoped(this.in(ctx.store), what, undefined, undefined, org);
    }
    const project = ctx.project(param(params, "project_id", this.name), what);
    if (this.scope === "project") return new Scoped(this.in(ctx.store), what, project);
    const branchId = param(params, "branch_id", this.name);
    const branch = ctx.store.branch(project.id, branchId);
    if (!branch) throw notFound(`Failed to ${what}: branch ${branchId} not found in project ${project.id}`);
    return new Scoped(this.in(ctx.store), what, project, branch);
  }
}

function param(params: Record<string, string>, name: string, collectionName: string): string {
  const v = params[name];
  if (v === undefined) {
    throw new Error(`Route of collection "${collectionName}" has no :${name} parameter in its path`);
  }
  return v;
}

/** A collection's records in one store: per project or branch id, in creation order. */
export class Records<T> {
  constructor(
    readonly collection: Collection<T>,
    private readonly store: Store,
    private readonly data: Record<string, T[]>,
  ) {}

  /** The records of a project or branch, in creation order. */
  of(scopeId: string): readonly T[] {
    return own(this.data, scopeId) ? this.data[scopeId] : [];
  }

  get(scopeId: string, id: string): T | undefined {
    return this.of(scopeId).find((r) => this.collection.spec.id(r) === id);
  }

  /** Adds a record after the others of its project or branch; returns it. */
  add(scopeId: string, record: T): T {
    const id = this.collection.spec.id(record);
    if (this.get(scopeId, id)) {
      throw new Error(
        `${this.collection.spec.noun} ${id} is already in ${scopeId} (collection "${this.collection.name}")`,
      );
    }
    this.data[scopeId] = [...this.of(scopeId), record];
    this.store.dirty = true;
    return record;
  }

  /** Puts a changed record in the place of the one with its id; returns it. */
  replace(scopeId: string, record: T): T {
    const id = this.collection.spec.id(record);
    const list = this.of(scopeId);
    const i = list.findIndex((r) => this.collection.spec.id(r) === id);
    if (i < 0) {
      throw new Error(
        `${this.collection.spec.noun} ${id} is not in ${scopeId} (collection "${this.collection.name}")`,
      );
    }
    this.data[scopeId] = list.map((r, j) => (j === i ? record : r));
    this.store.dirty = true;
    return record;
  }

  /** Removes a record; returns it, or undefined when there was none of the id. */
  remove(scopeId: string, id: string): T | undefined {
    const r = this.get(scopeId, id);
    if (!r) return undefined;
    const rest = this.of(scopeId).filter((x) => x !== r);
    if (rest.length) this.data[scopeId] = rest;
    else delete this.data[scopeId];
    this.store.dirty = true;
    return r;
  }

  /** Removes every record of a project or branch (the store calls it when one is deleted). */
  drop(scopeId: string): void {
    if (!own(this.data, scopeId)) return;
    delete this.data[scopeId];
    this.store.dirty = true;
  }
}

/** The records of the project or branch a route names (see {@link Collection.at}). */
export class Scoped<T> {
  constructor(
    readonly records: Records<T>,
    /** The request's action, for messages: "revoke project access". */
    readonly what: string,
    /** For a project or branch scope. */
    readonly projectOrNone: Project | undefined,
    /** For a branch scope. */
    readonly branch?: Branch,
    /** For an organization scope. */
    readonly org?: Org,
  ) {}

  /** The project the records belong to (a project or branch scope). */
  get project(): Project {
    if (!this.projectOrNone) throw new Error(`collection "${this.records.collection.name}" has no project`);
    return this.projectOrNone;
  }

  /** The id of the organization, project or branch the records belong to. */
  get scopeId(): string {
    return (this.org ?? this.branch ?? this.project).id;
  }

  list(): readonly T[] {
    return this.records.of(this.scopeId);
  }

  get(id: string): T | undefined {
    return this.records.get(this.scopeId, id);
  }

  /** The record of the id; 404 `Failed to <what>: <noun> <id> not found in project <id>` (`on branch <id>`). */
  one(id: string): T {
    const r = this.get(id);
    if (r) return r;
    const where = this.org
      ? `in organization ${this.org.id}`
      : this.branch
        ? `on branch ${this.branch.id}`
        : `in project ${this.project.id}`;
    throw notFound(`Failed to ${this.what}: ${this.records.collection.spec.noun} ${id} not found ${where}`);
  }

  add(record: T): T {
    return this.records.add(this.scopeId, record);
  }

  replace(record: T): T {
    return this.records.replace(this.scopeId, record);
  }

  remove(id: string): T | undefined {
    return this.records.remove(this.scopeId, id);
  }
}
