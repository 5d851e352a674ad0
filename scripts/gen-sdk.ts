/**
 * Writes the plugin's schema and the Python and Go SDKs generated from it into `sdk/`
 * (`npm run sdk:gen`), with `scripts/sdkgen` (built once per machine by `scripts/ensure-sdkgen`).
 * `--check` writes into a temporary folder and fails when `sdk/` differs (CI).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { schemaJson } from "../provider/plugin/schema";

const repo = path.resolve(__dirname, "..");
const check = process.argv.includes("--check");
const version = (JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as { version: string })
  .version;

function sdkgen(): string {
  const out = execFileSync(path.join(repo, "scripts/ensure-sdkgen"), {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return out.trim().split("\n").pop()!;
}

/** Every file under `dir`, relative, with its content. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!fs.existsSync(dir)) return files;
  for (const f of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const full = path.join(dir, f);
    if (fs.statSync(full).isFile() && !f.includes("__pycache__")) files.set(f, fs.readFileSync(full, "utf8"));
  }
  return files;
}

function generate(into: string): void {
  const bin = sdkgen();
  fs.rmSync(into, { recursive: true, force: true });
  fs.mkdirSync(into, { recursive: true });
  const schema = path.join(into, "schema.json");
  fs.writeFileSync(schema, schemaJson(version));
  execFileSync(bin, [schema, "python", path.join(into, "python")], { stdio: "inherit" });
  execFileSync(bin, [schema, "go", path.join(into, "go")], { stdio: "inherit" });
  // A module around the Go package, so that `go build ./...` compiles it here.
  fs.writeFileSync(
    path.join(into, "go", "go.mod"),
    "module github.com/neon-labs-unofficial/pulumi-neon-compute/sdk/go\n\ngo 1.22\n\n" +
      "require github.com/pulumi/pulumi/sdk/v3 v3.248.0\n",
  );
}

if (check) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "neon-sdk-"));
  try {
    generate(path.join(tmp, "sdk"));
    const want = tree(path.join(tmp, "sdk"));
    const have = tree(path.join(repo, "sdk"));
    // go.mod and go.sum are `go mod tidy`'s in sdk/go (the generator only starts go.mod).
    for (const f of ["go.mod", "go.sum"]) {
      have.delete(path.join("go", f));
      want.delete(path.join("go", f));
    }
    const stale = [...new Set([...want.keys(), ...have.keys()])].filter((f) => want.get(f) !== have.get(f));
    if (stale.length > 0) {
      console.error(`sdk/ is stale (run npm run sdk:gen): ${stale.sort().join(", ")}`);
      process.exit(1);
    }
    console.log(`sdk/ is up to date (${want.size} files)`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
} else {
  const kept = ["go.mod", "go.sum"].map((f) => path.join(repo, "sdk/go", f)).filter((f) => fs.existsSync(f));
  const contents = kept.map((f) => fs.readFileSync(f, "utf8"));
  generate(path.join(repo, "sdk"));
  kept.forEach((f, i) => fs.writeFileSync(f, contents[i]));
  console.log("wrote sdk/ (schema.json, python, go)");
}
