/**
 * End to end: `Project` under the real CLI against the emulator, with what every Neon stack declares
 * on it — a branch with its compute and a read replica — through the TypeScript face (dynamic
 * resources); the YAML face's project is in the program that declares every resource
 * (tests/e2e/connect.e2e.test.ts). One request creates the project with
 * its branch, compute, role and database; a change that would need a new project fails at preview and
 * nothing is deleted; a rename is in place; the connection URI is a secret (never in the stack export,
 * the state files or any CLI line); destroy deletes the project with what is in it.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack, repoRoot, type TempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { stackOutputs } from "./plugin-helpers";

useStepBudgets();

let emulator: EmulatorHandle;
let api: NeonClient;
let transcript = "";
const capture = (s: string) => {
  transcript += s;
};

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 60, seed: 37 });
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
});

afterAll(async () => {
  await emulator?.stop();
});

/** `pulumi stack export` as a user runs it, and every state file of the backend. */
function exportAndState(temp: TempStack): string {
  const bin = temp.env.PATH.split(path.delimiter).find((d) => fs.existsSync(path.join(d, "pulumi")));
  const exported = execFileSync(path.join(bin ?? "", "pulumi"), ["stack", "export", "--stack", "dev"], {
    cwd: temp.workDir,
    env: { ...process.env, ...temp.env },
    encoding: "utf8",
  });
  const state = fs
    .readdirSync(temp.backendDir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .map((f) => fs.readFileSync(path.join(temp.backendDir, f), "utf8"))
    .join("\n");
  expect(exported).toContain("connectionUri");
  return exported + "\n" + state;
}

async function projectsNamed(name: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const p of api.projects.list({ search: name })) if (p.name === name) ids.push(p.id);
  return ids;
}

test("TypeScript (examples/project): project → branch with compute → replica; a region change refused at preview; rename in place; destroy", async () => {
  const temp = await createTempStack({
    programDir: path.join(repoRoot, "examples", "project"),
    config: {
      "neon-project:projectName": { value: "e2e-app" },
      "neon-project:orgId": { value: emulator.seed.orgId },
      "neon-project:regionId": { value: "aws-us-east-2" },
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    },
  });
  try {
    const posts = () => emulator.requestsByRoute()["POST /projects"] ?? 0;
    const up = await temp.stack.up({ onOutput: capture, onError: capture });
    expect(up.summary.resourceChanges).toMatchObject({ create: 4 });
    expect(posts()).toBe(1);
    const out = await stackOutputs(temp);
    const projectId = String(out.projectId);
    const branch = await api.branches.get(projectId, String(out.branchId));
    expect([branch.name, branch.current_state, branch.parent_id]).toEqual([
      "pr-1",
      "ready",
      out.defaultBranchId,
    ]);
    const onBranch = await api.endpoints.listByBranch(projectId, branch.id);
    expect(onBranch.map((e) => e.type).sort()).toEqual(["read_only", "read_write"]);
    const uri = String(out.connectionUri);
    expect(uri).toMatch(/^postgresql:\/\/neondb_owner:/);
    expect((await temp.stack.preview({ onOutput: capture })).changeSummary).toMatchObject({ same: 4 });

    // A region change would need a new project: the preview fails, naming it, and nothing changes.
    await temp.stack.setConfig("regionId", { value: "aws-eu-central-1" });
    let refused = "";
    await expect(
      temp.stack.preview({ onOutput: (s) => (refused += s), onError: (s) => (refused += s) }),
    ).rejects.toThrow();
    expect(refused).toMatch(
      /regionId "aws-us-east-2" → "aws-eu-central-1" cannot be changed on an existing project/,
    );
    transcript += refused;
    await temp.stack.setConfig("regionId", { value: "aws-us-east-2" });

    await temp.stack.setConfig("projectName", { value: "e2e-app-renamed" });
    await temp.stack.up({ onOutput: capture, onError: capture });
    expect((await stackOutputs(temp)).projectId).toBe(projectId);
    expect((await api.projects.get(projectId)).name).toBe("e2e-app-renamed");

    const everything = exportAndState(temp);
    const password = new URL(uri).password;
    for (const secret of [uri, password, emulator.apiKey]) {
      expect(everything).not.toContain(secret);
      expect(transcript).not.toContain(secret);
    }

    await temp.stack.destroy({ onOutput: capture, onError: capture });
    await expect(api.projects.get(projectId)).rejects.toMatchObject({ kind: "not_found" });
    expect(await projectsNamed("e2e-app-renamed")).toEqual([]);
  } finally {
    await temp.dispose();
  }
});
