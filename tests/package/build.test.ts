/**
 * `npm run build` never leaves `dist/` missing or half-written: a `pulumi up` loading the provider
 * from the checkout while `npm run emulator` (or `npm test`, a bench) rebuilds it must find a whole
 * build. The build runs in a copy of the sources (its own `dist/`), watched the whole time, and a
 * failing build keeps the previous one.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const root = path.resolve(__dirname, "../..");
// One tsc run over the sources per build: far inside this on any machine.
jest.setTimeout(600_000);

let copy: string;

beforeAll(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), "neon-build-"));
  for (const entry of [
    "provider",
    "emulator",
    "scripts",
    "package.json",
    "tsconfig.json",
    "tsconfig.build.json",
  ]) {
    fs.cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"), "dir");
});

afterAll(() => {
  fs.rmSync(copy, { recursive: true, force: true });
});

/** Runs the build in the copy, checking `dist/` between ticks until it exits; resolves its exit code. */
async function buildWatched(seen: { checks: number; missing: number }): Promise<number | null> {
  // The module the dynamic shim loads by package path (the file a `pulumi up` failed to find).
  const entry = path.join(copy, "dist", "provider", "resources", "compute", "impl.js");
  const child = spawn(process.execPath, ["scripts/build.js"], { cwd: copy, stdio: "ignore" });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  let done = false;
  void exited.then(() => (done = true));
  while (!done) {
    seen.checks++;
    if (!fs.existsSync(entry)) seen.missing++;
    await new Promise<void>((r) => setImmediate(r));
  }
  return exited;
}

test("a rebuild replaces each file in place: the module a running `pulumi up` loads is there at every moment", async () => {
  const first = { checks: 0, missing: 0 };
  expect(await buildWatched(first)).toBe(0);
  const entry = path.join(copy, "dist", "provider", "index.js");
  expect(fs.existsSync(entry)).toBe(true);
  // A file of a source that no longer exists does not survive a rebuild (the build is clean).
  fs.writeFileSync(path.join(copy, "dist", "provider", "stale.js"), "");
  const second = { checks: 0, missing: 0 };
  expect(await buildWatched(second)).toBe(0);
  expect(second.checks).toBeGreaterThan(10);
  expect(second.missing).toBe(0);
  expect(fs.existsSync(path.join(copy, "dist", "provider", "stale.js"))).toBe(false);
  // Nothing of the build's own is left beside dist/.
  expect(fs.readdirSync(copy).filter((n) => n.startsWith(".dist-"))).toEqual([]);
});

test("a failing build keeps the previous one", async () => {
  fs.appendFileSync(path.join(copy, "provider", "index.ts"), "\nconst broken: number = 'not a number';\n");
  const seen = { checks: 0, missing: 0 };
  expect(await buildWatched(seen)).not.toBe(0);
  expect(seen.missing).toBe(0);
  expect(fs.existsSync(path.join(copy, "dist", "provider", "index.js"))).toBe(true);
  expect(fs.readdirSync(copy).filter((n) => n.startsWith(".dist-"))).toEqual([]);
});
