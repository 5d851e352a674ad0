/**
 * CONTRIBUTING.md's "Adding a resource" must match the code: every resource folder of the registry
 * has the files it lists (in bold, `**name.ts**`), plus the generated `types.ts`, and nothing the list
 * leaves out but the two released modules the dynamic face keeps for old states.
 */
import * as fs from "fs";
import * as path from "path";
import { RESOURCES } from "../../../provider/registry";

const repo = path.resolve(__dirname, "../../..");
const text = fs.readFileSync(path.join(repo, "CONTRIBUTING.md"), "utf8");
const section = text.slice(text.indexOf("## Adding a resource"));
const listed = [...section.matchAll(/\*\*`([\w-]+\.ts)`\*\*/g)].map((m) => m[1]);

describe("CONTRIBUTING.md's resource folder", () => {
  it("lists the files of a resource folder", () => {
    expect(listed).toEqual(["definition.ts", "inputs.ts", "mapping.ts", "lifecycle.ts"]);
  });

  it.each(
    RESOURCES.map(
      (r) => [r.definition.name, r.definition.name.toLowerCase(), Boolean(r.releasedDynamic)] as const,
    ),
  )(
    "%s: provider/resources/%s has them (and only Compute and ApiKey keep a released impl.ts)",
    (_, folder, released) => {
      const files = fs.readdirSync(path.join(repo, "provider/resources", folder));
      expect(listed.filter((f) => !files.includes(f))).toEqual([]);
      expect(files.includes("types.ts")).toBe(true);
      expect(files.includes("impl.ts")).toBe(released);
      // The faces' classes come from the registry (provider/dynamic/resources.ts, provider/plugin/resources.ts).
      expect(files.filter((f) => ["kind.ts", "resource.ts", "plugin.ts"].includes(f))).toEqual([]);
    },
  );
});
