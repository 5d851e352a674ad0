/**
 * One pass over every route the emulator serves, success and error responses,
 * each validated against the official OpenAPI schema by the client; the last
 * test checks that no route was left out.
 */
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, EP, EP1, OP1, OPS, checked, settle } from "./client";

let emu: EmulatorHandle;
let c: Client;

beforeAll(async () => {
  // A frozen clock: only `advance` (and `settle`) moves it, so the 423s of a running operation and every
  // status of the failing one below are seen on any machine, however loaded.
  emu = await startEmulator({ opMs: 20, seed: 51, frozenClock: true });
  c = new Client(emu);
});
afterAll(() => emu.stop());

const ROUTES = [
  "GET /users/me",
  "GET /users/me/organizations",
  "GET /organizations/{org_id}",
  "GET /projects",
  "POST /projects",
  "GET /projects/{project_id}",
  "PATCH /projects/{project_id}",
  "DELETE /projects/{project_id}",
  "GET /projects/{project_id}/branches",
  "POST /projects/{project_id}/branches",
  "GET /projects/{project_id}/branches/{branch_id}",
  "PATCH /projects/{project_id}/branches/{branch_id}",
  "POST /projects/{project_id}/branches/{branch_id}/restore",
  "DELETE /projects/{project_id}/branches/{branch_id}",
  "GET /projects/{project_id}/branches/{branch_id}/endpoints",
  "GET /projects/{project_id}/branches/{branch_id}/roles",
  "GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}",
  "GET /projects/{project_id}/branches/{branch_id}/databases",
  "GET /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
  "POST /projects/{project_id}/branches/{branch_id}/roles",
  "DELETE /projects/{project_id}/branches/{branch_id}/roles/{role_name}",
  "GET /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password",
  "POST /projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password",
  "POST /projects/{project_id}/branches/{branch_id}/databases",
  "PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
  "DELETE /projects/{project_id}/branches/{branch_id}/databases/{database_name}",
  "GET /projects/{project_id}/connection_uri",
  "GET /projects/{project_id}/endpoints",
  "POST /projects/{project_id}/endpoints",
  "GET /projects/{project_id}/endpoints/{endpoint_id}",
  "PATCH /projects/{project_id}/endpoints/{endpoint_id}",
  "DELETE /projects/{project_id}/endpoints/{endpoint_id}",
  "POST /projects/{project_id}/endpoints/{endpoint_id}/start",
  "POST /projects/{project_id}/endpoints/{endpoint_id}/suspend",
  "POST /projects/{project_id}/endpoints/{endpoint_id}/restart",
  "GET /projects/{project_id}/operations",
  "GET /projects/{project_id}/operations/{operation_id}",
  "GET /api_keys",
  "POST /api_keys",
  "DELETE /api_keys/{key_id}",
  "GET /organizations/{org_id}/api_keys",
  "POST /organizations/{org_id}/api_keys",
  "DELETE /organizations/{org_id}/api_keys/{key_id}",
  "GET /projects/{project_id}/permissions",
  "POST /projects/{project_id}/permissions",
  "DELETE /projects/{project_id}/permissions/{permission_id}",
  "POST /projects/{project_id}/branches/{branch_id}/snapshot",
  "GET /projects/{project_id}/snapshots",
  "PATCH /projects/{project_id}/snapshots/{snapshot_id}",
  "DELETE /projects/{project_id}/snapshots/{snapshot_id}",
  "POST /projects/{project_id}/snapshots/{snapshot_id}/restore",
  "POST /projects/{project_id}/branches/{branch_id}/finalize_restore",
  "GET /projects/{project_id}/branches/{branch_id}/backup_schedule",
  "PUT /projects/{project_id}/branches/{branch_id}/backup_schedule",
  "POST /projects/{project_id}/branch_anonymized",
  "GET /projects/{project_id}/branches/{branch_id}/masking_rules",
  "PATCH /projects/{project_id}/branches/{branch_id}/masking_rules",
  "GET /projects/{project_id}/branches/{branch_id}/anonymized_status",
  "POST /projects/{project_id}/branches/{branch_id}/anonymize",
  "GET /regions",
  "GET /organizations/{org_id}/vpc/vpc_endpoints",
  "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints",
  "GET /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
  "POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
  "DELETE /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}",
  "GET /projects/{project_id}/vpc_endpoints",
  "POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}",
  "DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}",
  "GET /organizations/{org_id}/billing/spending_limit",
  "PUT /organizations/{org_id}/billing/spending_limit",
  "DELETE /organizations/{org_id}/billing/spending_limit",
  "GET /projects/{project_id}/branches/{branch_id}/auth",
  "POST /projects/{project_id}/branches/{branch_id}/auth",
  "DELETE /projects/{project_id}/branches/{branch_id}/auth",
  "GET /projects/{project_id}/branches/{branch_id}/auth/domains",
  "POST /projects/{project_id}/branches/{branch_id}/auth/domains",
  "DELETE /projects/{project_id}/branches/{branch_id}/auth/domains",
  "GET /projects/{project_id}/branches/{branch_id}/auth/oauth_providers",
  "POST /projects/{project_id}/branches/{branch_id}/auth/oauth_providers",
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}",
  "DELETE /projects/{project_id}/branches/{branch_id}/auth/oauth_providers/{oauth_provider_id}",
  "GET /projects/{project_id}/branches/{branch_id}/auth/email_and_password",
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/email_and_password",
  "GET /projects/{project_id}/branches/{branch_id}/auth/allow_localhost",
  "PATCH /projects/{project_id}/branches/{branch_id}/auth/allow_localhost",
  "POST /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
  "GET /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
  "PATCH /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
  "DELETE /projects/{project_id}/branches/{branch_id}/data-api/{database_name}",
  "GET /projects/{project_id}/jwks",
  "POST /projects/{project_id}/jwks",
  "DELETE /projects/{project_id}/jwks/{jwks_id}",
];

describe("every route conforms to the OpenAPI schema", () => {
  it("in every state a compute goes through", async () => {
    const s = emu.seed;
    const p = { project_id: s.projectId };
    await c.get("/users/me");
    await c.get("/users/me/organizations");
    await c.get("/organizations/{org_id}", { params: { org_id: s.orgId } });
    await c.get("/projects");
    await c.get("/projects/{project_id}", { params: p });
    await c.get("/projects/{project_id}/branches", { params: p });
    const br = await c.post("/projects/{project_id}/branches", {
      params: p,
      body: { endpoints: [{ type: "read_write" }] },
    });
    expect(br.status).toBe(201);
    await c.get("/projects/{project_id}/branches/{branch_id}", {
      params: { ...p, branch_id: br.body.branch.id },
    });
    await c.get("/projects/{project_id}/branches/{branch_id}/endpoints", {
      params: { ...p, branch_id: br.body.branch.id },
    });
    // Roles and databases of the new branch (copied from its parent), and a connection URI.
    const b0 = { ...p, branch_id: br.body.branch.id };
    await c.get("/projects/{project_id}/branches/{branch_id}/roles", { params: b0 });
    await c.get("/projects/{project_id}/branches/{branch_id}/roles/{role_name}", {
      params: { ...b0, role_name: "neondb_owner" },
    });
    await c.get("/projects/{project_id}/branches/{branch_id}/roles/{role_name}", {
      params: { ...b0, role_name: "nobody" },
    }); // 404
    await c.get("/projects/{project_id}/branches/{branch_id}/databases", { params: b0 });
    await c.get("/projects/{project_id}/branches/{branch_id}/databases/{database_name}", {
      params: { ...b0, database_name: "neondb" },
    });
    await c.get("/projects/{project_id}/connection_uri", {
      params: p,
      query: {
        branch_id: br.body.branch.id,
        database_name: "neondb",
        role_name: "neondb_owner",
        pooled: "true",
      },
    });
    await c.get("/projects/{project_id}/connection_uri", { params: p, query: { role_name: "neondb_owner" } }); // 400
    // Creating, revealing, resetting and deleting roles and databases (each with the branch's compute).
    const ROLE1 = "/projects/{project_id}/branches/{branch_id}/roles/{role_name}";
    const DB1 = "/projects/{project_id}/branches/{branch_id}/databases/{database_name}";
    await settle(c, s.projectId);
    const alice = { ...b0, role_name: "alice" };
    expect(
      (
        await c.post("/projects/{project_id}/branches/{branch_id}/roles", {
          params: b0,
          body: { role: { name: "alice" } },
        })
      ).status,
    ).toBe(201);
    const busy = await c.post("/projects/{project_id}/branches/{branch_id}/roles", {
      params: b0,
      body: { role: { name: "reader", no_login: true } },
    });
    expect(busy.status).toBe(423); // alice's operations run
    await settle(c, s.projectId);
    await c.post("/projects/{project_id}/branches/{branch_id}/roles", {
      params: b0,
      body: { role: { name: "reader", no_login: true } },
    });
    await settle(c, s.projectId);
    await c.post("/projects/{project_id}/branches/{branch_id}/roles", {
      params: b0,
      body: { role: { name: "alice" } },
    }); // 409
    await c.get(`${ROLE1}/reveal_password`, { params: alice });
    await c.get(`${ROLE1}/reveal_password`, { params: { ...b0, role_name: "nobody" } }); // 404
    await c.post(`${ROLE1}/reset_password`, { params: alice });
    await settle(c, s.projectId);
    await c.post("/projects/{project_id}/branches/{branch_id}/databases", {
      params: b0,
      body: { database: { name: "app", owner_name: "alice" } },
    });
    await settle(c, s.projectId);
    await c.post("/projects/{project_id}/branches/{branch_id}/databases", {
      params: b0,
      body: { database: { name: "x", owner_name: "ghost" } },
    }); // 404
    await c.patch(DB1, {
      params: { ...b0, database_name: "app" },
      body: { database: { name: "app2", owner_name: "neondb_owner" } },
    });
    await settle(c, s.projectId);
    await c.del(DB1, { params: { ...b0, database_name: "app2" } });
    await c.del(DB1, { params: { ...b0, database_name: "app2" } }); // 204
    await settle(c, s.projectId);
    await c.del(ROLE1, { params: alice });
    await c.del(ROLE1, { params: alice }); // 204
    await settle(c, s.projectId);
    // Every status of an operation and state of a compute passes through the schema.
    const created = await c.post(EP, {
      params: p,
      body: { endpoint: { branch_id: s.branchIds[1], type: "read_write", name: "main" } },
      headers: { "x-emulator-fault": "status=423" },
    });
    expect(created.status).toBe(423);
    await settle(c, s.projectId);
    const ep = await c.post(EP, {
      params: p,
      body: { endpoint: { branch_id: s.branchIds[1], type: "read_write", name: "main" } },
      headers: { "x-emulator-fault": "op=failed" },
    });
    const e1 = { ...p, endpoint_id: ep.body.endpoint.id };
    const statuses = new Set<string>();
    for (let i = 0; i < 8; i++) {
      await c.get(EP1, { params: e1 });
      statuses.add(
        (await c.get(OP1, { params: { ...p, operation_id: ep.body.operations[0].id } })).body.operation
          .status,
      );
      emu.clock.advance(10);
    }
    // 20 ms running, 20 ms failed, 20 ms running again, then finished.
    expect([...statuses]).toEqual(["running", "failed", "finished"]);
    await settle(c, s.projectId);
    await c.get(EP, { params: p });
    await c.patch(EP1, {
      params: e1,
      body: { endpoint: { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 2 } },
    });
    await settle(c, s.projectId);
    await c.post(`${EP1}/suspend`, { params: e1 });
    await settle(c, s.projectId);
    await c.post(`${EP1}/restart`, { params: e1 }); // 409
    await c.post(`${EP1}/start`, { params: e1 });
    await settle(c, s.projectId);
    await c.post(`${EP1}/restart`, { params: e1 });
    await settle(c, s.projectId);
    await c.get(OPS, { params: p, query: { limit: 1000 } });
    await c.get(OPS, { params: p, query: { limit: 2 } });
    await c.del(EP1, { params: e1 });
    await c.del(EP1, { params: e1 }); // 204 once gone
    await settle(c, s.projectId);
    const b1 = { ...p, branch_id: br.body.branch.id };
    await c.patch("/projects/{project_id}/branches/{branch_id}", {
      params: b1,
      body: { branch: { name: "renamed", expires_at: new Date(emu.clock.now() + 86_400_000).toISOString() } },
    });
    await c.patch("/projects/{project_id}/branches/{branch_id}", {
      params: b1,
      body: { branch: { expires_at: null } },
    });
    await c.post("/projects/{project_id}/branches/{branch_id}/restore", {
      params: b1,
      body: { source_branch_id: s.defaultBranchId },
    });
    await settle(c, s.projectId);
    await c.post("/projects/{project_id}/branches/{branch_id}/restore", {
      params: b1,
      body: { source_branch_id: br.body.branch.id },
    }); // 400: its own history needs a point in time
    await c.del("/projects/{project_id}/branches/{branch_id}", {
      params: { ...p, branch_id: br.body.branch.id },
    });
    await c.del("/projects/{project_id}/branches/{branch_id}", {
      params: { ...p, branch_id: br.body.branch.id },
    });

    // A project's whole life: create (every field), update, delete; and the refusals.
    const np = await c.post("/projects", {
      body: {
        project: {
          name: "conformance",
          org_id: s.orgId,
          branch: { name: "trunk", role_name: "sally", database_name: "app" },
          default_endpoint_settings: { autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 2 },
          settings: { allowed_ips: { ips: ["10.0.0.1"] } },
          history_retention_seconds: 3600,
          store_passwords: false,
        },
      },
    });
    expect(np.status).toBe(201);
    const pp = { project_id: np.body.project.id };
    const reveal = await c.get(
      "/projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password",
      {
        params: { ...pp, branch_id: np.body.branch.id, role_name: "sally" },
      },
    );
    expect(reveal.status).toBe(412);
    const locked = await c.patch("/projects/{project_id}", { params: pp, body: { project: { name: "x" } } });
    expect(locked.status).toBe(423); // the create's operations run
    await settle(c, pp.project_id);
    await c.patch("/projects/{project_id}", {
      params: pp,
      body: { project: { name: "renamed", history_retention_seconds: 7200 } },
    });
    await c.patch("/projects/{project_id}", { params: pp, body: { project: { name: 5 } } }); // 400
    await settle(c, pp.project_id);
    await c.post("/projects", { body: { project: { pg_version: 12 } } }); // 400
    expect((await c.del("/projects/{project_id}", { params: pp })).status).toBe(200);
    await c.del("/projects/{project_id}", { params: pp }); // 404

    const pk = await c.post("/api_keys", { body: { key_name: "k" } });
    await c.get("/api_keys");
    await c.del("/api_keys/{key_id}", { params: { key_id: pk.body.id } });
    const ok = await c.post("/organizations/{org_id}/api_keys", {
      params: { org_id: s.orgId },
      body: { key_name: "p", project_id: s.projectId },
    });
    await c.get("/organizations/{org_id}/api_keys", { params: { org_id: s.orgId } });
    await c.del("/organizations/{org_id}/api_keys/{key_id}", {
      params: { org_id: s.orgId, key_id: ok.body.id },
    });
    const sp = { project_id: s.projectId };
    const grant = await c.post("/projects/{project_id}/permissions", {
      params: sp,
      body: { email: "dev@example.com" },
    });
    expect(grant.status).toBe(200);
    const again = await c.post("/projects/{project_id}/permissions", {
      params: sp,
      body: { email: "DEV@example.com" },
    });
    expect(again.status).toBe(409); // the address has access already
    const bad = await c.post("/projects/{project_id}/permissions", { params: sp, body: { email: "dev" } });
    expect(bad.status).toBe(400);
    const grants = await c.get("/projects/{project_id}/permissions", { params: sp });
    expect(grants.body.project_permissions.map((g: { id: string }) => g.id)).toEqual([grant.body.id]);
    const gp = { ...sp, permission_id: grant.body.id };
    const revoked = await c.del("/projects/{project_id}/permissions/{permission_id}", { params: gp });
    expect(revoked.body).toEqual({ ...grant.body, revoked_at: expect.any(String) });
    expect((await c.del("/projects/{project_id}/permissions/{permission_id}", { params: gp })).status).toBe(
      404,
    );
    // Error bodies (GeneralError) on a few routes.
    await c.get("/projects", { key: "bad" });
    await c.get(OP1, { params: { ...p, operation_id: "00000000-0000-4000-8000-000000000000" } });
    await c.get("/projects", { headers: { "x-emulator-fault": "status=429" } });
  });

  it("snapshots, restores and backup schedules (Beta)", async () => {
    const s = emu.seed;
    const p = { project_id: s.projectId };
    await settle(c, s.projectId);
    const made = await c.post("/projects/{project_id}/branches", {
      params: p,
      body: { branch: { name: "conformance-snap" }, endpoints: [{ type: "read_write" }] },
    });
    const b = { ...p, branch_id: made.body.branch.id };
    const SNAP = "/projects/{project_id}/branches/{branch_id}/snapshot";
    expect((await c.post(SNAP, { params: b })).status).toBe(422); // the branch is being created
    await settle(c, s.projectId);
    const snap = await c.post(SNAP, {
      params: b,
      query: { name: "before", expires_at: new Date(emu.clock.now() + 86_400_000).toISOString() },
    });
    expect(snap.status).toBe(200);
    await c.post(SNAP, { params: b, query: { timestamp: "2000-01-01T00:00:00Z" } }); // 400: outside the window
    await c.get("/projects/{project_id}/snapshots", { params: p });
    const s1 = { ...p, snapshot_id: snap.body.snapshot.id };
    await c.patch("/projects/{project_id}/snapshots/{snapshot_id}", {
      params: s1,
      body: { snapshot: { name: "renamed" } },
    });
    const restored = await c.post("/projects/{project_id}/snapshots/{snapshot_id}/restore", {
      params: s1,
      body: { name: "conformance-restored" },
    });
    expect(restored.status).toBe(200);
    const FIN = "/projects/{project_id}/branches/{branch_id}/finalize_restore";
    const r1 = { ...p, branch_id: restored.body.branch.id };
    expect((await c.post(FIN, { params: r1 })).status).toBe(422); // the restored branch is being created
    await settle(c, s.projectId);
    expect((await c.post(FIN, { params: r1 })).status).toBe(200);
    await c.post(FIN, { params: r1 }); // 400: finalized already
    await settle(c, s.projectId); // the moved compute's reconfiguration
    const once = await c.post("/projects/{project_id}/snapshots/{snapshot_id}/restore", {
      params: s1,
      body: { finalize_restore: true, target_branch_id: r1.branch_id },
    });
    expect(once.status).toBe(200);
    expect(once.body.endpoints).toHaveLength(1);
    await settle(c, s.projectId);
    const SCHED = "/projects/{project_id}/branches/{branch_id}/backup_schedule";
    await c.get(SCHED, { params: b });
    await c.req("PUT", SCHED, { params: b, body: { schedule: [{ frequency: "daily", hour: 3 }] } });
    await c.req("PUT", SCHED, { params: b, body: { schedule: [{ frequency: "never" }] } }); // 400
    await c.get(SCHED, { params: b });
    expect((await c.del("/projects/{project_id}/snapshots/{snapshot_id}", { params: s1 })).status).toBe(202);
    await c.del("/projects/{project_id}/snapshots/{snapshot_id}", { params: s1 }); // 404
  });

  it("anonymized branches (Beta)", async () => {
    const s = emu.seed;
    const p = { project_id: s.projectId };
    await settle(c, s.projectId);
    const rule = {
      database_name: "neondb",
      schema_name: "public",
      table_name: "users",
      column_name: "email",
      masking_function: "anon.fake_email()",
    };
    const made = await c.post("/projects/{project_id}/branch_anonymized", {
      params: p,
      body: {
        branch_create: { branch: { name: "conformance-anon" }, endpoints: [{ type: "read_write" }] },
        masking_rules: [rule],
        start_anonymization: true,
      },
    });
    expect(made.status).toBe(201);
    const b = { ...p, branch_id: made.body.branch.id };
    const RULES = "/projects/{project_id}/branches/{branch_id}/masking_rules";
    const STATUS = "/projects/{project_id}/branches/{branch_id}/anonymized_status";
    const START = "/projects/{project_id}/branches/{branch_id}/anonymize";
    expect((await c.get(STATUS, { params: b })).body.state).toBe("created");
    expect((await c.post(START, { params: b })).status).toBe(422); // the branch is being created
    await settle(c, s.projectId);
    await c.get(STATUS, { params: b });
    await c.get(RULES, { params: b });
    await c.patch(RULES, { params: b, body: { masking_rules: [{ ...rule, masking_value: "'x'" }] } }); // 400
    await c.patch(RULES, { params: b, body: { masking_rules: [] } });
    emu.clock.advance(60_000);
    expect((await c.get(STATUS, { params: b })).body.state).toBe("anonymized");
    expect((await c.post(START, { params: b })).body.state).toBe("anonymizing");
    await c.post("/projects/{project_id}/branch_anonymized", { params: p, body: { masking_rules: [{}] } }); // 400
    await c.get(STATUS, { params: { ...p, branch_id: s.branchIds[1] } }); // 404: not anonymized
  });

  it("regions, private networking (Scale) and the spending limit (Launch and Scale)", async () => {
    const regions = await c.get("/regions", { query: { org_id: emu.seed.orgId } });
    expect(regions.body.regions.filter((r: { default: boolean }) => r.default)).toHaveLength(1);
    const org = { org_id: emu.seed.orgId };
    // Launch: no private networking; a spending limit set, changed, removed (twice: idempotent).
    const VPC_ALL = "/organizations/{org_id}/vpc/vpc_endpoints";
    expect((await c.get(VPC_ALL, { params: org })).status).toBe(403);
    const LIMIT = "/organizations/{org_id}/billing/spending_limit";
    expect((await c.get(LIMIT, { params: org })).body).toEqual({ spending_limit_cents: null });
    expect((await c.req("PUT", LIMIT, { params: org, body: { spending_limit_cents: 0 } })).status).toBe(400);
    expect((await c.req("PUT", LIMIT, { params: org, body: { spending_limit_cents: 5000 } })).body).toEqual({
      spending_limit_cents: 5000,
    });
    await c.req("PUT", LIMIT, { params: org, body: { spending_limit_cents: 7500 } });
    expect((await c.get(LIMIT, { params: org })).body).toEqual({ spending_limit_cents: 7500 });
    const member = await emu.createPersonalKey("member");
    expect((await c.del(LIMIT, { params: org, key: member })).status).toBe(403);
    expect((await c.del(LIMIT, { params: org })).status).toBe(200);
    expect((await c.del(LIMIT, { params: org })).status).toBe(200);
    expect((await c.get(LIMIT, { params: org })).body).toEqual({ spending_limit_cents: null });
    expect((await c.get(LIMIT, { params: { org_id: "org-nobody-12345678" } })).status).toBe(404);

    const scale = await startEmulator({ opMs: 20, seed: 52, frozenClock: true, plan: "scale" });
    try {
      const sc = new Client(scale);
      const o = { org_id: scale.seed.orgId };
      const REGION = "/organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints";
      const ONE = `${REGION}/{vpc_endpoint_id}`;
      const e = { ...o, region_id: "aws-us-east-2", vpc_endpoint_id: "vpce-0123456789abcdef0" };
      expect((await sc.post(ONE, { params: e, body: { label: "app" } })).status).toBe(200);
      expect((await sc.post(ONE, { params: e, body: { label: "app-vpc" } })).status).toBe(200); // relabelled
      expect(
        (await sc.post(ONE, { params: { ...e, region_id: "azure-eastus2" }, body: { label: "x" } })).status,
      ).toBe(400);
      expect((await sc.get(ONE, { params: e })).body).toMatchObject({ label: "app-vpc", state: "new" });
      scale.clock.advance(20);
      const P = "/projects/{project_id}/vpc_endpoints";
      const pp = { project_id: scale.seed.projectId };
      const other = { ...pp, vpc_endpoint_id: "vpce-0fedcba9876543210" };
      expect((await sc.post(`${P}/{vpc_endpoint_id}`, { params: other, body: { label: "x" } })).status).toBe(
        400,
      ); // not assigned to the organization
      const r1 = { ...pp, vpc_endpoint_id: e.vpc_endpoint_id };
      expect((await sc.post(`${P}/{vpc_endpoint_id}`, { params: r1, body: { label: "only" } })).status).toBe(
        200,
      );
      expect((await sc.get(P, { params: pp })).body).toEqual({
        endpoints: [{ vpc_endpoint_id: e.vpc_endpoint_id, label: "only" }],
      });
      expect((await sc.get(ONE, { params: e })).body).toEqual({
        vpc_endpoint_id: e.vpc_endpoint_id,
        label: "app-vpc",
        state: "accepted",
        num_restricted_projects: 1,
        example_restricted_projects: [scale.seed.projectId],
      });
      expect(
        (await sc.get(REGION, { params: { ...o, region_id: "aws-us-east-2" } })).body.endpoints,
      ).toHaveLength(1);
      expect((await sc.get(VPC_ALL, { params: o })).body.endpoints).toEqual([
        { vpc_endpoint_id: e.vpc_endpoint_id, label: "app-vpc", region_id: "aws-us-east-2" },
      ]);
      expect((await sc.del(`${P}/{vpc_endpoint_id}`, { params: r1 })).status).toBe(200);
      expect((await sc.del(`${P}/{vpc_endpoint_id}`, { params: r1 })).status).toBe(404);
      expect((await sc.del(ONE, { params: e })).status).toBe(200);
      expect((await sc.get(ONE, { params: e })).status).toBe(404);
      // A deleted endpoint cannot be added back to the organization.
      expect((await sc.post(ONE, { params: e, body: { label: "app" } })).status).toBe(409);
    } finally {
      await scale.stop();
    }
  });

  it("Neon Auth and the Data API of a branch (Beta): no operation starts", async () => {
    const s = emu.seed;
    const b = { project_id: s.projectId, branch_id: s.branchIds[0] };
    const AUTH = "/projects/{project_id}/branches/{branch_id}/auth";
    expect((await c.get(AUTH, { params: b })).status).toBe(404);
    expect((await c.get(`${AUTH}/domains`, { params: b })).status).toBe(404);
    const enabled = await c.post(AUTH, { params: b, body: { auth_provider: "better_auth" } });
    expect(enabled.status).toBe(201);
    expect(enabled.body).not.toHaveProperty("operations");
    expect((await c.post(AUTH, { params: b, body: { auth_provider: "better_auth" } })).status).toBe(409);
    expect((await c.post(AUTH, { params: b, body: { auth_provider: "nope" } })).status).toBe(400);
    expect((await c.get(AUTH, { params: b })).body).toMatchObject({
      branch_id: b.branch_id,
      db_name: "neondb",
    });
    const domain = { domain: "https://app.example.com", auth_provider: "better_auth" };
    expect((await c.post(`${AUTH}/domains`, { params: b, body: domain })).status).toBe(201);
    expect(
      (await c.post(`${AUTH}/domains`, { params: b, body: { ...domain, domain: "no url" } })).status,
    ).toBe(400);
    expect((await c.get(`${AUTH}/domains`, { params: b })).body.domains).toEqual([domain]);
    const gone = { auth_provider: "better_auth", domains: [{ domain: domain.domain }] };
    expect((await c.req("DELETE", `${AUTH}/domains`, { params: b, body: gone })).status).toBe(200);
    const OAUTH = `${AUTH}/oauth_providers`;
    const added = await c.post(OAUTH, {
      params: b,
      body: { id: "github", client_id: "id", client_secret: "shh" },
    });
    expect(added.body).toEqual({ id: "github", type: "standard", client_id: "id" }); // never the secret
    expect((await c.post(OAUTH, { params: b, body: { id: "github" } })).status).toBe(409);
    const one = { ...b, oauth_provider_id: "github" };
    expect(
      (await c.patch(`${OAUTH}/{oauth_provider_id}`, { params: one, body: { client_secret: "new" } })).status,
    ).toBe(200);
    expect((await c.get(OAUTH, { params: b })).body.providers).toHaveLength(1);
    expect((await c.del(`${OAUTH}/{oauth_provider_id}`, { params: one })).status).toBe(200);
    expect((await c.del(`${OAUTH}/{oauth_provider_id}`, { params: one })).status).toBe(404);
    expect((await c.get(`${AUTH}/email_and_password`, { params: b })).body.enabled).toBe(true);
    await c.patch(`${AUTH}/email_and_password`, { params: b, body: { enabled: false } });
    expect((await c.get(`${AUTH}/allow_localhost`, { params: b })).body).toEqual({ allow_localhost: true });
    await c.patch(`${AUTH}/allow_localhost`, { params: b, body: { allow_localhost: false } });

    const API = "/projects/{project_id}/branches/{branch_id}/data-api/{database_name}";
    const d = { ...b, database_name: "neondb" };
    expect((await c.get(API, { params: d })).status).toBe(404);
    expect((await c.post(API, { params: { ...d, database_name: "nodb" }, body: {} })).status).toBe(404);
    expect((await c.post(API, { params: d, body: { auth_provider: "external" } })).status).toBe(400); // no jwks_url
    const made = await c.post(API, {
      params: d,
      body: { auth_provider: "neon_auth", settings: { db_max_rows: 10 } },
    });
    expect(made.status).toBe(201);
    expect((await c.post(API, { params: d, body: { auth_provider: "neon_auth" } })).status).toBe(409);
    expect((await c.get(API, { params: d })).body).toMatchObject({ url: made.body.url, status: "ready" });
    expect((await c.patch(API, { params: d, body: { settings: { db_schemas: ["app"] } } })).status).toBe(201);
    expect((await c.del(API, { params: d })).status).toBe(200);
    expect((await c.del(API, { params: d })).status).toBe(404);
    // A database's Data API goes with its name (the emulator's assumption, in its README).
    const DB = "/projects/{project_id}/branches/{branch_id}/databases/{database_name}";
    expect((await c.post(API, { params: d, body: { auth_provider: "neon_auth" } })).status).toBe(201);
    await settle(c, s.projectId);
    const renamed = await c.patch(DB, { params: d, body: { database: { name: "neondb2" } } });
    expect(renamed.status).toBe(200);
    await settle(c, s.projectId);
    await c.patch(DB, { params: { ...d, database_name: "neondb2" }, body: { database: { name: "neondb" } } });
    await settle(c, s.projectId);
    expect((await c.get(API, { params: d })).status).toBe(404);
    expect((await c.req("DELETE", AUTH, { params: b, body: { delete_data: true } })).status).toBe(200);
    expect((await c.req("DELETE", AUTH, { params: b, body: {} })).status).toBe(404);
    // With Neon Auth gone, a Data API with it as provider is refused.
    expect((await c.post(API, { params: d, body: { auth_provider: "neon_auth" } })).status).toBe(400);
  });

  it("a project's JWKS: added with operations, listed, deleted", async () => {
    const s = emu.seed;
    const p = { project_id: s.projectId };
    const J = "/projects/{project_id}/jwks";
    const url = "https://auth.example.com/.well-known/jwks.json";
    await settle(c, s.projectId);
    const bad = await c.post(J, {
      params: p,
      body: { jwks_url: "http://auth.example.com/k", provider_name: "x" },
    });
    expect(bad.status).toBe(400); // HTTPS only
    const noBranch = await c.post(J, {
      params: p,
      body: { jwks_url: url, provider_name: "Clerk", branch_id: "br-nowhere-123456" },
    });
    expect(noBranch.status).toBe(404);
    const added = await c.post(J, {
      params: p,
      body: { jwks_url: url, provider_name: "Clerk", branch_id: s.branchIds[0], jwt_audience: "app" },
    });
    expect(added.status).toBe(201);
    // Applied to the branch's computes (the seeded main branch has one), as a role's create is.
    expect(added.body.operations.length).toBeGreaterThan(0);
    expect(added.body.jwks.role_names).toEqual(["authenticator", "authenticated", "anonymous"]);
    const locked = await c.post(J, { params: p, body: { jwks_url: `${url}?2`, provider_name: "Auth0" } });
    expect(locked.status).toBe(423); // the add's operations run
    await settle(c, s.projectId);
    const again = await c.post(J, {
      params: p,
      body: { jwks_url: url, provider_name: "Clerk", branch_id: s.branchIds[0] },
    });
    expect(again.status).toBe(409); // the same URL and scope
    const every = await c.post(J, {
      params: p,
      body: { jwks_url: url, provider_name: "Clerk", role_names: ["app"], skip_role_creation: true },
    });
    expect(every.status).toBe(201);
    expect(every.body.jwks.branch_id).toBeUndefined();
    await settle(c, s.projectId);
    const list = await c.get(J, { params: p });
    expect(list.body.jwks.map((j: { id: string }) => j.id)).toEqual([added.body.jwks.id, every.body.jwks.id]);
    const one = { ...p, jwks_id: added.body.jwks.id };
    const gone = await c.del(`${J}/{jwks_id}`, { params: one });
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual(added.body.jwks);
    expect((await c.del(`${J}/{jwks_id}`, { params: one })).status).toBe(404);
    await c.del(`${J}/{jwks_id}`, { params: { ...p, jwks_id: every.body.jwks.id } });
    expect((await c.get(J, { params: p })).body.jwks).toEqual([]);
  });

  it("left no route untested", () => {
    expect(ROUTES.filter((r) => !checked.has(r))).toEqual([]);
  });
});
