/**
 * End to end: `Branch` under the real CLI against the emulator — a TypeScript program (dynamic
 * resources: a branch with its compute, and a read replica on it): create in one request, a preview
 * without changes, a rename and a resize in place (the ids stay), destroy that leaves the project as
 * it was. A rerun from a fresh backend through both faces (the YAML one through the provider plugin).
 * The YAML face's branch with its compute is in the program that declares every resource
 * (tests/e2e/connect.e2e.test.ts).
 */
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { changedCounts, pluginPath, stackOutputs } from "./plugin-helpers";

useStepBudgets();

let emulator: EmulatorHandle;
let api: NeonClient;
let transcript = "";
const capture = (s: string) => {
  transcript += s;
};

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 60, seed: 31 });
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
});

afterAll(async () => {
  await emulator?.stop();
});

test("TypeScript: a branch with its compute and a replica; rename and resize in place; destroy", async () => {
  const { projectId } = emulator.seed;
  const branchesBefore = (await api.branches.list(projectId)).length;
  const temp = await createTempStack({
    programDir: path.join(__dirname, "branch-program"),
    config: {
      "neon-e2e-branch:projectId": { value: projectId },
      "neon-e2e-branch:branchName": { value: "pr-101" },
      "neon-e2e-branch:maxCu": { value: "0.5" },
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    },
  });
  try {
    const up = await temp.stack.up({ onOutput: capture, onError: capture });
    expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
    const out = await stackOutputs(temp);
    const branch = await api.branches.get(projectId, String(out.branchId));
    expect([branch.name, branch.current_state]).toEqual(["pr-101", "ready"]);
    const onBranch = await api.endpoints.listByBranch(projectId, branch.id);
    expect(onBranch.map((e) => e.type).sort()).toEqual(["read_only", "read_write"]);
    expect(onBranch.every((e) => e.current_state === "active")).toBe(true);
    expect((await temp.stack.preview({ onOutput: capture })).changeSummary).toMatchObject({ same: 3 });

    await temp.stack.setConfig("branchName", { value: "pr-101-renamed" });
    await temp.stack.setConfig("maxCu", { value: "1" });
    const second = await temp.stack.up({ onOutput: capture, onError: capture });
    expect(changedCounts(second.summary.resourceChanges ?? {})).toEqual({ update: 1 });
    const after = await stackOutputs(temp);
    expect([after.branchId, after.computeId]).toEqual([out.branchId, out.computeId]);
    expect((await api.branches.get(projectId, branch.id)).name).toBe("pr-101-renamed");
    expect((await api.endpoints.get(projectId, String(out.computeId))).autoscaling_limit_max_cu).toBe(1);

    await temp.stack.destroy({ onOutput: capture, onError: capture });
    expect((await api.branches.list(projectId)).length).toBe(branchesBefore);
  } finally {
    await temp.dispose();
  }
  expect(transcript).not.toContain(emulator.apiKey);
});

// A pipeline whose state is gone (a new runner, a wiped backend) runs `up` again: the branch its
// earlier run made carries this stack's and resource's annotation, so the rerun manages it instead of
// failing on "already exists"; another stack's preview of the same name fails naming this stack.
describe.each([
  [
    "TypeScript",
    "rerun-program",
    "neon-e2e-rerun",
    (projectId: string, name: string) => ({
      "neon-e2e-rerun:projectId": { value: projectId },
      "neon-e2e-rerun:branchName": { value: name },
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    }),
    {},
  ],
  [
    "YAML",
    "rerun-yaml-program",
    "neon-e2e-rerun-yaml",
    (projectId: string, name: string) => ({
      "neoncompute:apiUrl": { value: emulator.url },
      "neoncompute:apiKey": { value: emulator.apiKey, secret: true },
      projectId: { value: projectId },
      branchName: { value: name },
    }),
    { PATH: pluginPath(), NEON_API_KEY: "" },
  ],
] as const)("%s: a rerun from a fresh backend", (_, program, project, config, env) => {
  test("manages the branch its earlier run made; another stack's preview is refused naming the owner", async () => {
    const { projectId } = emulator.seed;
    const name = `rerun-${program.length}`;
    const stack = (stackName: string) =>
      createTempStack({
        programDir: path.join(__dirname, program),
        stackName,
        config: config(projectId, name),
        env: { ...env },
      });
    const first = await stack("pr-7");
    const again = await stack("pr-7");
    const other = await stack("pr-8");
    try {
      await first.stack.up({ onOutput: capture, onError: capture });
      const made = (await api.branches.list(projectId)).filter((b) => b.name === name);
      expect(made).toHaveLength(1);

      let log = "";
      const rerun = await again.stack.up({ onOutput: (s) => (log += s), onError: (s) => (log += s) });
      expect(rerun.summary.result).toBe("succeeded");
      expect(log).toMatch(
        /made for this resource by an earlier run of this stack \(.*\/pr-7, its annotation says\)/,
      );
      expect((await api.branches.list(projectId)).filter((b) => b.name === name).map((b) => b.id)).toEqual([
        made[0].id,
      ]);

      let refused = "";
      await expect(
        other.stack.preview({ onOutput: (s) => (refused += s), onError: (s) => (refused += s) }),
      ).rejects.toThrow();
      expect(refused).toMatch(
        new RegExp(`stack ${project}/pr-7 made it.*importId: "${projectId}/${made[0].id}"`),
      );

      await again.stack.destroy({ onOutput: capture, onError: capture });
      expect((await api.branches.list(projectId)).some((b) => b.name === name)).toBe(false);
    } finally {
      await Promise.all([first.dispose(), again.dispose(), other.dispose()]);
    }
  });
});
