/**
 * The operation waiter against the emulator: success, failed-then-retried,
 * error, cancelled, failed past the grace period, and one shared poll for
 * many waits.
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import { OperationError, type Operation } from "../../../provider/api";
import type { WaitProgress } from "../../../provider/operations";
import { clientFor, raw } from "./helpers";

let emu: EmulatorHandle;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 41, opMs: 150 });
});
afterAll(async () => {
  await emu?.stop();
});
beforeEach(() => emu.reset());

async function createWith(fault: string | undefined, branchIndex = 1) {
  const { api } = clientFor(emu, { fault });
  return api.endpoints.create(emu.seed.projectId, {
    branch_id: emu.seed.branchIds[branchIndex],
    type: "read_write",
  });
}

async function operationError(p: Promise<unknown>): Promise<OperationError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(OperationError);
  return e as OperationError;
}

test("waits for a create's operation and reports progress", async () => {
  const { api } = clientFor(emu);
  const r = await createWith(undefined);
  const progress: WaitProgress[] = [];
  const ops = await api.waitForOperations(
    emu.seed.projectId,
    r.operations.map((o) => o.id),
    { onProgress: (p) => progress.push(p) },
  );
  expect(ops.map((o) => o.status)).toEqual(["finished"]);
  expect(progress.map((p) => p.status)).toContain("finished");
  expect(progress[0]).toMatchObject({ operationId: r.operations[0].id, action: "start_compute" });
  expect((await api.endpoints.get(emu.seed.projectId, r.endpoint.id)).current_state).toBe("active");
});

test("failed → running → finished: the wait succeeds", async () => {
  // Its own emulator with 5 s operations, and a client whose sleeps move the emulator's clock instead
  // of waiting: each phase (running, failed for 5 s, running again, finished) is polled at an emulator
  // time inside it, however slowly this machine runs (5 s is wider than the waiter's largest interval).
  const slow = await startEmulator({ port: 0, seed: 43, opMs: 5000 });
  try {
    const { api } = clientFor(slow, {
      now: () => slow.clock.now(),
      sleep: async (ms) => slow.clock.advance(ms),
    });
    const r = await clientFor(slow, { fault: "op=failed" }).api.endpoints.create(slow.seed.projectId, {
      branch_id: slow.seed.branchIds[1],
      type: "read_write",
    });
    const progress: string[] = [];
    const [op] = await api.waitForOperations(slow.seed.projectId, [r.operations[0].id], {
      onProgress: (p) => progress.push(p.status),
    });
    expect(op).toMatchObject({ status: "finished", failures_count: 1 });
    expect(progress).toContain("failed");
    expect(progress.indexOf("failed")).toBeLessThan(progress.lastIndexOf("running"));
  } finally {
    await slow.stop();
  }
});

test("failed longer than the grace period fails the wait", async () => {
  // Operations of 30 s (emulator time): the retried operation stays `failed` from 30 s to 60 s after
  // its start. The emulator's clock is moved into the middle of that window, so the waiter sees it
  // failed for far longer than its 50 ms grace however slow the machine is (no race with real time).
  const slow = await startEmulator({ port: 0, seed: 41, opMs: 30_000 });
  try {
    const { api } = clientFor(slow, { fault: "op=failed" });
    const r = await api.endpoints.create(slow.seed.projectId, {
      branch_id: slow.seed.branchIds[1],
      type: "read_write",
    });
    slow.clock.advance(45_000);
    const err = await operationError(
      clientFor(slow).api.waitForOperations(slow.seed.projectId, [r.operations[0].id], { failedGraceMs: 50 }),
    );
    expect(err.reason).toBe("failed_too_long");
    expect(err).toMatchObject({
      operationId: r.operations[0].id,
      action: "start_compute",
      status: "failed",
      failuresCount: 1,
    });
    expect(err.message).toContain("emulated transient failure");
  } finally {
    await slow.stop();
  }
});

test("error fails the wait, naming the operation and its error text", async () => {
  const { api } = clientFor(emu);
  const r = await createWith("op=error");
  const err = await operationError(api.waitForOperations(emu.seed.projectId, [r.operations[0].id]));
  expect(err).toMatchObject({
    reason: "error",
    operationId: r.operations[0].id,
    action: "start_compute",
    status: "error",
  });
  expect(err.message).toMatch(
    /^Failed to wait for operation [0-9a-f-]+ \(start_compute\) of project [a-z0-9-]+: it ended in error: emulated error/,
  );
});

test("cancelled fails the wait", async () => {
  const { api } = clientFor(emu);
  const r = await createWith("op=cancelled");
  const err = await operationError(api.waitForOperations(emu.seed.projectId, [r.operations[0].id]));
  expect(err.reason).toBe("cancelled");
});

test("an unknown operation id fails the wait as not found", async () => {
  const { api } = clientFor(emu);
  const err = await operationError(
    api.waitForOperations(emu.seed.projectId, ["00000000-0000-4000-8000-000000000000"]),
  );
  expect(err.reason).toBe("not_found");
});

test("the deadline ends a wait", async () => {
  const { api } = clientFor(emu);
  const r = await createWith(undefined);
  const err = await operationError(
    api.waitForOperations(emu.seed.projectId, [r.operations[0].id], { deadlineMs: 60 }),
  );
  expect(err.reason).toBe("deadline");
});

test("twenty waits on twenty operations of one project share their polls", async () => {
  const p = emu.seed.projectId;
  // One request that queues twenty start_compute operations: a branch with twenty computes.
  const endpoints = [{ type: "read_write" }, ...Array.from({ length: 19 }, () => ({ type: "read_only" }))];
  const branch = await raw<{ operations: Operation[] }>(emu, "POST", `/projects/${p}/branches`, {
    branch: { name: "many" },
    endpoints,
  });
  expect(branch.status).toBe(201);
  const starts = branch.data.operations.filter((o) => o.action === "start_compute").map((o) => o.id);
  expect(starts).toHaveLength(20);

  // Twenty callers, one client: one poll per tick serves them all.
  const { api: shared } = clientFor(emu);
  const before = shared.requestCount();
  await Promise.all(starts.map((id) => shared.waitForOperations(p, [id])));
  const sharedRequests = shared.requestCount() - before;

  // The same twenty operations awaited by twenty separate clients (no sharing) cost far more.
  // (Ratios of request rates are measured by bench/wait.ts; this only pins the sharing.)
  emu.reset();
  const again = await raw<{ operations: Operation[] }>(emu, "POST", `/projects/${p}/branches`, {
    branch: { name: "many" },
    endpoints,
  });
  const starts2 = again.data.operations.filter((o) => o.action === "start_compute").map((o) => o.id);
  const clients = starts2.map(() => clientFor(emu).api);
  await Promise.all(starts2.map((id, i) => clients[i].waitForOperations(p, [id])));
  const separateRequests = clients.reduce((n, c) => n + c.requestCount(), 0);

  expect(sharedRequests).toBeLessThan(separateRequests / 2);
});
