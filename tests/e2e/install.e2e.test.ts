/**
 * End to end, installed the way the README says a user installs today: the package packed from this
 * checkout (`npm pack`), installed with nothing but the tarball into a fresh program outside the
 * checkout (its own `package.json` and `node_modules`), then `pulumi up`, a preview without changes
 * and `pulumi destroy` of a branch under the real CLI against the emulator started with
 * `npm run emulator`. Also: the shipped command `neon-connection-string` runs from the program's
 * `node_modules/.bin` and prints the string the API gives; every relative link of the README the package ships resolves inside the
 * installed package (a link to a file left out of `files` would go nowhere from npm).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { installedVersion, npmInstall, PACKAGE, packInto } from "../../scripts/lib/package";
import { offlineEnv, pulumiCommand, repoRoot } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { runEmulatorCommand, useTranscript, type EmulatorCommand } from "../support/e2e";
import { createNeonClient, type NeonClient } from "../../provider/api";

useStepBudgets();

/**
 * The program's `@pulumi/pulumi`: by default the version this checkout tests (the lowest of the peer
 * range); the newest leg of `npm test` (`scripts/test`) sets the newest one on npm.
 */
const SDK_VERSION = process.env.NEON_E2E_PULUMI_SDK || installedVersion("@pulumi/pulumi");
const { capture } = useTranscript();
let work: string;
let emulator: EmulatorCommand | undefined;
let api: NeonClient;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "neon-install-"));
  // As the README says: the emulator started with `npm run emulator` (any free port, short operations).
  emulator = await runEmulatorCommand(repoRoot, ["--port", "0", "--op-ms", "60", "--seed", "47"]);
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
});

afterAll(async () => {
  await emulator?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("npm pack, npm install <tarball> in a program outside the checkout, then up, preview, destroy", async () => {
  expect(path.relative(repoRoot, work).startsWith("..")).toBe(true);
  // As a user does from a clone: `npm pack` builds the package and writes the tarball.
  const tarball = await packInto(work);
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
          "@pulumi/pulumi": SDK_VERSION,
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
  await npmInstall(program);
  const installed = path.join(program, "node_modules", ...PACKAGE.name.split("/"));
  expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
  const sdk = path.join(program, "node_modules", "@pulumi", "pulumi", "package.json");
  expect((JSON.parse(fs.readFileSync(sdk, "utf8")) as { version: string }).version).toBe(SDK_VERSION);

  // The README's relative links resolve inside the installed package.
  const readme = fs.readFileSync(path.join(installed, "README.md"), "utf8");
  const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
    .map((m) => m[1])
    .filter((l) => !/^[a-z]+:/i.test(l));
  expect(links.length).toBeGreaterThan(0);
  expect(links.filter((l) => !fs.existsSync(path.join(installed, l)))).toEqual([]);

  const { projectId, url, apiKey } = emulator as EmulatorCommand;
  // The command the package ships, run from the program's node_modules/.bin as a CI step would.
  const printed = execFileSync(
    path.join(program, "node_modules", ".bin", "neon-connection-string"),
    ["--project", projectId, "--role", "neondb_owner", "--database", "neondb"],
    { encoding: "utf8", env: { ...process.env, NEON_API_KEY: apiKey, NEON_API_URL: url } },
  );
  expect(printed).toBe(
    `${await api.projects.connectionUri(projectId, { databaseName: "neondb", roleName: "neondb_owner" })}\n`,
  );

  const backend = fs.mkdtempSync(path.join(work, "backend-"));
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "dev", workDir: program },
    { pulumiCommand: await pulumiCommand(), envVars: offlineEnv(backend) },
  );
  await stack.setAllConfig({
    projectId: { value: projectId },
    "neon:apiUrl": { value: url },
    "neon:apiKey": { value: apiKey, secret: true },
  });

  const up = await stack.up({ onOutput: capture, onError: capture });
  expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
  const branchId = String((await stack.outputs()).branchId.value);
  const branch = await api.branches.get(projectId, branchId);
  expect([branch.name, branch.current_state]).toEqual(["installed-from-tarball", "ready"]);
  expect((await api.endpoints.listByBranch(projectId, branchId)).map((e) => e.type)).toEqual(["read_write"]);
  // The state names the provider's code inside the installed package, never the checkout.
  const state = JSON.stringify((await stack.exportStack()).deployment);
  expect(state).not.toContain(repoRoot);

  const preview = await stack.preview({ onOutput: capture });
  expect(preview.changeSummary).toEqual({ same: 2 });

  await stack.destroy({ onOutput: capture, onError: capture });
  expect((await api.branches.list(projectId)).map((b) => b.id)).not.toContain(branchId);
  await stack.workspace.removeStack("dev");
});
