/**
 * POST /projects: what a new project holds (default branch, primary compute, owner role and database,
 * connection URI, operations), who may create one where, names that are not unique, the time its
 * operations take (the project is locked meanwhile) and the refusals of bad bodies.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, EP, EP1, OP1, type Res } from "./client";

let emu: EmulatorHandle;
let c: Client;

beforeAll(async () => {
  emu = await startEmulator({ opMs: 20, seed: 81 });
  c = new Client(emu);
});
afterAll(() => emu.stop());
beforeEach(() => emu.reset());

const P = "/projects/{project_id}";
const BR = "/projects/{project_id}/branches";
const BUSY = "project already has running conflicting operations, scheduling of new ones is prohibited";
const create = (project: Record<string, unknown>, key?: string) =>
  c.post("/projects", { body: { project }, key });
const orgKey = async (body: Record<string, unknown> = {}) =>
  (
    await c.post("/organizations/{org_id}/api_keys", {
      params: { org_id: emu.seed.orgId },
      body: { key_name: "k", ...body },
    })
  ).body.key as string;
const ops = (r: Res) =>
  r.body.operations.map((o: { action: string; status: string }) => [o.action, o.status]);

describe("POST /projects", () => {
  it("with an empty project: named by its id, personal, the service's defaults, everything in the answer", async () => {
    const r = await create({});
    expect(r.status).toBe(201);
    const { project, branch, endpoints, roles, databases, connection_uris } = r.body;
    const me = (await c.get("/users/me")).body;
    expect(project).toMatchObject({
      name: project.id,
      owner_id: me.id,
      region_id: "aws-us-east-2",
      platform_id: "aws",
      proxy_host: "us-east-2.aws.neon.tech",
      pg_version: 17,
      provisioner: "k8s-neonvm",
      history_retention_seconds: 86400,
      store_passwords: true,
      settings: {},
      owner: { subscription_type: "free_v3" },
    });
    expect(project.org_id).toBeUndefined();
    expect(project.default_endpoint_settings).toBeUndefined();
    expect(branch).toMatchObject({
      project_id: project.id,
      name: "main",
      default: true,
      current_state: "init",
      pending_state: "ready",
    });
    expect(endpoints).toHaveLength(1);
    expect(endpoints[0]).toMatchObject({
      project_id: project.id,
      branch_id: branch.id,
      type: "read_write",
      current_state: "init",
      pending_state: "active",
      autoscaling_limit_min_cu: 0.25,
      autoscaling_limit_max_cu: 0.25,
      suspend_timeout_seconds: 0,
      settings: { pg_settings: {} },
    });
    expect(roles).toEqual([
      {
        branch_id: branch.id,
        name: "neondb_owner",
        protected: false,
        authentication_method: "password",
        password: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
        created_at: project.created_at,
        updated_at: project.created_at,
      },
    ]);
    expect(databases).toEqual([
      expect.objectContaining({ branch_id: branch.id, name: "neondb", owner_name: "neondb_owner" }),
    ]);
    const host = endpoints[0].host as string;
    expect(host).toBe(`${endpoints[0].id}.us-east-2.aws.neon.tech`);
    expect(connection_uris).toEqual([
      {
        connection_uri: `postgresql://neondb_owner:${roles[0].password}@${host}/neondb?sslmode=require`,
        connection_parameters: {
          database: "neondb",
          password: roles[0].password,
          role: "neondb_owner",
          host,
          pooler_host: `${endpoints[0].id}-pooler.us-east-2.aws.neon.tech`,
        },
      },
    ]);
    expect(ops(r)).toEqual([
      ["create_timeline", "running"],
      ["start_compute", "scheduling"],
    ]);
    expect(r.body.operations[1].endpoint_id).toBe(endpoints[0].id);
    // It is there to read, and the caller sees it in the list.
    expect((await c.get(P, { params: { project_id: project.id } })).body.project.name).toBe(project.id);
    const listed = (await c.get("/projects", { query: { limit: 400 } })).body.projects;
    expect(listed.map((p: { id: string }) => p.id)).toContain(project.id);
  });

  it("takes every field of ProjectCreateRequest", async () => {
    const r = await create({
      name: "shop",
      region_id: "aws-eu-central-1",
      pg_version: 16,
      provisioner: "k8s-neonvm",
      branch: { name: "trunk", database_name: "app", annotations: { team: "a" } },
      default_endpoint_settings: {
        autoscaling_limit_min_cu: 0.5,
        autoscaling_limit_max_cu: 2,
        suspend_timeout_seconds: 600,
        pg_settings: { work_mem: "8MB" },
      },
      settings: { allowed_ips: { ips: ["10.0.0.1"] }, enable_logical_replication: true },
      history_retention_seconds: 3600,
      store_passwords: false,
      org_id: emu.seed.orgId,
    });
    expect(r.status).toBe(201);
    expect(r.body.project).toMatchObject({
      name: "shop",
      org_id: emu.seed.orgId,
      region_id: "aws-eu-central-1",
      proxy_host: "eu-central-1.aws.neon.tech",
      pg_version: 16,
      history_retention_seconds: 3600,
      store_passwords: false,
      settings: { allowed_ips: { ips: ["10.0.0.1"] }, enable_logical_replication: true },
      default_endpoint_settings: {
        autoscaling_limit_min_cu: 0.5,
        autoscaling_limit_max_cu: 2,
        suspend_timeout_seconds: 600,
        pg_settings: { work_mem: "8MB" },
      },
      owner: { subscription_type: "launch" },
    });
    expect(r.body.branch.name).toBe("trunk");
    expect(r.body.endpoints[0]).toMatchObject({
      region_id: "aws-eu-central-1",
      autoscaling_limit_min_cu: 0.5,
      autoscaling_limit_max_cu: 2,
      suspend_timeout_seconds: 600,
      settings: { pg_settings: { work_mem: "8MB" } },
    });
    // The role is `{database_name}_owner` unless named.
    expect([r.body.roles[0].name, r.body.databases[0].name, r.body.databases[0].owner_name]).toEqual([
      "app_owner",
      "app",
      "app_owner",
    ]);
    const named = await create({ branch: { role_name: "sally" } });
    expect([named.body.roles[0].name, named.body.databases[0]]).toEqual([
      "sally",
      expect.objectContaining({ name: "neondb", owner_name: "sally" }),
    ]);
    // GET and the list show what was stored.
    const got = (await c.get(P, { params: { project_id: r.body.project.id } })).body.project;
    expect(got).toMatchObject({ history_retention_seconds: 3600, store_passwords: false, name: "shop" });
    const item = (await c.get("/projects", { query: { search: "shop" } })).body.projects[0];
    expect(item).toMatchObject({
      id: r.body.project.id,
      history_retention_seconds: 3600,
      store_passwords: false,
      settings: got.settings,
      default_endpoint_settings: got.default_endpoint_settings,
    });
  });

  it("the deprecated top-level bounds still size the compute", async () => {
    const r = await create({
      autoscaling_limit_min_cu: 1,
      autoscaling_limit_max_cu: 2,
      org_id: emu.seed.orgId,
    });
    expect(r.body.endpoints[0]).toMatchObject({ autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 2 });
    expect(r.body.project.default_endpoint_settings).toEqual({
      autoscaling_limit_min_cu: 1,
      autoscaling_limit_max_cu: 2,
    });
  });

  it("names are not unique: two creates with one name make two projects", async () => {
    const a = await create({ name: "twin" });
    const b = await create({ name: "twin" });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.project.id).not.toBe(b.body.project.id);
    const found = (await c.get("/projects", { query: { search: "twin" } })).body.projects;
    expect(found.map((p: { id: string }) => p.id).sort()).toEqual(
      [a.body.project.id, b.body.project.id].sort(),
    );
  });

  it("the seeded projects carry the same fields", async () => {
    const got = (await c.get(P, { params: { project_id: emu.seed.projectId } })).body.project;
    expect(got).toMatchObject({ history_retention_seconds: 86400, store_passwords: true, settings: {} });
    for (const item of (await c.get("/projects")).body.projects) {
      expect(item).toMatchObject({ history_retention_seconds: 86400, store_passwords: true, settings: {} });
    }
  });
});

describe("who may create a project, and where", () => {
  it("a project-scoped key may not (403)", async () => {
    const key = await orgKey({ project_id: emu.seed.projectId });
    const r = await create({ name: "nope" }, key);
    expect([r.status, r.body.code]).toEqual([403, "FORBIDDEN"]);
    expect(r.body.message).toMatch(/project-scoped API key cannot create projects/);
    expect((await c.get("/projects", { query: { search: "nope" } })).body.projects).toEqual([]);
  });

  it("an organization key creates in its organization; a personal key where its user is a member", async () => {
    const org = await create({ name: "by-org" }, await orgKey());
    expect([org.status, org.body.project.org_id]).toEqual([201, emu.seed.orgId]);
    const member = emu.createPersonalKey("member");
    const inOrg = await create({ org_id: emu.seed.orgId }, member);
    expect([inOrg.status, inOrg.body.project.org_id]).toEqual([201, emu.seed.orgId]);
    const own = await create({}, member);
    expect(own.body.project.org_id).toBeUndefined();
    expect(own.body.project.owner_id).toBe((await c.get("/users/me", { key: member })).body.id);
    // The member's personal project is the member's: the admin does not see it.
    expect((await c.get(P, { params: { project_id: own.body.project.id } })).status).toBe(404);
  });

  it("refuses an unknown organization (404) and one the caller is not part of (403)", async () => {
    expect((await create({ org_id: "org-none-12345678" })).status).toBe(404);
    expect((await create({ org_id: "org-none-12345678" }, await orgKey())).status).toBe(404);
    // A second organization that neither the bootstrap user nor the first organization's key belongs to.
    const dir = mkdtempSync(join(tmpdir(), "emu-orgs-"));
    const path = join(dir, "state.json");
    const key = "boot-orgs";
    const a = await startEmulator({ statePath: path, apiKey: key, seed: 82 });
    let okey: string;
    try {
      okey = (
        await new Client(a).post("/organizations/{org_id}/api_keys", {
          params: { org_id: a.seed.orgId },
          body: { key_name: "o" },
        })
      ).body.key;
    } finally {
      await a.stop();
    }
    const state = JSON.parse(readFileSync(path, "utf8"));
    const other = { ...state.orgs[a.seed.orgId], id: "org-other-12345678", name: "Other", members: [] };
    state.orgs[other.id] = other;
    writeFileSync(path, JSON.stringify(state));
    const b = await startEmulator({ statePath: path, apiKey: key });
    try {
      const cb = new Client(b);
      const personal = await cb.post("/projects", { body: { project: { org_id: other.id } } });
      expect([personal.status, personal.body.message]).toEqual([403, expect.stringMatching(/not a member/)]);
      const byOrg = await cb.post("/projects", { body: { project: { org_id: other.id } }, key: okey });
      expect([byOrg.status, byOrg.body.message]).toEqual([403, expect.stringMatching(/belongs to org-/)]);
    } finally {
      await b.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("refusals of bad bodies (400 naming the field)", () => {
  it.each([
    [{}, /project is required/],
    [{ project: { pg_version: 13 } }, /project.pg_version: must be 14 to 19/],
    [{ project: { pg_version: 20 } }, /project.pg_version: must be 14 to 19/],
    [
      { project: { pg_version: 19, region_id: "aws-us-west-2" } },
      /pg_version 19 is not available in region aws-us-west-2/,
    ],
    [
      { project: { history_retention_seconds: -1 } },
      /project.history_retention_seconds: must be 0 to 2592000/,
    ],
    [{ project: { history_retention_seconds: 2592001 } }, /project.history_retention_seconds/],
    [{ project: { name: "" } }, /project.name: must not be empty/],
    [{ project: { colour: "red" } }, /project: unknown field "colour"/],
    [
      { project: { branch: { role_name: "r".repeat(64) } } },
      /project.branch.role_name: must be at most 63 bytes/,
    ],
    [
      { project: { branch: { database_name: "d".repeat(60) } } },
      /longer than 63 bytes; give project.branch.role_name/,
    ],
    [{ project: { region_id: "mars-north-1" } }, /project.region_id mars-north-1 is not a region/],
    [{ project: { org_id: "BAD ID" } }, /project.org_id/],
    [
      { project: { default_endpoint_settings: { autoscaling_limit_min_cu: 0.3 } } },
      /project.default_endpoint_settings.*0.3 is not an offered size/,
    ],
    [
      { project: { default_endpoint_settings: { suspend_timeout_seconds: 30 } } },
      /project.default_endpoint_settings.suspend_timeout_seconds: must be -1/,
    ],
    [
      // The bootstrap user's personal projects are on the free plan.
      {
        project: { default_endpoint_settings: { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 4 } },
      },
      /exceeds the free plan limit/,
    ],
    [
      {
        project: {
          settings: { maintenance_window: { weekdays: [8], start_time: "01:00", end_time: "02:00" } },
        },
      },
      /project.settings.maintenance_window.weekdays.0/,
    ],
  ])("refuses %j", async (body, message) => {
    const before = (await c.get("/projects", { query: { limit: 400 } })).body.projects.length;
    const r = await c.post("/projects", { body });
    expect([r.status, r.body.code]).toEqual([400, "INVALID_REQUEST"]);
    expect(r.body.message).toMatch(message);
    expect((await c.get("/projects", { query: { limit: 400 } })).body.projects).toHaveLength(before);
  });
});

describe("the create's operations take time; the project is locked meanwhile", () => {
  let slow: EmulatorHandle;
  let s: Client;
  beforeAll(async () => {
    // A frozen clock: only advance() moves it, so each phase is seen exactly.
    slow = await startEmulator({ opMs: 5000, seed: 83, frozenClock: true });
    s = new Client(slow);
  });
  afterAll(() => slow.stop());

  it("create_timeline readies the branch, then start_compute starts the compute; 423/422 until then", async () => {
    const r = await s.post("/projects", { body: { project: { name: "slow" } } });
    const id = r.body.project.id;
    const p = { project_id: id };
    const [timeline, start] = r.body.operations;
    const opStatus = async (o: { id: string }) =>
      (await s.get(OP1, { params: { ...p, operation_id: o.id } })).body.operation.status;
    const patch = () => s.patch(P, { params: p, body: { project: { name: "renamed" } } });
    // While create_timeline runs: the branch is not ready, the project is locked.
    expect([await opStatus(timeline), await opStatus(start)]).toEqual(["running", "scheduling"]);
    expect([(await patch()).status, (await patch()).body.message]).toEqual([423, BUSY]);
    expect((await s.del(P, { params: p })).status).toBe(423);
    const child = await s.post(BR, { params: p, body: {} });
    expect([child.status, child.body.message]).toEqual([422, "branch not ready yet"]);
    slow.clock.advance(5000);
    // create_timeline has finished: the branch is ready; start_compute runs, the project stays locked.
    expect([await opStatus(timeline), await opStatus(start)]).toEqual(["finished", "running"]);
    const branch = (await s.get(`${BR}/{branch_id}`, { params: { ...p, branch_id: r.body.branch.id } })).body
      .branch;
    expect([branch.current_state, branch.pending_state]).toEqual(["ready", undefined]);
    expect((await patch()).status).toBe(423);
    const ep = { ...p, endpoint_id: r.body.endpoints[0].id };
    expect((await s.get(EP1, { params: ep })).body.endpoint).toMatchObject({
      current_state: "init",
      pending_state: "active",
    });
    slow.clock.advance(5000);
    expect(await opStatus(start)).toBe("finished");
    const active = (await s.get(EP1, { params: ep })).body.endpoint;
    expect([active.current_state, active.pending_state]).toEqual(["active", undefined]);
    expect((await patch()).status).toBe(200);
    // The primary compute is the branch's read_write compute: a second one is a conflict.
    const second = await s.post(EP, {
      params: p,
      body: { endpoint: { branch_id: r.body.branch.id, type: "read_write" } },
    });
    expect(second.status).toBe(409);
  });
});

describe("the projects limit of the plan", () => {
  it("/users/me says it; one project more than it is refused with 422 PROJECTS_LIMIT_EXCEEDED, and nothing is made", async () => {
    expect((await c.get("/users/me")).body.projects_limit).toBe(100);
    const small = await startEmulator({ opMs: 20, seed: 82, projectsLimit: 2 });
    try {
      const s = new Client(small);
      expect((await s.get("/users/me")).body.projects_limit).toBe(2);
      const personal = async () =>
        (await s.get("/projects")).body.projects.filter((p: { org_id?: string }) => !p.org_id);
      const held = (await personal()).length;
      const made: number[] = [];
      for (let i = held; i < 3; i++) made.push((await s.post("/projects", { body: { project: {} } })).status);
      // The personal projects the seed made count: the rest up to the limit are made, the next refused.
      expect(made).toEqual([...Array(Math.max(0, 2 - held)).fill(201), 422]);
      const r = await s.post("/projects", { body: { project: { name: "one-too-many" } } });
      expect([r.status, r.body.code, r.body.message]).toEqual([
        422,
        "PROJECTS_LIMIT_EXCEEDED",
        "user projects limit of 2 exceeded, got 2",
      ]);
      expect((await personal()).map((p: { name: string }) => p.name)).not.toContain("one-too-many");
      // An organization's projects count against the organization, not the user.
      const inOrg = await s.post("/projects", { body: { project: { org_id: small.seed.orgId } } });
      expect(inOrg.status).toBe(201);
    } finally {
      await small.stop();
    }
  });
});
