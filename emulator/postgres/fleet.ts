/**
 * The branches' data on disk and the Postgres servers over it. A branch's data is a data directory
 * (`<root>/branches/<branch id>`); a branch made through the API starts as a copy of its parent's
 * directory taken when it is made (`pg_basebackup` from a running parent, a file copy of a stopped
 * one). A branch that has no directory yet is as the emulator seeded it: a fresh cluster (the
 * template, made once by `initdb`), whose roles and databases the catalog sync then adds.
 *
 * One server runs per branch while a compute of the branch is active; it listens on a private port of
 * 127.0.0.1 (the computes' addresses are the proxies in `proxy.ts`) and on a socket in its directory,
 * where only the superuser `cloud_admin` logs in, without a password. Clients log in over TCP with
 * SCRAM and only with TLS, as on the service.
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { own, run, type PgBinaries } from "./binaries";
import { CATALOG_QUERY, catalogPlan, parseCatalog, type WantedCatalog } from "./catalog";

/** The superuser the emulator administers every cluster as (Neon's own is named so too). */
export const SUPERUSER = "cloud_admin";

/** A running server of one branch. */
export interface BranchServer {
  port: number;
  /** Fingerprint of the catalog last applied (roles, passwords in effect, databases). */
  applied?: string;
}

/** Settings of every cluster: small, fast, and TLS on (clients connect with `sslmode=require`). */
const CONF = `
# Written by the Neon control-plane emulator.
listen_addresses = '127.0.0.1'
max_connections = 40
shared_buffers = 16MB
fsync = off
synchronous_commit = off
full_page_writes = off
max_wal_senders = 16
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
password_encryption = 'scram-sha-256'
logging_collector = off
log_min_messages = warning
`;

/** Who logs in how: the superuser only over the socket; everyone else over TCP with SCRAM. */
const HBA = `
# Written by the Neon control-plane emulator.
local   all          ${SUPERUSER}                 trust
local   replication  ${SUPERUSER}                 trust
local   all          all                          reject
host    all          ${SUPERUSER}  all            reject
hostssl all          all           127.0.0.1/32   scram-sha-256
`;

/** A read-only compute's server: a hot standby streaming from its branch's server. */
export interface ReplicaServer {
  port: number;
  branchId: string;
}

export class PgFleet {
  private templateReady?: Promise<string>;
  readonly servers = new Map<string, BranchServer>();
  /** By compute id. */
  readonly replicas = new Map<string, ReplicaServer>();
  /** The branches that have a data folder (kept here: a pass after every request reads it). */
  private readonly dirs = new Set<string>();
  /** The snapshots that have a data folder (`<root>/snapshots/<snapshot id>`, a stopped cluster's copy). */
  private readonly snaps = new Set<string>();

  constructor(
    readonly bins: PgBinaries,
    /** Folder this fleet owns (made and removed by its owner). */
    readonly root: string,
  ) {
    for (const sub of ["branches", "replicas", "snapshots"]) {
      fs.mkdirSync(path.join(root, sub), { recursive: true });
      own(bins, path.join(root, sub));
    }
    own(bins, root);
    for (const id of fs.readdirSync(path.join(root, "branches"))) this.dirs.add(id);
    for (const id of fs.readdirSync(path.join(root, "snapshots"))) this.snaps.add(id);
  }

  /**
   * Starts a read-only compute's server: a standby made from its branch's running server
   * (`pg_basebackup -R`), which streams every later change and refuses writes, as a read replica does.
   * A compute moved to another branch gets a new one.
   */
  async startReplica(endpointId: string, branchId: string): Promise<ReplicaServer> {
    const have = this.replicas.get(endpointId);
    if (have?.branchId === branchId) return have;
    if (have) await this.stopReplica(endpointId);
    const primary = this.servers.get(branchId);
    if (!primary) throw new Error(`branch ${branchId} has no running server to stream from`);
    const dir = path.join(this.root, "replicas", endpointId);
    fs.rmSync(dir, { recursive: true, force: true });
    await run(this.bins, "pg_basebackup", [
      "-h",
      this.dirOf(branchId),
      "-p",
      String(primary.port),
      "-U",
      SUPERUSER,
      "-D",
      dir,
      "-X",
      "stream",
      "-c",
      "fast",
      "-R",
      "--no-sync",
    ]);
    const port = await freePort();
    await this.pgCtl(dir, "start", port);
    const replica = { port, branchId };
    this.replicas.set(endpointId, replica);
    return replica;
  }

  /** Stops a read-only compute's server and removes its copy. */
  async stopReplica(endpointId: string): Promise<void> {
    if (!this.replicas.delete(endpointId)) return;
    const dir = path.join(this.root, "replicas", endpointId);
    await this.pgCtl(dir, "stop", 0);
    fs.rmSync(dir, { recursive: true, force: true });
  }

  /** Stops the standbys of a branch (its server is about to stop or to get other data). */
  private async stopReplicasOf(branchId: string): Promise<void> {
    for (const [id, r] of [...this.replicas]) if (r.branchId === branchId) await this.stopReplica(id);
  }

  dirOf(branchId: string): string {
    return path.join(this.root, "branches", branchId);
  }

  hasDir(branchId: string): boolean {
    return fs.existsSync(path.join(this.dirOf(branchId), "PG_VERSION"));
  }

  /**
   * The template cluster, made once: `initdb`, the settings, the access rules, a TLS certificate and
   * the group `neon_superuser`. Built in a folder of its own and renamed into place when whole, so a
   * failed or killed build is never taken for a template; a failure is tried again by the next caller.
   */
  template(): Promise<string> {
    this.templateReady ??= this.buildTemplate().catch((e: unknown) => {
      this.templateReady = undefined;
      throw e;
    });
    return this.templateReady;
  }

  private async buildTemplate(): Promise<string> {
    const dir = path.join(this.root, "template");
    if (fs.existsSync(path.join(dir, "PG_VERSION"))) return dir;
    const building = path.join(this.root, `template.building-${process.pid}`);
    fs.rmSync(building, { recursive: true, force: true });
    await run(this.bins, "initdb", [
      "-D",
      building,
      "-U",
      SUPERUSER,
      "-E",
      "UTF8",
      "--locale=C",
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      "--no-sync",
    ]);
    fs.appendFileSync(path.join(building, "postgresql.conf"), CONF);
    fs.writeFileSync(path.join(building, "pg_hba.conf"), HBA);
    makeCertificate(building);
    for (const f of ["postgresql.conf", "pg_hba.conf", "server.crt", "server.key"]) {
      if (this.bins.runAs) fs.chownSync(path.join(building, f), this.bins.runAs.uid, this.bins.runAs.gid);
    }
    // The group every role the API makes joins, as on the service.
    const port = await freePort();
    await this.pgCtl(building, "start", port);
    try {
      await this.sql(building, port, "postgres", "CREATE ROLE neon_superuser NOLOGIN CREATEDB CREATEROLE;");
    } finally {
      await this.pgCtl(building, "stop", port);
    }
    fs.rmSync(path.join(building, "server.log"), { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(building, dir);
    return dir;
  }

  /**
   * Gives a branch its own data: a copy of `from` (another branch, or the template when `from` has no
   * data yet either) as it is now. A running source is copied by `pg_basebackup`, a stopped one by a
   * file copy. Replaces what the branch had (a reset).
   */
  async copy(branchId: string, from: string | undefined): Promise<void> {
    // A reset from the branch's own history: the emulator keeps no history, the data stays as it is.
    if (from === branchId) return;
    await this.stop(branchId);
    const dst = this.dirOf(branchId);
    fs.rmSync(dst, { recursive: true, force: true });
    this.dirs.add(branchId);
    await this.cloneInto(dst, from);
  }

  /**
   * Takes a snapshot: a copy of the branch's data as it is now (the template's when it has none yet),
   * kept apart from every branch until it is restored or removed.
   */
  async takeSnapshot(snapshotId: string, branchId: string): Promise<void> {
    const dst = this.snapshotDirOf(snapshotId);
    fs.rmSync(dst, { recursive: true, force: true });
    this.snaps.add(snapshotId);
    await this.cloneInto(dst, branchId);
  }

  /** Gives a branch a snapshot's data (the template's when the snapshot has none). */
  async restoreSnapshot(branchId: string, snapshotId: string): Promise<void> {
    await this.stop(branchId);
    const dst = this.dirOf(branchId);
    fs.rmSync(dst, { recursive: true, force: true });
    this.dirs.add(branchId);
    const src = this.snaps.has(snapshotId) ? this.snapshotDirOf(snapshotId) : await this.template();
    copyDir(this.bins, src, dst);
  }

  /** Removes a snapshot's data. */
  removeSnapshot(snapshotId: string): void {
    fs.rmSync(this.snapshotDirOf(snapshotId), { recursive: true, force: true });
    this.snaps.delete(snapshotId);
  }

  /** The snapshots that have data. */
  snapshotDirs(): string[] {
    return [...this.snaps];
  }

  private snapshotDirOf(snapshotId: string): string {
    return path.join(this.root, "snapshots", snapshotId);
  }

  /**
   * Fills `dst` (absent) with `from`'s data as it is now: `pg_basebackup` of its running server, a
   * file copy of its stopped data, or the template when it has none (or `from` is undefined).
   */
  private async cloneInto(dst: string, from: string | undefined): Promise<void> {
    const running = from !== undefined ? this.servers.get(from) : undefined;
    if (from !== undefined && running) {
      await run(this.bins, "pg_basebackup", [
        "-h",
        this.dirOf(from),
        "-p",
        String(running.port),
        "-U",
        SUPERUSER,
        "-D",
        dst,
        "-X",
        "stream",
        "-c",
        "fast",
        "--no-sync",
      ]);
      return;
    }
    const src = from !== undefined && this.hasDir(from) ? this.dirOf(from) : await this.template();
    copyDir(this.bins, src, dst);
  }

  /** Starts the branch's server (its data from the template when it has none) and applies `catalog`. */
  async start(branchId: string, catalog: WantedCatalog): Promise<BranchServer> {
    let server = this.servers.get(branchId);
    if (!server) {
      if (!this.hasDir(branchId)) {
        this.dirs.add(branchId);
        copyDir(this.bins, await this.template(), this.dirOf(branchId));
      }
      const port = await freePort();
      await this.pgCtl(this.dirOf(branchId), "start", port);
      server = { port };
      this.servers.set(branchId, server);
    }
    await this.apply(branchId, catalog);
    return server;
  }

  /** Makes the running server's roles and databases what `catalog` says, when that changed. */
  async apply(branchId: string, catalog: WantedCatalog): Promise<void> {
    const server = this.servers.get(branchId);
    if (!server) return;
    const fingerprint = JSON.stringify(catalog.fingerprint);
    if (server.applied === fingerprint) return;
    const dir = this.dirOf(branchId);
    const current = parseCatalog((await this.sql(dir, server.port, "postgres", CATALOG_QUERY, true)).trim());
    const plan = catalogPlan(current, catalog);
    if (plan.main.length > 0) await this.sql(dir, server.port, "postgres", plan.main.join("\n"));
    for (const [database, statements] of plan.perDatabase) {
      await this.sql(dir, server.port, database, statements.join("\n"));
    }
    if (plan.last.length > 0) await this.sql(dir, server.port, "postgres", plan.last.join("\n"));
    server.applied = fingerprint;
  }

  /** Stops the branch's server, when it runs. */
  async stop(branchId: string): Promise<void> {
    await this.stopReplicasOf(branchId);
    const server = this.servers.get(branchId);
    if (!server) return;
    this.servers.delete(branchId);
    await this.pgCtl(this.dirOf(branchId), "stop", server.port);
  }

  /** Stops the branch's server and removes its data. */
  async remove(branchId: string): Promise<void> {
    await this.stop(branchId);
    fs.rmSync(this.dirOf(branchId), { recursive: true, force: true });
    this.dirs.delete(branchId);
  }

  /** Stops every server. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.replicas.keys()].map((id) => this.stopReplica(id).catch(() => undefined)));
    await Promise.all([...this.servers.keys()].map((id) => this.stop(id).catch(() => undefined)));
  }

  /** The branches that have data of their own. */
  branchDirs(): string[] {
    return [...this.dirs];
  }

  /**
   * Runs SQL as the superuser over the server's socket, connected to `database` (given in the
   * environment, where no name is read as connection settings); with `tuples`, answers rows as lines of
   * `|`-separated fields. The SQL goes on stdin.
   */
  sql(dir: string, port: number, database: string, script: string, tuples = false): Promise<string> {
    const args = ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", dir, "-p", String(port), "-U", SUPERUSER];
    if (tuples) args.push("-A", "-t", "-F", "|");
    args.push("-f", "-");
    return run(this.bins, "psql", args, { input: script, env: { PGDATABASE: database } }).then(
      (r) => r.stdout,
    );
  }

  /**
   * `pg_dump --schema-only` of one database of a running branch server: without owners and privileges
   * (to compare), or with them (to load into a schema-only branch, whose roles are its parent's).
   */
  async schemaDump(branchId: string, database: string, withOwners = false): Promise<string> {
    const server = this.servers.get(branchId);
    if (!server) throw new Error(`branch ${branchId} has no running server`);
    const r = await run(
      this.bins,
      "pg_dump",
      [
        "--schema-only",
        ...(withOwners ? [] : ["--no-owner", "--no-privileges"]),
        "-h",
        this.dirOf(branchId),
        "-p",
        String(server.port),
        "-U",
        SUPERUSER,
      ],
      { env: { PGDATABASE: database } },
    );
    return r.stdout;
  }

  private async pgCtl(dir: string, action: "start" | "stop", port: number): Promise<void> {
    const args =
      action === "start"
        ? [
            "start",
            "-w",
            "-t",
            "120",
            "-D",
            dir,
            "-l",
            path.join(dir, "server.log"),
            "-o",
            `-p ${port} -k '${dir.replace(/'/g, "'\\''")}'`,
          ]
        : ["stop", "-w", "-t", "120", "-m", "fast", "-D", dir];
    await run(this.bins, "pg_ctl", args, { allowFailure: action === "stop" });
  }
}

/** A copy of a stopped cluster's folder that keeps modes and belongs to the server's user. */
function copyDir(bins: PgBinaries, src: string, dst: string): void {
  fs.cpSync(src, dst, {
    recursive: true,
    preserveTimestamps: true,
    filter: (s) => !s.endsWith("postmaster.pid") && !s.endsWith("server.log"),
  });
  if (bins.runAs) {
    const { uid, gid } = bins.runAs;
    const walk = (p: string): void => {
      fs.chownSync(p, uid, gid);
      if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    };
    walk(dst);
  }
  fs.chmodSync(dst, 0o700);
}

/** A self-signed certificate for the server's TLS (clients connect with `sslmode=require`, no verify). */
function makeCertificate(dir: string): void {
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "3650",
      "-subj",
      "/CN=neon-emulator",
      "-keyout",
      path.join(dir, "server.key"),
      "-out",
      path.join(dir, "server.crt"),
    ],
    { stdio: "pipe" },
  );
  fs.chmodSync(path.join(dir, "server.key"), 0o600);
}

/** A TCP port of 127.0.0.1 free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}
