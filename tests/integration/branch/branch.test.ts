/**
 * `Branch` against the emulator over real HTTP, its steps called as the engine calls them: a branch
 * and its compute in one request, usable when create returns; a lost answer and a killed run
 * reconciled by name (never a second branch); a stranger's name refused with its importId; renames,
 * resizes and resets in place; the default branch adopted and left in place; a default, protected or
 * parent branch not deleted, the error saying which.
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import { createNeonClient, type NeonClient } from "../../../provider/api";
import { autoName } from "../../../provider/resources/branch/mapping";
import { ownerAnnotations, UNKNOWN } from "../../../provider/resources/kit";
import { boundResource, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let logs: string[] = [];
let impl: ReturnType<typeof boundResource>;

const urn = (name: string) => urnOf("Branch", name);

async function checked(name: string, inputs: Props, olds: Props = {}): Promise<Props> {
  const r = await impl.check(olds, { projectId, __provider: "shim", __urn: urn(name), ...inputs });
  expect(r.failures ?? []).toEqual([]);
  return r.inputs;
}

async function create(name: string, inputs: Props) {
  const c = await impl.create(await checked(name, inputs));
  return { id: c.id, outs: c.outs as Props };
}

const mutations = () => mutationCount(emulator);

const branchesNamed = async (name: string) =>
  (await api.branches.list(projectId)).filter((b) => b.name === name);

withEmulator(
  { opMs: 40, seed: 23 },
  (e, client) => {
    emulator = e;
    api = client;
    projectId = emulator.seed.projectId;
  },
  { resetEach: true },
);

beforeEach(() => {
  emulator.setFaults({});
  logs = [];
  impl = boundResource("Branch", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));
});

describe("create", () => {
  it("creates the branch and its compute in one request, ready and started when create returns", async () => {
    const before = emulator.requestsByRoute()["POST /projects/:project_id/branches"] ?? 0;
    const c = await create("pr-1", { name: "pr-1", compute: { minCu: 0.25, maxCu: 1 } });
    expect(emulator.requestsByRoute()["POST /projects/:project_id/branches"]).toBe(before + 1);
    expect(emulator.requestsByRoute()["POST /projects/:project_id/endpoints"] ?? 0).toBe(0);
    const b = await api.branches.get(projectId, c.id);
    expect(b.current_state).toBe("ready");
    const ep = await api.endpoints.get(projectId, c.outs.computeId as string);
    expect([ep.type, ep.current_state, ep.autoscaling_limit_min_cu, ep.autoscaling_limit_max_cu]).toEqual([
      "read_write",
      "active",
      0.25,
      1,
    ]);
    expect(c.outs).toMatchObject({ name: "pr-1", default: false, protected: false, host: ep.host });
    expect(c.outs.parentId).toBe(emulator.seed.defaultBranchId);
  });

  it("an auto-named branch a killed run left (its annotation names this resource) is finished, not created twice", async () => {
    const name = autoName(urn("env"), projectId);
    const left = await api.branches.create(projectId, {
      branch: { name },
      annotation_value: ownerAnnotations(urn("env")),
    });
    const c = await create("env", {});
    expect(c.id).toBe(left.branch.id);
    expect(await branchesNamed(name)).toHaveLength(1);
    expect(logs.join("\n")).toMatch(/made for this resource by an earlier run of this stack .*; managing it/);
  });

  it("safe rerun: a branch this resource made before its state was lost is managed again, said at preview", async () => {
    const first = await create("pr-7", { name: "pr-7", compute: { cu: 0.25 } });
    // The state is gone (a fresh backend): a new run of the same stack and resource.
    impl = boundResource("Branch", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));
    const before = emulator.requestsByRoute()["POST /projects/:project_id/branches"] ?? 0;
    const inputs = await checked("pr-7", { name: "pr-7", compute: { cu: 0.25 } });
    expect(logs.join("\n")).toMatch(/`pulumi up` manages it instead of creating one/);
    const again = await impl.create(inputs);
    expect(again.id).toBe(first.id);
    expect(emulator.requestsByRoute()["POST /projects/:project_id/branches"] ?? 0).toBe(before);
    expect(await branchesNamed("pr-7")).toHaveLength(1);
    expect(logs.join("\n")).toMatch(
      /found branch .* made for this resource by an earlier run of this stack \(neon-it\/dev/,
    );
  });

  it("a name another stack's branch holds is refused at preview naming that stack; another resource's of this stack too", async () => {
    const other = urn("db").replace("urn:pulumi:dev::neon-it::", "urn:pulumi:pr-41::acme::");
    const theirs = await api.branches.create(projectId, {
      branch: { name: "shared" },
      annotation_value: ownerAnnotations(other),
    });
    const r = await impl.check({}, { projectId, __provider: "shim", __urn: urn("mine"), name: "shared" });
    expect(r.failures).toEqual([
      {
        property: "name",
        reason: expect.stringMatching(
          new RegExp(
            `stack acme/pr-41 made it, so this stack does not take it over.*importId: "${projectId}/${theirs.branch.id}"`,
          ),
        ),
      },
    ]);
    await api.branches.create(projectId, {
      branch: { name: "sibling" },
      annotation_value: ownerAnnotations(urn("a")),
    });
    const s2 = await impl.check({}, { projectId, __provider: "shim", __urn: urn("b"), name: "sibling" });
    expect(s2.failures?.[0].reason).toMatch(/for another resource of this stack/);
  });

  it("a lost answer is reconciled by the name: one branch", async () => {
    const inputs = await checked("lost", { name: "lost-answer" });
    // Every answer to a change is lost (the change is made); reads answer as usual.
    emulator.setFaults({ dropAfterCommitRate: 1 });
    const c = await impl.create(inputs);
    emulator.setFaults({});
    expect(logs.join("\n")).toMatch(
      /the answer to the create request was lost; found branch .*, which it created/,
    );
    expect(await branchesNamed("lost-answer")).toHaveLength(1);
    expect(c.id).toBe((await branchesNamed("lost-answer"))[0].id);
  });

  it("a name held by a branch no annotation names fails naming its importId, at preview and at up, changing nothing", async () => {
    const stranger = await api.branches.create(projectId, { branch: { name: "taken" } });
    const news = { projectId, __provider: "shim", __urn: urn("mine"), name: "taken" };
    const r = await impl.check({}, news);
    expect(r.failures?.map((f) => f.reason)).toEqual([
      expect.stringMatching(
        new RegExp(`no annotation says which stack made it.*importId: "${projectId}/${stranger.branch.id}"`),
      ),
    ]);
    const before = mutations();
    // At up, the same (the create step reads the name again before sending anything).
    await expect(impl.create(news)).rejects.toThrow(
      new RegExp(`importId: "${projectId}/${stranger.branch.id}"`),
    );
    expect(mutations()).toBe(before);
    expect(await branchesNamed("taken")).toHaveLength(1);
  });

  it("a name taken after the check (a 409 at create) is judged as the check would have: this resource's managed, a stranger's refused", async () => {
    const posts = () => emulator.requestsByRoute()["POST /projects/:project_id/branches"] ?? 0;
    // Checked while the name was free; then an earlier run of this very resource made it.
    const mine = await checked("late", { name: "late-own" });
    const left = await api.branches.create(projectId, {
      branch: { name: "late-own" },
      annotation_value: ownerAnnotations(urn("late")),
    });
    let before = posts();
    const c = await impl.create(mine);
    expect(c.id).toBe(left.branch.id);
    expect(posts()).toBe(before + 1); // the create, answered 409
    expect(await branchesNamed("late-own")).toHaveLength(1);
    expect(logs.join("\n")).toMatch(/the name is held by branch .*made for this resource by an earlier run/);
    // Checked while free; then someone else took the name: refused naming the importId, nothing changed.
    const theirs = await checked("late2", { name: "late-other" });
    const stranger = await api.branches.create(projectId, { branch: { name: "late-other" } });
    before = mutations();
    await expect(impl.create(theirs)).rejects.toThrow(
      new RegExp(`importId: "${projectId}/${stranger.branch.id}".*Nothing was changed`),
    );
    expect(mutations()).toBe(before + 1); // the refused create only
    expect(await branchesNamed("late-other")).toHaveLength(1);
  });

  it("what a new branch with its compute costs: the check reads the project and the listing once each, the create sends one request and waits; its outputs are what a refresh reads", async () => {
    const count = () => ({ ...emulator.requestsByRoute() });
    const delta = (a: Record<string, number>, b: Record<string, number>) =>
      Object.fromEntries(
        Object.entries(b)
          .map(([k, v]) => [k, v - (a[k] ?? 0)] as const)
          .filter(([k, v]) => v > 0 && k !== "GET /projects/:project_id/operations"),
      );
    const t0 = count();
    const inputs = await checked("cost", { name: "cost", compute: { minCu: 0.25, maxCu: 1 } });
    const t1 = count();
    expect(delta(t0, t1)).toEqual({
      "GET /projects/:project_id": 1,
      "GET /projects/:project_id/branches": 1,
    });
    const made = await impl.create({ ...inputs, annotations: { pr: "42" } });
    expect(delta(t1, count())).toEqual({ "POST /projects/:project_id/branches": 1 });
    const outs = made.outs as Props;
    expect(outs).toMatchObject({ currentState: "ready", computeState: "active", annotations: { pr: "42" } });
    const read = await impl.read(made.id, outs);
    expect(read.props).toEqual(outs);
  });

  it("an auto-named branch without this resource's annotation is never taken over", async () => {
    const name = autoName(urn("env2"), projectId);
    await api.branches.create(projectId, { branch: { name } });
    const r = await impl.check({}, { projectId, __provider: "shim", __urn: urn("env2") });
    // No name input to blame: the engine reports the resource itself, and the remedy is a name of its own.
    expect(r.failures?.[0]).toMatchObject({
      property: "",
      reason: expect.stringMatching(/no annotation.*set name to give this branch a name of its own/),
    });
  });

  it("follows the listing's pages: finds a branch on page 3", async () => {
    const paged = await startEmulator({ opMs: 10, seed: 23, branchPageCap: 10 });
    try {
      const pagedApi = createNeonClient({ apiKey: paged.apiKey, baseUrl: paged.url });
      const p = paged.seed.projectId; // 25 branches: main, dev-01 … dev-24
      const all = await pagedApi.branches.list(p);
      expect(all).toHaveLength(25);
      expect(paged.requestsByRoute()["GET /projects/:project_id/branches"]).toBe(3);
      const last = all[all.length - 1];
      expect(
        (await pagedApi.branches.listAnnotated(p, { search: last.name })).map((x) => x.branch.id),
      ).toContain(last.id);
    } finally {
      await paged.stop();
    }
  });
});

describe("annotations", () => {
  it("the program's annotations go with the provider's at create; the provider's keys are refused; a change is said, not sent", async () => {
    const c = await create("tagged", { name: "tagged-1", annotations: { pr: "42", repo: "acme/api" } });
    const got = await api.branches.getAnnotated(projectId, c.id);
    expect(got.annotation).toMatchObject({
      pr: "42",
      repo: "acme/api",
      "pulumi-stack": "dev",
      "pulumi-project": "neon-it",
    });
    expect(c.outs.annotations).toEqual({ pr: "42", repo: "acme/api" });

    const bad = await impl.check(
      {},
      { projectId, __provider: "shim", __urn: urn("t2"), name: "t2", annotations: { "pulumi-stack": "x" } },
    );
    expect(bad.failures?.[0]).toMatchObject({
      property: "annotations",
      reason: expect.stringMatching(/provider's own keys/),
    });

    const news = await checked("tagged", { name: "tagged-1", annotations: { pr: "43" } }, c.outs);
    const before = mutations();
    const d = await impl.diff(c.id, c.outs, news);
    expect(d.changes).toBe(false);
    expect(logs.join("\n")).toMatch(/offers no way to change a branch's annotations once it exists/);
    expect(mutations()).toBe(before);
  });
  it("the annotations output is what the branch carries: an update of another input keeps it, refresh and importId read it", async () => {
    const c = await create("carried", { name: "carried-1", annotations: { pr: "7" } });
    // A declared change the service cannot apply, beside a rename it can.
    const news = await checked("carried", { name: "carried-2", annotations: { pr: "8" } }, c.outs);
    const u = await impl.update(c.id, c.outs, news);
    expect(u.outs?.name).toBe("carried-2");
    expect(u.outs?.annotations).toEqual({ pr: "7" });
    // So the next preview still says it, instead of taking the declared map for applied.
    logs = [];
    await impl.diff(c.id, u.outs as Props, news);
    expect(logs.join("\n")).toMatch(/offers no way to change a branch's annotations/);

    const r = await impl.read(c.id, u.outs as Props);
    expect(r.props?.annotations).toEqual({ pr: "7" });

    // An unannotated branch imported: no annotations output; declaring some it lacks is refused.
    const plain = await api.branches.create(projectId, { branch: { name: "plain-1" } });
    await api.waitForOperations(projectId, plain.operations);
    const importId = `${projectId}/${plain.branch.id}`;
    const refused = await impl.check(
      {},
      {
        projectId,
        __provider: "shim",
        __urn: urn("plain"),
        name: "plain-1",
        importId,
        annotations: { pr: "1" },
      },
    );
    expect(refused.failures?.[0]).toMatchObject({
      property: "importId",
      reason: expect.stringMatching(/annotations: the branch does not carry the declared "pr"/),
    });
    // Values may be secrets: the message names keys, never values.
    expect(refused.failures?.[0].reason).not.toContain('"1"');
    // No annotations declared as an empty map: nothing to differ.
    const empty = await impl.check(
      {},
      {
        projectId,
        __provider: "shim",
        __urn: urn("plain-empty"),
        importId,
        annotations: {},
      },
    );
    expect(empty.failures ?? []).toEqual([]);
    // The default branch exists already: annotations cannot be given to it.
    const adopt = await impl.check(
      {},
      { projectId, __provider: "shim", __urn: urn("def"), adoptDefault: true, annotations: { pr: "1" } },
    );
    expect(adopt.failures).toContainEqual(
      expect.objectContaining({ property: "annotations", reason: expect.stringMatching(/adoptDefault/) }),
    );
    const imported = await create("plain", { name: "plain-1", importId });
    expect(imported.outs.annotations).toBeUndefined();
  });
});

describe("branch budget at preview", () => {
  it("reads the project and its branches at once: the listing is asked before the project's answer", async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    // Without an expiry (the budget's read) and with one (whose judgement reads the project first).
    for (const extra of [{}, { expiresAt }]) {
      const fresh = boundResource("Branch", { apiKey: emulator.apiKey, apiUrl: emulator.url }, () => {});
      const project = emulator.holdAnswers("GET /projects/:project_id");
      const listing = emulator.holdAnswers("GET /projects/:project_id/branches");
      const listed = () => emulator.requestsByRoute()["GET /projects/:project_id/branches"] ?? 0;
      const before = listed();
      const name = `at-once-${Object.keys(extra).length}`;
      const check = fresh.check({}, { projectId, __provider: "shim", __urn: urn(name), name, ...extra });
      // Both carried out while neither is answered: the listing did not wait for the project's read
      // (one after the other, it would never come while the project's answer is held).
      try {
        await Promise.all([project.received(), listing.received()]);
      } finally {
        // Released whatever happens: a hold left in place would hang the file's later reads.
        project.release();
        listing.release();
      }
      expect((await check).failures ?? []).toEqual([]);
      // One listing answered the budget and the name.
      expect(listed()).toBe(before + 1);
    }
  });

  it("a new branch past the plan's branch limit fails at preview with the count, the limit and the oldest sweepable branches", async () => {
    const free = emulator.seed.freeProjectId; // Free plan: 10 branches; seeded with main and dev-01
    const other = urn("x").replace("urn:pulumi:dev::neon-it::", "urn:pulumi:pr-41::acme::");
    const leaked = await api.branches.create(free, {
      branch: { name: "leaked" },
      annotation_value: ownerAnnotations(other),
    });
    await api.waitForOperations(free, leaked.operations);
    for (let n = 0; n < 5; n++) {
      const r = await api.branches.create(free, { branch: { name: `filler-${n}` } });
      await api.waitForOperations(free, r.operations);
    }
    // The default branch adopted by this run is one of the project's 8, not a new one.
    const adopt = await impl.check(
      {},
      { projectId: free, __provider: "shim", __urn: urn("default"), adoptDefault: true },
    );
    expect((await impl.create(adopt.inputs)).id).toBe(emulator.seed.freeProjectBranchId);
    // 8 branches: two new ones of this program fit, a third does not.
    const check = (name: string) =>
      impl.check({}, { projectId: free, __provider: "shim", __urn: urn(name), name });
    expect((await check("b1")).failures ?? []).toEqual([]);
    expect((await check("b2")).failures ?? []).toEqual([]);
    const before = mutations();
    const third = await check("b3");
    expect(third.failures).toEqual([
      {
        property: "projectId",
        reason: expect.stringMatching(
          new RegExp(
            `project ${free} holds 8 branches and its plan allows 10; this program adds 3, so this branch would exceed ` +
              `the limit.*the oldest this package made: branch ${leaked.branch.id} \\("leaked"\\).*made by stack acme/pr-41.*` +
              "examples/sweep/sweep.ts deletes those whose stack no longer exists",
          ),
        ),
      },
    ]);
    expect(mutations()).toBe(before);
  });
});

describe("update", () => {
  it("renames and resizes in place, keeping the ids", async () => {
    const c = await create("upd", { name: "upd-1", compute: { cu: 0.25 } });
    const news = await checked("upd", { name: "upd-2", compute: { cu: 0.5 } }, c.outs);
    const d = await impl.diff(c.id, c.outs, news);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const u = await impl.update(c.id, c.outs, news);
    const outs = u.outs as Props;
    expect([outs.name, outs.computeId]).toEqual(["upd-2", c.outs.computeId]);
    const ep = await api.endpoints.get(projectId, c.outs.computeId as string);
    expect([ep.autoscaling_limit_min_cu, ep.autoscaling_limit_max_cu]).toEqual([0.5, 0.5]);
    const again = await checked("upd", { name: "upd-2", compute: { cu: 0.5 } }, outs);
    expect((await impl.diff(c.id, outs, again)).changes).toBe(false);
  });

  it("resetTrigger resets to the parent through restore, keeping the id, and says so at preview", async () => {
    const c = await create("reset", { name: "reset-me", resetTrigger: "1" });
    const news = await checked("reset", { name: "reset-me", resetTrigger: "2" }, c.outs);
    await impl.diff(c.id, c.outs, news);
    expect(logs.join("\n")).toMatch(/will be reset to its parent's latest data/);
    const before = emulator.requestsByRoute()["POST /projects/:project_id/branches/:branch_id/restore"] ?? 0;
    await impl.update(c.id, c.outs, news);
    expect(emulator.requestsByRoute()["POST /projects/:project_id/branches/:branch_id/restore"]).toBe(
      before + 1,
    );
    expect((await api.branches.get(projectId, c.id)).current_state).toBe("ready");
  });

  it("a reset of a branch with children keeps its old state as a new branch holding them, and says so; a managed child is not replaced", async () => {
    const c = await create("reset-p", { name: "reset-parent", resetTrigger: "1" });
    const managed = await create("reset-c", { name: "reset-child", parentId: c.id });
    const child = { branch: { id: managed.id } };
    const news = await checked("reset-p", { name: "reset-parent", resetTrigger: "2" }, c.outs);
    await impl.diff(c.id, c.outs, news);
    expect(logs.join("\n")).toMatch(
      /it has child branches \(br-[^)]+\), so its state before the reset is kept/,
    );
    await impl.update(c.id, c.outs, news);
    const kept = (await api.branches.list(projectId)).find((b) =>
      b.name.startsWith("reset-parent-before-reset-"),
    );
    expect(kept).toBeDefined();
    expect((await api.branches.get(projectId, child.branch.id)).parent_id).toBe(kept?.id);
    expect(logs.join("\n")).toMatch(/is kept as the new branch "reset-parent-before-reset-\d{8}-\d{6}"/);
    expect((await api.branches.get(projectId, c.id)).current_state).toBe("ready");
    // The child's resource, refreshed: its parentId is still the branch it was made from, so its next
    // diff changes nothing (a new parent would replace it and lose its data).
    const read = await impl.read(managed.id, managed.outs);
    expect((read.props as Props).parentId).toBe(c.id);
    const childNews = await checked("reset-c", { name: "reset-child", parentId: c.id }, read.props as Props);
    expect(await impl.diff(managed.id, read.props as Props, childNews)).toMatchObject({ changes: false });
  });
});

describe("delete", () => {
  it("deletes and waits; a branch already gone is fine", async () => {
    const c = await create("del", { name: "del-1" });
    await impl.delete(c.id, c.outs);
    await expect(api.branches.get(projectId, c.id)).rejects.toThrow();
    await impl.delete(c.id, c.outs);
  });

  it("a parent branch and a protected one are not deleted, the error saying why; a plain delete lists nothing", async () => {
    const parent = await create("parent", { name: "parent-1" });
    await create("child", { name: "child-1", parentId: parent.id });
    const deletes = () => emulator.requestsByRoute()["DELETE /projects/:project_id/branches/:branch_id"] ?? 0;
    const lists = () => emulator.requestsByRoute()["GET /projects/:project_id/branches"] ?? 0;
    // A parent: the service refuses the delete (its state cannot know of children made elsewhere), and
    // one listing says why.
    const [sentBefore, listedBefore] = [deletes(), lists()];
    await expect(impl.delete(parent.id, parent.outs)).rejects.toThrow(
      /it has child branches .*delete them first.*Nothing was deleted/,
    );
    expect([deletes() - sentBefore, lists() - listedBefore]).toEqual([1, 1]);
    expect((await api.branches.get(projectId, parent.id)).id).toBe(parent.id);
    // Protected by the stack: its state says so, and nothing is sent.
    const guarded = await create("guarded", { name: "guarded-1", protected: true });
    const sent = deletes();
    await expect(impl.delete(guarded.id, guarded.outs)).rejects.toThrow(
      /it is protected.*Nothing was deleted/,
    );
    expect(deletes()).toBe(sent);
    // Protected outside the stack: the service refuses, and the error still says why.
    const outside = await create("outside", { name: "outside-1" });
    const u = await api.branches.update(projectId, outside.id, { protected: true });
    await api.waitForOperations(projectId, u.operations);
    const sentOutside = deletes();
    await expect(impl.delete(outside.id, outside.outs)).rejects.toThrow(
      /it is protected.*Nothing was deleted/,
    );
    expect(deletes()).toBe(sentOutside + 1);
    expect((await api.branches.get(projectId, outside.id)).protected).toBe(true);
    // A delete the service accepts needs no listing first.
    const plain = await create("plain", { name: "plain-1" });
    const before = lists();
    await impl.delete(plain.id, plain.outs);
    expect(lists()).toBe(before);
  });

  it("adoptDefault manages the default branch, and destroy leaves it in place", async () => {
    const c = await create("main", { adoptDefault: true, protected: false });
    expect(c.id).toBe(emulator.seed.defaultBranchId);
    expect(c.outs).toMatchObject({ adopted: true, default: true });
    const before = mutations();
    await impl.delete(c.id, c.outs);
    expect(mutations()).toBe(before);
    expect(logs.join("\n")).toMatch(
      /left branch .* in place: it existed before this stack adopted it \(adoptDefault\)/,
    );
    expect((await api.branches.get(projectId, c.id)).id).toBe(c.id);
  });
});

describe("check", () => {
  it("refuses an expiry beyond 30 days and a compute size that is not offered, naming the property", async () => {
    const far = new Date(Date.now() + 40 * 24 * 3600 * 1000).toISOString();
    const r = await impl.check({}, { projectId, __urn: urn("x"), expiresAt: far, compute: { cu: 3.5 } });
    expect((r.failures ?? []).map((f) => f.property).sort()).toEqual(["compute", "expiresAt"]);
    expect(r.failures?.find((f) => f.property === "compute")?.reason).toMatch(/^compute\.cu /);
  });
});

describe("replacement", () => {
  it("the engine's second check of a replacement neither finds its old branch nor counts it", async () => {
    const parent = await create("other-parent", { name: "other-parent" });
    const old = await create("moved", { name: "moved-1" });
    const news = await checked("moved", { name: "moved-1", parentId: parent.id }, old.outs);
    expect(await impl.diff(old.id, old.outs, news)).toMatchObject({
      replaces: ["parentId"],
      deleteBeforeReplace: true,
    });
    logs = [];
    // As the engine does for a replacement: check again without olds, then delete, then create.
    const again = await checked("moved", { name: "moved-1", parentId: parent.id });
    expect(logs.join("\n")).not.toMatch(/manages it instead of creating one/);
    await impl.delete(old.id, old.outs);
    const made = await impl.create(again);
    expect(made.id).not.toBe(old.id);
    expect((await branchesNamed("moved-1")).map((b) => [b.id, b.parent_id])).toEqual([[made.id, parent.id]]);
  });
});

describe("expiresAt", () => {
  it("is set and cleared in place, and the service's spelling of the same instant is no change", async () => {
    const at = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    at.setUTCMilliseconds(0);
    const given = at.toISOString().replace(".000Z", "Z");
    const c = await create("exp", { name: "exp-1", expiresAt: given });
    expect(Date.parse(String(c.outs.expiresAt))).toBe(at.getTime());
    const same = await checked("exp", { name: "exp-1", expiresAt: given }, c.outs);
    expect((await impl.diff(c.id, c.outs, same)).changes).toBe(false);
    const cleared = await checked("exp", { name: "exp-1" }, c.outs);
    expect((await impl.diff(c.id, c.outs, cleared)).changes).toBe(true);
    const u = await impl.update(c.id, c.outs, cleared);
    expect((u.outs as Props).expiresAt).toBeUndefined();
    expect((await api.branches.get(projectId, c.id)).expires_at).toBeUndefined();
  });
});

describe("what the service would refuse, refused at preview (issue 25)", () => {
  it("a reset of a branch that stays protected, and an expiry on a branch with children: nothing sent", async () => {
    const parent = await create("parent", { name: "parent-1", protected: true });
    const child = await create("child", { name: "child-1", parentId: parent.id });
    const before = mutations();
    const reset = await checked(
      "parent",
      { name: "parent-1", protected: true, resetTrigger: "1" },
      parent.outs,
    );
    await expect(impl.diff(parent.id, parent.outs, reset)).rejects.toThrow(
      /Failed to reset branch .*: it is protected.*set protected: false/,
    );
    const at = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();
    const expiring = await checked(
      "parent",
      { name: "parent-1", protected: false, expiresAt: at },
      parent.outs,
    );
    await expect(impl.diff(parent.id, parent.outs, expiring)).rejects.toThrow(
      new RegExp(`Failed to set expiresAt on branch ${parent.id}: it has child branches \\(${child.id}\\)`),
    );
    expect(mutations()).toBe(before);
  });

  it("a new child of an expiring branch: refused at check whichever of the two is new, nothing sent", async () => {
    const at = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();
    const failuresOf = async (name: string, inputs: Props) =>
      (await impl.check({}, { projectId, __urn: urn(name), ...inputs })).failures ?? [];
    const before = mutations();
    // Both new (a preview: the parent's id is unknown): every branch this run makes here expires.
    await checked("new-parent", { name: "new-parent-1", expiresAt: at });
    expect(await failuresOf("new-child", { name: "new-child-1", parentId: UNKNOWN })).toEqual([
      {
        property: "parentId",
        reason: expect.stringMatching(
          /"new-parent".* has expiresAt: the service sets an expiry only on a branch without children/,
        ),
      },
    ]);
    // Another new branch without an expiry could be the parent: not judged until the id is known.
    await checked("plain", { name: "plain-1" });
    expect(await failuresOf("new-child-2", { name: "new-child-2", parentId: UNKNOWN })).toEqual([]);
    expect(mutations()).toBe(before);
    // The parent exists and expires (the id is known, as at `up`): refused before the create.
    const parent = await create("parent", { name: "parent-1", expiresAt: at });
    const plain = await create("plain-parent", { name: "plain-parent-1" });
    const sent = mutations();
    expect(await failuresOf("child", { name: "child-1", parentId: parent.id })).toEqual([
      {
        property: "parentId",
        reason: expect.stringMatching(new RegExp(`parent branch ${parent.id} has expiresAt`)),
      },
    ]);
    // The same program gives an existing parent an expiry in this run: the child is refused too.
    const expiring = await checked("plain-parent", { name: "plain-parent-1", expiresAt: at }, plain.outs);
    expect((await impl.diff(plain.id, plain.outs, expiring)).changes).toBe(true);
    expect(await failuresOf("child-3", { name: "child-3", parentId: plain.id })).toEqual([
      expect.objectContaining({ property: "parentId" }),
    ]);
    expect(mutations()).toBe(sent);
    // A parent that does not expire takes children.
    const other = await create("other-parent", { name: "other-parent-1" });
    expect(await failuresOf("child-4", { name: "child-4", parentId: other.id })).toEqual([]);
  });

  it("names with a control character or an edge space fail their check", async () => {
    for (const name of ["pr\n42", "pr\u000042", " pr-42", "pr-42 "]) {
      const r = await impl.check({}, { projectId, __urn: urn("bad"), name });
      expect(r.failures).toEqual([expect.objectContaining({ property: "name" })]);
    }
  });
});

describe("importId at preview, and one branch declared twice (issue 25)", () => {
  it("a preview with importId says it will import, and names a declared input that differs", async () => {
    const made = await api.branches.create(projectId, { branch: { name: "to-import" } });
    await api.waitForOperations(projectId, made.operations);
    const importId = `${projectId}/${made.branch.id}`;
    const ok = await impl.check({}, { projectId, __urn: urn("imp"), name: "to-import", importId });
    expect(ok.failures ?? []).toEqual([]);
    expect(logs.join("\n")).toMatch(new RegExp(`will import branch ${made.branch.id}`));
    const differs = await impl.check({}, { projectId, __urn: urn("imp2"), name: "other-name", importId });
    expect(differs.failures).toEqual([
      expect.objectContaining({
        property: "importId",
        reason: expect.stringMatching(/name: declared "other-name", actual "to-import"/),
      }),
    ]);
  });

  it("two resources with one explicit name in one project are refused as a duplicate declaration", async () => {
    expect((await impl.check({}, { projectId, __urn: urn("one"), name: "twice" })).failures ?? []).toEqual(
      [],
    );
    const second = await impl.check({}, { projectId, __urn: urn("two"), name: "twice" });
    expect(second.failures).toEqual([
      expect.objectContaining({
        property: "name",
        reason: expect.stringMatching(/already declared .*\(one\)/),
      }),
    ]);
  });
});

describe("expiry", () => {
  it("a branch the service deleted at its expiry: refresh says so and drops it, the preview shows it made again, the create refuses the past time", async () => {
    // An emulator of its own, whose clock this test moves two days on.
    const emu = await startEmulator({ opMs: 10, seed: 31 });
    try {
      const p = emu.seed.projectId;
      const settings = { apiKey: emu.apiKey, apiUrl: emu.url };
      const lines: string[] = [];
      const run = () => boundResource("Branch", settings, (l) => lines.push(l));
      const inputs = (at: string) => ({
        projectId: p,
        __provider: "shim",
        __urn: urn("expiring"),
        expiresAt: at,
      });
      // Spelled with an offset: checked and sent as the service's UTC form.
      const day = new Date(Math.floor((emu.clock.now() + 86_400_000) / 1000) * 1000);
      const utc = day.toISOString().replace(".000Z", "Z");
      const offset = new Date(day.getTime() + 3_600_000).toISOString().replace("Z", "+01:00");
      const first = run();
      const news = (await first.check({}, inputs(offset))).inputs;
      expect(news.expiresAt).toBe(utc);
      const made = await first.create(news);
      const outs = made.outs as Props;
      expect(Date.parse(String(outs.expiresAt))).toBe(day.getTime());
      // Refreshed before the expiry: nothing to change.
      const again = await first.read(made.id, outs);
      expect((await first.diff(made.id, again.props as Props, news)).changes).toBe(false);

      emu.clock.advance(2 * 86_400_000);
      // The drift job's run: refresh, then the preview of what is left.
      const drift = run();
      expect(await drift.read(made.id, outs)).toEqual({});
      expect(lines.join("\n")).toMatch(/reached its expiry \(.*\) and is gone/);
      const recheck = await drift.check({}, { ...inputs(String(outs.expiresAt)) });
      expect(recheck.failures ?? []).toEqual([]);
      expect(lines.join("\n")).toMatch(/will be created again: this refresh found the branch deleted/);
      const posts = () => emu.requestsByRoute()["POST /projects/:project_id/branches"] ?? 0;
      const before = posts();
      await expect(drift.create(recheck.inputs)).rejects.toThrow(
        /expiresAt .* has passed .*Set a later expiresAt to create it again.*Nothing was created/,
      );
      expect(posts()).toBe(before);

      // A run without that refresh refuses the past time at check, on the service's clock (read first:
      // this machine's clock is two days behind the emulator's), naming the remedy.
      const plain = run();
      const refused = await plain.check({}, inputs(String(outs.expiresAt)));
      expect(refused.failures?.[0]).toMatchObject({
        property: "expiresAt",
        reason: expect.stringMatching(/is not in the future/),
      });

      // A replacement with the passed date is refused at its diff: it would delete the old branch first.
      const moving = run();
      const moved = await moving.check(outs, {
        ...inputs(String(outs.expiresAt)),
        parentId: emu.seed.branchIds[1],
      });
      expect(moved.failures ?? []).toEqual([]);
      await expect(moving.diff(made.id, outs, moved.inputs)).rejects.toThrow(
        /its expiresAt .* has passed.*Set a later expiresAt in the same change. Nothing was changed/,
      );
    } finally {
      await emu.stop();
    }
  });
});
