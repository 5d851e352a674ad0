/**
 * Nothing lost by a replacement, for every resource the kit replaces delete-first (issue 31): a
 * `Branch`, `Role` or `Database` moved to a project or branch that is not there fails its check
 * naming the property and the value, before anything is sent, and the object stays; a create that
 * fails after the replacement deleted the old object says so. Against the emulator over real HTTP,
 * the steps called as the engine calls them. Also: a role or database a killed run of this stack
 * left on a branch this stack created is taken over (the branch's annotation names the stack), and
 * two resources declaring one object are refused.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { boundResource, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;
type Bound = ReturnType<typeof boundResource>;

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let logs: string[] = [];

const settings = () => ({ apiKey: emulator.apiKey, apiUrl: emulator.url });

const mutations = () => mutationCount(emulator);

/** Gives a branch a read_write compute (Neon makes roles and databases through it) and waits for it. */
async function computeOn(branchId: string): Promise<void> {
  const r = await api.endpoints.create(projectId, { branch_id: branchId, type: "read_write" });
  await api.waitForOperations(projectId, r.operations);
}

/** Checks and creates as the engine does at `up`; the check must pass. */
async function made(impl: Bound, type: string, name: string, inputs: Props) {
  const news = { __provider: "shim", __urn: urnOf(type, name), ...inputs };
  const r = await impl.check({}, news);
  expect(r.failures ?? []).toEqual([]);
  const c = await impl.create(r.inputs);
  return { id: c.id, outs: c.outs as Props, inputs: r.inputs };
}

withEmulator(
  { opMs: 30, seed: 31 },
  (e, client) => {
    emulator = e;
    api = client;
  },
  { resetEach: true },
);

beforeEach(() => {
  emulator.setFaults({});
  projectId = emulator.seed.projectId;
  logs = [];
});

describe("a replacement into a target that is not there fails its check, and nothing is lost", () => {
  const dev05 = () => emulator.seed.branchIds[5];

  /** The update's check with `change` applied to the old inputs: failures, and no request that changes anything. */
  async function refused(impl: Bound, old: { inputs: Props }, change: Props) {
    const before = mutations();
    const r = await impl.check(old.inputs, { ...old.inputs, ...change });
    expect(mutations()).toBe(before);
    return r.failures ?? [];
  }

  it("Branch: parentId or projectId to something that does not exist (8 cases of the sweep)", async () => {
    const branches = boundResource("Branch", settings(), (l) => logs.push(l));
    const b = await made(branches, "Branch", "pr", { projectId, compute: { minCu: 0.25, maxCu: 0.25 } });
    const cases: Array<[Props, string, RegExp]> = [
      [
        { parentId: "main" },
        "parentId",
        /starts with "br-".*\(.*"main" is the name of a branch; its id is br-/,
      ],
      [{ parentId: "dev-05" }, "parentId", /"dev-05" is the name of a branch; its id is br-/],
      [{ parentId: String(b.outs.computeId) }, "parentId", /starts with "br-"/],
      [
        { parentId: "br-no-such-branch-1" },
        "parentId",
        /parentId br-no-such-branch-1: project .* has no such branch/,
      ],
      [
        { projectId: "no-such-project-1" },
        "projectId",
        /projectId no-such-project-1: the API key cannot see/,
      ],
      [
        { projectId: emulator.seed.freeProjectId, parentId: dev05() },
        "parentId",
        new RegExp(`parentId ${dev05()}: project ${emulator.seed.freeProjectId} has no such branch`),
      ],
      [
        { projectId: "no-such-project-2", parentId: dev05() },
        "projectId",
        /projectId no-such-project-2: the API key cannot see/,
      ],
    ];
    for (const [change, property, reason] of cases) {
      const failures = await refused(branches, b, change);
      expect(failures.map((f) => f.property)).toEqual([property]);
      expect(failures[0].reason).toMatch(reason);
    }
    // Its own id as parent: the check cannot tell (the branch exists), the replacement's diff refuses.
    const self = { ...b.inputs, parentId: b.id };
    expect((await branches.check(b.inputs, self)).failures ?? []).toEqual([]);
    const before = mutations();
    await expect(branches.diff(b.id, b.outs, self)).rejects.toThrow(
      new RegExp(
        `Failed to replace branch ${b.id}: parentId ${b.id} is this branch itself.*Nothing was deleted`,
      ),
    );
    expect(mutations()).toBe(before);
    const still = await api.branches.get(projectId, b.id);
    expect(still.current_state).toBe("ready");
    expect((await api.endpoints.listByBranch(projectId, b.id)).length).toBe(1);
  });

  it.each(["Role", "Database"])(
    "%s: branchId or projectId to something that does not exist (3 cases each)",
    async (type) => {
      const roles = boundResource("Role", settings(), (l) => logs.push(l));
      const where = { projectId, branchId: dev05() };
      await computeOn(dev05());
      const role = await made(roles, "Role", "owner", { ...where, name: "owner" });
      const obj =
        type === "Role"
          ? { impl: roles, made: role }
          : await (async () => {
              const dbs = boundResource("Database", settings(), (l) => logs.push(l));
              return {
                impl: dbs,
                made: await made(dbs, "Database", "app", { ...where, name: "app", ownerName: "owner" }),
              };
            })();
      const cases: Array<[Props, string, RegExp]> = [
        [
          { branchId: "dev-04" },
          "branchId",
          /starts with "br-".*"dev-04" is the name of a branch; its id is br-/,
        ],
        [
          { branchId: "br-no-such-branch-2" },
          "branchId",
          /branchId br-no-such-branch-2: project .* has no such branch/,
        ],
        [
          { projectId: "no-such-project-3" },
          "projectId",
          /projectId no-such-project-3: the API key cannot see/,
        ],
      ];
      for (const [change, property, reason] of cases) {
        const failures = await refused(obj.impl, obj.made, change);
        expect(failures.map((f) => f.property)).toEqual([property]);
        expect(failures[0].reason).toMatch(reason);
      }
      const names =
        type === "Role"
          ? (await api.roles.list(projectId, dev05())).map((r) => r.name)
          : (await api.databases.list(projectId, dev05())).map((d) => d.name);
      expect(names).toContain(type === "Role" ? "owner" : "app");
    },
  );

  it("a new resource's check reads its targets too (one read when they are there), a known one's only when they change", async () => {
    const roles = boundResource("Role", settings());
    const reads = () => emulator.requestsByRoute()["GET /projects/:project_id/branches/:branch_id"] ?? 0;
    const news = { projectId, branchId: dev05(), name: "r1", __urn: urnOf("Role", "r1") };
    let before = reads();
    expect((await roles.check({}, news)).failures ?? []).toEqual([]);
    expect(reads()).toBe(before + 1);
    before = reads();
    expect((await roles.check({ projectId, branchId: dev05(), name: "r0" }, news)).failures ?? []).toEqual(
      [],
    );
    expect(reads()).toBe(before);
    // Not known yet (preview): not judged, nothing read.
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    expect((await roles.check({}, { ...news, branchId: unknown })).failures ?? []).toEqual([]);
    expect(reads()).toBe(before);
  });

  it("a create that fails after this run's replacement deleted the old object says the old one is gone", async () => {
    const branches = boundResource("Branch", settings(), (l) => logs.push(l));
    const b = await made(branches, "Branch", "gone", { projectId });
    await branches.delete(b.id, b.outs);
    // The service refuses the new branch after the delete (here: a parent deleted meanwhile).
    const err = await branches
      .create({ ...b.inputs, parentId: "br-deleted-meanwhile-1" })
      .catch((e: Error) => e);
    expect(String((err as Error).message)).toMatch(
      new RegExp(`branch ${b.id} was already deleted by this replacement .*run \`pulumi up\` again`),
    );
  });
});

describe("a killed run's role or database on a branch this stack created", () => {
  it("is taken over by the next up, without a person and without a duplicate; elsewhere still refused", async () => {
    const branches = boundResource("Branch", settings());
    // With its compute: Neon makes roles and databases through it.
    const b = await made(branches, "Branch", "env", { projectId, compute: { minCu: 0.25, maxCu: 0.25 } });
    // The killed run: its create request reached the service, its answer never reached the stack.
    const r = await api.roles.create(projectId, b.id, { name: "app" });
    await api.waitForOperations(projectId, r.operations);
    const d = await api.databases.create(projectId, b.id, { name: "appdb", owner_name: "app" });
    await api.waitForOperations(projectId, d.operations);
    const before = mutations();
    const roles = boundResource("Role", settings(), (l) => logs.push(l));
    const role = await made(roles, "Role", "app", { projectId, branchId: b.id, name: "app" });
    expect(role.outs.password).toEqual(expect.any(String));
    const dbs = boundResource("Database", settings(), (l) => logs.push(l));
    const db = await made(dbs, "Database", "appdb", {
      projectId,
      branchId: b.id,
      name: "appdb",
      ownerName: "app",
    });
    expect(db.id).toBe(String(d.database.id));
    expect(mutations()).toBe(before);
    expect((await api.roles.list(projectId, b.id)).filter((x) => x.name === "app")).toHaveLength(1);
    expect(logs.join("\n")).toMatch(/an interrupted run of this stack created it; taking it over/);
    expect(logs.join("\n")).not.toContain(String(role.outs.password));

    // A role the branch inherited from its parent is not the stack's: refused as before.
    const inherited = (await api.roles.list(projectId, b.id))[0].name;
    await expect(made(roles, "Role", "inh", { projectId, branchId: b.id, name: inherited })).rejects.toThrow(
      /this stack did not create it.*importId/,
    );
    // Another stack's branch (another stack name in the URN): refused.
    const other = await api.roles.create(projectId, b.id, { name: "other" });
    await api.waitForOperations(projectId, other.operations);
    const foreign = await roles.check(
      {},
      {
        projectId,
        branchId: b.id,
        name: "other",
        __urn: "urn:pulumi:prod::neon-it::pulumi-nodejs:dynamic/neon:Role::other",
      },
    );
    await expect(roles.create(foreign.inputs)).rejects.toThrow(/this stack did not create it/);
  });

  it("a resource renamed without an alias takes its old object over, and the old resource's delete leaves it", async () => {
    const branches = boundResource("Branch", settings());
    const b = await made(branches, "Branch", "renamed-env", {
      projectId,
      compute: { minCu: 0.25, maxCu: 0.25 },
    });
    const logs2: string[] = [];
    const dbs = boundResource("Database", settings(), (l) => logs2.push(l));
    const roles = boundResource("Role", settings());
    const owner = await made(roles, "Role", "owner2", { projectId, branchId: b.id, name: "owner2" });
    expect(owner.id).toContain("owner2");
    const old = await made(dbs, "Database", "before", {
      projectId,
      branchId: b.id,
      name: "kept",
      ownerName: "owner2",
    });
    // The next run (a new provider process): the new logical name creates — finding and taking over the
    // database — and the old one, no longer declared, is deleted.
    const run2 = boundResource("Database", settings(), (l) => logs2.push(l));
    const next = await made(run2, "Database", "after", {
      projectId,
      branchId: b.id,
      name: "kept",
      ownerName: "owner2",
    });
    expect(next.id).toBe(old.id);
    await run2.delete(old.id, old.outs);
    expect((await api.databases.list(projectId, b.id)).map((d) => d.name)).toContain("kept");
    expect(logs2.join("\n")).toMatch(
      /left database .* in place: a create of this update took it over for its resource/,
    );
    // The same for an imported role: renamed without an alias, the old resource's delete leaves it.
    const imported = await made(boundResource("Role", settings()), "Role", "imp-before", {
      projectId,
      branchId: b.id,
      name: "owner2",
      importId: owner.id,
    });
    const roles2 = boundResource("Role", settings());
    await made(roles2, "Role", "imp-after", {
      projectId,
      branchId: b.id,
      name: "owner2",
      importId: owner.id,
    });
    await roles2.delete(imported.id, imported.outs);
    expect((await api.roles.list(projectId, b.id)).map((r) => r.name)).toContain("owner2");
    // A declared noLogin that differs from the role found is refused, not taken over.
    const r = await api.roles.create(projectId, b.id, { name: "nl" });
    await api.waitForOperations(projectId, r.operations);
    await expect(
      made(roles, "Role", "nl", { projectId, branchId: b.id, name: "nl", noLogin: true }),
    ).rejects.toThrow(/can log in, unlike the declared one/);
    // So is a database whose owner differs from the declared one; nothing is changed.
    const d = await api.databases.create(projectId, b.id, { name: "owned", owner_name: "owner2" });
    await api.waitForOperations(projectId, d.operations);
    const before = mutations();
    await expect(
      made(dbs, "Database", "owned", { projectId, branchId: b.id, name: "owned", ownerName: "nl" }),
    ).rejects.toThrow(/owned by "owner2", not the declared "nl"; make ownerName match it/);
    expect(mutations()).toBe(before);
    expect((await api.databases.list(projectId, b.id)).find((x) => x.name === "owned")?.owner_name).toBe(
      "owner2",
    );
  });

  it("the branch carries the stack's annotation, which the listing returns", async () => {
    const branches = boundResource("Branch", settings());
    const b = await made(branches, "Branch", "annotated", { projectId });
    const got = await api.branches.getAnnotated(projectId, b.id);
    expect(got.annotation).toMatchObject({ "pulumi-project": "neon-it", "pulumi-stack": "dev" });
    expect(got.annotation["pulumi-resource"]).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe("two resources declaring one object", () => {
  it("are refused at check as a duplicate declaration, naming the other resource", async () => {
    const roles = boundResource("Role", settings());
    const where = { projectId, branchId: emulator.seed.branchIds[3], name: "twice" };
    expect((await roles.check({}, { ...where, __urn: urnOf("Role", "first") })).failures ?? []).toEqual([]);
    const second = await roles.check({}, { ...where, __urn: urnOf("Role", "second") });
    expect(second.failures).toEqual([
      expect.objectContaining({
        property: "name",
        reason: expect.stringMatching(/already declared by another resource of this program \(first\)/),
      }),
    ]);
  });
});

describe("recoveries that need no person", () => {
  it("a branch's compute whose first start failed is started by the next up, and a refresh shows it", async () => {
    const branches = boundResource("Branch", settings(), (l) => logs.push(l));
    const b = await made(branches, "Branch", "late", { projectId });
    // The compute is added later, and its start fails (the operation ends in error).
    emulator.setFaults({ opErrorRate: 1 });
    const withCompute = { ...b.inputs, compute: { minCu: 0.25, maxCu: 0.5 } };
    await expect(branches.update(b.id, b.outs, withCompute)).rejects.toThrow();
    emulator.setFaults({});
    // A refresh shows the compute that never started.
    const read = await branches.read(b.id, b.outs);
    const refreshed = read.props as Props;
    expect(refreshed.computeState).toBe("init");
    // The next up: no input differs, yet the diff asks for an update, which starts the compute.
    const news = {
      ...(read.inputs as Props),
      compute: refreshed.compute,
      __urn: b.inputs.__urn,
    };
    await branches.check(read.inputs as Props, news);
    const d = await branches.diff(b.id, refreshed, news);
    expect(d.changes).toBe(true);
    expect(d.replaces ?? []).toEqual([]);
    const u = await branches.update(b.id, refreshed, news);
    expect((u.outs as Props).computeState).toBe("active");
    const ep = await api.endpoints.get(projectId, String(refreshed.computeId));
    expect(ep.current_state).toBe("active");
    // And then nothing more to do.
    const again = await branches.diff(b.id, u.outs as Props, news);
    expect(again.changes).toBe(false);
  });

  it("a branch whose create_branch was cancelled is replaced by the next up; its dependents fail at once", async () => {
    const branches = boundResource("Branch", settings(), (l) => logs.push(l));
    emulator.setFaults({ opCancelRate: 1 });
    const news = {
      projectId,
      compute: { minCu: 0.25, maxCu: 0.25 },
      __provider: "shim",
      __urn: urnOf("Branch", "cut"),
    };
    const checkedNews = (await branches.check({}, news)).inputs;
    const err = (await branches.create(checkedNews).catch((e: unknown) => e)) as {
      id: string;
      properties: Props;
    };
    expect(err.id).toMatch(/^br-/);
    emulator.setFaults({});
    const broken = err.properties;
    expect(broken.currentState).toBe("init");

    // A role on it does not retry "branch not ready" until its deadline: its check fails naming the branch.
    const roles = boundResource("Role", settings());
    const sent = mutations();
    const r = await roles.check(
      {},
      { projectId, branchId: err.id, name: "app", __urn: urnOf("Role", "app") },
    );
    expect(r.failures).toEqual([
      expect.objectContaining({
        property: "branchId",
        reason: expect.stringMatching(/creation did not finish .*create_branch operation .* ended cancelled/),
      }),
    ]);
    expect(mutations()).toBe(sent); // refused before any create: no retries into a 422

    // The Branch's next up replaces it: the diff says so, and the new one is ready.
    await branches.check(broken, checkedNews);
    const d = await branches.diff(err.id, broken, checkedNews);
    expect(d.replaces).toEqual(["currentState"]);
    expect(d.deleteBeforeReplace).toBe(true);
    await branches.delete(err.id, broken);
    const again = await branches.create(checkedNews);
    expect((await api.branches.get(projectId, again.id)).current_state).toBe("ready");
    expect(
      (await api.branches.list(projectId)).filter((x) => x.name === (again.outs as Props).name),
    ).toHaveLength(1);
  });
});
