/**
 * PostgreSQL's server programs on this machine (Debian's `postgresql` package puts them under
 * `/usr/lib/postgresql/<major>/bin`, with `pg_config --bindir` naming the newest), and how to run them:
 * the server refuses to run as root, so under root every program runs as the `postgres` user.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export interface PgBinaries {
  /** Folder holding initdb, pg_ctl, postgres, pg_basebackup, pg_dump, psql. */
  binDir: string;
  /** Major version of the server (e.g. 15). */
  major: number;
  /** Who the programs run as: set when this process is root (the server will not run as root). */
  runAs?: { uid: number; gid: number };
}

const REQUIRED = ["initdb", "pg_ctl", "postgres", "pg_basebackup", "pg_dump", "psql"];

/** The server programs found on this machine, or a sentence saying what is missing. */
export function findPostgres(): PgBinaries | string {
  const candidates: string[] = [];
  if (process.env.NEON_EMULATOR_PG_BIN) candidates.push(process.env.NEON_EMULATOR_PG_BIN);
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: "pipe" }).trim());
  } catch {
    // no pg_config on PATH: look where Debian installs the servers
  }
  const debian = "/usr/lib/postgresql";
  if (fs.existsSync(debian)) {
    for (const v of fs.readdirSync(debian).sort((a, b) => Number(b) - Number(a)))
      candidates.push(path.join(debian, v, "bin"));
  }
  const binDir = candidates.find((d) => REQUIRED.every((p) => fs.existsSync(path.join(d, p))));
  if (!binDir) {
    return "PostgreSQL's server programs (initdb, pg_ctl, postgres, pg_basebackup, pg_dump, psql) were not found; install them with `apt-get install postgresql`, or set NEON_EMULATOR_PG_BIN to their folder";
  }
  let major: number;
  try {
    const out = execFileSync(path.join(binDir, "postgres"), ["--version"], { encoding: "utf8" });
    major = Number(/(\d+)(?:\.\d+)?/.exec(out)?.[1] ?? NaN);
  } catch (e) {
    return `${path.join(binDir, "postgres")} --version failed: ${(e as Error).message}`;
  }
  if (!Number.isFinite(major)) return `could not read the version of ${path.join(binDir, "postgres")}`;
  const found: PgBinaries = { binDir, major };
  if (process.getuid?.() === 0) {
    const user = postgresUser();
    if (typeof user === "string") return user;
    found.runAs = user;
  }
  return found;
}

/** The uid and gid of the `postgres` user (the server runs as it when this process is root). */
function postgresUser(): { uid: number; gid: number } | string {
  let passwd = "";
  try {
    passwd = fs.readFileSync("/etc/passwd", "utf8");
  } catch {
    // unreadable: treated as missing below
  }
  const line = passwd.split("\n").find((l) => l.startsWith("postgres:"));
  if (!line)
    return "this process runs as root and the machine has no `postgres` user to run the server as (the server refuses root); install the `postgresql` package, which creates it";
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/** What a program printed, and how it ended. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one of the programs (as the `postgres` user when root), feeding `input` on stdin (SQL goes
 * there, never into the arguments a process list shows). Rejects on a non-zero exit with its stderr.
 */
export function run(
  bins: PgBinaries,
  program: string,
  args: string[],
  options: { input?: string; cwd?: string; allowFailure?: boolean; env?: Record<string, string> } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(bins.binDir, program), args, {
      cwd: options.cwd ?? "/",
      env: { PATH: process.env.PATH ?? "", LANG: "C.UTF-8", LC_ALL: "C.UTF-8", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      ...(bins.runAs ? { uid: bins.runAs.uid, gid: bins.runAs.gid } : {}),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const result = { code: code ?? -1, stdout, stderr };
      if (result.code !== 0 && !options.allowFailure) {
        reject(new Error(`${program} exited with ${result.code}: ${stderr.trim() || stdout.trim()}`));
      } else resolve(result);
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
  });
}

/** Makes `dir` belong to the user the programs run as (a folder this process made as root). */
export function own(bins: PgBinaries, dir: string): void {
  if (bins.runAs) fs.chownSync(dir, bins.runAs.uid, bins.runAs.gid);
}
