/**
 * A change that meets a project's lock (423) against the emulator (issue 28): the client reads the
 * project's operations, waits until what runs is expected to end, looks again, and tries again once
 * nothing is pending, instead of retrying into the lock every few dozen milliseconds.
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

test("a 423 is retried once the running operation has ended: one read of the operations to time the wait, one look before the retry, no blind retries", async () => {
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
  const patches = count("PATCH /projects/:project_id");
  const reads = count("GET /projects/:project_id/operations");
  // The project runs first's create_branch: this update is answered 423 and waits for its end. (A
  // change that names no branch: no branch's run is expected to go on after the end, so nothing here
  // depends on how much real time the looks take — a branch's create could be left a grace.)
  await api.projects.update(p, { name: "lock-renamed" });
  expect(count("PATCH /projects/:project_id") - patches).toBe(2);
  // The 423's reading, and the look at its end that found the project free.
  expect(count("GET /projects/:project_id/operations") - reads).toBe(2);
  emu.clock.advance(1_000);
  await api.waitForOperations(
    p,
    first.operations.map((o) => o.id),
  );
  // One wait for the operation's end (and, when that wait was under a second, one more until a
  // second after the 423's reading, which names no holder: the look comes no sooner).
  expect(retries.every((r) => r.reason === "locked")).toBe(true);
  const held = retries.filter((r) => r.holder !== undefined);
  expect(held).toHaveLength(1);
  expect(held[0].holder).toMatch(new RegExp(`project ${p} is running create_branch \\(operation `));
  expect(retries.length).toBeLessThanOrEqual(2);
});
