/** Accounts, organizations, projects and branches over HTTP. */
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, EP, EP1, OP1, OPS, settle } from "./client";

let emu: EmulatorHandle;
let c: Client;
let project: string;

beforeAll(async () => {
  emu = await startEmulator({ opMs: 20, seed: 41 });
  c = new Client(emu);
});
afterAll(() => emu.stop());
beforeEach(() => {
  emu.reset();
  project = emu.seed.projectId;
});

const BR = "/projects/{project_id}/branches";
const BR1 = "/projects/{project_id}/branches/{branch_id}";

describe("seed", () => {
  it("has a paid main project with a default branch (its primary compute), 24 more branches; and a free project", async () => {
    const s = emu.seed;
    expect(s.branchIds).toHaveLength(25);
    expect(s.branchIds[0]).toBe(s.defaultBranchId);
    for (const b of s.branchIds) expect(b).toMatch(/^br-/);
    const eps = (await c.get(EP, { params: { project_id: project } })).body.endpoints;
    expect(
      eps.map((e: { id: string; branch_id: string; type: string }) => [e.id, e.branch_id, e.type]),
    ).toEqual([[s.primaryEndpointId, s.defaultBranchId, "read_write"]]);
    expect(s.freeProjectBranchIds).toHaveLength(2);
    expect(s.freeProjectBranchIds[0]).toBe(s.freeProjectBranchId);
    const freeEps = (await c.get(EP, { params: { project_id: s.freeProjectId } })).body.endpoints;
    expect(freeEps.map((e: { id: string; branch_id: string }) => [e.id, e.branch_id])).toEqual([
      [s.freeProjectPrimaryEndpointId, s.freeProjectBranchId],
    ]);
    // The history: the project's creation (create_timeline, start_compute), the branches, and the
    // primary's scale-to-zero suspension 300 s after it started.
    const hist = (await c.get(OPS, { params: { project_id: s.freeProjectId }, query: { limit: 10 } })).body
      .operations;
    expect(hist.map((o: { action: string; status: string }) => [o.action, o.status])).toEqual([
      ["suspend_compute", "finished"],
      ["create_branch", "finished"],
      ["start_compute", "finished"],
      ["create_timeline", "finished"],
    ]);
    expect(hist[0].endpoint_id).toBe(s.freeProjectPrimaryEndpointId);
    const main = (await c.get("/projects/{project_id}", { params: { project_id: project } })).body.project;
    expect(main).toMatchObject({
      id: project,
      region_id: "aws-us-east-2",
      pg_version: 17,
      org_id: s.orgId,
      owner: { subscription_type: "launch" },
    });
    const free = (await c.get("/projects/{project_id}", { params: { project_id: s.freeProjectId } })).body
      .project;
    expect(free.owner.subscription_type).toBe("free_v3");
    const def = (await c.get(BR1, { params: { project_id: project, branch_id: s.defaultBranchId } })).body;
    expect(def.branch).toMatchObject({ default: true, name: "main", current_state: "ready" });
    expect(def.annotation.object).toEqual({ type: "console/branch", id: s.defaultBranchId });
  });

  it("is the same for the same seed, and reset() returns to it", async () => {
    const again = await startEmulator({ seed: 41 });
    expect(again.seed).toEqual(emu.seed);
    await again.stop();
    await c.post(EP, {
      params: { project_id: project },
      body: { endpoint: { branch_id: emu.seed.branchIds[1], type: "read_write" } },
    });
    emu.reset();
    expect((await c.get(EP, { params: { project_id: project } })).body.endpoints).toHaveLength(1);
  });

  it("the plan option sets the main project's plan", async () => {
    const e = await startEmulator({ plan: "free" });
    const cl = new Client(e);
    const r = await cl.post(EP, {
      params: { project_id: e.seed.projectId },
      body: {
        endpoint: {
          branch_id: e.seed.branchIds[1],
          type: "read_write",
          autoscaling_limit_min_cu: 4,
          autoscaling_limit_max_cu: 4,
        },
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/free plan/);
    // Seeded within the plan's 10 branches, with room for the user's own.
    expect(e.seed.branchIds).toHaveLength(5);
    const b = await cl.post("/projects/{project_id}/branches", {
      params: { project_id: e.seed.projectId },
      body: { branch: { name: "mine" } },
    });
    expect(b.status).toBe(201);
    await e.stop();
  });
});

describe("accounts and organizations", () => {
  it("GET /users/me, /users/me/organizations and /organizations/{org_id}", async () => {
    const me = (await c.get("/users/me")).body;
    expect(me).toMatchObject({ email: "ada@example.com", plan: "free" });
    const orgs = (await c.get("/users/me/organizations")).body.organizations;
    expect(orgs).toHaveLength(1);
    expect(orgs[0]).toMatchObject({ id: emu.seed.orgId, plan: "launch" });
    const org = await c.get("/organizations/{org_id}", { params: { org_id: emu.seed.orgId } });
    expect(org.body.id).toBe(emu.seed.orgId);
    expect((await c.get("/organizations/{org_id}", { params: { org_id: "org-nope-1" } })).status).toBe(404);
  });

  it("/users/me needs a personal key", async () => {
    const key = (
      await c.post("/organizations/{org_id}/api_keys", {
        params: { org_id: emu.seed.orgId },
        body: { key_name: "o" },
      })
    ).body.key;
    expect((await c.get("/users/me", { key })).status).toBe(403);
    expect((await c.get("/users/me/organizations", { key })).body.organizations[0].id).toBe(emu.seed.orgId);
  });
});

describe("GET /projects", () => {
  it("pages with limit and cursor; pagination is present exactly when a page is full", async () => {
    const all = (await c.get("/projects")).body;
    expect(all.projects).toHaveLength(2);
    expect(all.pagination).toBeUndefined();
    expect(all).toMatchObject({ applications: {}, integrations: {} });
    // Every field the product spec lists for a project in the list.
    for (const p of all.projects) {
      expect(Object.keys(p)).toEqual(
        expect.arrayContaining([
          "id",
          "name",
          "platform_id",
          "region_id",
          "provisioner",
          "pg_version",
          "locked",
          "branch_logical_size_limit",
          "proxy_host",
          "created_at",
          "updated_at",
        ]),
      );
      expect(p.locked).toBe(false);
    }
    const p1 = (await c.get("/projects", { query: { limit: 1 } })).body;
    expect(p1.projects).toHaveLength(1);
    const p2 = (await c.get("/projects", { query: { limit: 1, cursor: p1.pagination.cursor } })).body;
    expect(p2.projects).toHaveLength(1);
    expect(p2.projects[0].id).not.toBe(p1.projects[0].id);
    const p3 = (await c.get("/projects", { query: { limit: 1, cursor: p2.pagination.cursor } })).body;
    expect(p3.projects).toEqual([]);
    expect(p3.pagination).toBeUndefined();
  });

  it("filters by org_id and search, and validates limit", async () => {
    const byOrg = (await c.get("/projects", { query: { org_id: emu.seed.orgId } })).body.projects;
    expect(byOrg.map((p: { id: string }) => p.id)).toEqual([project]);
    const search = (await c.get("/projects", { query: { search: "free" } })).body.projects;
    expect(search.map((p: { id: string }) => p.id)).toEqual([emu.seed.freeProjectId]);
    const bad = await c.get("/projects", { query: { limit: 401 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/limit=401: must be an integer from 1 to 400/);
  });

  it("reports compute_last_active_at: the seeded primary's last start, then the latest compute's", async () => {
    const first = (await c.get("/projects", { query: { org_id: emu.seed.orgId } })).body.projects[0];
    const primary = (
      await c.get(EP1, { params: { project_id: project, endpoint_id: emu.seed.primaryEndpointId } })
    ).body.endpoint;
    expect(first.compute_last_active_at).toBe(primary.last_active);
    await c.post(EP, {
      params: { project_id: project },
      body: { endpoint: { branch_id: emu.seed.branchIds[1], type: "read_write" } },
    });
    await settle(c, project);
    const p = (await c.get("/projects", { query: { org_id: emu.seed.orgId } })).body.projects[0];
    expect(Date.parse(p.compute_last_active_at)).toBeGreaterThan(Date.parse(first.compute_last_active_at));
  });
});

describe("branches", () => {
  it("lists branches; 404 for an unknown project or branch", async () => {
    const r = await c.get(BR, { params: { project_id: project } });
    expect(r.body.branches).toHaveLength(25);
    expect(r.body.annotations).toEqual({});
    expect((await c.get(BR, { params: { project_id: "nope" } })).status).toBe(404);
    expect((await c.get(BR1, { params: { project_id: project, branch_id: "br-nope-1" } })).status).toBe(404);
  });

  it("creates a branch with computes: create_branch running, start_compute scheduling", async () => {
    const r = await c.post(BR, {
      params: { project_id: project },
      body: {
        branch: { name: "feature" },
        endpoints: [
          { type: "read_write", autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 2 },
          { type: "read_only" },
        ],
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.branch).toMatchObject({
      name: "feature",
      parent_id: emu.seed.defaultBranchId,
      current_state: "init",
      default: false,
    });
    expect(r.body.branch.id).toMatch(/^br-/);
    expect(
      r.body.endpoints.map((e: { type: string; current_state: string }) => [e.type, e.current_state]),
    ).toEqual([
      ["read_write", "init"],
      ["read_only", "init"],
    ]);
    expect(r.body.operations.map((o: { action: string; status: string }) => [o.action, o.status])).toEqual([
      ["create_branch", "running"],
      ["start_compute", "scheduling"],
      ["start_compute", "scheduling"],
    ]);
    // The parent's role and database, and the connection URI of the new read_write compute.
    expect(r.body.roles.map((x: { name: string }) => x.name)).toEqual(["neondb_owner"]);
    expect(r.body.databases.map((x: { name: string }) => x.name)).toEqual(["neondb"]);
    expect(r.body.connection_uris[0].connection_parameters.host).toBe(r.body.endpoints[0].host);
    await settle(c, project);
    const b = (await c.get(BR1, { params: { project_id: project, branch_id: r.body.branch.id } })).body
      .branch;
    expect(b.current_state).toBe("ready");
    const ep = (await c.get(EP1, { params: { project_id: project, endpoint_id: r.body.endpoints[0].id } }))
      .body.endpoint;
    expect(ep.current_state).toBe("active");
    const op = (await c.get(OP1, { params: { project_id: project, operation_id: r.body.operations[0].id } }))
      .body.operation;
    expect(op.status).toBe("finished");
  });

  it("creates a branch without a body: from the default branch, no compute", async () => {
    const r = await c.post(BR, { params: { project_id: project } });
    expect(r.status).toBe(201);
    expect(r.body.endpoints).toEqual([]);
    expect(r.body.operations.map((o: { action: string }) => o.action)).toEqual(["create_branch"]);
  });

  it.each([
    [{ endpoints: [{ type: "read_write" }, { type: "read_write" }] }, 400, /more than one read_write/],
    [
      { endpoints: [{ type: "read_write", autoscaling_limit_min_cu: 20, autoscaling_limit_max_cu: 20.5 }] },
      400,
      /endpoints.0.*20.5 is not an offered size/,
    ],
    [{ endpoints: [{}] }, 400, /endpoints.0.type is required/],
    [{ branch: { name: "main" } }, 409, /a branch named "main" already exists/],
    [{ branch: { parent_id: "br-nope-1" } }, 404, /parent branch br-nope-1 not found/],
    [{ branch: { name: 5 } }, 400, /branch.name: expected string/],
    [{ nonsense: true }, 400, /unknown field "nonsense"/],
  ])("refuses %j", async (body, status, message) => {
    const r = await c.post(BR, { params: { project_id: project }, body });
    expect(r.status).toBe(status);
    expect(r.body.message).toMatch(message);
  });

  it("deletes a branch with its computes; 204 when gone; refuses the default branch and parents", async () => {
    const r = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { name: "tmp" }, endpoints: [{ type: "read_write" }] },
    });
    await settle(c, project);
    const child = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { name: "child", parent_id: r.body.branch.id } },
    });
    await settle(c, project);
    const parent = await c.del(BR1, { params: { project_id: project, branch_id: r.body.branch.id } });
    expect(parent.status).toBe(409);
    expect(parent.body.message).toMatch(/has child branch/);
    expect(
      (await c.del(BR1, { params: { project_id: project, branch_id: child.body.branch.id } })).status,
    ).toBe(200);
    await settle(c, project);
    const d = await c.del(BR1, { params: { project_id: project, branch_id: r.body.branch.id } });
    expect(d.status).toBe(200);
    expect(d.body.operations.map((o: { action: string }) => o.action)).toEqual([
      "suspend_compute",
      "delete_timeline",
    ]);
    expect(
      (await c.get(EP1, { params: { project_id: project, endpoint_id: r.body.endpoints[0].id } })).status,
    ).toBe(404);
    await settle(c, project);
    expect((await c.del(BR1, { params: { project_id: project, branch_id: r.body.branch.id } })).status).toBe(
      204,
    );
    const def = await c.del(BR1, { params: { project_id: project, branch_id: emu.seed.defaultBranchId } });
    expect(def.status).toBe(400);
    expect(def.body.message).toMatch(/default branch/);
  });
});
