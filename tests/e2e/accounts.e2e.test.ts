/**
 * End to end, examples/multi-account: two Neon accounts in one stack, each through its own explicit `Provider` with its own
 * key and API URL (two emulators stand for two accounts). Each compute is made in its own account;
 * neither key appears in the state or the output.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient } from "../../provider/api";
import { createTempStack, repoRoot, type TempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { changedCounts } from "./plugin-helpers";

// A budget per test that holds at many times its idle duration (tests/support/budgets.ts).
useStepBudgets();

let first: EmulatorHandle;
let second: EmulatorHandle;
let temp: TempStack;
let transcript = "";
const capture = (s: string) => {
  transcript += s;
};

beforeAll(async () => {
  [first, second] = await Promise.all([
    startEmulator({ opMs: 100, seed: 31 }),
    startEmulator({ opMs: 100, seed: 32 }),
  ]);
  const account = (e: EmulatorHandle) => ({
    apiUrl: e.url,
    projectId: e.seed.projectId,
    branchId: e.seed.branchIds[1],
  });
  temp = await createTempStack({
    programDir: path.join(repoRoot, "examples", "multi-account"),
    config: {
      accounts: { value: JSON.stringify({ first: account(first), second: account(second) }) },
      firstKey: { value: first.apiKey, secret: true },
      secondKey: { value: second.apiKey, secret: true },
    },
  });
});

afterAll(async () => {
  await temp?.dispose();
  await Promise.all([first?.stop(), second?.stop()]);
});

test("each explicit provider creates its compute in its own account, and destroy removes both", async () => {
  const result = await temp.stack.up({ onOutput: capture, onError: capture });
  expect(result.summary.result).toBe("succeeded");
  const out = result.outputs.computes.value as Record<string, { endpointId: string }>;
  for (const [name, emu] of [
    ["first", first],
    ["second", second],
  ] as const) {
    const api = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
    const eps = await api.endpoints.listByBranch(emu.seed.projectId, emu.seed.branchIds[1]);
    expect(eps.map((e) => e.id)).toEqual([out[name].endpointId]);
  }
  expect(changedCounts((await temp.stack.preview({ onOutput: capture })).changeSummary)).toEqual({});

  // Neither key in plain text: not in `pulumi stack export` as a user runs it (the Automation API's
  // exportStack adds --show-secrets), the state files, or anything the CLI printed. Booleans, so that
  // a failure never prints the state.
  const bin = temp.env.PATH.split(path.delimiter)[0];
  const exported = execFileSync(path.join(bin, "pulumi"), ["stack", "export", "--stack", "dev"], {
    cwd: temp.workDir,
    env: { ...process.env, ...temp.env },
    encoding: "utf8",
  });
  expect(exported).toContain("pulumi:providers:pulumi-nodejs");
  const stateFiles = readAll(temp.backendDir);
  for (const key of [first.apiKey, second.apiKey]) {
    expect({
      inExport: exported.includes(key),
      inState: stateFiles.includes(key),
      inOutput: transcript.includes(key),
    }).toEqual({ inExport: false, inState: false, inOutput: false });
  }

  await temp.stack.destroy({ onOutput: capture, onError: capture });
  for (const emu of [first, second]) {
    const api = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
    expect(await api.endpoints.listByBranch(emu.seed.projectId, emu.seed.branchIds[1])).toEqual([]);
  }
});

function readAll(dir: string): string {
  let text = "";
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    text += entry.isDirectory() ? readAll(p) : fs.readFileSync(p, "utf8");
  }
  return text;
}
