/**
 * The package as users get it: `npm pack` of this checkout (which builds it first, `prepack`), and
 * the provider plugin's release archive made from that tarball (`npm run release`).
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { repoRoot } from "./pulumi";

const run = promisify(execFile);
const BUFFER = 64 * 1024 * 1024;

/** This package's name and version. */
export const PACKAGE = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  name: string;
  version: string;
};

/** The plugin's executable name: the engine looks for `pulumi-resource-<package>`. */
export const PLUGIN = "pulumi-resource-neoncompute";

/** The version of a package this checkout has installed (npm then finds it in its cache). */
export function installedVersion(name: string): string {
  const pkg = path.join(repoRoot, "node_modules", ...name.split("/"), "package.json");
  return (JSON.parse(fs.readFileSync(pkg, "utf8")) as { version: string }).version;
}

/** `npm pack` into `dir` (building the package first, as `npm pack` does); the tarball's path. */
export async function packInto(dir: string): Promise<string> {
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", dir], {
    cwd: repoRoot,
    maxBuffer: BUFFER,
  });
  const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>;
  return path.join(dir, path.basename(filename));
}

/** `npm install` in `dir`, from npm's cache when it has the packages. */
export async function npmInstall(dir: string, extra: string[] = []): Promise<void> {
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...extra], {
    cwd: dir,
    maxBuffer: BUFFER,
  });
}

/** The archive's platform words as Pulumi names them (`linux-amd64`, `darwin-arm64`, `windows-amd64`). */
export function pluginPlatform(platform = process.platform, arch = process.arch): string {
  const osName = platform === "win32" ? "windows" : platform;
  const archName = arch === "x64" ? "amd64" : arch;
  return `${osName}-${archName}`;
}

/**
 * Builds `pulumi-resource-neoncompute-v<version>-<os>-<arch>.tar.gz` in `outDir`: the launcher at its
 * root, the package and its production dependencies (`@pulumi/pulumi` at the version tested here)
 * in `node_modules` beside it. `pulumi plugin install resource neoncompute <version> --file <archive>`
 * puts it in the plugin cache. The launcher runs `node` from PATH (Node.js 22+ on the machine, as
 * for other Node.js-based provider plugins), so the archive is for Linux and macOS.
 */
export async function buildPluginArchive(outDir: string): Promise<string> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "neoncompute-release-"));
  try {
    const tarball = await packInto(staging);
    const plugin = path.join(staging, "plugin");
    fs.mkdirSync(plugin);
    fs.writeFileSync(
      path.join(plugin, "package.json"),
      JSON.stringify(
        {
          name: PLUGIN,
          version: PACKAGE.version,
          private: true,
          description: "The neoncompute Pulumi provider plugin, as `pulumi plugin install` unpacks it.",
          dependencies: {
            [PACKAGE.name]: `file:../${path.basename(tarball)}`,
            "@pulumi/pulumi": installedVersion("@pulumi/pulumi"),
          },
        },
        null,
        2,
      ) + "\n",
    );
    await npmInstall(plugin, ["--omit=dev"]);
    const entry = ["node_modules", ...PACKAGE.name.split("/"), "dist", "provider", "plugin", "main.js"];
    const launcher = path.join(plugin, PLUGIN);
    fs.writeFileSync(
      launcher,
      [
        "#!/bin/sh",
        "# The neoncompute provider plugin as `pulumi plugin install` unpacks it: Node.js (20+) runs it.",
        'here=$(cd "$(dirname "$0")" && pwd)',
        `exec node "$here/${entry.join("/")}" "$@"`,
        "",
      ].join("\n"),
    );
    fs.chmodSync(launcher, 0o755);
    fs.mkdirSync(outDir, { recursive: true });
    const archive = path.join(outDir, `${PLUGIN}-v${PACKAGE.version}-${pluginPlatform()}.tar.gz`);
    await run("tar", ["-czf", archive, "-C", plugin, "."], { maxBuffer: BUFFER });
    return archive;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
