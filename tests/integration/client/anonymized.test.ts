/**
 * The anonymized-branch calls of the client against the emulator over real HTTP: the create with
 * rules and a start, the wait for a run (on the emulator's clock), the rules' replacement and a second
 * run, a failed run returned as such, and the statuses a caller keys on.
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import { createNeonClient, type MaskingRule, type NeonClient } from "../../../provider/api";
import { apiError } from "./helpers";

let emu: EmulatorHandle;
let api: NeonClient;
let project: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 56, opMs: 20, opDurations: { anonymize: 5000 } });
  // The client waits on the emulator's clock: a wait moves it instead of sleeping.
  api = createNeonClient({
    apiKey: emu.apiKey,
    baseUrl: emu.url,
    now: () => emu.clock.now(),
    sleep: async (ms) => void emu.clock.advance(ms),
  });
  project = emu.seed.projectId;
});
afterAll(() => emu?.stop());

const rule = (column: string, set: Pick<MaskingRule, "masking_function" | "masking_value">): MaskingRule => ({
  database_name: "neondb",
  schema_name: "public",
  table_name: "users",
  column_name: column,
  ...set,
});

test("a branch made with rules and a start is waited for until anonymized; new rules run when asked", async () => {
  const rules = [
    rule("email", { masking_function: "anon.fake_email()" }),
    rule("note", { masking_value: "'x'" }),
  ];
  const made = await api.anonymized.create(project, {
    branch_create: { branch: { name: "pr-56" }, endpoints: [{ type: "read_write" }] },
    masking_rules: rules,
    start_anonymization: true,
  });
  expect(made.branch.name).toBe("pr-56");
  expect(made.endpoints).toHaveLength(1);
  const branch = made.branch.id;
  await api.waitForOperations(project, made.operations);
  const seen: string[] = [];
  const done = await api.anonymized.waitForRun(project, branch, { onStatus: (s) => seen.push(s.state) });
  expect(done).toMatchObject({ state: "anonymized", branch_id: branch, last_run: { masked_columns: 2 } });
  expect(seen[0]).toBe("anonymizing");
  expect(await api.anonymized.getRules(project, branch)).toEqual(rules);

  const next = [rule("email", { masking_function: "anon.hash(email)" })];
  expect(await api.anonymized.setRules(project, branch, next)).toEqual(next);
  expect((await api.anonymized.status(project, branch)).state).toBe("anonymized");
  expect((await api.anonymized.start(project, branch)).state).toBe("anonymizing");
  // A second start while the run goes on: 409, a status a caller keys on.
  expect((await apiError(api.anonymized.start(project, branch))).status).toBe(409);
  const again = await api.anonymized.waitForRun(project, branch);
  expect(again).toMatchObject({ state: "anonymized", last_run: { masked_columns: 1 } });
});

test("a failed run is returned with its state; a branch that is not anonymized answers 404 and 400", async () => {
  const made = await api.anonymized.create(project, {
    masking_rules: [rule("email", { masking_function: "anon.no_such_function()" })],
    start_anonymization: true,
  });
  await api.waitForOperations(project, made.operations);
  const failed = await api.anonymized.waitForRun(project, made.branch.id);
  expect(failed.state).toBe("error");
  expect(failed.failed_at).toEqual(expect.any(String));

  const plain = emu.seed.branchIds[1];
  expect((await apiError(api.anonymized.status(project, plain))).kind).toBe("not_found");
  expect((await apiError(api.anonymized.getRules(project, plain))).kind).toBe("not_found");
  expect((await apiError(api.anonymized.start(project, plain))).status).toBe(400);
  expect((await apiError(api.anonymized.setRules(project, plain, []))).status).toBe(400);
});
