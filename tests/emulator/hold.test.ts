/**
 * `holdAnswers`: the emulator carries out a request and keeps its answer back — the window in which
 * a killed client loses the answer of a change the service has made (issue 20's kill tests use it).
 */
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";

let emulator: EmulatorHandle;
let api: NeonClient;

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 20, seed: 5 });
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
});

afterAll(async () => {
  await emulator.stop();
});

test("the change is made at once, its answer only on release; other routes answer meanwhile", async () => {
  const { projectId, branchIds } = emulator.seed;
  const hold = emulator.holdAnswers("POST /projects/:project_id/endpoints");
  let answered = false;
  const create = api.endpoints
    .create(projectId, { branch_id: branchIds[1], type: "read_only", name: "held" })
    .then((r) => {
      answered = true;
      return r;
    });
  await hold.received();
  expect(hold.held).toBe(1);
  // The service has it: a listing (another route) shows it while the create's answer is held.
  const listed = (await api.endpoints.listByBranch(projectId, branchIds[1])).filter((e) => e.name === "held");
  expect(listed).toHaveLength(1);
  expect(answered).toBe(false);
  hold.release();
  const result = await create;
  expect(result.endpoint.id).toBe(listed[0].id);
  // Released: later requests of the route are answered at once.
  const second = await api.endpoints.create(projectId, { branch_id: branchIds[1], type: "read_only" });
  expect(hold.held).toBe(2);
  await api.waitForOperations(projectId, [...result.operations, ...second.operations]);
});
