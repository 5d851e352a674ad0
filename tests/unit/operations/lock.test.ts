/**
 * When a project's lock is expected to be free (issue 28): from one page of its operations, what is
 * pending and how long each action took there.
 */
import type { Operation } from "../../../provider/api/schemas";
import {
  BURST_GAP_MS,
  DEFAULT_ACTION_MS,
  estimateLock,
  followingChanges,
  HOLDER_GRACE_MS,
  holderGraceMs,
  MAX_FOLLOWING_CHANGES,
  runGapMs,
  runsOf,
  learnedDurations,
  lockWaitMs,
  MAX_LOCK_WAIT_MS,
  MAX_WAKE_SPREAD_MS,
  FAR_WAKE_SPREAD_MS,
  MIN_OVERDUE_WAIT_MS,
} from "../../../provider/operations/lock";

const T0 = Date.parse("2026-11-26T10:00:00Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();

function op(id: string, action: string, status: string, createdMs: number, updatedMs: number): Operation {
  return {
    id,
    project_id: "p-1",
    action,
    status,
    failures_count: 0,
    created_at: at(createdMs),
    updated_at: at(updatedMs),
  };
}

describe("learnedDurations", () => {
  it("times finished operations from the later of their creation and the previous one's end (one at a time)", () => {
    const ops = [
      op("a", "create_branch", "finished", 0, 3_000),
      // Queued behind a: it started at 3 s, not at its creation.
      op("b", "create_branch", "finished", 1_000, 6_500),
      op("c", "start_compute", "finished", 6_500, 7_500),
      op("d", "start_compute", "running", 7_500, 7_600),
    ];
    expect(Object.fromEntries(learnedDurations(ops))).toEqual({ create_branch: 3_500, start_compute: 1_000 });
  });

  it("prefers an operation's own total_duration_ms", () => {
    const ops = [{ ...op("a", "apply_config", "finished", 0, 9_000), total_duration_ms: 1_200 }];
    expect(learnedDurations(ops).get("apply_config")).toBe(1_200);
  });

  it("learns only from clean runs: not a skipped, errored or retried operation, nor a zero duration", () => {
    const ops = [
      op("a", "create_branch", "skipped", 0, 0),
      { ...op("b", "create_branch", "finished", 0, 9_000), failures_count: 1 },
      op("c", "create_branch", "error", 9_000, 9_500),
      op("d", "create_branch", "finished", 9_500, 9_500),
    ];
    expect(learnedDurations(ops).size).toBe(0);
  });

  it("one request's operations (equal creation times) run in the reverse of the page's newest-first order", () => {
    // The API lists newest first: b was created with a, after it, and ran after it.
    const ops = [
      op("b", "start_compute", "finished", 0, 4_000),
      op("a", "create_branch", "finished", 0, 3_000),
    ];
    expect(Object.fromEntries(learnedDurations(ops))).toEqual({ create_branch: 3_000, start_compute: 1_000 });
  });
});

describe("estimateLock", () => {
  it("nothing pending: no estimate (the lock is free, or freed meanwhile)", () => {
    expect(estimateLock([op("a", "create_branch", "finished", 0, 3_000)], T0 + 5_000)).toBeUndefined();
  });

  it("the running operation's start plus its action's time, then each queued one's", () => {
    const ops = [
      op("a", "create_branch", "finished", 0, 3_000),
      op("b", "apply_config", "finished", 3_000, 4_000),
      op("c", "create_branch", "running", 4_000, 4_200),
      op("d", "apply_config", "scheduling", 4_100, 4_100),
    ];
    const e = estimateLock(ops, T0 + 5_000);
    expect(e?.running.id).toBe("c");
    expect(e?.pending).toBe(2);
    expect(e?.startedMs).toBe(T0 + 4_200);
    // c: 4.2 s + 3 s (create_branch) = 7.2 s; then d: + 1 s.
    expect(e?.freeAtMs).toBe(T0 + 8_200);
  });

  it("an overdue operation is expected to end now, not in the past; an unknown action takes the median", () => {
    const ops = [
      op("a", "create_branch", "finished", 0, 2_000),
      op("b", "suspend_compute", "running", 2_000, 2_000),
    ];
    expect(estimateLock(ops, T0 + 60_000)?.freeAtMs).toBe(T0 + 60_000);
    expect(estimateLock(ops, T0 + 2_500)?.freeAtMs).toBe(T0 + 4_000);
  });

  it("a failed operation the service retries holds the lock: from its retry time", () => {
    const failed = { ...op("a", "start_compute", "failed", 0, 1_000), retry_at: at(5_000) };
    const e = estimateLock([op("z", "start_compute", "finished", -3_000, -2_000), failed], T0 + 2_000);
    expect([e?.running.id, e?.startedMs, e?.freeAtMs]).toEqual(["a", T0 + 5_000, T0 + 6_000]);
  });

  it("with no history at all: the default action time", () => {
    const e = estimateLock([op("a", "create_branch", "running", 0, 0)], T0);
    expect(e?.freeAtMs).toBe(T0 + DEFAULT_ACTION_MS);
  });
});

describe("runs: the lock passes between branches when a branch's changes in a row end", () => {
  // One program per branch, as a preview environment: a branch create (two operations, one request),
  // then a role, then a database, each 3 s; `on` gives the operation its branch.
  const on = (branch: string, o: Operation): Operation => ({ ...o, branch_id: branch });
  const env = (branch: string, startMs: number, status = "finished"): Operation[] => [
    on(branch, op(`${branch}-b`, "create_branch", "finished", startMs, startMs + 3_000)),
    on(branch, op(`${branch}-s`, "start_compute", "finished", startMs, startMs + 6_000)),
    on(branch, op(`${branch}-r`, "apply_config", "finished", startMs + 6_000, startMs + 9_000)),
    on(branch, op(`${branch}-d`, "apply_config", status, startMs + 9_000, startMs + 12_000)),
  ];
  // The seed's history (on the default branch), then two whole environments, then `c`'s branch create;
  // `page` lists them as the API does, newest first.
  const page = (...ops: Operation[][]) => ops.flat().reverse();
  const history = [
    on("main", op("m1", "apply_config", "finished", -9_000, -6_000)),
    ...env("a", 0),
    ...env("b", 12_000),
  ];
  const holderC = [
    on("c", op("c-b", "create_branch", "running", 24_000, 24_000)),
    on("c", op("c-s", "start_compute", "scheduling", 24_000, 24_000)),
  ];

  it("counts one request's operations as one change", () => {
    expect(runsOf(page(history, holderC))).toEqual([
      { branch: "main", changes: 1 },
      { branch: "a", changes: 3 },
      { branch: "b", changes: 3 },
      { branch: "c", changes: 1 },
    ]);
  });

  it("a waiter sleeps through the rest of the holder's run: the typical run less what it sent", () => {
    // The page's first run may be cut, so only a and b count: 3 changes; c sent 1.
    expect(followingChanges(page(history, holderC))).toBe(2);
    const e = estimateLock(page(history, holderC), T0 + 25_000);
    expect(e?.followingChanges).toBe(2);
    // c's create_branch and start_compute (3 s each, from 24 s), then two changes of 3 s.
    expect(e?.freeAtMs).toBe(T0 + 24_000 + 6_000 + 2 * 3_000);
  });

  it("not for a waiter on the holder's own branch, nor before two finished runs are seen", () => {
    expect(followingChanges(page(history, holderC), "c")).toBe(0);
    expect(
      followingChanges(
        page([on("main", op("m1", "apply_config", "finished", -9_000, -6_000))], env("a", 0), holderC),
      ),
    ).toBe(0);
    expect(estimateLock(page(history, holderC), T0 + 25_000, "c")?.freeAtMs).toBe(T0 + 30_000);
  });

  it("a run as long as the typical one, or an operation without a branch, expects nothing after it", () => {
    const cDone = env("c", 24_000, "running");
    expect(followingChanges(page(history, cDone))).toBe(0);
    expect(followingChanges(page(history, [op("x", "suspend_compute", "running", 25_000, 25_000)]))).toBe(0);
  });

  it("a free lock is left to the branch whose change just ended while its run is short of the typical one", () => {
    // c's branch create ended at 30.05 s (its start_compute last): c is expected to send its role next.
    const cBranch = [
      on("c", op("c-b", "create_branch", "finished", 24_000, 27_000)),
      on("c", op("c-s", "start_compute", "finished", 24_000, 30_050)),
    ];
    expect(holderGraceMs(page(history, cBranch), T0 + 30_250)).toBe(HOLDER_GRACE_MS - 200);
    // Past the grace, or for a waiter on c or on a branch not known, or once c's run is as long as
    // a and b's: go now.
    expect(holderGraceMs(page(history, cBranch), T0 + 30_050 + HOLDER_GRACE_MS)).toBe(0);
    expect(holderGraceMs(page(history, cBranch), T0 + 30_250, "c")).toBe(0);
    expect(holderGraceMs(page(history, cBranch), T0 + 30_250, null)).toBe(0);
    expect(holderGraceMs(page(history, env("c", 24_000)), T0 + 36_100)).toBe(0);
    // Something pending (inside the window): the estimate applies, not the grace.
    const cRole = [...cBranch, on("c", op("c-r", "apply_config", "running", 30_100, 30_100))];
    expect(holderGraceMs(page(history, cRole), T0 + 30_250)).toBe(0);
    // No run known yet: the branch that just changed something is still given its moment.
    expect(holderGraceMs(page(env("a", 0)), T0 + 12_100)).toBe(HOLDER_GRACE_MS + 1_000 - 100);
  });

  it("while no run is known, a waiter looks a grace after the holder's change ends, not at its end", () => {
    // The burst's first run: a's branch create (its compute's start still running) holds the lock;
    // no run of the burst has ended yet.
    const first = page(history.slice(0, 1), [
      on("a", op("a-b", "create_branch", "finished", 0, 3_000)),
      on("a", op("a-s", "start_compute", "running", 0, 3_000)),
    ]);
    // The page's times are whole seconds: the grace has a second more, as holderGraceMs's has.
    const e = estimateLock(first, T0 + 1_000);
    expect(e?.freeAtMs).toBe(T0 + 6_000);
    expect(e?.lookAfterMs).toBe(1_000 + HOLDER_GRACE_MS);
    // The wait: to the end, then the grace, then the spread — a look that finds a's role running
    // (a went on) or the lock free with no grace left, where one at the end would find a grace.
    expect(lockWaitMs(e!, T0 + 1_000, () => 0)).toBe(5_000 + 1_000 + HOLDER_GRACE_MS);
    const ended = page(history.slice(0, 1), env("a", 0).slice(0, 2));
    expect(holderGraceMs(ended, T0 + 6_000 + 1_000 + HOLDER_GRACE_MS - 1)).toBe(1);
    expect(holderGraceMs(ended, T0 + 6_000 + 1_000 + HOLDER_GRACE_MS)).toBe(0);
    // Times in milliseconds: the grace alone.
    const ms = first.map((o) => ({ ...o, updated_at: at(Date.parse(o.updated_at) - T0 + 7) }));
    expect(estimateLock(ms, T0 + 1_000)?.lookAfterMs).toBe(HOLDER_GRACE_MS);
    // Not once a run is known (the estimate's end is then the run's), nor for a waiter on a's branch
    // or one whose branch is not known (a compute's change: no grace is given to it either).
    expect(estimateLock(page(history, holderC), T0 + 25_000)?.lookAfterMs).toBe(0);
    expect(estimateLock(first, T0 + 1_000, "a")?.lookAfterMs).toBe(0);
    expect(estimateLock(first, T0 + 1_000, null)?.lookAfterMs).toBe(0);
    // An operation without a branch (the control plane's own) runs no program's run.
    expect(estimateLock(page([op("x", "suspend_compute", "running", 0, 0)]), T0 + 100)?.lookAfterMs).toBe(0);
  });

  it("no look after a grace when whose run goes on is not known, or when the run is known to end", () => {
    const first = [
      ...history.slice(0, 1),
      on("a", op("a-b", "create_branch", "finished", 0, 3_000)),
      on("a", op("a-s", "start_compute", "running", 0, 3_000)),
    ];
    expect(estimateLock(page(first), T0 + 1_000)?.lookAfterMs).toBeGreaterThan(0);
    // Another branch's change queued behind a's: the lock passes to it at a's end, not to a's run.
    const queued = [...first, on("z", op("z-r", "apply_config", "scheduling", 1_500, 1_500))];
    expect(estimateLock(page(queued), T0 + 2_000)?.lookAfterMs).toBe(0);
    // A run is known (a's and b's: three changes) and c's last change runs: nothing follows, no grace.
    const e = estimateLock(page(history, env("c", 24_000, "running")), T0 + 34_000);
    expect(e?.followingChanges).toBe(0);
    expect(e?.lookAfterMs).toBe(0);
  });

  it("a suspend the control plane starts on the last run's branch is not that run going on", () => {
    const suspend = on("c", op("c-z", "suspend_compute", "running", 31_000, 31_000));
    const cBranch = env("c", 24_000).slice(0, 2);
    // c's branch create ended at 30 s; the control plane suspends c's compute at 31 s. c's run of one
    // change is short of the typical three, but the suspend is no change of c's process: the lock is
    // free at the suspend's end, with nothing more expected and no grace to look past.
    const e = estimateLock(page(history, cBranch, [suspend]), T0 + 31_500);
    expect(e?.followingChanges).toBe(0);
    expect(e?.freeAtMs).toBe(T0 + 31_000 + 3_000);
    // A change of c's queued behind the suspend is c's run going on: the rest of that run follows it.
    const cRole = on("c", op("c-r", "apply_config", "scheduling", 31_200, 31_200));
    const queued = estimateLock(page(history, cBranch, [suspend, cRole]), T0 + 31_500);
    expect(queued?.followingChanges).toBe(1);
    expect(queued?.freeAtMs).toBe(T0 + 31_000 + 3_000 + 3_000 + 3_000);
    // Nor in the burst's first run, where no run is known yet.
    const first = [...history.slice(0, 1), ...env("a", 0).slice(0, 2)];
    const aSuspend = on("a", op("a-z", "suspend_compute", "running", 7_000, 7_000));
    expect(estimateLock(page(first, [aSuspend]), T0 + 7_500)?.lookAfterMs).toBe(0);
  });

  it("the grace allows for a page of whole seconds and for a slow machine", () => {
    // Every time on the page is a whole second: c's change may have ended up to 1 s after 30 s.
    const cBranch = [
      on("c", op("c-b", "create_branch", "finished", 24_000, 27_000)),
      on("c", op("c-s", "start_compute", "finished", 24_000, 30_000)),
    ];
    expect(holderGraceMs(page(history, cBranch), T0 + 30_200)).toBe(1_000 + HOLDER_GRACE_MS - 200);
    // Branches that pause 1 s between changes get twice that (ms times on the page).
    const shift = (o: Operation, ms: number) => ({
      ...o,
      created_at: at(Date.parse(o.created_at) - T0 + ms),
      updated_at: at(Date.parse(o.updated_at) - T0 + ms),
    });
    const slow = (branch: string, startMs: number) =>
      env(branch, startMs).map((o, i) => shift(o, 1 + 1_000 * Math.max(0, i - 1)));
    const ops = page([history[0]], slow("a", 0), slow("b", 14_001), [
      on("c", op("c-b", "create_branch", "finished", 28_000, 31_000)),
      on("c", op("c-s", "start_compute", "finished", 28_000, 34_001)),
    ]);
    expect(runGapMs(ops)).toBe(1_000);
    expect(holderGraceMs(ops, T0 + 34_001)).toBe(2_000);
  });

  it("the first run of the page is not counted (the page may have cut it), nor a run without a branch", () => {
    // The page begins inside x's run (one change seen) and has a branchless run; a, b and d (one
    // change) say 3 (lower median of 1, 3, 3) — with x's one change it would be 1 (of 1, 1, 3, 3).
    const ops = page(
      [on("x", op("x1", "apply_config", "finished", -4_000, -3_000))],
      env("a", 0),
      [op("s", "suspend_compute", "finished", 12_000, 12_000)],
      env("b", 12_000),
      [on("d", op("d1", "apply_config", "finished", 24_000, 27_000))],
      holderC.map((o) => ({ ...o, created_at: at(27_000), updated_at: at(27_000) })),
    );
    expect(followingChanges(ops)).toBe(2);
  });

  it("runs before the project was last quiet are not counted: the burst under way is", () => {
    // Older history: three branches made with one change each (a seed, the console), a minute before.
    const old = ["x", "y", "z"].map((b, i) =>
      on(b, op(`${b}-b`, "create_branch", "finished", -90_000 + i * 3_000, -87_000 + i * 3_000)),
    );
    // The burst: a's whole run, then c's branch create ended. Counted with the old runs, the typical
    // run would be one change and c's run done; in the burst only one run is known: c gets its grace.
    const cBranch = [
      on("c", op("c-b", "create_branch", "finished", 12_000, 15_000)),
      on("c", op("c-s", "start_compute", "finished", 12_000, 18_050)),
    ];
    expect(runsOf(page(old, env("a", 0), cBranch))).toEqual([
      { branch: "a", changes: 3 },
      { branch: "c", changes: 1 },
    ]);
    expect(holderGraceMs(page(old, env("a", 0), cBranch), T0 + 18_150)).toBe(HOLDER_GRACE_MS - 100);
    // The burst starts after a quiet time on the page, so its first run is whole and counts: with a
    // and b known, c (1 of 3) is expected to send 2 more.
    const holderD = [
      on("d", op("d-b", "create_branch", "running", 24_000, 24_000)),
      on("d", op("d-s", "start_compute", "scheduling", 24_000, 24_000)),
    ];
    expect(followingChanges(page(old, env("a", 0), env("b", 12_000), holderD))).toBe(2);
    // One whole run is enough: b's branch create running, a's three changes the only run before it.
    const holderB = [
      on("b", op("b-b", "create_branch", "running", 12_000, 12_000)),
      on("b", op("b-s", "start_compute", "scheduling", 12_000, 12_000)),
    ];
    expect(followingChanges(page(old, env("a", 0), holderB))).toBe(2);
    // The same run at the page's edge may have been cut: not enough.
    expect(followingChanges(page(env("a", 0), holderB))).toBe(0);
    // A lone whole run of one change is what a cut run looks like: not enough to expect runs of one.
    const aCut = [on("a", op("a-b", "create_branch", "finished", 0, 3_000))];
    const bOne = [on("b", op("b-b", "create_branch", "finished", 3_100, 6_100))];
    expect(holderGraceMs(page(old, aCut, bOne), T0 + 6_300)).toBe(HOLDER_GRACE_MS - 200);
    // An operation still pending before the quiet time keeps the burst from starting after it.
    const stuck = [{ ...old[2], id: "z-f", status: "failed", updated_at: at(-80_000) }];
    expect(runsOf(page(old.slice(0, 2), stuck, env("a", 0), cBranch))[0]).toEqual({
      branch: "x",
      changes: 1,
    });
    // Quiet for less than BURST_GAP_MS: one burst, and the old runs' one change is the typical run.
    const near = old.map((o) => ({ ...o, created_at: at(Date.parse(o.created_at) - T0 + 80_000) }));
    const nearEnds = near.map((o) => ({ ...o, updated_at: at(Date.parse(o.updated_at) - T0 + 80_000) }));
    expect(BURST_GAP_MS).toBeGreaterThan(3_000);
    expect(holderGraceMs(page(nearEnds, env("a", 0), cBranch), T0 + 18_150)).toBe(0);
  });

  it("a branch whose run another cut short is expected to send only what it has left", () => {
    // c sent its branch and role, d took the lock for its three changes, c's database now runs.
    const cut = [
      ...env("c", 24_000).slice(0, 3),
      ...env("d", 33_000),
      on("c", op("c-d", "apply_config", "running", 45_000, 45_000)),
    ];
    expect(followingChanges(page(history, cut))).toBe(0);
    // While d's first change runs, c (two changes so far) does not make the typical run shorter than
    // a's and b's three: d is expected to send two more.
    const dFirst = [
      ...cut.slice(0, 3),
      ...env("d", 33_000)
        .slice(0, 1)
        .map((o) => ({ ...o, status: "running" })),
    ];
    expect(followingChanges(page(history, dFirst))).toBe(2);
  });

  it("no grace for a branch whose run, cut short by another, has now sent all a run holds", () => {
    // c sent its branch and role, d its three changes, then c its database, which ended just now.
    const cDone = [
      ...env("c", 24_000).slice(0, 3),
      ...env("d", 33_000),
      ...env("c", 45_000 - 9_000).slice(3),
    ];
    expect(holderGraceMs(page(history, cDone), T0 + 48_100)).toBe(0);
  });

  it("no run to follow when the page's last run is not the running operation's branch", () => {
    // c runs its branch create; another branch's change is queued behind it.
    const queued = [...holderC, on("z", op("z-r", "apply_config", "scheduling", 24_500, 24_500))];
    expect(estimateLock(page(history, queued), T0 + 25_000)?.followingChanges).toBe(0);
  });

  it("a suspend or check the control plane starts on its own is no program's change", () => {
    // Queued behind c's branch create: c's run is still expected to go on (and the suspend to take its time).
    const suspend = (id: string, status: string, ms: number, endMs = ms) =>
      on("z", op(id, "suspend_compute", status, ms, endMs));
    const queued = [...holderC, suspend("z-s", "scheduling", 24_500)];
    const e = estimateLock(page(history, queued), T0 + 25_000);
    expect(e?.followingChanges).toBe(2);
    expect(e?.freeAtMs).toBe(T0 + 24_000 + 6_000 + 3_000 + 2 * 3_000);
    // Running alone: it is no run, nothing follows it.
    expect(
      estimateLock(page(history, [suspend("z-s", "running", 24_000)]), T0 + 24_500)?.followingChanges,
    ).toBe(0);
    // Just ended after c's branch create, which ended 3 s earlier: no grace left for c, none for z.
    const cBranch = env("c", 24_000).slice(0, 2);
    expect(
      holderGraceMs(page(history, cBranch, [suspend("z-s", "finished", 30_000, 33_000)]), T0 + 33_100),
    ).toBe(0);
    expect(
      runsOf(page(history, cBranch, [suspend("z-s", "finished", 30_000, 33_000)])).map((r) => r.branch),
    ).toEqual(["main", "a", "b", "c"]);
    // A suspend that came with a change (a role on an idle compute) is part of that change.
    const withRole = [
      on("c", op("c-r", "apply_config", "finished", 30_000, 33_000)),
      on("c", op("c-rs", "suspend_compute", "finished", 30_000, 34_000)),
    ];
    expect(runsOf(page(history, cBranch, withRole)).slice(-1)).toEqual([{ branch: "c", changes: 2 }]);
  });

  it("the pause between two changes is from the later end of the first change's operations", () => {
    // c's branch create: create_branch ends at 27 s, start_compute at 30 s; its role comes at 30.2 s.
    const ops = page(env("c", 24_000).slice(0, 2), [
      on("c", op("c-r", "apply_config", "running", 30_200, 30_200)),
    ]);
    expect(runGapMs(ops)).toBe(200);
    // Listed the other way round (ties in the opposite order), the same.
    const listed = [...ops.slice(0, 1), ...ops.slice(1).reverse()];
    expect(runGapMs(listed)).toBe(200);
  });

  it("each following change comes after the branch's usual pause between two changes", () => {
    // a and b pause 200 ms between changes (c's wait is 6 s of its own, then 2 × (3 s + 200 ms)).
    const paused = (branch: string, startMs: number) =>
      env(branch, startMs).map((o, i) =>
        i < 2
          ? o
          : {
              ...o,
              created_at: at(Date.parse(o.created_at) - T0 + 200 * (i - 1)),
              updated_at: at(Date.parse(o.updated_at) - T0 + 200 * (i - 1)),
            },
      );
    const ops = page([history[0]], paused("a", 0), paused("b", 12_400), holderC);
    expect(runGapMs(ops)).toBe(200);
    expect(estimateLock(ops, T0 + 25_000)?.freeAtMs).toBe(T0 + 30_000 + 2 * 3_200);
    expect(runGapMs(page(history, holderC))).toBe(0);
  });

  it("expects at most a few changes after the current one", () => {
    const long = (branch: string, startMs: number) =>
      Array.from({ length: 8 }, (_, i) =>
        on(
          branch,
          op(`${branch}${i}`, "apply_config", "finished", startMs + i * 1_000, startMs + (i + 1) * 1_000),
        ),
      );
    const ops = page(long("a", 0), long("b", 8_000), long("d", 16_000), holderC);
    expect(followingChanges(ops)).toBe(MAX_FOLLOWING_CHANGES);
  });
});

describe("lockWaitMs", () => {
  const e = (freeAtMs: number, typicalMs = 3_000, startedMs = T0, status = "running", lookAfterMs = 0) => ({
    running: op("a", "x", status, 0, 0),
    pending: 1,
    startedMs,
    freeAtMs,
    typicalMs,
    followingChanges: 0,
    lookAfterMs,
  });

  it("waits until the expected end plus jitter: up to FAR_WAKE_SPREAD_MS for an end a second or more away", () => {
    expect(lockWaitMs(e(T0 + 2_000), T0, () => 0)).toBe(2_000);
    expect(lockWaitMs(e(T0 + 2_000), T0, () => 0.999)).toBeCloseTo(2_000 + 0.999 * FAR_WAKE_SPREAD_MS, 0);
    expect(lockWaitMs(e(T0 + 20_000), T0, () => 0.999)).toBeCloseTo(20_000 + 0.999 * FAR_WAKE_SPREAD_MS, 0);
    // Just under a second away: this waiter may look twice within a second, so the whole spread.
    expect(lockWaitMs(e(T0 + 999, 3_000, T0 - 2_001), T0, () => 0.5)).toBe(999 + MAX_WAKE_SPREAD_MS / 2);
    expect(lockWaitMs(e(T0 + 1_000, 3_000, T0 - 2_000), T0, () => 0.5)).toBe(1_000 + FAR_WAKE_SPREAD_MS / 2);
    // An end expected in 300 ms of an operation running for 2.7 s of its 3: that end, not an overdue's wait.
    expect(lockWaitMs(e(T0 + 300, 3_000, T0 - 2_700), T0, () => 0.5)).toBe(300 + MAX_WAKE_SPREAD_MS / 2);
    // The same near end of an operation not started yet (or failed, to be retried) is not known:
    // looked at no sooner than an overdue one.
    expect(lockWaitMs(e(T0 + 300, 3_000, T0, "scheduling"), T0, () => 0)).toBe(750);
  });

  it("overdue (the operations run longer than learned): half the action's time with full jitter, not a poll", () => {
    // The running operation started at T0 and takes 3 s: at T0 + 5 s it is overdue (expected free now).
    const waits = [0, 0.5, 0.999].map((r) => lockWaitMs(e(T0 + 5_000), T0 + 5_000, () => r));
    expect(waits[0]).toBe(750);
    expect(waits[1]).toBe(1_500);
    expect(waits[2]).toBeCloseTo(2_248.5, 0);
    // A short action still waits at least half a second.
    expect(lockWaitMs(e(T0 + 300, 200), T0 + 300, () => 0.5)).toBe(MIN_OVERDUE_WAIT_MS);
  });

  it("many waiters of one lock wake spread out, not at once", () => {
    const wakes = [0, 0.2, 0.4, 0.6, 0.8].map((r) => lockWaitMs(e(T0 + 3_000), T0, () => r));
    expect(new Set(wakes).size).toBe(5);
    expect(Math.max(...wakes) - Math.min(...wakes)).toBeGreaterThan(0.75 * FAR_WAKE_SPREAD_MS);
    // Within the far spread: a rolling second holds each waiter's one look around the end.
    expect(Math.max(...wakes) - Math.min(...wakes)).toBeLessThan(FAR_WAKE_SPREAD_MS);
  });

  it("waiters that looked before a near end stay spread over the whole spread (run 31's herd)", () => {
    // Looked at 2.6 s of a 3 s operation: 400 ms left. A quarter of that would wake them all in 100 ms.
    const wakes = [0, 0.25, 0.5, 0.75, 0.999].map((r) =>
      lockWaitMs(e(T0 + 400, 3_000, T0 - 2_600), T0, () => r),
    );
    expect(wakes[0]).toBe(400);
    expect(Math.max(...wakes) - Math.min(...wakes)).toBeGreaterThan(0.9 * MAX_WAKE_SPREAD_MS);
  });

  it("a holder that may go on is looked at a grace after its end (only when that end is known)", () => {
    expect(lockWaitMs(e(T0 + 2_000, 3_000, T0, "running", 300), T0, () => 0.5)).toBe(
      2_000 + 300 + FAR_WAKE_SPREAD_MS / 2,
    );
    // Overdue: the overdue wait, as without it.
    expect(lockWaitMs(e(T0 + 5_000, 3_000, T0, "running", 300), T0 + 5_000, () => 0)).toBe(750);
    // A near end seen running: the grace, then the whole spread (a look this near may be a second look).
    expect(lockWaitMs(e(T0 + 300, 3_000, T0 - 2_700, "running", 300), T0, () => 0.5)).toBe(
      300 + 300 + MAX_WAKE_SPREAD_MS / 2,
    );
    // A near end not known (not started, or failed to be retried): the overdue wait, no grace.
    expect(lockWaitMs(e(T0 + 300, 3_000, T0, "scheduling", 300), T0, () => 0)).toBe(750);
    expect(lockWaitMs(e(T0 + 300, 3_000, T0, "failed", 300), T0, () => 0)).toBe(750);
  });

  it("never longer than the maximum (a long operation is looked at again)", () => {
    expect(lockWaitMs(e(T0 + 10 * 60_000), T0, () => 0.5)).toBe(MAX_LOCK_WAIT_MS);
  });
});
