/**
 * What a user would install: `npm pack --dry-run` lists the files of the tarball `npm publish` would
 * upload, without writing it and without the network. Needs a built `dist/` (`npm test` builds first).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const root = path.resolve(__dirname, "../..");
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));

interface PackageJson {
  name: string;
  main: string;
  types: string;
  private?: boolean;
  bin?: Record<string, string>;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const pkg = readJson("package.json") as PackageJson;

/** Paths inside the tarball, sorted. */
function packedFiles(): string[] {
  // --ignore-scripts: `prepack` would rebuild dist/ (removing it first) while this test reads it.
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [tarball] = JSON.parse(out) as { files: { path: string }[] }[];
  return tarball.files.map((f) => f.path).sort();
}

/** Every `.ts` source under `dir` (not declaration files), relative to the repository. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => path.posix.join(dir, f.split(path.sep).join("/")));
}

const files = packedFiles();
const shipped = new Set(files);
const code = files.filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"));
const read = (f: string) => fs.readFileSync(path.join(root, f), "utf8");

describe("the published tarball", () => {
  it("carries the license, the readme and the changelog", () => {
    for (const f of ["LICENSE", "README.md", "CHANGELOG.md", "package.json"]) expect(files).toContain(f);
    expect(read("LICENSE")).toContain("Apache License");
    expect(read("LICENSE")).toContain("Version 2.0, January 2004");
  });

  it("carries the compiled provider: a .js and a .d.ts for every source file, and nothing stale", () => {
    const expected = sources("provider").flatMap((src) => {
      const out = "dist/" + src.replace(/\.ts$/, "");
      return [out + ".js", out + ".d.ts"];
    });
    expect(expected.length).toBeGreaterThan(10);
    expect(expected.filter((f) => !shipped.has(f))).toEqual([]);
    expect(code.filter((f) => !expected.includes(f))).toEqual([]);
    expect(files).toContain(pkg.main);
    expect(files).toContain(pkg.types);
  });

  it("ships the provider plugin's launcher and the connection-string command as executables on PATH (package.json bin)", () => {
    expect(pkg.bin).toEqual({
      "neon-connection-string": "bin/neon-connection-string",
      "pulumi-resource-neoncompute": "bin/pulumi-resource-neoncompute",
    });
    for (const [name, launcher] of Object.entries(pkg.bin ?? {})) {
      expect(files).toContain(launcher);
      // What the launcher runs is in the tarball too.
      const target = /"\$here\/\.\.\/([^"]+)"/.exec(read(launcher))?.[1];
      expect([name, target && shipped.has(target)]).toEqual([name, true]);
    }
  });

  it("the command's launcher runs what the build made: --help prints its usage", () => {
    const usage = execFileSync(path.join(root, "bin/neon-connection-string"), ["--help"], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` },
    });
    expect(usage).toMatch(/^Usage: neon-connection-string --project <id>/);
  });

  it("carries the documents its README links to, so that the links work from an installed copy", () => {
    const links = [...read("README.md").matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1])
      .filter((l) => !/^[a-z]+:/i.test(l));
    expect(links.length).toBeGreaterThan(5);
    const inPackage = (l: string) =>
      shipped.has(l) || files.some((f) => f.startsWith(`${l.replace(/\/$/, "")}/`));
    expect(links.filter((l) => !inPackage(l))).toEqual([]);
  });

  it("carries nothing else: no sources, tests, emulator code, benchmark code or scripts", () => {
    const top = [
      "LICENSE",
      "README.md",
      "CHANGELOG.md",
      "BENCHMARKS.md",
      "package.json",
      "emulator/README.md",
    ];
    const allowed = (f: string) =>
      top.includes(f) ||
      Object.values(pkg.bin ?? {}).includes(f) ||
      /^dist\/provider\/.+\.(js|d\.ts)$/.test(f) ||
      /^docs\/.+\.md$/.test(f) ||
      // The example programs the README and docs point to (no dependencies of their own).
      /^examples\/([\w-]+\/)*(Pulumi\.yaml|[\w-]+\.ts|tsconfig\.json|README\.md|workflow\.yml)$/.test(f);
    expect(files.filter((f) => !allowed(f))).toEqual([]);
  });

  it("never carries a stack's config (secrets encrypted with a passphrase) or a local install", () => {
    // `files` bypasses .gitignore: a `pulumi config set --secret` in an example folder must not ship.
    const stackConfig = path.join(root, "examples/basic/Pulumi.pack-test.yaml");
    fs.writeFileSync(stackConfig, "config:\n  neon:apiKey:\n    secure: v1:not-a-real-secret\n");
    try {
      const listed = packedFiles();
      expect(
        listed.filter((f) => /(^|\/)Pulumi\.[^/]+\.yaml$/.test(f) || f.includes("node_modules/")),
      ).toEqual([]);
    } finally {
      fs.rmSync(stackConfig, { force: true });
    }
  });

  it("has no source map pointing at a file it does not carry", () => {
    const missing: string[] = [];
    for (const f of code) {
      for (const [, url] of read(f).matchAll(/[#@] sourceMappingURL=(\S+)/g)) {
        if (url.startsWith("data:")) continue;
        const map = path.posix.join(path.posix.dirname(f), url);
        if (!shipped.has(map)) {
          missing.push(`${f} -> ${map}`);
          continue;
        }
        const { sources: mapped = [], sourceRoot = "" } = JSON.parse(read(map)) as {
          sources?: string[];
          sourceRoot?: string;
        };
        for (const s of mapped) {
          const target = path.posix.join(path.posix.dirname(map), sourceRoot, s);
          if (!shipped.has(target)) missing.push(`${map} -> ${target}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("resolves every relative require and import of its code inside the tarball", () => {
    const unresolved: string[] = [];
    for (const f of code) {
      const specs = [...read(f).matchAll(/(?:require\(|from |import\()"(\.{1,2}\/[^"]*)"/g)].map((m) => m[1]);
      for (const spec of specs) {
        const base = path.posix.join(path.posix.dirname(f), spec);
        const candidates = f.endsWith(".d.ts")
          ? [base + ".d.ts", base + "/index.d.ts"]
          : [base, base + ".js", base + "/index.js", base + ".json"];
        if (!candidates.some((c) => shipped.has(c))) unresolved.push(`${f}: ${spec}`);
      }
    }
    expect(unresolved).toEqual([]);
  });
});

describe("package.json", () => {
  it("is publishable", () => {
    expect(pkg.private).toBeUndefined();
  });

  it("runs nothing when a user installs the package", () => {
    const installTime = ["preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"];
    expect(installTime.filter((s) => s in (pkg.scripts ?? {}))).toEqual([]);
  });

  it("takes @pulumi/pulumi from the program (a caret range), pinned exactly only for this repository", () => {
    const sdk = "@pulumi/pulumi";
    expect(pkg.dependencies?.[sdk]).toBeUndefined();
    expect(pkg.peerDependencies?.[sdk]).toMatch(/^\^3\.\d+\.\d+$/);
    const pinned = pkg.devDependencies?.[sdk];
    expect(pinned).toMatch(/^3\.\d+\.\d+$/);
    // The lower bound of the range is the version the tests and the CLI build (ensure-pulumi) use.
    expect(pkg.peerDependencies?.[sdk]).toBe(`^${pinned}`);
    const lock = readJson("package-lock.json") as { packages: Record<string, { version?: string }> };
    expect(lock.packages[`node_modules/${sdk}`].version).toBe(pinned);
  });
});
