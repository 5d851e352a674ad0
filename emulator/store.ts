/**
 * The store: owns the serializable {@link State}, the seeded random streams, the
 * emulator clock and the in-memory indexes (key hash → key, operation id →
 * operation, project → endpoints) that keep hot requests to a map lookup.
 * Persistence is a whole-state JSON file written atomically (temp file + rename). The records of the
 * resources' collections (`collection.ts`) are kept beside the state, each under its name in the file.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { Rng } from "./rng";
import { iso, sha256 } from "./ids";
import { seedState } from "./seed";
import { Records, type Collection } from "./collection";
import {
  StateSchema,
  type ApiKey,
  type Branch,
  type Database,
  type Endpoint,
  type OperationRecord,
  type Project,
  type ProjectSim,
  type RoleRecord,
  type State,
} from "./state";
import type { Plan } from "./sizes";

export { iso } from "./ids";

export class Store {
  state: State;
  rngIds: Rng;
  rngFaults: Rng;
  rngJitter: Rng;
  /** Set when something changed that a state file should keep. */
  dirty = false;
  /** With a frozen clock: the real time it stands at (only `advance` moves it). Not persisted. */
  frozenRealMs?: number;
  private keysByHash = new Map<string, ApiKey>();
  private opsById = new Map<string, OperationRecord>();
  private endpointsByProject = new Map<string, Endpoint[]>();
  /** Per collection name: its records per project or branch id. */
  private readonly collectionData = new Map<string, Record<string, unknown[]>>();

  constructor(
    state: State,
    readonly statePath?: string,
    /** The resources' collections this store keeps (see `collection.ts`). */
    readonly collections: readonly Collection<unknown>[] = [],
    /** Their records, per collection name (none: empty). */
    records: Record<string, Record<string, unknown[]>> = {},
  ) {
    this.state = state;
    this.rngIds = new Rng(state.rng.ids);
    this.rngFaults = new Rng(state.rng.faults);
    this.rngJitter = new Rng(state.rng.jitter);
    for (const c of collections) {
      if (Object.prototype.hasOwnProperty.call(StateSchema.shape, c.name)) {
        throw new Error(`Collection "${c.name}" takes the name of the emulator state's own "${c.name}"`);
      }
      if (this.collectionData.has(c.name)) throw new Error(`Two collections are named "${c.name}"`);
      this.collectionData.set(c.name, records[c.name] ?? {});
    }
    this.reindex();
  }

  /** A fresh seeded store; the clock offset is kept from `clockOffsetMs`. */
  static seeded(
    seed: number,
    plan: Plan,
    statePath?: string,
    clockOffsetMs = 0,
    frozenRealMs?: number,
    opMsOf?: (action: string) => number,
    collections: readonly Collection<unknown>[] = [],
  ): Store {
    const real = frozenRealMs ?? Date.now();
    const store = new Store(
      seedState(seed, plan, real + clockOffsetMs, clockOffsetMs, opMsOf),
      statePath,
      collections,
    );
    store.frozenRealMs = frozenRealMs;
    for (const c of collections) c.spec.seed?.(store.records(c), store);
    return store;
  }

  /**
   * Loads a state file written by {@link save}, with the records of `collections` in it (none where the
   * file has none); throws naming the file when it is not valid.
   */
  static load(statePath: string, collections: readonly Collection<unknown>[] = []): Store {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(statePath, "utf8"));
    } catch (e) {
      throw new Error(`Failed to load emulator state from ${statePath}: ${(e as Error).message}`);
    }
    const invalid = (path: PropertyKey[], message: string) =>
      new Error(
        `Failed to load emulator state from ${statePath}: ${path.map(String).join(".")}: ${message}. ` +
          "Delete the file to start from the seeded state.",
      );
    const parsed = StateSchema.safeParse(raw);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw invalid(first.path, first.message);
    }
    const records: Record<string, Record<string, unknown[]>> = {};
    for (const c of collections) {
      const r = c.fileSchema.safeParse((raw as Record<string, unknown>)[c.name]);
      if (!r.success) {
        const first = r.error.issues[0];
        throw invalid([c.name, ...first.path], first.message);
      }
      records[c.name] = r.data;
    }
    return new Store(parsed.data, statePath, collections, records);
  }

  static exists(statePath: string): boolean {
    return existsSync(statePath);
  }

  /** Writes the whole state atomically when a state path is set. */
  save(): void {
    this.dirty = false;
    if (!this.statePath) return;
    this.state.rng = { ids: this.rngIds.state, faults: this.rngFaults.state, jitter: this.rngJitter.state };
    const tmp = `${this.statePath}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ ...this.state, ...Object.fromEntries(this.collectionData) }));
    renameSync(tmp, this.statePath);
  }

  saveIfDirty(): void {
    if (this.dirty) this.save();
  }

  /** Emulator time: real time plus the offset that `advance` moves. */
  now(): number {
    return (this.frozenRealMs ?? Date.now()) + this.state.clock_offset_ms;
  }

  advance(ms: number): void {
    this.state.clock_offset_ms += ms;
    this.dirty = true;
  }

  private reindex(): void {
    this.keysByHash.clear();
    for (const k of Object.values(this.state.api_keys))
      if (!k.revoked) this.keysByHash.set(k.token_sha256, k);
    this.opsById.clear();
    for (const list of Object.values(this.state.operations))
      for (const r of list) this.opsById.set(r.op.id, r);
    this.endpointsByProject.clear();
    for (const ep of Object.values(this.state.endpoints)) this.endpointList(ep.project_id).push(ep);
  }

  // ---- projects, branches -------------------------------------------------

  project(id: string): Project | undefined {
    return Object.prototype.hasOwnProperty.call(this.state.projects, id)
      ? this.state.projects[id]
      : undefined;
  }

  plan(project: Project): Plan {
    if (project.org_id) return this.state.orgs[project.org_id].plan;
    return this.state.users[project.owner_id].plan;
  }

  branch(projectId: string, id: string): Branch | undefined {
    const b = Object.prototype.hasOwnProperty.call(this.state.branches, id)
      ? this.state.branches[id]
      : undefined;
    return b && b.project_id === projectId ? b : undefined;
  }

  branchesOf(projectId: string): Branch[] {
    return Object.values(this.state.branches).filter((b) => b.project_id === projectId);
  }

  /**
   * Removes a branch with its roles, databases and the records of branch collections (its computes are
   * the caller's).
   */
  removeBranch(b: Branch): void {
    delete this.state.branches[b.id];
    delete this.state.roles[b.id];
    delete this.state.databases[b.id];
    delete this.state.annotations[b.id];
    this.dropRecords("branch", b.id);
    this.dirty = true;
  }

  /**
   * Removes a project with every branch, compute, operation, role and database of it, and the records
   * of its collections (project and branch ones).
   */
  removeProject(p: Project): void {
    for (const b of this.branchesOf(p.id)) this.removeBranch(b);
    for (const ep of [...this.endpointList(p.id)]) delete this.state.endpoints[ep.id];
    this.endpointsByProject.delete(p.id);
    for (const r of this.opsOf(p.id)) this.opsById.delete(r.op.id);
    delete this.state.operations[p.id];
    delete this.state.sim[p.id];
    delete this.state.projects[p.id];
    this.dropRecords("project", p.id);
    this.dirty = true;
  }

  // ---- the resources' collections -----------------------------------------

  /** A collection's records in this store; it must be one of {@link collections}. */
  records<T>(c: Collection<T>): Records<T> {
    const data = this.collectionData.get(c.name);
    if (!data || !this.collections.includes(c as Collection<unknown>)) {
      throw new Error(
        `Collection "${c.name}" is not kept by this emulator: register its resource in emulator/resources.ts ` +
          "(or pass it to startEmulator's resources)",
      );
    }
    return new Records(c, this, data as Record<string, T[]>);
  }

  private dropRecords(scope: "project" | "branch", id: string): void {
    for (const c of this.collections) if (c.scope === scope) this.records(c).drop(id);
  }

  // ---- roles, databases --------------------------------------------------

  /** The roles of a branch in creation order (the stored list). */
  rolesOf(branchId: string): RoleRecord[] {
    return Object.prototype.hasOwnProperty.call(this.state.roles, branchId) ? this.state.roles[branchId] : [];
  }

  /** The databases of a branch in creation order (the stored list). */
  databasesOf(branchId: string): Database[] {
    return Object.prototype.hasOwnProperty.call(this.state.databases, branchId)
      ? this.state.databases[branchId]
      : [];
  }

  // ---- endpoints ---------------------------------------------------------

  endpoint(projectId: string, id: string): Endpoint | undefined {
    const e = Object.prototype.hasOwnProperty.call(this.state.endpoints, id)
      ? this.state.endpoints[id]
      : undefined;
    return e && e.project_id === projectId ? e : undefined;
  }

  endpointList(projectId: string): Endpoint[] {
    let list = this.endpointsByProject.get(projectId);
    if (!list) this.endpointsByProject.set(projectId, (list = []));
    return list;
  }

  addEndpoint(ep: Endpoint): void {
    this.state.endpoints[ep.id] = ep;
    this.endpointList(ep.project_id).push(ep);
    this.dirty = true;
  }

  removeEndpoint(ep: Endpoint): void {
    delete this.state.endpoints[ep.id];
    const list = this.endpointList(ep.project_id);
    list.splice(list.indexOf(ep), 1);
    this.dirty = true;
  }

  // ---- operations --------------------------------------------------------

  opsOf(projectId: string): OperationRecord[] {
    let list = this.state.operations[projectId];
    if (!list) this.state.operations[projectId] = list = [];
    return list;
  }

  sim(projectId: string): ProjectSim {
    let s = this.state.sim[projectId];
    if (!s) this.state.sim[projectId] = s = { pending: this.opsOf(projectId).length, last_end_ms: 0 };
    return s;
  }

  operation(projectId: string, id: string): OperationRecord | undefined {
    const r = this.opsById.get(id);
    return r && r.op.project_id === projectId ? r : undefined;
  }

  addOperation(r: OperationRecord): void {
    // The engine's bookkeeping first: created later, it would count this operation as settled.
    this.sim(r.op.project_id);
    this.opsOf(r.op.project_id).push(r);
    this.opsById.set(r.op.id, r);
    this.dirty = true;
  }

  /** A creation time in µs that is unique and never goes backwards. */
  nextCreatedUs(ms: number): number {
    const us = Math.max(Math.round(ms * 1000), this.state.last_created_us + 1);
    this.state.last_created_us = us;
    return us;
  }

  // ---- API keys ----------------------------------------------------------

  keyByToken(token: string): ApiKey | undefined {
    return this.keysByHash.get(sha256(token));
  }

  addKey(
    fields: Omit<
      ApiKey,
      "id" | "token_sha256" | "created_at" | "last_used_at" | "last_used_from_addr" | "revoked"
    >,
    token: string,
  ): ApiKey {
    const key: ApiKey = {
      ...fields,
      id: this.state.next_key_id++,
      token_sha256: sha256(token),
      created_at: iso(this.now()),
      last_used_at: null,
      last_used_from_addr: "",
      revoked: false,
    };
    this.state.api_keys[String(key.id)] = key;
    this.keysByHash.set(key.token_sha256, key);
    this.dirty = true;
    return key;
  }

  revokeKey(key: ApiKey): void {
    key.revoked = true;
    this.keysByHash.delete(key.token_sha256);
    this.dirty = true;
  }

  /** Makes sure a personal key of the seeded admin user with this token exists. */
  ensureBootstrapKey(token: string): void {
    const existing = this.keysByHash.get(sha256(token));
    if (existing) return;
    this.addKey({ name: "bootstrap", kind: "personal", created_by: this.state.seed_info.adminUserId }, token);
  }
}
