/**
 * The go tool for the tests that compile Go code (the generated Go SDK, the Go programs the end-to-end
 * tests run): found like `scripts/ensure-pulumi` finds it, and with its build and module caches in
 * the same cache folder as the Pulumi CLI build, so that they survive between runs (a first compile
 * of a Pulumi Go program takes minutes on a loaded 2-core machine; later ones take seconds).
 */
import { execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

/**
 * Budget of one cold compile of a Pulumi Go program or of the generated Go SDK: about 10 minutes on a
 * loaded 2-core machine (seconds once the caches are warm), so three times that.
 */
export const GO_COMPILE_BUDGET_MS = 30 * 60_000;

/** `scripts/ensure-pulumi`'s cache root: `PULUMI_BUILD_CACHE`, else `~/.cache/neon-pulumi-cli`. */
export function buildCacheRoot(): string {
  return process.env.PULUMI_BUILD_CACHE || path.join(os.homedir(), ".cache", "neon-pulumi-cli");
}

/** The folder of the go tool: from PATH, else the default install location ensure-pulumi also tries. */
export function goBinDir(): string {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, "go"))) return dir;
  }
  const fallback = path.join(path.sep, "usr", "local", "go", "bin");
  if (fs.existsSync(path.join(fallback, "go"))) return fallback;
  throw new Error("go not found on PATH (nor in the default install location): it compiles the Go code");
}

/**
 * Environment for the go tool: the caches under {@link buildCacheRoot} (`gocache`, `gomodcache`),
 * modules resolved as go.mod says (`-mod=mod`, writable module cache so that it can be deleted), no
 * VCS stamping (a copy inside a checkout needs no git), no workspace, no cgo (no C compiler needed;
 * the same cache keys in every test) and the local toolchain (never a toolchain download). Add it to a CLI's environment too: the Go language host runs
 * `go list -m all` in the program's folder to find the plugins it needs.
 */
export function goEnv(): Record<string, string> {
  const root = buildCacheRoot();
  const ours = ["-mod=mod", "-modcacherw", "-buildvcs=false"];
  const theirs = (process.env.GOFLAGS ?? "")
    .split(/\s+/)
    .filter((f) => f && !/^-(mod|modcacherw|buildvcs)(=|$)/.test(f));
  return {
    PATH: [goBinDir(), process.env.PATH ?? ""].join(path.delimiter),
    GOCACHE: path.join(root, "gocache"),
    GOMODCACHE: path.join(root, "gomodcache"),
    GOFLAGS: [...theirs, ...ours].join(" "),
    GOWORK: "off",
    CGO_ENABLED: "0",
    GOTOOLCHAIN: "local",
  };
}

/**
 * Runs `go <args>` in `cwd` with {@link goEnv}, resolving with its output. Fails when go fails, and
 * when it is still running after `budgetMs`: then it is stopped, and the error says what was running
 * (the command, its caches, the processes of its tree with their ages, its last output lines), so
 * that a slow machine reads differently from a hung build.
 */
export function runGo(args: string[], opts: { cwd: string; budgetMs: number }): Promise<string> {
  const env = goEnv();
  const what = `go ${args.join(" ")} (in ${opts.cwd}; GOCACHE=${env.GOCACHE}, GOMODCACHE=${env.GOMODCACHE})`;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    // A session of its own (detached): the budget stops the compilers it started as well.
    const child = spawn("go", args, {
      cwd: opts.cwd,
      env: { ...process.env, ...env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const tail = () =>
      output
        .split("\n")
        .filter((l) => l && !l.startsWith("go: downloading "))
        .slice(-20)
        .map((l) => `  | ${l}`)
        .join("\n") || "  (none)";
    const timer = setTimeout(() => {
      const tree = processTree(child.pid!);
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
      reject(
        new Error(
          `${what} was still running after ${Math.round(opts.budgetMs / 1000)}s (its budget) and was stopped.\n` +
            `Processes of its tree (elapsed, command):\n${tree}\nLast output:\n${tail()}`,
        ),
      );
    }, opts.budgetMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`${what} did not start: ${err.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const secs = Math.round((Date.now() - started) / 1000);
      if (code === 0) resolve(output);
      else reject(new Error(`${what} failed after ${secs}s (exit ${code ?? signal}):\n${tail()}`));
    });
  });
}

/** The processes of a session, one per line: elapsed time and command (cut to 200 characters). */
function processTree(sid: number): string {
  try {
    return execFileSync("ps", ["-o", "etime=,args=", "--sid", String(sid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map((l) => `  ${l.trim().slice(0, 200)}`)
      .join("\n");
  } catch (err) {
    return `  (ps failed: ${(err as Error).message})`;
  }
}
