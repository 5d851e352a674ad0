/**
 * End to end (issue 25): a branch's expiry under the real CLI, through both faces. An `expiresAt`
 * spelled with an offset is accepted and sent as UTC, and a refresh finds no drift in it. Once the
 * service has deleted the branch at its expiry (the emulator's clock moved past it): a preview
 * passes; the drift job (`preview --refresh --expect-no-changes`) exits 7 and says the branch
 * expired and will be created again; `refresh` passes and says so; `up` refuses the past time (on
 * the service's clock, which runs two days ahead of this machine's here) naming the remedy, and
 * sends no create.
 */
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { cliRun, pluginPath } from "./plugin-helpers";

useStepBudgets();

const DAY_MS = 86_400_000;
const POST_BRANCH = "POST /projects/:project_id/branches";

let emulator: EmulatorHandle;
let api: NeonClient;

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 30, seed: 37 });
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
});

afterAll(async () => {
  await emulator?.stop();
});

/** Runs `fn`, collecting what the CLI printed; resolves with that and the error (if it failed). */
async function run(
  fn: (out: { onOutput: (s: string) => void; onError: (s: string) => void }) => Promise<unknown>,
) {
  let out = "";
  const capture = (s: string) => {
    out += s;
  };
  const err = await fn({ onOutput: capture, onError: capture }).then(
    () => undefined,
    (e: Error) => e,
  );
  return { out: out + (err?.message ?? ""), failed: err !== undefined };
}

describe.each([
  [
    "TypeScript",
    "expiry-program",
    (config: Record<string, string>) => ({
      ...Object.fromEntries(Object.entries(config).map(([k, v]) => [`neon-e2e-expiry:${k}`, { value: v }])),
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    }),
    {},
  ],
  [
    "YAML",
    "expiry-yaml-program",
    (config: Record<string, string>) => ({
      ...Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v }])),
      "neoncompute:apiUrl": { value: emulator.url },
      "neoncompute:apiKey": { value: emulator.apiKey, secret: true },
    }),
    { PATH: pluginPath(), NEON_API_KEY: "" },
  ],
] as const)("%s", (face, program, config, env) => {
  test("an expired branch: preview passes, the drift job exits 7, refresh passes, up names the remedy", async () => {
    const { projectId } = emulator.seed;
    // A whole second a day ahead on the service's clock, spelled with an offset.
    const at = Math.floor((emulator.clock.now() + DAY_MS) / 1000) * 1000;
    const spelled = new Date(at + 3_600_000).toISOString().replace(".000Z", "+01:00");
    const temp = await createTempStack({
      programDir: path.join(__dirname, program),
      config: config({ projectId, branchName: `expiring-${face.toLowerCase()}`, expiresAt: spelled }),
      env: { ...env },
    });
    try {
      const up = await run((o) => temp.stack.up(o));
      expect(up).toMatchObject({ failed: false });
      const branchId = (await temp.stack.outputs()).branchId.value as string;
      const made = await api.branches.get(projectId, branchId);
      expect(made.expires_at && Date.parse(made.expires_at)).toBe(at);
      // The service's spelling of the same instant is no drift.
      const clean = await run((o) => temp.stack.preview({ ...o, refresh: true, expectNoChanges: true }));
      expect(clean).toMatchObject({ failed: false });

      emulator.clock.advance(2 * DAY_MS);
      await expect(api.branches.get(projectId, branchId)).rejects.toMatchObject({ kind: "not_found" });
      // The pull request's own preview (no refresh): the stack is not blocked by a date that passed.
      expect(await run((o) => temp.stack.preview(o))).toMatchObject({ failed: false });

      // The drift job's command, as docs/gitops.md runs it: exit 7 is drift, anything else a failed check.
      const drift = await cliRun(temp, [
        "preview",
        "--refresh",
        "--diff",
        "--expect-no-changes",
        "--color",
        "never",
      ]);
      expect(drift.code).toBe(7);
      expect(drift.out).toMatch(/reached its expiry .* and is gone/);
      expect(drift.out).toMatch(/will be created again/);
      expect(drift.out).toMatch(/\+ 1 to create/);

      const refreshed = await run((o) => temp.stack.refresh(o));
      expect(refreshed.failed).toBe(false);
      expect(refreshed.out).toMatch(/reached its expiry .* and is gone/);

      // The next up (no refresh: the state no longer has the branch) judges the passed date on the
      // service's clock and refuses it, naming the remedy, before anything is sent.
      const posts = emulator.requestsByRoute()[POST_BRANCH] ?? 0;
      const refused = await run((o) => temp.stack.up(o));
      expect(refused.failed).toBe(true);
      expect(refused.out).toMatch(/expiresAt .* is not in the future; choose a later time/);
      expect(emulator.requestsByRoute()[POST_BRANCH] ?? 0).toBe(posts);
    } finally {
      await temp.dispose();
    }
  });
});
