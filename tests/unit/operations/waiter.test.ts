import { ApiError } from "../../../provider/http";
import { classifyPollError } from "../../../provider/api";
import {
  OperationError,
  OperationWaiter,
  type WaitedOperation,
  type WaitProgress,
} from "../../../provider/operations";
import { FakeClock } from "../../support/fake-clock";

type Phase = [atMs: number, status: string, extra?: { failures_count?: number; error?: string }];

interface FakeOp {
  id: string;
  project: string;
  action: string;
  created: number;
  phases: Phase[];
  duration?: number;
}

/** An in-memory operations API whose statuses follow a timeline on the fake clock. */
class FakeSource {
  ops: FakeOp[] = [];
  listCalls = 0;
  /** The page size each list call asked for. */
  limits: number[] = [];
  getCalls = 0;
  listFailures: Error[] = [];
  hidden = new Set<string>();
  constructor(private readonly clock: FakeClock) {}

  add(op: Partial<FakeOp> & { id: string; phases: Phase[] }): void {
    this.ops.push({ project: "p-1", action: "start_compute", created: this.clock.t, ...op });
  }

  view(o: FakeOp): WaitedOperation {
    let status = "scheduling";
    let extra: Phase[2] = {};
    for (const [at, s, e] of o.phases) {
      if (this.clock.t >= at) {
        status = s;
        extra = e ?? {};
      }
    }
    return {
      id: o.id,
      project_id: o.project,
      action: o.action,
      status,
      failures_count: extra.failures_count ?? 0,
      error: extra.error,
      total_duration_ms: status === "finished" ? o.duration : undefined,
    };
  }

  listPage = async (projectId: string, limit: number) => {
    this.listCalls++;
    this.limits.push(limit);
    const failure = this.listFailures.shift();
    if (failure) throw failure;
    const ops = this.ops
      .filter((o) => o.project === projectId && !this.hidden.has(o.id))
      .sort((a, b) => b.created - a.created)
      .slice(0, limit)
      .map((o) => this.view(o));
    return { operations: ops };
  };

  get = async (projectId: string, id: string) => {
    this.getCalls++;
    const o = this.ops.find((x) => x.id === id && x.project === projectId);
    if (!o) throw notFound(`/projects/${projectId}/operations/${id}`);
    return this.view(o);
  };
}

function notFound(path: string): ApiError {
  return new ApiError({
    kind: "not_found",
    method: "GET",
    path,
    verb: "read",
    thing: "operation",
    status: 404,
    apiMessage: "not found",
  });
}

function setup() {
  const clock = new FakeClock();
  const source = new FakeSource(clock);
  const waiter = new OperationWaiter({
    listPage: source.listPage,
    get: source.get,
    classifyError: classifyPollError,
    clock,
  });
  return { clock, source, waiter };
}

async function rejection(p: Promise<unknown>, clock: FakeClock): Promise<Error> {
  try {
    await clock.run(p);
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a rejection");
}

describe("OperationWaiter", () => {
  test("durations learned from pages read elsewhere (a 423's reading) time the first poll", async () => {
    const run = async (learned: boolean) => {
      const { clock, source, waiter } = setup();
      if (learned) {
        const done = (id: string) => ({
          id,
          project_id: "p-1",
          action: "start_compute",
          status: "finished",
          failures_count: 0,
          total_duration_ms: 3_000,
        });
        waiter.learn([done("h1"), done("h2"), done("h3")]);
      }
      source.add({
        id: "op-1",
        phases: [
          [0, "running"],
          [3_000, "finished"],
        ],
      });
      await clock.run(waiter.wait("p-1", [{ id: "op-1", action: "start_compute", status: "running" }]));
      return source.limits;
    };
    // Without: a page of 100 at once to learn how long a start takes, then polls until the end.
    const cold = await run(false);
    expect(cold[0]).toBe(100);
    // With: one poll at the expected end, a short page.
    expect(await run(true)).toEqual([20]);
    expect(cold.length).toBeGreaterThan(1);
  });

  test("no ids: resolves at once without a request", async () => {
    const { waiter, source } = setup();
    await expect(waiter.wait("p-1", [])).resolves.toEqual([]);
    expect(source.listCalls).toBe(0);
  });

  test("resolves with the final operations; a short operation returns promptly", async () => {
    const { clock, source, waiter } = setup();
    source.add({
      id: "op-1",
      phases: [
        [0, "running"],
        [400, "finished"],
      ],
    });
    const ops = await clock.run(waiter.wait("p-1", ["op-1"]));
    expect(ops).toEqual([expect.objectContaining({ id: "op-1", status: "finished" })]);
    expect(clock.t).toBeGreaterThanOrEqual(400);
    expect(clock.t).toBeLessThanOrEqual(700);
    expect(source.getCalls).toBe(0);
  });

  test("the first check comes after ~100 ms", async () => {
    const { clock, source, waiter } = setup();
    source.add({ id: "op-1", phases: [[0, "finished"]] });
    await clock.run(waiter.wait("p-1", ["op-1"]));
    expect(clock.t).toBe(100);
    expect(source.listCalls).toBe(1);
  });

  test("a long operation costs few requests (interval grows to 5 s)", async () => {
    const { clock, source, waiter } = setup();
    source.add({
      id: "op-1",
      phases: [
        [0, "running"],
        [120_000, "finished"],
      ],
    });
    await clock.run(waiter.wait("p-1", ["op-1"]));
    expect(source.listCalls).toBeLessThan(40);
    expect(clock.t - 120_000).toBeLessThanOrEqual(5_000);
  });

  test("twenty waits in one project share one list call per poll", async () => {
    const one = setup();
    one.source.add({
      id: "solo",
      phases: [
        [0, "running"],
        [30_000, "finished"],
      ],
    });
    await one.clock.run(one.waiter.wait("p-1", ["solo"]));

    const many = setup();
    const waits: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      many.source.add({
        id: `op-${i}`,
        phases: [
          [0, "running"],
          [30_000, "finished"],
        ],
      });
      waits.push(many.waiter.wait("p-1", [`op-${i}`]));
    }
    await many.clock.run(Promise.all(waits));
    expect(many.source.getCalls).toBe(0);
    expect(many.source.listCalls).toBeLessThanOrEqual(Math.ceil(one.source.listCalls * 1.5));
  });

  test("waits arriving one after another still share the polls", async () => {
    const { clock, source, waiter } = setup();
    const waits: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      source.add({
        id: `op-${i}`,
        created: i * 300,
        phases: [
          [i * 300, "running"],
          [i * 300 + 20_000, "finished"],
        ],
      });
      waits.push(waiter.wait("p-1", [`op-${i}`]));
      await clock.run(new Promise<void>((r) => void clock.sleep(300).then(r)));
    }
    await clock.run(Promise.all(waits));
    // Alone, each would cost ~14 polls (280 in all). Shared, the rate is that of
    // the youngest wait: each arrival restarts the quick early checks, nothing more.
    expect(source.listCalls).toBeLessThan(280 / 3);
  });

  test("a new wait wakes a poller that is sleeping long", async () => {
    const { clock, source, waiter } = setup();
    source.add({
      id: "slow",
      phases: [
        [0, "running"],
        [60_000, "finished"],
      ],
    });
    const slow = waiter.wait("p-1", ["slow"]);
    await clock.run(new Promise<void>((r) => void clock.sleep(20_000).then(r)));
    source.add({ id: "quick", phases: [[0, "finished"]] });
    const t0 = clock.t;
    await clock.run(waiter.wait("p-1", ["quick"]));
    expect(clock.t - t0).toBeLessThanOrEqual(150);
    await clock.run(slow);
  });

  test("an operation missing from the first page is read by id", async () => {
    const { clock, source, waiter } = setup();
    source.add({
      id: "old",
      phases: [
        [0, "running"],
        [1_000, "finished"],
      ],
    });
    source.hidden.add("old");
    await clock.run(waiter.wait("p-1", ["old"]));
    expect(source.getCalls).toBeGreaterThan(0);
  });

  test("an operation that does not exist fails the wait", async () => {
    const { clock, waiter } = setup();
    const err = await rejection(waiter.wait("p-1", ["nope"]), clock);
    expect(err).toBeInstanceOf(OperationError);
    expect((err as OperationError).reason).toBe("not_found");
  });

  test("error: an OperationError naming id, action, status, failures_count and the error text", async () => {
    const { clock, source, waiter } = setup();
    source.add({
      id: "op-1",
      action: "apply_config",
      phases: [
        [0, "running"],
        [500, "error", { failures_count: 2, error: "disk quota exceeded" }],
      ],
    });
    const err = (await rejection(waiter.wait("p-1", ["op-1"]), clock)) as OperationError;
    expect(err).toBeInstanceOf(OperationError);
    expect(err).toMatchObject({
      reason: "error",
      operationId: "op-1",
      action: "apply_config",
      status: "error",
      failuresCount: 2,
    });
    expect(err.message).toMatch(
      /^Failed to wait for operation op-1 \(apply_config\) of project p-1: it ended in error: disk quota exceeded \(status error, failures_count 2, after [\d.]+ s\)\./,
    );
  });

  test("cancelled fails", async () => {
    const { clock, source, waiter } = setup();
    source.add({
      id: "op-1",
      phases: [
        [0, "running"],
        [200, "cancelling"],
        [400, "cancelled"],
      ],
    });
    const err = (await rejection(waiter.wait("p-1", ["op-1"]), clock)) as OperationError;
    expect(err.reason).toBe("cancelled");
    expect(err.message).toContain("was cancelled");
  });

  test("failed → running → finished succeeds", async () => {
    const { clock, source, waiter } = setup();
    source.add({
      id: "op-1",
      phases: [
        [0, "running"],
        [1_000, "failed", { failures_count: 1, error: "transient" }],
        [20_000, "running", { failures_count: 1 }],
        [25_000, "finished", { failures_count: 1 }],
      ],
    });
    const [op] = await clock.run(waiter.wait("p-1", ["op-1"]));
    expect(op).toMatchObject({ status: "finished", failures_count: 1 });
  });

  test("failed past the grace period fails soon after it ends", async () => {
    const { clock, source, waiter } = setup();
    source.add({
      id: "op-1",
      phases: [
        [0, "running"],
        [1_000, "failed", { failures_count: 1, error: "no capacity" }],
      ],
    });
    const err = (await rejection(
      waiter.wait("p-1", ["op-1"], { failedGraceMs: 30_000 }),
      clock,
    )) as OperationError;
    expect(err.reason).toBe("failed_too_long");
    expect(err.message).toContain("stayed failed for more than 30 s");
    expect(err.message).toContain("no capacity");
    expect(clock.t).toBeGreaterThanOrEqual(31_000);
    expect(clock.t).toBeLessThanOrEqual(31_000 + 5_000);
  });

  test("the deadline fails the wait and lists what is unfinished", async () => {
    const { clock, source, waiter } = setup();
    source.add({ id: "a", phases: [[0, "finished"]] });
    source.add({ id: "b", action: "suspend_compute", phases: [[0, "running"]] });
    const err = (await rejection(
      waiter.wait("p-1", ["a", "b"], { deadlineMs: 60_000 }),
      clock,
    )) as OperationError;
    expect(err.reason).toBe("deadline");
    expect(clock.t).toBe(60_000);
    expect(err.message).toContain("the deadline of 60 s passed");
    expect(err.message).toContain("b suspend_compute: running");
    expect(err.operationId).toBe("b");
  });

  test("progress is reported on each status change and periodically", async () => {
    const { clock, source, waiter } = setup();
    source.add({
      id: "op-1",
      phases: [
        [0, "scheduling"],
        [300, "running"],
        [30_000, "finished"],
      ],
    });
    const seen: WaitProgress[] = [];
    await clock.run(waiter.wait("p-1", ["op-1"], { onProgress: (p) => seen.push(p) }));
    const statuses = seen.map((p) => p.status);
    expect(statuses[0]).toBe("scheduling");
    expect(statuses).toContain("running");
    expect(statuses[statuses.length - 1]).toBe("finished");
    expect(statuses.filter((s) => s === "running").length).toBeGreaterThanOrEqual(2);
    expect(seen.every((p) => p.operationId === "op-1" && p.action === "start_compute")).toBe(true);
    expect(seen[seen.length - 1].elapsedMs).toBe(clock.t);
  });

  test("a throwing progress callback does not break the wait", async () => {
    const { clock, source, waiter } = setup();
    source.add({ id: "op-1", phases: [[0, "finished"]] });
    const wait = waiter.wait("p-1", ["op-1"], {
      onProgress: () => {
        throw new Error("printer broke");
      },
    });
    await expect(clock.run(wait)).resolves.toHaveLength(1);
  });

  test("a transient polling failure is ridden out", async () => {
    const { clock, source, waiter } = setup();
    source.add({
      id: "op-1",
      phases: [
        [0, "running"],
        [2_000, "finished"],
      ],
    });
    const boom = new ApiError({
      kind: "server",
      method: "GET",
      path: "/x",
      verb: "list",
      thing: "ops",
      status: 500,
      apiMessage: "boom",
    });
    source.listFailures.push(boom, boom);
    await expect(clock.run(waiter.wait("p-1", ["op-1"]))).resolves.toHaveLength(1);
  });

  test("polling that can never succeed (401) rejects every wait of the project with the ApiError", async () => {
    const { clock, source, waiter } = setup();
    source.add({ id: "a", phases: [[0, "running"]] });
    source.add({ id: "b", phases: [[0, "running"]] });
    const denied = new ApiError({
      kind: "unauthorized",
      method: "GET",
      path: "/x",
      verb: "list",
      thing: "ops",
      status: 401,
      apiMessage: "bad key",
    });
    source.listFailures.push(denied);
    const a = rejection(waiter.wait("p-1", ["a"]), clock);
    const b = waiter.wait("p-1", ["b"]).catch((e: unknown) => e);
    expect(await a).toBe(denied);
    expect(await b).toBe(denied);
  });

  test("waits in different projects poll separately", async () => {
    const { clock, source, waiter } = setup();
    source.add({
      id: "x",
      project: "p-1",
      phases: [
        [0, "running"],
        [1_000, "finished"],
      ],
    });
    source.add({
      id: "y",
      project: "p-2",
      phases: [
        [0, "running"],
        [1_000, "finished"],
      ],
    });
    const r = await clock.run(Promise.all([waiter.wait("p-1", ["x"]), waiter.wait("p-2", ["y"])]));
    expect(r.flat().map((o) => o.id)).toEqual(["x", "y"]);
  });

  test("durations of finished operations make later waits cheaper and prompt", async () => {
    const { clock, source, waiter } = setup();
    // History: five finished start_compute operations of about 10 s.
    for (let i = 0; i < 5; i++) {
      source.add({
        id: `h-${i}`,
        created: -100_000,
        duration: 9_000 + i * 500,
        phases: [[-100_000, "finished"]],
      });
    }
    source.add({
      id: "op-1",
      phases: [
        [0, "running"],
        [10_200, "finished"],
      ],
    });
    const before = source.listCalls;
    await clock.run(waiter.wait("p-1", ["op-1"]));
    expect(waiter.windows().start_compute).toMatchObject({ samples: 5 });
    // A poll every second would take 11.
    expect(source.listCalls - before).toBeLessThanOrEqual(10);
    expect(clock.t - 10_200).toBeLessThanOrEqual(300);
  });

  test("retried operations (failures_count > 0) do not count as durations", async () => {
    const { clock, source, waiter } = setup();
    for (let i = 0; i < 5; i++) {
      source.add({
        id: `h-${i}`,
        created: -1,
        duration: 60_000,
        phases: [[-1, "finished", { failures_count: 1 }]],
      });
    }
    source.add({ id: "op-1", phases: [[0, "finished"]] });
    await clock.run(waiter.wait("p-1", ["op-1"]));
    expect(waiter.windows().start_compute).toBeUndefined();
  });
});
