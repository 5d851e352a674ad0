/** Writes `docs/api/*.md` from the definitions (`npm run docs:api`), formatted as Prettier would. */
import * as fs from "fs";
import * as path from "path";
import { formatted } from "./lib/formatted";
import { apiDocs } from "./lib/api-docs";

const dir = path.resolve(__dirname, "../docs/api");
void (async () => {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(apiDocs())) {
    fs.writeFileSync(path.join(dir, name), formatted(text, `docs/api/${name}`));
  }
  console.log(`wrote ${Object.keys(apiDocs()).length} files to docs/api`);
})();
