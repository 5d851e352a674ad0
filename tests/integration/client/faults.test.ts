/**
 * The client against the emulator's faults: 423 storms, 429 with
 * Retry-After, 503, 500, timeouts and connections dropped after commit.
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import { apiError, clientFor } from "./helpers";

let emu: EmulatorHandle;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 11, opMs: 60 });
});
afterAll(async () => {
  await emu?.stop();
});
beforeEach(() => {
  emu.reset();
  emu.setFaults({});
});

test("423 storm: ten creates in one project at once all get through and finish", async () => {
  const { api, retries } = clientFor(emu);
  const projectId = emu.seed.projectId;
  const branches = emu.seed.branchIds.slice(1, 11);
  const results = await Promise.all(
    branches.map(async (branchId) => {
      const r = await api.endpoints.create(projectId, { branch_id: branchId, type: "read_write" });
      await api.waitForOperations(
        projectId,
        r.operations.map((o) => o.id),
      );
      return r.endpoint;
    }),
  );
  expect(new Set(results.map((e) => e.branch_id))).toEqual(new Set(branches));
  expect(retries.some((r) => r.reason === "locked" && r.status === 423)).toBe(true);
  expect(retries.filter((r) => r.reason === "locked").every((r) => r.delayMs <= 2_000)).toBe(true);
  const all = await api.endpoints.list(projectId);
  expect(all.filter((e) => branches.includes(e.branch_id)).every((e) => e.current_state === "active")).toBe(
    true,
  );
});

test("server-wide 423 and 503 faults are ridden out on every method", async () => {
  emu.setFaults({ rate423: 0.4, rate503: 0.2 });
  const { api, retries } = clientFor(emu);
  const projectId = emu.seed.projectId;
  const r = await api.endpoints.create(projectId, { branch_id: emu.seed.branchIds[1], type: "read_write" });
  await api.waitForOperations(
    projectId,
    r.operations.map((o) => o.id),
  );
  for (let i = 0; i < 5; i++) await api.endpoints.get(projectId, r.endpoint.id);
  expect(retries.some((x) => x.status === 423)).toBe(true);
  expect(retries.some((x) => x.status === 503)).toBe(true);
});

test("429 waits for its Retry-After and then succeeds", async () => {
  emu.setFaults({ rate429: 0.5, retryAfterSeconds: 1 });
  const { api, retries } = clientFor(emu);
  const started = Date.now();
  for (let i = 0; i < 4; i++) await api.endpoints.list(emu.seed.projectId);
  const waits = retries.filter((r) => r.status === 429);
  expect(waits.length).toBeGreaterThan(0);
  for (const w of waits) expect(w.delayMs).toBeGreaterThanOrEqual(1_000);
  expect(Date.now() - started).toBeGreaterThanOrEqual(1_000 * waits.length);
});

test("429 per request with retry-after=2: the delay is honoured, the final error says rate_limited", async () => {
  const { api, retries } = clientFor(emu, {
    fault: "status=429;retry-after=2",
    retryLimits: { rate_limited: 2 },
  });
  const before = emu.requestCount();
  const started = Date.now();
  const err = await apiError(api.endpoints.list(emu.seed.projectId));
  expect(err.kind).toBe("rate_limited");
  expect(err.status).toBe(429);
  expect(emu.requestCount() - before).toBe(2);
  expect(retries[0].delayMs).toBeGreaterThanOrEqual(2_000);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
});

test("503 per request is retried, then surfaces as kind server", async () => {
  const { api } = clientFor(emu, { fault: "status=503", retryLimits: { unavailable: 3 } });
  const before = emu.requestCount();
  const err = await apiError(
    api.endpoints.create(emu.seed.projectId, { branch_id: emu.seed.branchIds[1], type: "read_write" }),
  );
  expect(err.kind).toBe("server");
  expect(err.status).toBe(503);
  expect(emu.requestCount() - before).toBe(3);
  expect(err.message).toMatch(
    /^Failed to create a read_write compute on branch br-[a-z0-9-]+ in project [a-z0-9-]+: .*\(HTTP 503, code [A-Z_]+, request id .+, 3 attempts\)\./,
  );
});

test("500 is not retried", async () => {
  const { api } = clientFor(emu, { fault: "status=500" });
  const before = emu.requestCount();
  const err = await apiError(api.endpoints.list(emu.seed.projectId));
  expect(err.kind).toBe("server");
  expect(emu.requestCount() - before).toBe(1);
});

test("423 that never clears ends at the retry deadline with a message saying so", async () => {
  const { api } = clientFor(emu, { fault: "status=423", retryDeadlineMs: 1_500 });
  const err = await apiError(
    api.endpoints.create(emu.seed.projectId, { branch_id: emu.seed.branchIds[1], type: "read_write" }),
  );
  expect(err.kind).toBe("locked");
  expect(err.deadlineExceeded).toBe(true);
  expect(err.message).toContain("the retry deadline of 2 s passed");
});

test("a create whose connection drops after commit is not repeated; the caller finds the compute", async () => {
  const { api: dropping } = clientFor(emu, { fault: "drop-after-commit" });
  const { api } = clientFor(emu);
  const projectId = emu.seed.projectId;
  const branchId = emu.seed.branchIds[2];
  const before = emu.requestCount();
  const err = await apiError(
    dropping.endpoints.create(projectId, { branch_id: branchId, type: "read_write" }),
  );
  expect(emu.requestCount() - before).toBe(1);
  expect(err.kind).toBe("network");
  expect(err.mayHaveReachedServer).toBe(true);
  expect(err.message).toContain("may have reached the service");
  const onBranch = await api.endpoints.listByBranch(projectId, branchId);
  expect(onBranch).toHaveLength(1);
});

test("a PATCH whose connection drops after commit reports mayHaveReachedServer, and the change is there", async () => {
  const { api } = clientFor(emu);
  const projectId = emu.seed.projectId;
  const r = await api.endpoints.create(projectId, { branch_id: emu.seed.branchIds[3], type: "read_write" });
  await api.waitForOperations(
    projectId,
    r.operations.map((o) => o.id),
  );
  const { api: dropping } = clientFor(emu, { fault: "drop-after-commit" });
  const err = await apiError(
    dropping.endpoints.update(projectId, r.endpoint.id, { suspend_timeout_seconds: 600 }),
  );
  expect(err.mayHaveReachedServer).toBe(true);
  expect((await api.endpoints.get(projectId, r.endpoint.id)).suspend_timeout_seconds).toBe(600);
});

test("an answer slower than the request timeout is a timeout, retried for GET", async () => {
  const { api, retries } = clientFor(emu, {
    fault: "latency=400",
    timeoutMs: 100,
    retryLimits: { network: 2 },
  });
  const err = await apiError(api.endpoints.list(emu.seed.projectId));
  expect(err.kind).toBe("timeout");
  expect(err.attempts).toBe(2);
  expect(retries).toHaveLength(1);
});

test("unknown endpoint: not_found, no retry", async () => {
  const { api } = clientFor(emu);
  const err = await apiError(api.endpoints.get(emu.seed.projectId, "ep-does-not-exist"));
  expect(err.kind).toBe("not_found");
  expect(err.attempts).toBe(1);
});

test("deleting a compute that is already gone answers 204 → undefined", async () => {
  const { api } = clientFor(emu);
  const projectId = emu.seed.projectId;
  const r = await api.endpoints.create(projectId, { branch_id: emu.seed.branchIds[4], type: "read_write" });
  await api.waitForOperations(
    projectId,
    r.operations.map((o) => o.id),
  );
  const del = await api.endpoints.delete(projectId, r.endpoint.id);
  expect(del?.endpoint.id).toBe(r.endpoint.id);
  if (del && del.operations.length)
    await api.waitForOperations(
      projectId,
      del.operations.map((o) => o.id),
    );
  // The API answers 204 for a compute that no longer exists (the emulator does so too).
  await expect(api.endpoints.delete(projectId, r.endpoint.id)).resolves.toBeUndefined();
});
