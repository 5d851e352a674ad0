import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";

// Each `pulumi up` starts a program process that loads the package to make its classes; a team's
// parallel pipelines start dozens at once on the same cores. The classes need no API client, no zod
// schema and no step: those load in the provider's process, or at a program's first lookup.
// (The package as installed: the build linked into node_modules, which `npm test` makes first.)
const PACKAGE = "@neon-labs-unofficial/pulumi-neon-compute";

function loadedBy(script: string, env: Record<string, string> = { NEON_API_KEY: "" }): string[] {
  const out = execFileSync(
    process.execPath,
    [
      "-e",
      // Listed once the script's `done` (if any) settles, then the process ends (a lookup's read
      // still under way is not waited for).
      `var done; ${script}; Promise.resolve(done).then(() => process.stdout.write(JSON.stringify(Object.keys(require.cache)), () => process.exit(0)))`,
    ],
    { cwd: path.resolve(__dirname, "../../.."), encoding: "utf8", env: { ...process.env, ...env } },
  );
  return (JSON.parse(out) as string[]).map((p) => p.replace(/\\/g, "/"));
}

const heavy = (files: string[]) =>
  files.filter((f) =>
    /\/node_modules\/(zod|axios)\/|\/dist\/provider\/(api\/client|http\/client|resources\/[a-z]+\/lifecycle)\.js$/.test(
      f,
    ),
  );

describe("what a program's process loads", () => {
  it("making resources of each face loads no API client, zod schema or resource step", () => {
    // Under Pulumi's mocks: each resource is registered (its provider serialized) and gets its id.
    const files = loadedBy(
      [
        `const pulumi = require("@pulumi/pulumi")`,
        `pulumi.runtime.setMocks({ newResource: (a) => ({ id: a.name + "-id", state: a.inputs }), call: (a) => a.inputs }, "p", "s", false)`,
        `const neon = require("${PACKAGE}")`,
        `const on = { projectId: "p-1", branchId: "br-1" }`,
        `const made = [new neon.Branch("b", { projectId: "p-1" }), new neon.Role("r", { ...on, name: "app" }), new neon.Database("d", { ...on, name: "app", ownerName: "app" }), new neon.Compute("c", on), new neon.plugin.Branch("pb", { projectId: "p-1" })]`,
        `for (const c of [neon.Project, neon.ApiKey, neon.ProjectPermission]) if (typeof c !== "function") throw new Error("no class")`,
        `done = Promise.all(made.map((r) => new Promise((ok) => r.id.apply(ok)))).then((ids) => { if (ids.join() !== "b-id,r-id,d-id,c-id,pb-id") throw new Error(String(ids)) })`,
      ].join("; "),
    );
    expect(files.some((f) => f.includes("/dist/provider/index.js"))).toBe(true);
    expect(heavy(files)).toEqual([]);
  });

  it("a resource's steps load when first asked for", () => {
    const files = loadedBy(
      `const { RESOURCES } = require("${PACKAGE}/dist/provider/registry"); if (typeof RESOURCES.find((r) => r.definition.name === "Branch").steps.create !== "function") throw new Error("no create")`,
    );
    expect(heavy(files)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/dist\/provider\/resources\/branch\/lifecycle\.js$/),
        expect.stringMatching(/\/node_modules\/zod\//),
      ]),
    );
    expect(files.filter((f) => /resources\/compute\/lifecycle\.js$/.test(f))).toEqual([]);
  });

  it("a lookup loads the API client when first called", () => {
    const files = loadedBy(
      `const neon = require("${PACKAGE}"); try { neon.getCompute({ projectId: "p", endpointId: "e" }).catch(() => {}) } catch {}`,
      // Nothing listens there; the process ends before the read's retries do.
      { NEON_API_KEY: "neon-test-key", NEON_API_URL: "http://127.0.0.1:1/api/v2" },
    );
    expect(files.filter((f) => /\/dist\/provider\/api\/client\.js$/.test(f))).toHaveLength(1);
  });
});

// A TypeScript program is type-checked at every `pulumi up` (Pulumi's ts-node), in each of a team's
// parallel pipelines: the declarations the package's types reach are read and bound each time. The
// classes, lookups and sweep need none of the API client's (zod's schemas, axios), which cost about
// 0.2 s of CPU per `up` (bench/results/history.md, "What a program's type-check reads"); internal helpers are `@internal` and
// the build strips them (tsconfig.build.json `stripInternal`).
describe("what a program's type-check reads", () => {
  const pkgDir = path.dirname(
    require.resolve(`${PACKAGE}/package.json`, { paths: [path.resolve(__dirname, "../../..")] }),
  );
  const { types } = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")) as {
    types: string;
  };
  const program = ts.createProgram([path.join(pkgDir, types)], {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  });
  const files = program.getSourceFiles().map((f) => f.fileName.replace(/\\/g, "/"));
  const ours = program
    .getSourceFiles()
    .filter((f) => /\/dist\/provider\//.test(f.fileName.replace(/\\/g, "/")));

  it("reaches the classes, lookups and sweep, but neither zod, axios nor the API client's modules", () => {
    expect(ours.map((f) => f.fileName)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/dist\/provider\/index\.d\.ts$/),
        expect.stringMatching(/\/dist\/provider\/dynamic\/resources\.d\.ts$/),
        expect.stringMatching(/\/dist\/provider\/lookups\/index\.d\.ts$/),
        expect.stringMatching(/\/dist\/provider\/sweep\.d\.ts$/),
      ]),
    );
    expect(files.filter((f) => /\/node_modules\/(zod|axios)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /\/dist\/provider\/(api|http|operations)\//.test(f))).toEqual([]);
  });

  it("declares everything its declarations name (nothing stripped that a public one needs)", () => {
    const errors = ours.flatMap((f) => [
      ...program.getSyntacticDiagnostics(f),
      ...program.getSemanticDiagnostics(f),
    ]);
    expect(
      errors.map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`),
    ).toEqual([]);
  });

  it("declares every value the package exports, and the plugin namespace's (nothing public stripped)", () => {
    const checker = program.getTypeChecker();
    const resolved = (x: ts.Symbol) => (x.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(x) : x);
    // The names a module's declarations export and that lead to a declaration (a re-export of a
    // stripped name still lists the name, but leads nowhere).
    const declaredBy = (module: ts.Symbol) =>
      checker
        .getExportsOfModule(module)
        .filter((x) => (resolved(x).declarations?.length ?? 0) > 0)
        .map((x) => x.name);
    const entry = checker.getSymbolAtLocation(program.getSourceFile(path.join(pkgDir, types))!)!;
    const runtime = require(pkgDir) as Record<string, unknown>;
    expect(Object.keys(runtime).length).toBeGreaterThan(20);
    const declared = declaredBy(entry);
    expect(Object.keys(runtime).filter((name) => !declared.includes(name))).toEqual([]);
    const pluginNs = checker.getExportsOfModule(entry).find((x) => x.name === "plugin")!;
    const pluginDeclared = declaredBy(resolved(pluginNs));
    const pluginRuntime = Object.keys(runtime.plugin as object);
    expect(pluginRuntime.length).toBeGreaterThan(5);
    expect(pluginRuntime.filter((name) => !pluginDeclared.includes(name))).toEqual([]);
  });
});
