/** The CLI: `npm run emulator -- …` starts a server and prints its URL and key. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "../..");
const TSX = join(ROOT, "node_modules/.bin/tsx");
const children: ChildProcess[] = [];
// Each test starts the CLI through tsx (a compile, then the server) once or twice: on a busy machine
// (CI beside four CPU-bound processes on 2 cores) one start took over 10 s. A guard, not a pace.
const START_TIMEOUT_MS = 120_000;

function start(args: string[]): Promise<{ child: ChildProcess; out: string }> {
  const child = spawn(TSX, ["emulator/cli.ts", ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return new Promise((res, rej) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (d) => {
      out += d;
      if (/Admin: /.test(out)) res({ child, out });
    });
    child.stderr!.on("data", (d) => (err += d));
    child.on("exit", (code) => rej(new Error(`exited ${code}: ${err}${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((res) => {
    if (child.exitCode !== null) return res();
    child.on("exit", () => res());
    child.kill("SIGTERM");
  });
}

afterAll(async () => {
  for (const c of children) await stop(c);
});

describe("cli", () => {
  it(
    "prints the base URL and the fixed key, and serves the API",
    async () => {
      const { child, out } = await start([
        "--port",
        "0",
        "--api-key",
        "cli-key",
        "--seed",
        "3",
        "--op-ms",
        "10",
      ]);
      const url = /Emulator listening: (\S+)/.exec(out)![1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/);
      expect(out).toContain("API key (personal, bootstrap): cli-key");
      const project = /Project: (\S+)/.exec(out)![1];
      const r = await fetch(`${url}/projects/${project}`, { headers: { authorization: "Bearer cli-key" } });
      expect(r.status).toBe(200);
      await stop(child);
    },
    START_TIMEOUT_MS,
  );

  it(
    "prints a random 64-character key by default and keeps state across restarts with --state",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "emu-cli-"));
      const state = join(dir, "s.json");
      const first = await start(["--port", "0", "--state", state, "--op-ms", "10"]);
      const key = /API key \(personal, bootstrap\): (\S+)/.exec(first.out)![1];
      expect(key).toHaveLength(64);
      const url = /Emulator listening: (\S+)/.exec(first.out)![1];
      const project = /Project: (\S+)/.exec(first.out)![1];
      const branch = /Branch dev-01 \(no compute\): (\S+)/.exec(first.out)![1];
      const created = await fetch(`${url}/projects/${project}/endpoints`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ endpoint: { branch_id: branch, type: "read_write" } }),
      });
      const id = ((await created.json()) as { endpoint: { id: string } }).endpoint.id;
      await stop(first.child);
      const second = await start(["--port", "0", "--state", state]);
      const url2 = /Emulator listening: (\S+)/.exec(second.out)![1];
      const got = await fetch(`${url2}/projects/${project}/endpoints/${id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(got.status).toBe(200);
      await stop(second.child);
      rmSync(dir, { recursive: true, force: true });
    },
    START_TIMEOUT_MS,
  );

  it(
    "refuses unknown arguments with usage and exit code 2",
    async () => {
      await expect(start(["--bogus"])).rejects.toThrow(
        /exited 2: emulator: unknown argument --bogus\nUsage:/,
      );
    },
    START_TIMEOUT_MS,
  );
});
