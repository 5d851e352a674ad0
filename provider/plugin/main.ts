/**
 * Entry point of the provider plugin `pulumi-resource-neoncompute` (`bin/` starts Node on it):
 * serves `Compute`, `ApiKey` and the lookups over the plugin protocol.
 */
import * as fs from "fs";
import * as path from "path";
import { serve } from "./server";

/** The version of the installed package (the plugin reports it to the engine). */
export function packageVersion(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (!fs.existsSync(file)) continue;
    const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (pkg.name === "@neon-labs-unofficial/pulumi-neon-compute" && pkg.version) return pkg.version;
  }
  return "0.0.0";
}

if (require.main === module) {
  serve(process.argv.slice(2), packageVersion()).catch((err: Error) => {
    console.error(`Failed to start the neoncompute provider plugin: ${err.stack ?? err.message}`);
    process.exit(1);
  });
}
