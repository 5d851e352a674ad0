/**
 * End to end, installed the way the README says a user installs today: the package packed from this
 * checkout (`npm pack`), installed with nothing but the tarball into a fresh program outside the
 * checkout (its own `package.json` and `node_modules`), then `pulumi up`, a preview without changes
 * and `pulumi destroy` of a branch against the emulator under the real CLI. Also: every relative link
 * of the README the package ships resolves inside the installed package (a link to a file left out
 * of `files` would go nowhere from npm).
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { offlineEnv, pulumiCommand, repoRoot } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { useEmulator, useTranscript } from "../support/e2e";

useStepBudgets();

const run = promisify(execFile);
const PACKAGE = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { name: string };

/** The version of a package this checkout has installed (so that npm finds it in its cache). */
function installedVersion(name: string): string {
  const pkg = path.join(repoRoot, "node_modules", ...name.split("/"), "package.json");
  return (JSON.parse(fs.readFileSync(pkg, "utf8")) as { version: string }).version;
}

// Read through `neon` inside tests: the getters throw before beforeAll started the emulator.
const neon = useEmulator({ opMs: 60, seed: 47 });
const { capture } = useTranscript();
let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "neon-install-"));
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("npm pack, npm install <tarball> in a program outside the checkout, then up, preview, destroy", async () => {
  expect(path.relative(repoRoot, work).startsWith("..")).toBe(true);
  // As a user does from a clone: `npm pack` builds the package and writes the tarball.
  const packed = await run("npm", ["pack", "--json", "--pack-destination", work], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [{ filename }] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
  const tarball = path.join(work, path.basename(filename));
  expect(fs.existsSync(tarball)).toBe(true);

  const program = path.join(work, "program");
  fs.mkdirSync(program);
  fs.writeFileSync(
    path.join(program, "package.json"),
    JSON.stringify(
      {
        name: "installed-program",
        private: true,
        dependencies: {
          [PACKAGE.name]: `file:${tarball}`,
          "@pulumi/pulumi": installedVersion("@pulumi/pulumi"),
          typescript: installedVersion("typescript"),
        },
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(
    path.join(program, "Pulumi.yaml"),
    "name: installed-program\nruntime: nodejs\nmain: index.ts\ndescription: A program that installed the packed package.\n",
  );
  fs.writeFileSync(
    path.join(program, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: "ES2020",
        module: "commonjs",
        moduleResolution: "node",
        esModuleInterop: true,
        skipLibCheck: true,
      },
      files: ["index.ts"],
    }),
  );
  fs.writeFileSync(
    path.join(program, "index.ts"),
    [
      'import * as pulumi from "@pulumi/pulumi";',
      `import { Branch } from "${PACKAGE.name}";`,
      "",
      "const config = new pulumi.Config();",
      'const branch = new Branch("preview", {',
      '  projectId: config.require("projectId"),',
      '  name: "installed-from-tarball",',
      "  compute: { cu: 0.25 },",
      "});",
      "export const branchId = branch.id;",
      "export const host = branch.host;",
      "",
    ].join("\n"),
  );
  // Nothing of the checkout: the dependencies come from the tarball and npm (its cache first).
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], {
    cwd: program,
    maxBuffer: 64 * 1024 * 1024,
  });
  const installed = path.join(program, "node_modules", ...PACKAGE.name.split("/"));
  expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);

  // The README's relative links resolve inside the installed package.
  const readme = fs.readFileSync(path.join(installed, "README.md"), "utf8");
  const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
    .map((m) => m[1])
    .filter((l) => !/^[a-z]+:/i.test(l));
  expect(links.length).toBeGreaterThan(0);
  expect(links.filter((l) => !fs.existsSync(path.join(installed, l)))).toEqual([]);

  const { projectId } = neon.emulator.seed;
  const backend = fs.mkdtempSync(path.join(work, "backend-"));
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "dev", workDir: program },
    { pulumiCommand: await pulumiCommand(), envVars: offlineEnv(backend) },
  );
  await stack.setAllConfig({
    projectId: { value: projectId },
    "neon:apiUrl": { value: neon.emulator.url },
    "neon:apiKey": { value: neon.emulator.apiKey, secret: true },
  });

  const up = await stack.up({ onOutput: capture, onError: capture });
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
  const branchId = String((await stack.outputs()).branchId.value);
  const branch = await neon.api.branches.get(projectId, branchId);
  expect([branch.name, branch.current_state]).toEqual(["installed-from-tarball", "ready"]);
  expect((await neon.api.endpoints.listByBranch(projectId, branchId)).map((e) => e.type)).toEqual([
    "read_write",
  ]);
  // The state names the provider's code inside the installed package, never the checkout.
  const state = JSON.stringify((await stack.exportStack()).deployment);
  expect(state).not.toContain(repoRoot);

  const preview = await stack.preview({ onOutput: capture });
  expect(preview.changeSummary).toEqual({ same: 2 });

  await stack.destroy({ onOutput: capture, onError: capture });
  expect((await neon.api.branches.list(projectId)).map((b) => b.id)).not.toContain(branchId);
  await stack.workspace.removeStack("dev");
});
