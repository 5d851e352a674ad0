/**
 * Writes each resource's `types.ts`, the lookups' `shapes.ts` and both faces' classes
 * (`provider/dynamic/resources.ts`, `provider/plugin/resources.ts`) from the definitions and the
 * registry (`npm run types:gen`), formatted as Prettier would.
 */
import * as fs from "fs";
import * as path from "path";
import { formatted } from "./lib/formatted";
import { faceClasses, lookupTypes, resourceTypes } from "./lib/resource-types";

const repo = path.resolve(__dirname, "..");
const files = { ...resourceTypes(), ...lookupTypes(), ...faceClasses() };
for (const [file, text] of Object.entries(files)) {
  fs.writeFileSync(path.join(repo, file), formatted(text, file));
}
console.log(`wrote ${Object.keys(files).length} files of types`);
