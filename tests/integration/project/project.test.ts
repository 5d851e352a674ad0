/**
 * `Project` against the emulator over real HTTP, its steps called as the engine calls them: a project
 * with its default branch, compute, role and database, usable when create returns; a lost answer and a
 * killed run reconciled by the name (never a second, billed project); an explicit name another project
 * holds refused with its importId; renames and settings in place; a change that would need a new
 * project refused at preview with nothing sent; delete refused while a branch is protected. And the
 * rule it brings to `Compute`: a suspend timeout of 0 means the project's own default; Postgres 19 where
 * the service enables it.
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import { createNeonClient, type NeonClient } from "../../../provider/api";
import { autoName } from "../../../provider/resources/project/mapping";
import { boundResource, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let logs: string[] = [];
let impl: ReturnType<typeof boundResource>;

const urn = (name: string) => urnOf("Project", name);

async function checked(name: string, inputs: Props, olds: Props = {}): Promise<Props> {
  const r = await impl.check(olds, { __provider: "shim", __urn: urn(name), ...inputs });
  expect(r.failures ?? []).toEqual([]);
  return r.inputs;
}

async function create(name: string, inputs: Props) {
  const c = await impl.create(await checked(name, inputs));
  return { id: c.id, outs: c.outs as Props };
}

const mutations = () => mutationCount(emulator);

async function projectsNamed(name: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const p of api.projects.list({ search: name })) if (p.name === name) ids.push(p.id);
  return ids;
}

withEmulator(
  { opMs: 40, seed: 29 },
  (e, client) => {
    emulator = e;
    api = client;
  },
  { resetEach: true },
);

beforeEach(() => {
  emulator.setFaults({});
  logs = [];
  impl = boundResource("Project", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));
});

describe("create", () => {
  it("creates the project with its branch, compute, role and database in one request, ready when create returns", async () => {
    const before = mutations();
    const c = await create("app", { name: "app", orgId: emulator.seed.orgId, defaultCompute: { cu: 1 } });
    expect(mutations()).toBe(before + 1);
    const p = await api.projects.get(c.id);
    expect(p.name).toBe("app");
    const branch = await api.branches.get(c.id, c.outs.defaultBranchId as string);
    expect([branch.current_state, branch.default]).toEqual(["ready", true]);
    const ep = await api.endpoints.get(c.id, c.outs.primaryComputeId as string);
    expect([ep.type, ep.current_state, ep.autoscaling_limit_min_cu, ep.autoscaling_limit_max_cu]).toEqual([
      "read_write",
      "active",
      1,
      1,
    ]);
    expect(c.outs).toMatchObject({
      databaseName: "neondb",
      roleName: "neondb_owner",
      host: ep.host,
      defaultCompute: { minCu: 1, maxCu: 1 },
      onDelete: expect.stringContaining("with every branch, compute, role and database"),
    });
    expect(c.outs.connectionUri).toMatch(new RegExp(`^postgresql://neondb_owner:[^@]+@${ep.host}/neondb`));
    // The password travels only in the secret output.
    const password = new URL(c.outs.connectionUri as string).password;
    expect(password.length).toBeGreaterThan(8);
    expect(logs.join("\n")).not.toContain(password);
  });

  it("an auto-named project a killed run left is finished, not created twice", async () => {
    const name = autoName(urn("env"));
    const left = await api.projects.create({ name, org_id: emulator.seed.orgId });
    const c = await create("env", { orgId: emulator.seed.orgId });
    expect(c.id).toBe(left.project.id);
    expect(await projectsNamed(name)).toEqual([left.project.id]);
    expect(logs.join("\n")).toMatch(/created for this resource by an interrupted run; finishing it/);
    // What the lost answer carried is read again: the connection URI too.
    expect(c.outs.connectionUri).toMatch(/^postgresql:\/\/neondb_owner:/);
  });

  it("an old project carrying the auto-name is not taken over (another stack's, or one a replacement would delete)", async () => {
    // The seeded project was created more than an hour before now.
    const name = autoName(urn("old"));
    await api.projects.update(emulator.seed.projectId, { name });
    const inputs = await checked("old", { orgId: emulator.seed.orgId });
    const before = mutations();
    await expect(impl.create(inputs)).rejects.toThrow(new RegExp(`importId: "${emulator.seed.projectId}"`));
    expect(mutations()).toBe(before);
  });

  it("a lost answer is reconciled by the name: one project", async () => {
    const inputs = await checked("lost", { name: "lost-answer", orgId: emulator.seed.orgId });
    // Every answer to a change is lost (the change is made); reads answer as usual.
    emulator.setFaults({ dropAfterCommitRate: 1 });
    const c = await impl.create(inputs);
    emulator.setFaults({});
    expect(logs.join("\n")).toMatch(
      /the answer to the create request was lost; found project .*, which it created/,
    );
    expect(await projectsNamed("lost-answer")).toEqual([c.id]);
    expect((c.outs as Props).connectionUri).toMatch(/^postgresql:\/\//);
  });

  it("an explicit name another project holds fails naming its importId, sending nothing", async () => {
    const stranger = await api.projects.create({ name: "taken", org_id: emulator.seed.orgId });
    const inputs = await checked("mine", { name: "taken", orgId: emulator.seed.orgId });
    const before = mutations();
    await expect(impl.create(inputs)).rejects.toThrow(new RegExp(`importId: "${stranger.project.id}"`));
    expect(mutations()).toBe(before);
    expect(await projectsNamed("taken")).toEqual([stranger.project.id]);
  });

  it("importId adopts an existing project; declared inputs that differ fail, changing nothing", async () => {
    const existing = await api.projects.create({ name: "legacy", org_id: emulator.seed.orgId });
    const id = existing.project.id;
    await expect(impl.create(await checked("legacy", { importId: id, name: "other" }))).rejects.toThrow(
      /name: declared "other", actual "legacy"/,
    );
    const c = await create("legacy", { importId: id, name: "legacy" });
    expect(c.id).toBe(id);
    expect(c.outs).toMatchObject({
      name: "legacy",
      defaultBranchId: existing.branch.id,
      databaseName: "neondb",
    });
  });
});

describe("update and preview", () => {
  it("renames, changes the history retention and the default compute in place, keeping the id", async () => {
    const c = await create("app", { name: "app", orgId: emulator.seed.orgId });
    const news = await checked(
      "app",
      {
        name: "app-2",
        orgId: emulator.seed.orgId,
        historyRetentionSeconds: 3600,
        defaultCompute: { suspendTimeoutSeconds: 600 },
      },
      c.outs,
    );
    const d = await impl.diff(c.id, c.outs, news);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const u = await impl.update(c.id, c.outs, news);
    const p = await api.projects.get(c.id);
    expect([
      p.id,
      p.name,
      p.history_retention_seconds,
      p.default_endpoint_settings?.suspend_timeout_seconds,
    ]).toEqual([c.id, "app-2", 3600, 600]);
    expect(u.outs).toMatchObject({
      name: "app-2",
      historyRetentionSeconds: 3600,
      connectionUri: c.outs.connectionUri,
    });
  });

  it("a change that would need a new project fails at preview, naming the property, and sends nothing", async () => {
    const c = await create("app", { name: "app", orgId: emulator.seed.orgId, regionId: "aws-us-east-2" });
    const news = await checked(
      "app",
      { name: "app", orgId: emulator.seed.orgId, regionId: "aws-eu-central-1" },
      c.outs,
    );
    const before = emulator.requestCount();
    await expect(impl.diff(c.id, c.outs, news)).rejects.toThrow(
      /regionId "aws-us-east-2" → "aws-eu-central-1" cannot be changed on an existing project.*never replaces a project.*Nothing was changed/,
    );
    expect(emulator.requestCount()).toBe(before);
    // A refresh's diff (inputs not checked) reports the difference and replaces nothing.
    const refreshImpl = boundResource("Project", { apiKey: emulator.apiKey, apiUrl: emulator.url });
    const r = await refreshImpl.diff(c.id, c.outs, { ...news });
    expect(r).toMatchObject({ changes: true, replaces: [] });
    expect((await api.projects.get(c.id)).region_id).toBe("aws-us-east-2");
  });

  it("a refresh reads the project as it is and returns only the program's inputs", async () => {
    const c = await create("app", { name: "app", orgId: emulator.seed.orgId });
    await api.projects.update(c.id, { name: "renamed-outside" });
    const r = await impl.read(c.id, c.outs);
    expect(r.props).toMatchObject({ name: "renamed-outside", connectionUri: c.outs.connectionUri });
    const given = Object.keys(r.inputs ?? {}).filter((k) => !k.startsWith("__"));
    expect(given.sort()).toEqual(["name", "orgId"]);
  });
});

describe("delete", () => {
  it("deletes the project with its branches and computes; a project already gone is fine", async () => {
    const c = await create("app", { name: "app", orgId: emulator.seed.orgId });
    await impl.delete(c.id, c.outs);
    await expect(api.projects.get(c.id)).rejects.toMatchObject({ kind: "not_found" });
    expect(logs.join("\n")).toMatch(/deleting project .* with its 1 branch \(main\)/);
    await impl.delete(c.id, c.outs);
  });

  it("refuses a project with a protected branch before sending anything that deletes", async () => {
    const c = await create("app", { name: "app", orgId: emulator.seed.orgId });
    const b = await api.branches.create(c.id, { branch: { name: "keep", protected: true } });
    await api.waitForOperations(c.id, b.operations);
    const before = mutations();
    await expect(impl.delete(c.id, c.outs)).rejects.toThrow(
      new RegExp(`${b.branch.id} \\("keep"\\) are protected.*Nothing was deleted`),
    );
    expect(mutations()).toBe(before);
    expect((await api.projects.get(c.id)).id).toBe(c.id);
  });
});

describe("Compute: a suspend timeout of 0 means the project's own default", () => {
  it("adopting a primary whose timeout is 0 applies a declared 300 when the project's default is 600", async () => {
    const c = await create("app", { name: "app", orgId: emulator.seed.orgId });
    // The project's default changes after its primary was made with 0 ("the project's default").
    await api.projects.update(c.id, { default_endpoint_settings: { suspend_timeout_seconds: 600 } });
    const primary = await api.endpoints.get(c.id, c.outs.primaryComputeId as string);
    expect(primary.suspend_timeout_seconds).toBe(0);
    const compute = boundResource("Compute", { apiKey: emulator.apiKey, apiUrl: emulator.url });
    const inputs = {
      projectId: c.id,
      branchId: c.outs.defaultBranchId,
      adoptExistingPrimary: true,
      suspendTimeoutSeconds: 300,
      __provider: "shim",
      __urn: urnOf("Compute", "primary"),
    };
    const r = await compute.check({}, inputs);
    expect(r.failures ?? []).toEqual([]);
    await compute.create(r.inputs);
    expect((await api.endpoints.get(c.id, primary.id)).suspend_timeout_seconds).toBe(300);
  });
});

it("a project beyond the plan's limit: the service's refusal with what to do, and nothing made", async () => {
  const full = await startEmulator({ opMs: 40, seed: 30, projectsLimit: 0 });
  try {
    const own = boundResource("Project", { apiKey: full.apiKey, apiUrl: full.url });
    // On Postgres 19 too: the limit's remedy, not the one for a version the region lacks.
    const inputs = (
      await own.check({}, { __provider: "shim", __urn: urn("full"), name: "one-too-many", pgVersion: 19 })
    ).inputs;
    const err = await own.create(inputs).catch((e: Error) => e);
    expect(String((err as Error).message)).toMatch(
      /user projects limit of 0 exceeded.*PROJECTS_LIMIT_EXCEEDED.*holds as many projects as its plan allows\. Delete a project .*Nothing was created\./,
    );
    expect(String((err as Error).message)).not.toMatch(/Postgres 19/);
    const names: string[] = [];
    const fullApi = createNeonClient({ apiKey: full.apiKey, baseUrl: full.url });
    for await (const p of fullApi.projects.list()) names.push(p.name);
    expect(names).not.toContain("one-too-many");
  } finally {
    await full.stop();
  }
});

it("Postgres 19: made where the service enables it; elsewhere its 400 with what to do, and nothing made", async () => {
  const made = await create("pg19", { name: "pg-nineteen", pgVersion: 19 });
  expect(made.outs.pgVersion).toBe(19);
  expect((await api.projects.get(made.id)).pg_version).toBe(19);

  const inputs = await checked("pg19-west", {
    name: "pg-nineteen-west",
    pgVersion: 19,
    regionId: "aws-us-west-2",
  });
  const err = await impl.create(inputs).catch((e: Error) => e);
  expect(String((err as Error).message)).toMatch(
    /If it is Postgres 19 the service refused: 19 is rolling out and accepted only in the regions where it is enabled \(perhaps not aws-us-west-2\); choose pgVersion 18, or a region that offers 19.*Nothing was created\./,
  );
  expect(await projectsNamed("pg-nineteen-west")).toEqual([]);
});
