/**
 * End to end: the sweep of leaked preview branches (`examples/sweep/sweep.ts`, as the gitops guide's
 * scheduled job runs it) against an emulator project holding a leaked annotated branch (its stack is
 * gone from the backend), a live stack's branch, the default branch, a protected branch and a foreign
 * unannotated branch, with a real file backend listed through the Automation API and the real CLI.
 * The dry run names only the leaked branch; the real run deletes only it.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { offlineEnv, pulumiCommand, repoRoot } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { useEmulator } from "../support/e2e";

useStepBudgets();

const run = promisify(execFile);
// Read through `neon` inside tests: the getters throw before beforeAll started the emulator.
const neon = useEmulator({ opMs: 60, seed: 59 });
let backend: string;

beforeAll(() => {
  backend = fs.mkdtempSync(path.join(os.tmpdir(), "neon-sweep-backend-"));
});

afterAll(() => {
  if (backend) fs.rmSync(backend, { recursive: true, force: true });
});

/** Creates a branch the way the provider does (or a foreign tool, without `stack`), and waits for it. */
async function branch(name: string, stack?: string, protect = false): Promise<string> {
  const { projectId } = neon.emulator.seed;
  const [project, stackName] = stack?.split("/") ?? [];
  const r = await neon.api.branches.create(projectId, {
    branch: { name, ...(protect ? { protected: true } : {}) },
    ...(stack ? { annotation_value: { "pulumi-project": project, "pulumi-stack": stackName } } : {}),
  });
  await neon.api.waitForOperations(
    projectId,
    r.operations.map((o) => o.id),
  );
  return r.branch.id;
}

async function sweep(...args: string[]): Promise<string> {
  const env = {
    ...process.env,
    ...offlineEnv(backend),
    NEON_API_KEY: neon.emulator.apiKey,
    NEON_API_URL: neon.emulator.url,
  };
  const { stdout } = await run(
    "npx",
    ["tsx", "examples/sweep/sweep.ts", "--project-id", neon.emulator.seed.projectId, ...args],
    { cwd: repoRoot, env, maxBuffer: 16 << 20 },
  );
  return stdout;
}

test("the sweep's dry run names only the leaked branch; the real run deletes only it", async () => {
  const { projectId } = neon.emulator.seed;
  // A live stack in the backend (no resources needed: it exists).
  await LocalWorkspace.createOrSelectStack(
    { stackName: "pr-42", projectName: "app", program: async () => ({}) },
    { pulumiCommand: await pulumiCommand(), envVars: offlineEnv(backend) },
  );
  const leaked = await branch("preview-pr-41", "app/pr-41");
  const live = await branch("preview-pr-42", "app/pr-42");
  const protectedOne = await branch("preview-pr-43", "app/pr-43", true);
  const foreign = await branch("made-by-hand");
  const before = (await neon.api.branches.list(projectId)).map((b) => b.id);

  const dry = await sweep();
  expect(dry).toMatch(/backend stacks: app\/pr-42/);
  const wouldDelete = dry.split("\n").filter((l) => l.startsWith("would delete"));
  expect(wouldDelete).toEqual([
    `would delete ${leaked} (preview-pr-41): its stack app/pr-41 no longer exists in the backend`,
  ]);
  expect(dry).toContain(`keep ${live} (preview-pr-42): its stack app/pr-42 exists`);
  expect(dry).toContain(`keep ${protectedOne} (preview-pr-43): protected`);
  expect(dry).toContain(`keep ${foreign} (made-by-hand): not made by this package`);
  expect(dry).toMatch(/keep br-[^ ]+ \([^)]*\): the project's default branch/);
  expect((await neon.api.branches.list(projectId)).map((b) => b.id)).toEqual(before);

  const real = await sweep("--delete");
  expect(real).toContain(`deleted ${leaked} (preview-pr-41)`);
  expect(real).toContain("deleted 1 branch(es)");
  const after = (await neon.api.branches.list(projectId)).map((b) => b.id);
  expect(after.sort()).toEqual(before.filter((id) => id !== leaked).sort());
});
