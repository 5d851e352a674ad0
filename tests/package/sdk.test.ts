/**
 * The generated SDKs in `sdk/`: up to date with the plugin's schema (regenerated into a temporary
 * folder and compared), the Go SDK compiles and the Python SDK byte-compiles. The generator is
 * built once per machine by `scripts/ensure-sdkgen` (cached like the Pulumi CLI).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { GO_COMPILE_BUDGET_MS, runGo } from "../../scripts/lib/go";

jest.setTimeout(600_000);

const repo = path.resolve(__dirname, "../..");
const goBin = fs.existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin" : "";
const env = { ...process.env, PATH: [goBin, process.env.PATH].filter(Boolean).join(path.delimiter) };

function run(cmd: string, args: string[], cwd = repo, extra: NodeJS.ProcessEnv = {}): string {
  return execFileSync(cmd, args, {
    cwd,
    env: { ...env, ...extra },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

test("sdk/ is what the current schema generates (npm run sdk:gen)", () => {
  expect(
    run(process.execPath, [
      path.join(repo, "node_modules/tsx/dist/cli.mjs"),
      "scripts/gen-sdk.ts",
      "--check",
    ]),
  ).toMatch(/sdk\/ is up to date/);
});

test(
  "the Go SDK compiles",
  async () => {
    // The go tool's caches and settings of the Go end-to-end test: whichever runs first warms the other.
    await runGo(["build", "-v", "./..."], { cwd: path.join(repo, "sdk/go"), budgetMs: GO_COMPILE_BUDGET_MS });
  },
  GO_COMPILE_BUDGET_MS + 60_000,
);

test("the Python SDK byte-compiles", () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "neon-pycache-"));
  try {
    run("python3", ["-m", "compileall", "-q", "sdk/python"], repo, { PYTHONPYCACHEPREFIX: cache });
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});
