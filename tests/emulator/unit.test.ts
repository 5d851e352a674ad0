/** Pure parts of the emulator, without HTTP: engine timing, sizes, cursors, fault parsing, rng. */
import {
  createOperations,
  endOf,
  hasPending,
  materialize,
  phaseAt,
  suspendAfterMs,
  type EngineConfig,
} from "../../emulator/engine";
import { parseFaultHeader, rollStatusFault } from "../../emulator/faults";
import { Rng } from "../../emulator/rng";
import { COMPUTE_SIZES, sizeProblem } from "../../emulator/sizes";
import { Store } from "../../emulator/store";
import { formatCursor, parseCursor } from "../../emulator/routes/operations";
import type { Endpoint, OperationRecord } from "../../emulator/state";
import { isLoopback } from "../../emulator/server";

const rec = (fault: OperationRecord["sim"]["fault"], duration = 100): OperationRecord => ({
  op: {
    id: "00000000-0000-4000-8000-000000000000",
    project_id: "p",
    action: "start_compute",
    status: "scheduling",
    failures_count: 0,
    created_at: "",
    updated_at: "",
    total_duration_ms: 0,
  },
  sim: { created_us: 1_000_000, duration_ms: duration, fault },
});

describe("phaseAt", () => {
  it("none: scheduling before start, running during, finished after", () => {
    const r = rec("none");
    expect(phaseAt(r, 2000, 1500).status).toBe("scheduling");
    expect(phaseAt(r, 2000, 2000).status).toBe("running");
    expect(phaseAt(r, 2000, 2099).status).toBe("running");
    expect(phaseAt(r, 2000, 2100)).toEqual({ status: "finished", since: 2100, failures_count: 0 });
    expect(endOf(r, 2000)).toBe(2100);
  });

  it("failed: running, failed, running again with retry_at, finished with failures_count 1", () => {
    const r = rec("failed");
    expect(phaseAt(r, 0, 50).status).toBe("running");
    expect(phaseAt(r, 0, 150)).toMatchObject({
      status: "failed",
      failures_count: 1,
      error: expect.any(String),
    });
    expect(phaseAt(r, 0, 250)).toMatchObject({ status: "running", failures_count: 1, retry_at: 200 });
    expect(phaseAt(r, 0, 300)).toMatchObject({ status: "finished", failures_count: 1, retry_at: 200 });
    expect(endOf(r, 0)).toBe(300);
  });

  it("error and cancelled end at start + duration", () => {
    expect(phaseAt(rec("error"), 0, 100)).toMatchObject({
      status: "error",
      error: expect.stringMatching(/failed/),
    });
    expect(phaseAt(rec("cancelled"), 0, 49).status).toBe("running");
    expect(phaseAt(rec("cancelled"), 0, 50).status).toBe("cancelling");
    expect(phaseAt(rec("cancelled"), 0, 100).status).toBe("cancelled");
  });
});

describe("materialize", () => {
  const cfg: EngineConfig = {
    opMs: 100,
    opDurations: {},
    opJitter: 0,
    opFailRate: 0,
    opErrorRate: 0,
    opCancelRate: 0,
    checkAvailability: false,
    checkIntervalMs: 60_000,
  };

  it("runs a project's operations one at a time, in creation order", () => {
    const store = Store.seeded(1, "launch");
    const p = store.state.seed_info.projectId;
    const t = store.now();
    const [a, b, c] = createOperations(
      store,
      cfg,
      p,
      [{ action: "apply_config" }, { action: "apply_config" }, { action: "apply_config" }],
      "none",
      t,
    );
    materialize(store, cfg, p, t + 150);
    expect([a.op.status, b.op.status, c.op.status]).toEqual(["finished", "running", "scheduling"]);
    expect(hasPending(store, p)).toBe(true);
    materialize(store, cfg, p, t + 300);
    expect(c.op.status).toBe("finished");
    expect(c.op.updated_at).toBe(new Date(t + 300).toISOString());
    expect(hasPending(store, p)).toBe(false);
  });

  it("runs the first operations of a project that had none (a new project)", () => {
    const store = Store.seeded(1, "launch");
    const t = store.now();
    const [a, b] = createOperations(
      store,
      cfg,
      "new-project-1",
      [{ action: "create_timeline" }, { action: "start_compute" }],
      "none",
      t,
    );
    materialize(store, cfg, "new-project-1", t);
    expect([a.op.status, b.op.status]).toEqual(["running", "scheduling"]);
    expect(hasPending(store, "new-project-1")).toBe(true);
    materialize(store, cfg, "new-project-1", t + 200);
    expect([a.op.status, b.op.status]).toEqual(["finished", "finished"]);
  });

  it("suspends an active compute once its timeout has passed (0 = 300 s, -1 = never)", () => {
    expect(suspendAfterMs({ suspend_timeout_seconds: 0 } as Endpoint)).toBe(300_000);
    expect(suspendAfterMs({ suspend_timeout_seconds: 60 } as Endpoint)).toBe(60_000);
    expect(suspendAfterMs({ suspend_timeout_seconds: -1 } as Endpoint)).toBeUndefined();
  });
});

describe("sizes", () => {
  it("offers 0.25, 0.5, 1–16 and 18–56 step 2", () => {
    expect(COMPUTE_SIZES).toHaveLength(2 + 16 + 20);
    expect(COMPUTE_SIZES).toContain(56);
    expect(COMPUTE_SIZES).not.toContain(17);
    expect(COMPUTE_SIZES).not.toContain(0.75);
  });

  it.each([
    [0.25, 16, "launch", undefined],
    [56, 56, "launch", undefined],
    [0.25, 2, "free", undefined],
    [1, 17, "launch", /17 is not an offered size/],
    [2, 1, "launch", /greater than/],
    [16, 18, "launch", /fixed-size only/],
    [1, 4, "free", /free plan limit of 2 CU/],
    [4, 4, "free", /free plan/],
  ] as const)("min %s max %s on %s", (min, max, plan, problem) => {
    const p = sizeProblem(min, max, plan);
    if (problem) expect(p).toMatch(problem);
    else expect(p).toBeUndefined();
  });
});

describe("operation cursors", () => {
  it("round-trips microseconds through an ISO timestamp", () => {
    const us = Date.parse("2026-11-21T10:00:00.123Z") * 1000 + 456;
    const c = formatCursor(us);
    expect(c).toBe("2026-11-21T10:00:00.123456Z");
    expect(parseCursor(c)).toBe(us);
    expect(parseCursor("2026-11-21T10:00:00Z")).toBe(Date.parse("2026-11-21T10:00:00Z") * 1000);
    expect(parseCursor("2026-11-21T10:00:00.5Z")).toBe(Date.parse("2026-11-21T10:00:00.500Z") * 1000);
    expect(parseCursor("nope")).toBeUndefined();
  });
});

describe("X-Emulator-Fault parsing", () => {
  it("parses each directive", () => {
    expect(parseFaultHeader(undefined)).toBeUndefined();
    expect(parseFaultHeader("status=429;retry-after=2, latency=10, drop-after-commit, op=error")).toEqual({
      status: 429,
      retryAfter: 2,
      latencyMs: 10,
      dropAfterCommit: true,
      op: "error",
    });
  });

  it.each(["status=418", "latency=-1", "latency=70000", "op=slow", "status=423;foo=1", "boom"])(
    "refuses %s",
    (h) => {
      expect(() => parseFaultHeader(h)).toThrow(/X-Emulator-Fault/);
    },
  );
});

describe("seeded randomness", () => {
  it("repeats under the same seed", () => {
    const a = new Rng(5);
    const b = new Rng(5);
    expect([a.uuid(), a.hex(8), a.next()]).toEqual([b.uuid(), b.hex(8), b.next()]);
    expect(new Rng(1).uuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("rolls status faults by rate", () => {
    const rng = new Rng(3);
    expect(rollStatusFault({}, rng)).toBeUndefined();
    expect(rollStatusFault({ rate423: 1 }, rng)).toBe(423);
    expect(rollStatusFault({ rate503: 1 }, rng)).toBe(503);
    const counts = new Map<number | undefined, number>();
    for (let i = 0; i < 1000; i++) {
      const s = rollStatusFault({ rate500: 0.5 }, rng);
      counts.set(s, (counts.get(s) ?? 0) + 1);
    }
    expect(counts.get(500)).toBeGreaterThan(400);
    expect(counts.get(500)).toBeLessThan(600);
  });
});

describe("admin route guard", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["192.0.2.2", false],
    ["::ffff:192.0.2.2", false],
    ["fd00::2", false],
    [undefined, false],
  ])("%s is loopback: %s", (addr, expected) => {
    expect(isLoopback(addr)).toBe(expected);
  });
});
