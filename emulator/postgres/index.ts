/**
 * Real Postgres behind the emulator's records (`startEmulator({ postgres: true })`, and the CLI's
 * default where the server programs are installed). After every API request, and every second, the
 * records are brought up to date and the machine follows them:
 *
 * - a branch with an active compute has a running server over its own data directory (an active
 *   read-only compute is a standby streaming from it, which refuses writes); a branch made
 *   through the API starts as a copy of its parent's data at that moment, a reset takes the source's
 *   data again, a deleted branch's data is removed;
 * - the server's roles and databases are the branch's records: created, renamed, re-owned, dropped; a
 *   role's password is its current one, or during a reset the one it replaces until the reset's
 *   operations end (as on the service);
 * - each compute listens on its own loopback address (its `host`) at port 5432; a connection to a
 *   suspended compute starts it (a `start_compute` operation, as the service's proxy does), an open
 *   connection keeps it active, and scale to zero stops the server.
 *
 * Connection URIs from the API therefore connect, with `psql` or any driver (TLS with a self-signed
 * certificate: `sslmode=require` works, `verify-full` does not).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { randomInt } from "node:crypto";
import { createTwoFilesPatch } from "diff";
import { createOperations, materialize, type EngineConfig } from "../engine";
import { previousPasswordValid } from "../roles";
import { iso } from "../store";
import type { Store } from "../store";
import type { Endpoint } from "../state";
import { findPostgres, own, run, type PgBinaries } from "./binaries";
import { ident, literal, wantedCatalog, type WantedCatalog } from "./catalog";
import { PgFleet } from "./fleet";
import { snapshots } from "../routes/snapshots";
import type { Collection } from "../collection";
import { ComputeProxy } from "./proxy";
import { applyMasking, type MaskOutcome, type MaskTarget } from "./anon";

export { findPostgres } from "./binaries";

/** Postgres's port, which every compute address listens on (URIs carry no port). */
export const COMPUTE_PORT = 5432;

export interface RealPostgresOptions {
  /**
   * Folder for the clusters' data (kept); default a new folder in the OS temp folder, removed when
   * the emulator stops.
   */
  dataDir?: string;
}

/** What the emulator gives the real Postgres layer to work with. */
export interface RecordsView {
  readonly store: Store;
  readonly engine: EngineConfig;
}

/** Temp data folders are named so; each holds the pid of the emulator that made it. */
const TEMP_PREFIX = "neon-emulator-pg-";
const OWNER_FILE = "emulator.pid";

/**
 * Stops the servers and removes the temp data of emulators that died without stopping them (killed
 * processes: a server outlives the process that started it).
 */
async function sweepOrphans(bins: PgBinaries): Promise<void> {
  const tmp = os.tmpdir();
  for (const name of fs.readdirSync(tmp).filter((n) => n.startsWith(TEMP_PREFIX))) {
    const root = path.join(tmp, name);
    const pid = ownerOf(root);
    if (pid === undefined || alive(pid)) continue; // being made, not ours, or alive
    await stopClusters(bins, root);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Stops every server still running over a data folder's clusters (left by a killed emulator). */
async function stopClusters(bins: PgBinaries, root: string): Promise<void> {
  const clusters = fs.readdirSync(root).map((n) => path.join(root, n));
  for (const sub of ["branches", "replicas"]) {
    const dir = path.join(root, sub);
    if (fs.existsSync(dir)) for (const n of fs.readdirSync(dir)) clusters.push(path.join(dir, n));
  }
  for (const dir of clusters.filter((d) => fs.existsSync(path.join(d, "postmaster.pid")))) {
    await run(bins, "pg_ctl", ["stop", "-w", "-m", "immediate", "-D", dir], { allowFailure: true });
  }
  // A template whose build was killed is not one.
  for (const dir of clusters.filter((d) => path.basename(d).startsWith("template.building-"))) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The process that made (or last used) a data folder, when it says. */
function ownerOf(root: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(root, OWNER_FILE), "utf8"));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

type DataEvent = (
  | { kind: "copy"; branchId: string; from?: string }
  | { kind: "schema"; branchId: string; from: string }
  /** A snapshot of `branchId` (its data as it is now) under `snapshotId`. */
  | { kind: "snapshot"; branchId: string; snapshotId: string }
  /** A restore's new branch: `branchId`'s data is the snapshot's. */
  | { kind: "restore"; branchId: string; snapshotId: string }
  | { kind: "dropSnapshot"; snapshotId: string }
  /** An anonymization run: the rules applied to `branchId`'s data, its outcome handed to `done`. */
  | { kind: "anonymize"; branchId: string; targets: MaskTarget[]; done: (outcome: MaskOutcome) => void }
  | { kind: "wipe" }
) & { failures?: number; notBefore?: number };

/** The longest wait before a failed data event is tried again (it doubles from 1 s up to this). */
const EVENT_RETRY_MAX_MS = 30_000;

export class RealPostgres {
  readonly fleet: PgFleet;
  private readonly proxies = new Map<string, ComputeProxy>();
  private readonly events: DataEvent[] = [];
  private chain: Promise<void> = Promise.resolve();
  private queued?: Promise<void>;
  private readonly timer: NodeJS.Timeout;
  private readonly base: [number, number];
  private nextHost = 0;
  private readonly ownsRoot: boolean;
  private readonly warned = new Set<string>();
  private stopped = false;
  /** The template's build started at construction (stop waits for it before removing the folder). */
  private readonly templateBuild: Promise<void>;

  /** Real Postgres for `view`'s records; throws when the server programs are missing. */
  static start(view: RecordsView, options: RealPostgresOptions = {}): RealPostgres {
    const bins = findPostgres();
    if (typeof bins === "string") throw new Error(`real Postgres is not available: ${bins}`);
    return new RealPostgres(view, bins, options);
  }

  private constructor(
    private readonly view: RecordsView,
    bins: PgBinaries,
    options: RealPostgresOptions,
  ) {
    this.ownsRoot = options.dataDir === undefined;
    if (this.ownsRoot) sweepOrphans(bins).catch(() => undefined);
    const root = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
    fs.mkdirSync(root, { recursive: true });
    const owner = ownerOf(root);
    if (owner !== undefined && owner !== process.pid && alive(owner)) {
      throw new Error(
        `the data folder ${root} belongs to a running emulator (process ${owner}); stop it or choose another folder`,
      );
    }
    fs.writeFileSync(path.join(root, OWNER_FILE), String(process.pid));
    own(bins, root);
    this.fleet = new PgFleet(bins, root);
    // One block of loopback addresses per emulator, so that emulators side by side do not collide.
    this.base = [randomInt(16, 240), randomInt(0, 256)];
    this.assignHosts();
    // Before anything else, the servers a killed run left over this folder are stopped; the template is
    // built meanwhile (answers do not wait for it; the first compute that starts does).
    if (!this.ownsRoot) this.chain = stopClusters(bins, root).catch((e: unknown) => this.report(e));
    this.templateBuild = this.fleet.template().then(
      () => undefined,
      (e: unknown) => this.report(e),
    );
    this.timer = setInterval(() => void this.reconcile(), 1000);
    this.timer.unref();
  }

  /** Client connections open through the computes' addresses now (an open one keeps its compute active). */
  openConnections(): number {
    let open = 0;
    for (const p of this.proxies.values()) open += p.open;
    return open;
  }

  /** A new compute's host: the next loopback address of this emulator's block. */
  hostFor(): string {
    const n = this.nextHost++;
    const c = (this.base[1] + Math.floor(n / 250)) % 256;
    return `127.${this.base[0]}.${c}.${(n % 250) + 2}`;
  }

  /** Gives every compute that has a service-style host name an address of this emulator. */
  assignHosts(): void {
    const store = this.view.store;
    for (const ep of Object.values(store.state.endpoints)) {
      if (!/^127\.\d+\.\d+\.\d+$/.test(ep.host)) {
        ep.host = this.hostFor();
        store.dirty = true;
      }
    }
    store.saveIfDirty();
  }

  /** A branch was made through the API: its data is `from`'s as it is now (none: a fresh cluster). */
  branchCreated(branchId: string, from: string | undefined): void {
    this.events.push({ kind: "copy", branchId, from });
  }

  /** A schema-only branch was made: a fresh cluster holding `from`'s schema (none of its rows). */
  branchCreatedSchemaOnly(branchId: string, from: string): void {
    this.events.push({ kind: "schema", branchId, from });
  }

  /** A branch was reset: its data is the source's again. */
  branchRestored(branchId: string, sourceId: string): void {
    this.events.push({ kind: "copy", branchId, from: sourceId });
  }

  /** A snapshot was taken: its data is `branchId`'s as it is now (the emulator keeps no history). */
  snapshotTaken(snapshotId: string, branchId: string): void {
    this.events.push({ kind: "snapshot", branchId, snapshotId });
  }

  /** A snapshot was deleted (or expired): its data goes. */
  snapshotDeleted(snapshotId: string): void {
    this.events.push({ kind: "dropSnapshot", snapshotId });
  }

  /** A snapshot was restored into a new branch: the branch's data is the snapshot's. */
  branchFromSnapshot(branchId: string, snapshotId: string): void {
    this.events.push({ kind: "restore", branchId, snapshotId });
  }

  /**
   * An anonymization run of `branchId` (after every data change asked for before it, such as the
   * branch's copy of its parent): `done` receives how it ended.
   */
  anonymize(branchId: string, targets: MaskTarget[], done: (outcome: MaskOutcome) => void): void {
    this.events.push({ kind: "anonymize", branchId, targets, done });
  }

  /** Whether a run of `branchId` waits or runs (a restart forgets runs: their records ask again). */
  anonymizing(branchId: string): boolean {
    return this.events.some((e) => e.kind === "anonymize" && e.branchId === branchId);
  }

  /** The records went back to the seed: every branch's data goes. */
  wiped(): void {
    this.events.push({ kind: "wipe" });
    this.assignHosts();
  }

  /**
   * Makes the machine follow the records; resolves once a pass that began after this call ended
   * (so an answer sent after it describes what Postgres holds). Never rejects: failures are reported.
   */
  reconcile(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.queued) return this.queued;
    const next = this.chain.then(async () => {
      this.queued = undefined;
      if (this.stopped) return;
      try {
        await this.pass();
      } catch (e) {
        this.report(e);
      }
    });
    this.queued = next;
    this.chain = next;
    return next;
  }

  /**
   * The unified difference between `baseId`'s and `branchId`'s schema of `database` (`pg_dump
   * --schema-only` of each, as they are now), "" when they agree. A branch without a running server is
   * started for the dump and stopped again (the service reads schemas from storage, without a compute).
   */
  schemaDiff(branchId: string, baseId: string, database: string): Promise<string> {
    return this.queue(async () => {
      const [base, branch] = [
        await this.dump(baseId, database, "compare"),
        await this.dump(branchId, database, "compare"),
      ];
      if (base === branch) return "";
      // As the service writes it: `--- a/<db>`, `+++ b/<db>`, then the hunks.
      return createTwoFilesPatch(`a/${database}`, `b/${database}`, base, branch).replace(/^=+\n/, "");
    });
  }

  /**
   * `branchId`'s schema of `database` (`GET …/schema`, format `sql`): its `pg_dump --schema-only` as it is
   * now, written as {@link schemaDiff} compares it (no owners or privileges), so that a schema read alone
   * reads like one side of a comparison.
   */
  schemaOf(branchId: string, database: string): Promise<string> {
    return this.queue(() => this.dump(branchId, database, "compare"));
  }

  /**
   * `branchId`'s tables of `database` as `GET …/schema` answers them with format `json`
   * (`BranchSchemaJSON`): each table's columns and its primary key, unique and foreign key constraints.
   */
  tablesOf(branchId: string, database: string): Promise<unknown[]> {
    return this.queue(() =>
      this.onServer(
        branchId,
        async (sql) => JSON.parse((await sql(database, TABLES_SQL)).trim() || "[]") as unknown[],
      ),
    );
  }

  /**
   * The rows of `schema.table` of `database` on a branch as JSON objects, at most `limit` (the Data API's
   * read), or `undefined` when the database has no such table. Read as the superuser, on the branch's
   * running server or on one started for the read and stopped again (as a schema read does).
   */
  rowsOf(
    branchId: string,
    database: string,
    schema: string,
    table: string,
    limit?: number,
  ): Promise<unknown[] | undefined> {
    return this.queue(() =>
      this.onServer(branchId, async (sql) => {
        const name = `${ident(schema)}.${ident(table)}`;
        if ((await sql(database, `SELECT to_regclass(${literal(name)}) IS NOT NULL`)).trim() !== "t")
          return undefined;
        const cap = limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(limit))}` : "";
        const out = await sql(
          database,
          `SELECT coalesce(json_agg(r), '[]'::json) FROM (SELECT * FROM ${name}${cap}) r`,
        );
        return JSON.parse(out.trim() || "[]") as unknown[];
      }),
    );
  }

  /**
   * Runs `work` with SQL (tuples) on a branch's running server, or on one started for it and stopped
   * again (the service reads a branch without a compute of the user's).
   */
  private async onServer<T>(
    branchId: string,
    work: (sql: (database: string, script: string) => Promise<string>) => Promise<T>,
  ): Promise<T> {
    const running = this.fleet.servers.has(branchId);
    const server = running
      ? this.fleet.servers.get(branchId)!
      : await this.fleet.start(branchId, this.catalogOf(branchId));
    try {
      const dir = this.fleet.dirOf(branchId);
      return await work((database, script) => this.fleet.sql(dir, server.port, database, script, true));
    } finally {
      if (!running) await this.fleet.stop(branchId);
    }
  }

  /**
   * Applies masking rules to a branch's data, on its running server or on one started for the run and
   * stopped again (as a schema read does).
   */
  private async mask(branchId: string, targets: MaskTarget[]): Promise<MaskOutcome> {
    const running = this.fleet.servers.has(branchId);
    const server = running
      ? this.fleet.servers.get(branchId)!
      : await this.fleet.start(branchId, this.catalogOf(branchId));
    try {
      const dir = this.fleet.dirOf(branchId);
      return await applyMasking(
        (db, sql, tuples) => this.fleet.sql(dir, server.port, db, sql, tuples),
        targets,
      );
    } finally {
      if (!running) await this.fleet.stop(branchId);
    }
  }

  /** Runs `work` after every earlier server change and dump (a dump may start and stop a server). */
  private queue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(async () => {
      if (this.stopped) throw new Error("the emulator is stopping");
      return work();
    });
    this.chain = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  /**
   * A schema-only branch's data: a fresh cluster with its records' roles and databases, each database
   * holding `from`'s schema of it (owners and privileges included), no rows.
   */
  private async loadSchema(branchId: string, from: string): Promise<void> {
    await this.fleet.copy(branchId, undefined);
    const server = await this.fleet.start(branchId, this.catalogOf(branchId));
    const dir = this.fleet.dirOf(branchId);
    for (const db of this.view.store.databasesOf(branchId)) {
      if (!this.view.store.databasesOf(from).some((d) => d.name === db.name)) continue;
      const schema = await this.dump(from, db.name, "load");
      await this.fleet.sql(dir, server.port, db.name, schema);
    }
  }

  /**
   * A database's schema: to compare (no owners or privileges, without the lines that differ between
   * any two dumps: pg_dump's per-run restrict key), or to load elsewhere (as pg_dump wrote it, its
   * restrict key kept: psql then runs no meta-command the dump's text might hold).
   */
  private async dump(branchId: string, database: string, use: "compare" | "load"): Promise<string> {
    const running = this.fleet.servers.has(branchId);
    if (!running) await this.fleet.start(branchId, this.catalogOf(branchId));
    try {
      const text = await this.fleet.schemaDump(branchId, database, use === "load");
      if (use === "load") return text;
      return text
        .split("\n")
        .filter((l) => !/^\\(un)?restrict /.test(l))
        .join("\n");
    } finally {
      if (!running) await this.fleet.stop(branchId);
    }
  }

  /** Stops every server and listener; removes the data folder when it made it. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.chain;
    await this.templateBuild;
    await Promise.all([...this.proxies.values()].map((p) => p.close()));
    this.proxies.clear();
    await this.fleet.stopAll();
    if (this.ownsRoot) fs.rmSync(this.fleet.root, { recursive: true, force: true });
  }

  private async pass(): Promise<void> {
    const { store, engine } = this.view;
    const now = store.now();
    for (const ep of Object.values(store.state.endpoints)) {
      // An open connection keeps its compute active (scale to zero counts from the last one).
      if ((this.proxies.get(ep.id)?.open ?? 0) > 0 && ep.current_state === "active") {
        ep.last_active = iso(now);
        store.dirty = true;
      }
    }
    for (const p of Object.values(store.state.projects)) materialize(store, engine, p.id, now);
    store.saveIfDirty();

    // Data events in order; one that fails stays first and is tried again later (1 s, doubling up to
    // 30 s; the events after it wait: a child's copy must not overtake its parent's), and the branches
    // it concerns are not started meanwhile (a child must not start on an empty cluster instead).
    while (this.events.length > 0) {
      const e = this.events[0];
      if (e.notBefore !== undefined && Date.now() < e.notBefore) break;
      try {
        if (e.kind === "wipe") {
          await this.fleet.stopAll();
          for (const id of this.fleet.branchDirs()) await this.fleet.remove(id);
          for (const id of this.fleet.snapshotDirs()) this.fleet.removeSnapshot(id);
        } else if (e.kind === "dropSnapshot") {
          this.fleet.removeSnapshot(e.snapshotId);
        } else if (!store.state.branches[e.branchId]) {
          // deleted meanwhile: nothing to copy
        } else if (e.kind === "copy") {
          await this.fleet.copy(e.branchId, e.from);
        } else if (e.kind === "snapshot") {
          await this.fleet.takeSnapshot(e.snapshotId, e.branchId);
        } else if (e.kind === "restore") {
          await this.fleet.restoreSnapshot(e.branchId, e.snapshotId);
        } else if (e.kind === "anonymize") {
          e.done(await this.mask(e.branchId, e.targets));
        } else {
          await this.loadSchema(e.branchId, e.from);
        }
        this.events.shift();
      } catch (err) {
        e.failures = (e.failures ?? 0) + 1;
        e.notBefore = Date.now() + Math.min(EVENT_RETRY_MAX_MS, 1000 * 2 ** (e.failures - 1));
        this.report(err);
        break;
      }
    }
    const waiting = new Set<string>();
    for (const e of this.events) {
      if (e.kind === "wipe") return; // nothing starts before every branch's data is gone
      if (e.kind === "dropSnapshot") continue;
      waiting.add(e.branchId);
      if ((e.kind === "copy" || e.kind === "schema") && e.from !== undefined) waiting.add(e.from);
    }
    // Each branch, standby and address on its own: one that fails is reported and retried by the next
    // pass without holding up the others.
    const step = async (what: () => Promise<void>) => {
      try {
        await what();
      } catch (err) {
        this.report(err);
      }
    };
    for (const id of [...this.fleet.branchDirs(), ...this.fleet.servers.keys()]) {
      if (!store.state.branches[id]) await step(() => this.fleet.remove(id));
    }
    // A snapshot whose record went with its project (a deleted snapshot's event removed its own).
    const snapshotIds = this.snapshotIds();
    const pendingSnapshots = new Set(this.events.flatMap((e) => ("snapshotId" in e ? [e.snapshotId] : [])));
    for (const id of this.fleet.snapshotDirs()) {
      if (!snapshotIds.has(id) && !pendingSnapshots.has(id)) this.fleet.removeSnapshot(id);
    }

    const endpoints = Object.values(store.state.endpoints);
    const running = endpoints.filter((e) => e.current_state === "active" && !e.disabled);
    const active = new Set(running.map((e) => e.branch_id));
    const replicas = new Map(running.filter((e) => e.type === "read_only").map((e) => [e.id, e.branch_id]));
    for (const [id, r] of [...this.fleet.replicas]) {
      if (replicas.get(id) !== r.branchId) await step(() => this.fleet.stopReplica(id));
    }
    for (const id of [...this.fleet.servers.keys()])
      if (!active.has(id)) await step(() => this.fleet.stop(id));
    for (const id of active) {
      if (!waiting.has(id)) await step(async () => void (await this.fleet.start(id, this.catalogOf(id))));
    }
    for (const [id, branchId] of replicas) {
      if (!waiting.has(branchId)) await step(async () => void (await this.fleet.startReplica(id, branchId)));
    }

    for (const ep of endpoints) if (!this.proxies.has(ep.id)) await this.listen(ep);
    for (const [id, proxy] of this.proxies) {
      if (!store.state.endpoints[id] || store.state.endpoints[id].host !== proxy.host) {
        this.proxies.delete(id);
        await proxy.close();
      }
    }
  }

  /** The ids of every snapshot the records hold. */
  private snapshotIds(): Set<string> {
    const store = this.view.store;
    const ids = new Set<string>();
    if (!store.collections.includes(snapshots as Collection<unknown>)) return ids;
    const records = snapshots.in(store);
    for (const p of Object.keys(store.state.projects)) {
      for (const r of records.of(p)) ids.add(r.snapshot.id);
    }
    return ids;
  }

  /** Reports a failure on stderr, once per message (the next pass tries again). */
  private report(e: unknown): void {
    const message = `emulator: real Postgres: ${(e as Error).message ?? String(e)}`;
    this.warn(message, message);
  }

  /** The roles and databases a branch's records say it has. */
  private catalogOf(branchId: string): WantedCatalog {
    const store = this.view.store;
    const b = store.state.branches[branchId];
    const roles = store.rolesOf(branchId).map((r) => {
      const rotating = r.password_rotation && b && previousPasswordValid(store, b.project_id, r);
      const password = rotating ? r.password_rotation!.previous_password : r.password;
      return { name: r.name, login: !r.no_login && password !== undefined, password };
    });
    const databases = store
      .databasesOf(branchId)
      .map((d) => ({ id: d.id, name: d.name, owner: d.owner_name }));
    return wantedCatalog(
      branchId,
      roles,
      databases,
      (other, id) => store.databasesOf(other).find((d) => d.id === id)?.name,
    );
  }

  private async listen(ep: Endpoint): Promise<void> {
    const id = ep.id;
    const proxy = new ComputeProxy(
      ep.host,
      COMPUTE_PORT,
      () => this.admit(id),
      () => void this.reconcile(),
    );
    try {
      await proxy.listen();
      this.proxies.set(id, proxy);
    } catch (e) {
      this.warn(
        `listen ${ep.host}`,
        `emulator: compute ${id} cannot listen on ${ep.host}:${COMPUTE_PORT} (${(e as Error).message}); connections to it will fail`,
      );
    }
  }

  /**
   * A client connects to a compute: once the compute is active (started first when suspended, as the
   * service's proxy does), the port of its branch's server.
   */
  private async admit(endpointId: string): Promise<number> {
    const { engine } = this.view;
    const until = Date.now() + 120_000;
    for (;;) {
      if (this.stopped) throw new Error("the emulator is stopping");
      const store = this.view.store;
      const ep = store.state.endpoints[endpointId];
      if (!ep) throw new Error(`compute ${endpointId} does not exist`);
      materialize(store, engine, ep.project_id, store.now());
      if (ep.disabled) throw new Error(`compute ${ep.id} is disabled; enable it to connect`);
      if (ep.current_state === "active") {
        ep.last_active = iso(store.now());
        store.dirty = true;
        store.saveIfDirty();
        await this.reconcile();
        // A read-only compute is a standby of its branch's server; a read_write one, the server itself.
        const server =
          ep.type === "read_only" ? this.fleet.replicas.get(ep.id) : this.fleet.servers.get(ep.branch_id);
        if (server) return server.port;
      } else if (ep.pending_state === undefined) {
        createOperations(store, engine, ep.project_id, [
          { action: "start_compute", branch_id: ep.branch_id, endpoint_id: ep.id },
        ]);
        ep.pending_state = "active";
        store.dirty = true;
        store.saveIfDirty();
      }
      if (Date.now() > until) throw new Error(`compute ${ep.id} did not start in time`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private warn(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    process.stderr.write(`${message}\n`);
  }
}

/** A constraint's column names in the constraint's order: `key` its attribute numbers, `rel` their table. */
const keyColumns = (key: string, rel: string) =>
  `(SELECT json_agg(a.attname ORDER BY x.i) FROM unnest(${key}) WITH ORDINALITY x(n, i) ` +
  `JOIN pg_attribute a ON a.attrelid = ${rel} AND a.attnum = x.n)`;

/** The user tables of a database as one JSON array, in `BranchSchemaJSON`'s `tables` shape. */
const TABLES_SQL = `
SELECT coalesce(json_agg(t ORDER BY t.schema, t.name), '[]') FROM (
  SELECT n.nspname AS schema, c.relname AS name,
    coalesce((SELECT json_agg(json_build_object('name', a.attname,
        'type', format_type(a.atttypid, a.atttypmod), 'nullable', NOT a.attnotnull,
        'generated', a.attgenerated <> '') ORDER BY a.attnum)
      FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '[]') AS columns,
    coalesce((SELECT json_agg(json_strip_nulls(json_build_object(
        'type', CASE k.contype WHEN 'p' THEN 'primary_key' WHEN 'u' THEN 'unique' ELSE 'foreign_key' END,
        'name', k.conname,
        'columns', ${keyColumns("k.conkey", "k.conrelid")},
        'referenced_table', CASE WHEN k.contype = 'f' THEN json_build_object('schema', rn.nspname,
          'table', rc.relname, 'columns', ${keyColumns("k.confkey", "k.confrelid")}) END)) ORDER BY k.conname)
      FROM pg_constraint k LEFT JOIN pg_class rc ON rc.oid = k.confrelid
        LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
      WHERE k.conrelid = c.oid AND k.contype IN ('p', 'u', 'f')), '[]') AS constraints
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
    AND n.nspname NOT LIKE 'pg\\_toast%'
) t;
`;
