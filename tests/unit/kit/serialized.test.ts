import { Runtime } from "../../../provider/resources/runtime";

// Each test builds its own runtime: queues belong to one provider instance.
const rt = new Runtime();
const serialized = <T>(projectId: string, fn: () => Promise<T>) => rt.serialized(projectId, fn);

describe("serialized (one change per project at a time)", () => {
  it("runs calls of one project one after the other, and other projects alongside", async () => {
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const a1 = serialized("p1", async () => {
      events.push("a1 start");
      await gate;
      events.push("a1 end");
    });
    const a2 = serialized("p1", async () => {
      events.push("a2 start");
    });
    const b1 = serialized("p2", async () => {
      events.push("b1 start");
    });
    await b1;
    expect(events).toEqual(["a1 start", "b1 start"]);
    release();
    await Promise.all([a1, a2]);
    expect(events).toEqual(["a1 start", "b1 start", "a1 end", "a2 start"]);
  });

  it("lets the next call run after a failure, and passes the failure to its own caller", async () => {
    const failing = serialized("p3", async () => {
      throw new Error("boom");
    });
    const next = serialized("p3", async () => "ran");
    await expect(failing).rejects.toThrow("boom");
    await expect(next).resolves.toBe("ran");
  });
});
