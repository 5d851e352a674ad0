/**
 * Writes `docs/api/*.md`, `docs/_index.md` and `docs/installation-configuration.md` from the
 * definitions and settings (`npm run docs:api`), formatted as Prettier would.
 */
import * as fs from "fs";
import * as path from "path";
import { formatted } from "./lib/formatted";
import { apiDocs } from "./lib/api-docs";
import { registryDocs } from "./lib/registry-docs";

const dir = path.resolve(__dirname, "../docs/api");
void (async () => {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(apiDocs())) {
    fs.writeFileSync(path.join(dir, name), formatted(text, `docs/api/${name}`));
  }
  for (const [name, text] of Object.entries(registryDocs())) {
    fs.writeFileSync(path.join(dir, "..", name), formatted(text, `docs/${name}`));
  }
  console.log(`wrote ${Object.keys(apiDocs()).length} files to docs/api and the Registry's pages to docs/`);
})();
