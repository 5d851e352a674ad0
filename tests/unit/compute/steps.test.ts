/**
 * The compute steps the lifecycle hands off to, on their own: the create decision, the listing
 * cache, the preflight of a replacement or move, and the recovery helpers. Their I/O is a fake
 * client (tests/support/fake-api.ts); no network, no clock.
 */
import { decide } from "../../../provider/resources/compute/create";
import type { ComputeInputs } from "../../../provider/resources/compute/types";
import { KnownComputes } from "../../../provider/resources/compute/known";
import { preflight } from "../../../provider/resources/compute/preflight";
import { neverStarted, operationsOf } from "../../../provider/resources/compute/recovery";
import { endpoint, fakeApi, operation } from "../../support/fake-api";

const inputs = (over: Partial<ComputeInputs> = {}): ComputeInputs => ({
  projectId: "p-1",
  branchId: "br-a",
  type: "read_write",
  ...over,
});

describe("decide: what a create does with the branch's computes", () => {
  const primary = endpoint({ id: "ep-primary", branch_id: "br-a", name: "primary" });
  const leftover = endpoint({ id: "ep-left", branch_id: "br-a", type: "read_only", name: "mine-1234567" });

  it("creates on an empty branch, and a read replica beside a primary", () => {
    expect(decide([], inputs(), true)).toEqual({ kind: "create" });
    expect(decide([primary], inputs({ type: "read_only", name: "other" }), true)).toEqual({ kind: "create" });
  });

  it("finishes the compute carrying its own auto-name (an interrupted run's)", () => {
    const i = inputs({ type: "read_only", name: "mine-1234567" });
    expect(decide([primary, leftover], i, true)).toEqual({ kind: "finish", endpoint: leftover });
  });

  it("refuses, naming the exact importId, a compute carrying the name the program chose, for both types", () => {
    const ro = decide([primary, leftover], inputs({ type: "read_only", name: "mine-1234567" }), false);
    expect(ro).toMatchObject({ kind: "refuse", message: expect.stringContaining('importId: "p-1/ep-left"') });
    const rw = decide([primary], inputs({ name: "primary" }), false);
    expect(rw).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining('importId: "p-1/ep-primary"'),
    });
  });

  it("adopts the primary only when asked, and otherwise says the slot is taken", () => {
    expect(decide([primary], inputs({ adoptExistingPrimary: true }), true)).toEqual({
      kind: "adopt",
      endpoint: primary,
    });
    expect(decide([primary], inputs({ name: "new" }), true)).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(/already has read_write compute ep-primary.*adoptExistingPrimary/),
    });
  });
});

describe("KnownComputes: one listing per project, kept by the changes made through it", () => {
  it("reads a project once for all its branches, and again after it is dropped", async () => {
    const f = fakeApi([
      endpoint({ id: "ep-1", branch_id: "br-a" }),
      endpoint({ id: "ep-2", branch_id: "br-b" }),
    ]);
    const known = new KnownComputes(f.api);
    expect((await known.branch("p-1", "br-a")).map((e) => e.id)).toEqual(["ep-1"]);
    expect((await known.branch("p-1", "br-b")).map((e) => e.id)).toEqual(["ep-2"]);
    expect(f.calls).toEqual(["endpoints.list p-1"]);
    known.invalidate("p-1");
    await known.branch("p-1", "br-a");
    expect(f.calls).toEqual(["endpoints.list p-1", "endpoints.list p-1"]);
  });

  it("remembers what it created and forgets what it deleted, without reading", async () => {
    const f = fakeApi([endpoint({ id: "ep-1", branch_id: "br-a" })]);
    const known = new KnownComputes(f.api);
    await known.branch("p-1", "br-a");
    await known.remember(endpoint({ id: "ep-new", branch_id: "br-a" }));
    await known.forget("p-1", "ep-1");
    expect((await known.branch("p-1", "br-a")).map((e) => e.id)).toEqual(["ep-new"]);
    expect(f.calls).toEqual(["endpoints.list p-1"]);
  });

  it("drops the listing when a change through it fails, and reads fresh when asked", async () => {
    const f = fakeApi([endpoint({ id: "ep-1", branch_id: "br-a" })]);
    const known = new KnownComputes(f.api);
    await known.branch("p-1", "br-a");
    await expect(known.changing("p-1", async () => Promise.reject(new Error("lost")))).rejects.toThrow(
      "lost",
    );
    await known.branch("p-1", "br-a");
    expect(f.calls.filter((c) => c.startsWith("endpoints.list "))).toHaveLength(2);
    await known.fresh("p-1", "br-a");
    expect(f.calls.at(-1)).toBe("endpoints.listByBranch br-a");
  });
});

describe("preflight: before a replacement deletes, or a move PATCHes", () => {
  const target = { projectId: "p-1", branchId: "br-b", type: "read_write" };

  it("names projectId when the key cannot see the project, and stops there", async () => {
    const f = fakeApi([]);
    expect(await preflight(f.api, target, "replace")).toEqual([
      { property: "projectId", reason: expect.stringMatching(/cannot see this project/) },
    ]);
  });

  it("names branchId for a branch not in the project, a taken read_write slot, or another region", async () => {
    const f = fakeApi([endpoint({ id: "ep-rw", branch_id: "br-b" })]);
    f.branches.delete("br-b");
    expect(await preflight(f.api, target, "move")).toEqual([
      { property: "branchId", reason: expect.stringMatching(/no such branch/) },
    ]);
    f.branches.add("br-b");
    const failures = await preflight(f.api, { ...target, regionId: "aws-eu-1" }, "replace");
    expect(failures.map((x) => x.property)).toEqual(["regionId", "branchId"]);
    expect(failures[1].reason).toMatch(/already has a read_write compute \(ep-rw\)/);
  });

  it("lets the compute being moved keep its own slot, and a replacement that adopts take a taken one", async () => {
    const f = fakeApi([endpoint({ id: "ep-rw", branch_id: "br-b" })]);
    expect(await preflight(f.api, { ...target, currentEndpointId: "ep-rw" }, "move")).toEqual([]);
    expect(await preflight(f.api, { ...target, adoptExistingPrimary: true }, "replace")).toEqual([]);
  });

  it("names name when another compute of the branch carries the explicit name and type", async () => {
    const f = fakeApi([
      endpoint({ id: "ep-old", branch_id: "br-b", type: "read_only", name: "replica" }),
      endpoint({ id: "ep-other", branch_id: "br-b", type: "read_only", name: "replica" }),
      endpoint({ id: "ep-rw", branch_id: "br-b", type: "read_write", name: "replica" }),
    ]);
    const ro = { ...target, type: "read_only", name: "replica" };
    // The compute being replaced does not count; another one with that name and type does.
    expect(await preflight(f.api, { ...ro, currentEndpointId: "ep-other" }, "replace")).toEqual([
      {
        property: "name",
        reason: expect.stringMatching(/compute ep-old .*already carries this name and type/),
      },
    ]);
    f.endpoints.splice(0, 1);
    expect(await preflight(f.api, { ...ro, currentEndpointId: "ep-other" }, "replace")).toEqual([]);
    // A read_write compute of that name is "the slot is taken", said once.
    expect((await preflight(f.api, { ...ro, type: "read_write" }, "replace")).map((x) => x.property)).toEqual(
      ["branchId"],
    );
  });

  it("refuses a size above the free plan's on a replacement", async () => {
    const f = fakeApi([endpoint({ id: "ep-ro", branch_id: "br-b", type: "read_only" })]);
    f.projects.set("p-1", { id: "p-1", region_id: "aws-us-east-2", owner: { subscription_type: "free_v3" } });
    expect(await preflight(f.api, { ...target, maxCu: 4 }, "replace")).toEqual([
      { property: "maxCu", reason: expect.stringMatching(/above the free plan's 2 CU/) },
    ]);
  });
});

describe("recovery helpers", () => {
  it("operationsOf keeps the compute's unfinished operations, and its failures only when asked", async () => {
    const f = fakeApi(
      [],
      [
        operation({ id: "o-run", endpoint_id: "ep-1", status: "running" }),
        operation({ id: "o-failed", endpoint_id: "ep-1", status: "error" }),
        operation({ id: "o-done", endpoint_id: "ep-1", status: "finished" }),
        operation({ id: "o-other", endpoint_id: "ep-2", status: "running" }),
        operation({
          id: "o-old",
          endpoint_id: "ep-1",
          status: "running",
          created_at: "2025-01-01T00:00:00Z",
        }),
      ],
    );
    const ids = async (opts: { includeFailed: boolean; sinceMs?: number }) =>
      (await operationsOf(f.api, "p-1", "ep-1", opts)).map((o) => o.id);
    expect(await ids({ includeFailed: false })).toEqual(["o-run", "o-old"]);
    expect(await ids({ includeFailed: true })).toEqual(["o-run", "o-failed", "o-old"]);
    expect(await ids({ includeFailed: true, sinceMs: Date.parse("2026-01-01T00:00:00Z") })).toEqual([
      "o-run",
      "o-failed",
    ]);
  });

  it("neverStarted: init, or idle without a start; on endpoints and on outputs", () => {
    expect(neverStarted({ current_state: "init" })).toBe(true);
    expect(neverStarted({ current_state: "idle" })).toBe(true);
    expect(neverStarted({ current_state: "idle", started_at: "t" })).toBe(false);
    expect(neverStarted({ currentState: "active" })).toBe(false);
    expect(neverStarted({ currentState: "idle", lastActive: "t" })).toBe(false);
  });
});
