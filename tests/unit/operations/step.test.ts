import {
  decide,
  DEFAULT_SCHEDULE,
  durationWindow,
  initialState,
  observe,
  step,
  windowInterval,
  windowOf,
  type Decision,
  type DurationWindow,
  type Observation,
  type WaitState,
  COMPUTE_ACTIONS,
} from "../../../provider/operations";

const DEADLINE = 600_000;
const GRACE = 60_000;

function start(ids = ["op-1"], now = 0): WaitState {
  return initialState("p-1", ids, now, { deadlineMs: DEADLINE, failedGraceMs: GRACE });
}

function seen(
  id: string,
  status: string,
  extra: { action?: string; failures_count?: number; error?: string } = {},
): Observation {
  return {
    id,
    op: {
      id,
      action: extra.action ?? "start_compute",
      status,
      failures_count: extra.failures_count ?? 0,
      error: extra.error,
    },
  };
}

/** Feeds `[time, status]` observations of one operation; returns every decision. */
function play(
  seq: [number, string, { failures_count?: number; error?: string }?][],
  s = start(),
): { decisions: Decision[]; state: WaitState } {
  const decisions: Decision[] = [];
  let state = s;
  for (const [now, status, extra] of seq) {
    const r = step(state, { now, observations: [seen("op-1", status, extra)] });
    state = r.state;
    decisions.push(r.decision);
  }
  return { decisions, state };
}

const last = <T>(xs: T[]) => xs[xs.length - 1];

describe("status sequences", () => {
  test("running → finished: done", () => {
    const { decisions } = play([
      [100, "running"],
      [250, "running"],
      [500, "finished"],
    ]);
    expect(decisions.slice(0, 2).every((d) => d.type === "poll")).toBe(true);
    expect(last(decisions)).toEqual({ type: "done" });
  });

  test("finished at the first look: done", () => {
    expect(play([[100, "finished"]]).decisions).toEqual([{ type: "done" }]);
  });

  test("skipped counts as success", () => {
    expect(play([[100, "skipped"]]).decisions).toEqual([{ type: "done" }]);
  });

  test("scheduling → running → finished: done", () => {
    const { decisions } = play([
      [100, "scheduling"],
      [300, "running"],
      [900, "finished"],
    ]);
    expect(decisions.map((d) => d.type)).toEqual(["poll", "poll", "done"]);
  });

  test("failed is not terminal: failed → running → finished is done", () => {
    const { decisions, state } = play([
      [100, "running"],
      [1_000, "failed", { failures_count: 1, error: "transient" }],
      [5_000, "failed", { failures_count: 1 }],
      [10_000, "running", { failures_count: 1 }],
      [20_000, "finished", { failures_count: 1 }],
    ]);
    expect(decisions.map((d) => d.type)).toEqual(["poll", "poll", "poll", "poll", "done"]);
    expect(state.ops["op-1"].failedSince).toBeUndefined();
  });

  test("failed → running → failed again restarts the grace period", () => {
    const { decisions } = play([
      [1_000, "failed", { failures_count: 1 }],
      [50_000, "running", { failures_count: 1 }],
      [55_000, "failed", { failures_count: 2 }],
      [100_000, "failed", { failures_count: 2 }],
    ]);
    expect(decisions.every((d) => d.type === "poll")).toBe(true);
  });

  test("failed past the grace period fails, naming the operation", () => {
    const { decisions, state } = play([
      [1_000, "failed", { failures_count: 3, error: "compute did not start" }],
      [30_000, "failed", { failures_count: 3 }],
      [61_000, "failed", { failures_count: 3 }],
    ]);
    expect(decisions.slice(0, 2).every((d) => d.type === "poll")).toBe(true);
    expect(last(decisions)).toEqual({ type: "fail", reason: "failed_too_long", operationId: "op-1" });
    expect(state.ops["op-1"]).toMatchObject({
      failuresCount: 3,
      error: "compute did not start",
      status: "failed",
    });
  });

  test("while failed, a poll is scheduled no later than the end of the grace period", () => {
    const { decisions } = play([
      [1_000, "failed", { failures_count: 1 }],
      [58_000, "failed"],
    ]);
    const d = last(decisions);
    expect(d.type).toBe("poll");
    if (d.type === "poll") expect(58_000 + d.afterMs).toBeLessThanOrEqual(61_000);
  });

  test("error fails at once, keeping the error text", () => {
    const { decisions, state } = play([
      [100, "running"],
      [400, "error", { error: "out of capacity" }],
    ]);
    expect(last(decisions)).toEqual({ type: "fail", reason: "error", operationId: "op-1" });
    expect(state.ops["op-1"].error).toBe("out of capacity");
  });

  test("cancelling → cancelled fails", () => {
    const { decisions } = play([
      [100, "cancelling"],
      [400, "cancelled"],
    ]);
    expect(decisions.map((d) => d.type)).toEqual(["poll", "fail"]);
    expect(last(decisions)).toMatchObject({ reason: "cancelled" });
  });

  test("an unknown status keeps the wait going", () => {
    expect(play([[100, "paused_by_new_api"]]).decisions[0].type).toBe("poll");
  });

  test("the deadline fails the wait and no poll is scheduled past it", () => {
    let state = start();
    let now = 0;
    for (;;) {
      const r = step(state, { now, observations: [seen("op-1", "running")] });
      state = r.state;
      if (r.decision.type !== "poll") {
        expect(r.decision).toEqual({ type: "fail", reason: "deadline", operationId: "op-1" });
        expect(now).toBe(DEADLINE);
        break;
      }
      expect(now + r.decision.afterMs).toBeLessThanOrEqual(DEADLINE);
      now += r.decision.afterMs;
    }
  });

  test("an operation that does not exist fails the wait", () => {
    const r = step(start(), { now: 100, observations: [{ id: "op-1", notFound: true }] });
    expect(r.decision).toEqual({ type: "fail", reason: "not_found", operationId: "op-1" });
  });
});

describe("several operations", () => {
  test("done only when all are done; the chain order does not matter", () => {
    let s = start(["a", "b"]);
    let r = step(s, { now: 100, observations: [seen("a", "running"), seen("b", "scheduling")] });
    expect(r.decision.type).toBe("poll");
    s = r.state;
    r = step(s, { now: 500, observations: [seen("a", "finished"), seen("b", "running")] });
    expect(r.decision.type).toBe("poll");
    r = step(r.state, { now: 900, observations: [seen("b", "skipped")] });
    expect(r.decision).toEqual({ type: "done" });
  });

  test("one error fails the wait although others still run", () => {
    const r = step(start(["a", "b"]), { now: 100, observations: [seen("a", "running"), seen("b", "error")] });
    expect(r.decision).toEqual({ type: "fail", reason: "error", operationId: "b" });
  });

  test("duplicate ids are awaited once", () => {
    expect(start(["a", "a", "b"]).ids).toEqual(["a", "b"]);
  });

  test("observations of other operations are ignored (one poll feeds many waits)", () => {
    const s = start(["a"]);
    const next = observe(s, 100, [seen("zzz", "finished")]);
    expect(next).toBe(s);
    expect(decide(next, 100)).toMatchObject({ type: "poll" });
  });

  test("the state is plain data that survives JSON", () => {
    const { state } = play([
      [100, "running"],
      [300, "failed", { failures_count: 1 }],
    ]);
    const copy = JSON.parse(JSON.stringify(state)) as WaitState;
    expect(decide(copy, 400)).toEqual(decide(state, 400));
  });
});

describe("poll timing without a duration estimate", () => {
  test("first look after ~100 ms, then the interval grows ×1.5 up to 5 s", () => {
    const s = start();
    expect(decide(s, 0)).toEqual({ type: "poll", afterMs: DEFAULT_SCHEDULE.firstPollMs });
    let state = s;
    let now = DEFAULT_SCHEDULE.firstPollMs;
    const intervals: number[] = [];
    while (now < 120_000) {
      const r = step(state, { now, observations: [seen("op-1", "running")] });
      state = r.state;
      if (r.decision.type !== "poll") throw new Error("unexpected");
      intervals.push(r.decision.afterMs);
      now += r.decision.afterMs;
    }
    expect(intervals[0]).toBeLessThanOrEqual(100);
    for (let i = 1; i < intervals.length; i++) {
      expect(intervals[i]).toBeGreaterThanOrEqual(intervals[i - 1]);
      expect(intervals[i]).toBeLessThanOrEqual(Math.max(100, intervals[i - 1] * 1.5 + 1));
    }
    expect(Math.max(...intervals)).toBe(5_000);
    // Few requests for a long wait: ~2 minutes cost about 35 polls.
    expect(intervals.length).toBeLessThan(40);
  });
});

describe("poll timing with a duration estimate", () => {
  const windows: Record<string, DurationWindow> = {
    start_compute: { lo: 7_000, hi: 13_000, median: 10_000, samples: 10 },
  };
  const at = (state: WaitState, now: number) => {
    const d = decide(state, now, windows);
    if (d.type !== "poll") throw new Error("expected a poll");
    return now + d.afterMs;
  };

  test("sleeps to the window start, then polls densely, then backs off gently", () => {
    let s = start();
    s = observe(s, 100, [seen("op-1", "running")]);
    expect(at(s, 100)).toBe(7_000);
    s = observe(s, 7_000, [seen("op-1", "running")]);
    const inWindow = at(s, 7_000) - 7_000;
    expect(inWindow).toBe(windowInterval(windows.start_compute));
    expect(inWindow).toBe(500);
    // Past the window the interval grows, but starts from the window's pace.
    s = observe(s, 14_000, [seen("op-1", "running")]);
    const late = at(s, 14_000) - 14_000;
    expect(late).toBeGreaterThanOrEqual(500);
    expect(late).toBeLessThan(1_000);
    s = observe(s, 30_000, [seen("op-1", "running")]);
    expect(at(s, 30_000) - 30_000).toBeGreaterThan(late);
    expect(at(s, 30_000) - 30_000).toBeLessThanOrEqual(5_000);
  });

  test("a long sleep to the window (30 s operations) gets one check halfway", () => {
    const long = { start_compute: { lo: 20_000, hi: 40_000, median: 30_000, samples: 5 } };
    let s = start();
    s = observe(s, 100, [seen("op-1", "running")]);
    expect(decide(s, 100, long)).toEqual({ type: "poll", afterMs: 9_900 });
    s = observe(s, 10_000, [seen("op-1", "running")]);
    expect(decide(s, 10_000, long)).toEqual({ type: "poll", afterMs: 10_000 });
  });

  test("a 10 s (±30 %) operation costs fewer polls on average than polling every second", () => {
    let ours = 0;
    let ref = 0;
    const finishes = Array.from({ length: 25 }, (_, i) => 7_000 + i * 250);
    for (const finish of finishes) {
      let s = start();
      let now = 100;
      for (;;) {
        ours++;
        const r = step(s, {
          now,
          observations: [seen("op-1", now >= finish ? "finished" : "running")],
          windows,
        });
        s = r.state;
        if (r.decision.type === "done") break;
        if (r.decision.type !== "poll") throw new Error("unexpected");
        now += r.decision.afterMs;
      }
      ref += Math.ceil(finish / 1000);
      expect(now - finish).toBeLessThanOrEqual(600);
    }
    expect(ours / finishes.length).toBeLessThan(ref / finishes.length);
  });

  test("one earlier operation of the action: the growing interval, plus a look at its duration", () => {
    const run = (windows: Record<string, DurationWindow>, finish: number): number[] => {
      let s = start();
      let now = 100;
      const at: number[] = [];
      for (;;) {
        at.push(now);
        const observations = [seen("op-1", now >= finish ? "finished" : "running")];
        const r = step(s, { now, observations, windows });
        s = r.state;
        if (r.decision.type === "done") return at;
        if (r.decision.type !== "poll") throw new Error("unexpected");
        now += r.decision.afterMs;
      }
    };
    const one = { start_compute: durationWindow([3000])! };
    expect(windowOf({ action: "start_compute" }, one)).toBeUndefined();
    const cold = run({}, 3000);
    const hinted = run(one, 3000);
    // Without history the growing interval overshoots the end (by 0.4–1.3 s, depending on the phase).
    expect(cold[cold.length - 1] - 3000).toBeGreaterThan(300);
    // With one 3 s start seen: the same looks up to then, and one at 3 s.
    expect(hinted[hinted.length - 1]).toBe(3000);
    expect(hinted.length).toBeLessThanOrEqual(cold.length);
    // A single sample that was far off does not stretch the wait: faster operations are found as cold.
    expect(run({ start_compute: durationWindow([30_000])! }, 3000)).toEqual(cold);
  });

  test("one earlier operation of its own action, no longer than the longest interval: one look at its duration, none before", () => {
    const looks = (windows: Record<string, DurationWindow>, finish: number, compute = false): number[] => {
      let s = initialState("p-1", ["op-1"], 0, { deadlineMs: DEADLINE, failedGraceMs: GRACE }, [
        {
          id: "op-1",
          action: "start_compute",
          status: "running",
          ...(compute ? { endpoint_id: "ep-1" } : {}),
        },
      ]);
      const at: number[] = [];
      for (let now = 100; ;) {
        at.push(now);
        const r = step(s, {
          now,
          observations: [seen("op-1", now >= finish ? "finished" : "running")],
          windows,
        });
        s = r.state;
        if (r.decision.type === "done") return at;
        if (r.decision.type !== "poll") throw new Error("unexpected");
        now += r.decision.afterMs;
      }
    };
    const own = (...xs: number[]) => ({ start_compute: durationWindow(xs)! });
    const cold = (finish: number) => looks({}, finish);
    // The one 3 s start seen: the wait looks at 3 s and finds the end (the growing looks came first before).
    expect(looks(own(3_000), 3_000)).toEqual([100, 3_000]);
    expect(cold(3_000).length).toBeGreaterThan(2);
    // The cost, bounded by the longest interval: a 0.5 s start after a 3 s one is seen at 3 s.
    expect(looks(own(3_000), 500)).toEqual([100, 3_000]);
    // A longer earlier duration keeps the growing looks before its look: faster operations are seen as without history.
    expect(looks(own(9_000), 1_000)).toEqual(cold(1_000));
    expect(looks(own(12_000), 3_000)).toEqual(cold(3_000));
    // Once the first duration seen has passed, the growing interval again (not a jump to the second).
    const two = looks(own(1_000, 9_000), 1_500);
    expect(two[two.length - 1]).toBeLessThan(2_500);
    // A duration borrowed from other compute operations keeps the growing looks too.
    const borrowed = { [COMPUTE_ACTIONS]: durationWindow([3_000])! };
    expect(looks(borrowed, 3_000, true).length).toBeGreaterThan(2);
  });

  test("a much faster operation than expected is still seen by the halfway check", () => {
    const long = { start_compute: { lo: 20_000, hi: 40_000, median: 30_000, samples: 5 } };
    let s = start();
    let r = step(s, { now: 100, observations: [seen("op-1", "running")], windows: long });
    s = r.state;
    expect(r.decision).toEqual({ type: "poll", afterMs: 9_900 });
    r = step(s, { now: 10_000, observations: [seen("op-1", "finished")], windows: long });
    expect(r.decision).toEqual({ type: "done" });
  });

  test("an operation queued behind another does not drive the schedule while that one runs", () => {
    let s = start(["a", "b"]);
    s = observe(s, 100, [seen("a", "running"), seen("b", "scheduling")]);
    // The wait cannot end before a's window starts and b has then run its shortest time.
    expect(at(s, 100)).toBe(14_000);
    // A long queue adds at most two of the longest intervals (a failure is seen that much later).
    const long = { ...windows, restart_compute: { lo: 30_000, hi: 31_000, median: 30_500, samples: 5 } };
    const queuedLong = { ...s, ops: { ...s.ops, b: { ...s.ops.b, action: "restart_compute" } } };
    expect(decide(queuedLong, 100, long)).toEqual({
      type: "poll",
      afterMs: 6_900 + 2 * DEFAULT_SCHEDULE.maxIntervalMs,
    });
    // Without an estimate for the queued one, the running one's window decides, as before.
    const other = { ...s, ops: { ...s.ops, b: { ...s.ops.b, action: "restart_compute" } } };
    expect(at(other, 100)).toBe(7_000);
  });

  test("a chain of two known operations is looked at once at its end, then found done", () => {
    const exact = {
      create_branch: durationWindow([1000, 1000, 1000])!,
      start_compute: durationWindow([500, 500, 500])!,
    };
    const s = initialState("p-1", ["a", "b"], 0, { deadlineMs: DEADLINE, failedGraceMs: GRACE }, [
      { id: "a", action: "create_branch", status: "running" },
      { id: "b", action: "start_compute", status: "scheduling" },
    ]);
    const first = decide(s, 0, exact);
    expect(first).toEqual({ type: "poll", afterMs: 1_500 });
    const r = step(s, {
      now: 1_500,
      observations: [seen("a", "finished", { action: "create_branch" }), seen("b", "finished")],
      windows: exact,
    });
    expect(r.decision).toEqual({ type: "done" });
  });

  test("a scheduled operation that starts running is timed from when it was last seen queued", () => {
    let s = start(["a"]);
    s = observe(s, 100, [seen("a", "scheduling")]);
    s = observe(s, 2_000, [seen("a", "scheduling")]);
    s = observe(s, 3_000, [seen("a", "running")]);
    expect(s.ops.a.anchorAt).toBe(2_000);
  });
});

describe("durationWindow", () => {
  test("needs three samples to be trusted; fewer give a tentative window", () => {
    expect(durationWindow([])).toBeUndefined();
    expect(durationWindow([1100, 1000])).toEqual({
      lo: 1000,
      hi: 1100,
      median: 1100,
      samples: 2,
      points: [1000, 1100],
      tentative: true,
    });
  });

  test("with equal durations the window is exactly them: the first poll lands at the end", () => {
    expect(durationWindow([3000, 3000, 3000])).toEqual({ lo: 3000, hi: 3000, median: 3000, samples: 3 });
  });

  test("the margin shrinks as the history grows", () => {
    const many = Array.from({ length: 20 }, (_, i) => 2000 + i * 100); // 2000..3900
    // range 1900 / 20 samples = 95 on each side
    expect(durationWindow(many)).toMatchObject({ lo: 1905, hi: 3995 });
  });

  test("spans the samples, widened by a tenth of the median", () => {
    expect(durationWindow([1000, 2000, 1500, -5, NaN])).toEqual({
      lo: 850,
      hi: 2150,
      median: 1500,
      samples: 3,
    });
  });

  test("windowInterval stays within its bounds", () => {
    expect(windowInterval({ lo: 490, hi: 510, median: 500, samples: 3 })).toBe(
      DEFAULT_SCHEDULE.minIntervalMs,
    );
    expect(windowInterval({ lo: 0, hi: 600_000, median: 300_000, samples: 3 })).toBe(
      DEFAULT_SCHEDULE.maxWindowIntervalMs,
    );
    expect(windowInterval({ lo: 1_400, hi: 2_600, median: 2_000, samples: 3 })).toBe(100);
  });
});

describe("the first poll, from what the starting request answered", () => {
  const windows: Record<string, DurationWindow> = {
    start_compute: { lo: 3_000, hi: 3_000, median: 3_000, samples: 5 },
    [COMPUTE_ACTIONS]: { lo: 2_000, hi: 4_000, median: 3_000, samples: 8 },
  };
  const hinted = (hint: { action?: string; status?: string; endpoint_id?: string }, now = 1_000) =>
    initialState("p-1", ["op-1"], now, { deadlineMs: DEADLINE, failedGraceMs: GRACE }, [
      { id: "op-1", ...hint },
    ]);

  test("a running operation of a known action: first poll at its expected end, not after 100 ms", () => {
    const s = hinted({ action: "start_compute", status: "running" });
    expect(s.attempt).toBe(0);
    expect(decide(s, 1_000, windows)).toEqual({ type: "poll", afterMs: 3_000 });
  });

  test("without an estimate, or without the hint, the early look stays", () => {
    expect(decide(hinted({ action: "start_compute", status: "running" }), 1_000, {})).toEqual({
      type: "poll",
      afterMs: DEFAULT_SCHEDULE.firstPollMs,
    });
    expect(decide(start(["op-1"], 1_000), 1_000, windows)).toEqual({
      type: "poll",
      afterMs: DEFAULT_SCHEDULE.firstPollMs,
    });
  });

  test("a finished or failed status in the hint is not trusted: a poll must see it", () => {
    const s = hinted({ action: "start_compute", status: "finished" });
    expect(s.ops["op-1"].status).toBeUndefined();
    expect(decide(s, 1_000, windows)).toEqual({ type: "poll", afterMs: DEFAULT_SCHEDULE.firstPollMs });
  });

  test("a compute action without its own history borrows the pooled estimate, checking halfway", () => {
    const s = hinted({ action: "apply_config", status: "running", endpoint_id: "ep-1" });
    expect(decide(s, 1_000, windows)).toEqual({ type: "poll", afterMs: 1_000 });
    // Not a compute operation: nothing to borrow.
    expect(decide(hinted({ action: "create_branch", status: "running" }), 1_000, windows)).toEqual({
      type: "poll",
      afterMs: DEFAULT_SCHEDULE.firstPollMs,
    });
  });

  test("a borrowed estimate that the action's own few durations confirm needs no halfway look", () => {
    const s = hinted({ action: "apply_config", status: "running", endpoint_id: "ep-1" });
    const own = { ...windows, apply_config: durationWindow([2_500])! };
    expect(decide(s, 1_000, own)).toEqual({ type: "poll", afterMs: 2_000 });
    // One that falls outside it does not confirm it: the halfway look stays.
    const off = { ...windows, apply_config: durationWindow([500])! };
    expect(decide(s, 1_000, off)).toEqual({ type: "poll", afterMs: 1_000 });
  });

  test("an operation queued behind another of the wait is timed from that one's expected end, its growing interval from when it was seen queued", () => {
    const w = {
      create_branch: durationWindow([1_000, 1_000, 1_000])!,
      start_compute: durationWindow([500])!,
    };
    let s = initialState("p-1", ["a", "b"], 0, { deadlineMs: DEADLINE, failedGraceMs: GRACE }, [
      { id: "a", action: "create_branch", status: "running" },
      { id: "b", action: "start_compute", status: "scheduling", endpoint_id: "ep-1" },
    ]);
    s = observe(s, 100, [seen("a", "running", { action: "create_branch" }), seen("b", "scheduling")], w);
    s = observe(s, 1_200, [seen("a", "finished", { action: "create_branch" }), seen("b", "running")], w);
    expect(s.ops.b).toMatchObject({ anchorAt: 1_000, growFrom: 100 });
    // The growing interval from 100 (550 ms at 1 200), and a look at 1 000 + its one duration seen.
    expect(decide(s, 1_200, w)).toEqual({ type: "poll", afterMs: 300 });
    // Without an estimate of the one before, the last time it was seen queued, as before.
    let t = initialState("p-1", ["a", "b"], 0, { deadlineMs: DEADLINE, failedGraceMs: GRACE });
    t = observe(t, 100, [seen("a", "running", { action: "restore" }), seen("b", "scheduling")], w);
    t = observe(t, 1_200, [seen("a", "finished", { action: "restore" }), seen("b", "running")], w);
    expect(t.ops.b.anchorAt).toBe(100);
  });
});
