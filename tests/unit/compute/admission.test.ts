import { Admission, type Schedule } from "../../../provider/resources/compute/admission";

/** A manual timer: `fire()` runs the pending callback as if its time had come. */
function manualTimer(): { schedule: Schedule; pending: () => number; fire: () => void } {
  const timers = new Set<() => void>();
  return {
    schedule: (fn) => {
      timers.add(fn);
      return () => timers.delete(fn);
    },
    pending: () => timers.size,
    fire: () => {
      const fns = [...timers];
      timers.clear();
      for (const fn of fns) fn();
    },
  };
}

/** Acquires in order; records the order in which the grants arrive. */
async function grants(
  a: Admission,
  projects: string[],
): Promise<{ granted: string[]; settle: () => Promise<void> }> {
  const granted: string[] = [];
  projects.forEach((p, i) => void a.acquire(p).then(() => granted.push(`${p}#${i}`)));
  const settle = () => new Promise<void>((r) => setImmediate(r));
  await settle();
  return { granted, settle };
}

describe("Admission", () => {
  test("declared project by project, the engine's steps go to every project in turn", async () => {
    const t = manualTimer();
    const a = new Admission(8, { schedule: t.schedule });
    const declared = ["p1", "p2", "p3", "p4", "p5"].flatMap((p) => Array<string>(20).fill(p));
    const { granted } = await grants(a, declared);
    // Two per project (more than the 8 when five projects have work): each has its next create queued.
    expect(granted).toHaveLength(10);
    expect(a.snapshot()).toEqual({ p1: 2, p2: 2, p3: 2, p4: 2, p5: 2 });
  });

  test("a finished registration lets in the next one of the project with the fewest in flight", async () => {
    const t = manualTimer();
    const a = new Admission(3, { perProject: 1, schedule: t.schedule });
    const { granted, settle } = await grants(a, ["a", "a", "a", "b", "b", "c"]);
    expect(granted).toEqual(["a#0", "b#3", "c#5"]);
    a.release("a");
    await settle();
    // a has 0 in flight now, b and c have 1: a's next, in declaration order.
    expect(granted).toEqual(["a#0", "b#3", "c#5", "a#1"]);
    a.release("c");
    await settle();
    // c has none waiting; a and b have 1 each: the older waiting one (a#2) goes first.
    expect(granted.slice(4)).toEqual(["a#2"]);
    a.release("b");
    await settle();
    expect(granted.slice(5)).toEqual(["b#4"]);
    expect(a.snapshot()).toEqual({ a: 2, b: 1 });
  });

  test("one project alone gets the whole limit", async () => {
    const a = new Admission(4, { schedule: manualTimer().schedule });
    const { granted } = await grants(a, Array<string>(10).fill("p"));
    expect(granted).toHaveLength(4);
  });

  test("a stall (no registration ends while others wait) opens the admission for good", async () => {
    const t = manualTimer();
    const a = new Admission(2, { perProject: 1, schedule: t.schedule });
    const { granted, settle } = await grants(a, ["a", "a", "a", "b"]);
    expect(granted).toHaveLength(2);
    expect(t.pending()).toBe(1);
    t.fire();
    await settle();
    expect(a.opened).toBe(true);
    expect(granted).toHaveLength(4);
    await a.acquire("c"); // resolves at once
    expect(t.pending()).toBe(0);
  });

  test("a release restarts the stall timer; nothing waiting, no timer", async () => {
    const t = manualTimer();
    const a = new Admission(1, { perProject: 1, schedule: t.schedule });
    const { granted, settle } = await grants(a, ["a", "a"]);
    expect(t.pending()).toBe(1);
    a.release("a");
    await settle();
    expect(granted).toEqual(["a#0", "a#1"]);
    expect(t.pending()).toBe(0);
    expect(a.opened).toBe(false);
  });

  test("past the limit, two per project with work (a second create queued behind each first)", async () => {
    const a = new Admission(2, { schedule: manualTimer().schedule });
    const { granted } = await grants(a, ["a", "a", "a", "b", "b", "b", "c", "c", "c"]);
    expect(a.snapshot()).toEqual({ a: 2, b: 2, c: 2 });
    expect(granted).toHaveLength(6);
  });

  test("refuses a limit below 1 and a release without an acquire", () => {
    expect(() => new Admission(0)).toThrow(/at least 1/);
    expect(() => new Admission(2).release("x")).toThrow(/without an acquire/);
  });
});
