/**
 * End to end, the provider plugin installed the way Pulumi users install one: the release archive
 * (`npm run release`, built here from a packed tarball) installed with `pulumi plugin install resource
 * neoncompute <version> --file <archive>` into an empty `PULUMI_HOME`, then the YAML example's `up`
 * and `destroy` with no `pulumi-resource-neoncompute` on PATH — and so no "using … from $PATH" warning.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { buildPluginArchive, PACKAGE, PLUGIN } from "../../scripts/lib/package";
import { createTempStack, ensurePulumi, repoRoot, type TempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { useEmulator, useTranscript } from "../support/e2e";
import { stackOutputs } from "./plugin-helpers";

useStepBudgets();

const run = promisify(execFile);
// Read through `neon` inside tests: the getters throw before beforeAll started the emulator.
const neon = useEmulator({ opMs: 60, seed: 53 });
const transcript = useTranscript();
let work: string;
let temp: TempStack | undefined;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "neon-release-"));
});

afterAll(async () => {
  await temp?.dispose();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** PATH without any folder that holds the plugin's launcher (this checkout's bin/, node_modules/.bin). */
function pathWithoutPlugin(): string {
  const dirs = [ensurePulumi(), ...(process.env.PATH ?? "").split(path.delimiter)];
  return dirs.filter((d) => d !== "" && !fs.existsSync(path.join(d, PLUGIN))).join(path.delimiter);
}

test("pulumi plugin install --file <archive> into an empty PULUMI_HOME; the YAML example runs with no PATH warning", async () => {
  const archive = await buildPluginArchive(work);
  expect(path.basename(archive)).toMatch(
    new RegExp(
      `^${PLUGIN}-v${PACKAGE.version.replace(/\./g, "\\.")}-(linux|darwin)-(amd64|arm64)\\.tar\\.gz$`,
    ),
  );

  temp = await createTempStack({
    programDir: path.join(repoRoot, "examples/yaml"),
    config: {
      "neoncompute:apiUrl": { value: neon.emulator.url },
      "neoncompute:apiKey": { value: neon.emulator.apiKey, secret: true },
      projectId: { value: neon.emulator.seed.projectId },
      // Not the default branch: the emulator seeds a read_write compute there.
      branchId: { value: neon.emulator.seed.branchIds[1] },
    },
    env: { PATH: pathWithoutPlugin(), NEON_API_KEY: "" },
  });
  const env = { ...process.env, ...temp.env };
  const home = env.PULUMI_HOME as string;
  expect(fs.existsSync(path.join(home, "plugins"))).toBe(false);

  const pulumi = path.join(ensurePulumi(), "pulumi");
  await run(pulumi, ["plugin", "install", "resource", "neoncompute", PACKAGE.version, "--file", archive], {
    env,
  });
  const installed = path.join(home, "plugins", `resource-neoncompute-v${PACKAGE.version}`, PLUGIN);
  expect(fs.statSync(installed).mode & 0o111).not.toBe(0);
  const listed = await run(pulumi, ["plugin", "ls"], { env });
  expect(listed.stdout).toMatch(
    new RegExp(`neoncompute\\s+resource\\s+${PACKAGE.version.replace(/\./g, "\\.")}`),
  );

  const up = await temp.stack.up({ onOutput: transcript.capture, onError: transcript.capture });
  expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
  const out = await stackOutputs(temp);
  const ep = await neon.api.endpoints.get(neon.emulator.seed.projectId, String(out.endpointId));
  expect(ep).toMatchObject({ branch_id: neon.emulator.seed.branchIds[1], type: "read_only" });
  await temp.stack.destroy({ onOutput: transcript.capture, onError: transcript.capture });
  expect(transcript.text).not.toMatch(/from \$PATH/);
  expect(transcript.text).not.toContain(PLUGIN + " from");
});
