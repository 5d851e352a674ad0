/**
 * Writes each resource's `types.ts` and the lookups' `shapes.ts` from their definitions (`npm run
 * types:gen`), formatted as Prettier would.
 */
import * as fs from "fs";
import * as path from "path";
import { formatted } from "./lib/formatted";
import { lookupTypes, resourceTypes } from "./lib/resource-types";

const repo = path.resolve(__dirname, "..");
const files = { ...resourceTypes(), ...lookupTypes() };
for (const [file, text] of Object.entries(files)) {
  fs.writeFileSync(path.join(repo, file), formatted(text, file));
}
console.log(`wrote ${Object.keys(files).length} files of types`);
