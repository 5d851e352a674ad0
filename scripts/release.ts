/**
 * `npm run release [-- --out <dir>]`: the provider plugin's archive for this machine's platform
 * (`pulumi-resource-neoncompute-v<version>-<os>-<arch>.tar.gz`, default folder `release/`, which `npm run build` leaves alone), for
 * `pulumi plugin install resource neoncompute <version> --file <archive>`. See docs/plugin.md.
 */
import * as path from "path";
import { buildPluginArchive, PACKAGE } from "./lib/package";
import { repoRoot } from "./lib/pulumi";

async function main(): Promise<void> {
  const at = process.argv.indexOf("--out");
  const out =
    at >= 0 && process.argv[at + 1] ? path.resolve(process.argv[at + 1]) : path.join(repoRoot, "release");
  const archive = await buildPluginArchive(out);
  console.log(archive);
  console.log(
    `install it with: pulumi plugin install resource neoncompute ${PACKAGE.version} --file ${archive}`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
