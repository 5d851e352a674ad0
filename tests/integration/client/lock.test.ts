/**
 * A change that meets a project's lock (423) against the emulator (issue 28): the client reads the
 * project's operations, waits until what runs is expected to end, looks again, and tries again once
 * nothing is pending (and the branch whose change just ended is not expected to go on), instead of
 * retrying into the lock every few dozen milliseconds.
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import { createNeonClient, type NeonClient } from "../../../provider/api";
import type { RetryInfo } from "../../../provider/http";

let emu: EmulatorHandle;

beforeAll(async () => {
  // A frozen clock: operations end only when the test moves it, so the lock is held until then.
  emu = await startEmulator({ port: 0, seed: 43, opMs: 300, frozenClock: true });
});
afterAll(async () => {
  await emu?.stop();
});

const count = (route: string) => emu.requestsByRoute()[route] ?? 0;

test("a 423 is retried once the running operation has ended: one read of the operations to time the wait, looks until the project is free and its last holder not expected to go on, no blind retries", async () => {
  const retries: RetryInfo[] = [];
  const api: NeonClient = createNeonClient({
    apiKey: emu.apiKey,
    baseUrl: emu.url,
    onRetry: (r) => {
      retries.push(r);
      // While the client waits, the running operation ends (on the emulator's clock).
      emu.clock.advance(1_000);
    },
  });
  const p = emu.seed.projectId;
  const first = await api.branches.create(p, { branch: { name: "lock-a" } });
  const posts = count("POST /projects/:project_id/branches");
  const reads = count("GET /projects/:project_id/operations");
  // The project runs first's create_branch: this create is answered 423 and waits for its end.
  const second = await api.branches.create(p, { branch: { name: "lock-b" } });
  expect(count("POST /projects/:project_id/branches") - posts).toBe(2);
  // The 423's reading, the look at its end that found the project free just after lock-a's branch
  // create (no run of the project known yet: its branch may go on, so the lock is left to it for a
  // moment), and the look after that moment.
  expect(count("GET /projects/:project_id/operations") - reads).toBe(3);
  emu.clock.advance(1_000);
  await api.waitForOperations(
    p,
    [...first.operations, ...second.operations].map((o) => o.id),
  );
  expect(retries.map((r) => [r.reason, r.look])).toEqual([
    ["locked", undefined],
    ["locked", true],
  ]);
  expect(retries[0].holder).toMatch(new RegExp(`project ${p} is running create_branch \\(operation `));
  expect(retries[1].holder).toBe(`project ${p} is free; the branch that held it is expected to go on`);
});
