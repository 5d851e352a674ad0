/**
 * PATCH and DELETE /projects/{project_id}: a rename without operations, a new restore window with
 * `apply_storage_config` (the project locked while it runs), default endpoint settings replaced whole,
 * settings merged; a delete that takes everything of the project with it, refused to project-scoped
 * keys and for a project with a protected branch.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, EP, OP1, OPS, settle } from "./client";

let emu: EmulatorHandle;
let c: Client;
let project: string;

beforeAll(async () => {
  // A frozen clock: only `advance` moves it, so apply_storage_config (1 s) still runs, and the project is
  // still locked, however long the requests after it take on a loaded machine.
  emu = await startEmulator({ opMs: 1000, seed: 91, frozenClock: true });
  c = new Client(emu);
});
afterAll(() => emu.stop());
beforeEach(() => {
  emu.reset();
  project = emu.seed.projectId;
});

const P = "/projects/{project_id}";
const BUSY = "project already has running conflicting operations, scheduling of new ones is prohibited";
const patch = (body: Record<string, unknown>, key?: string) =>
  c.patch(P, { params: { project_id: project }, body: { project: body }, key });
const scopedKey = async () =>
  (
    await c.post("/organizations/{org_id}/api_keys", {
      params: { org_id: emu.seed.orgId },
      body: { key_name: "scoped", project_id: project },
    })
  ).body.key as string;

describe("PATCH /projects/{project_id}", () => {
  it("renames without operations; GET and the list show the new name", async () => {
    const before = (await c.get(P, { params: { project_id: project } })).body.project;
    emu.clock.advance(1000);
    const r = await patch({ name: "renamed" });
    expect(r.status).toBe(200);
    expect(r.body.operations).toEqual([]);
    expect(r.body.project).toMatchObject({ id: project, name: "renamed" });
    expect(Date.parse(r.body.project.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect((await c.get(P, { params: { project_id: project } })).body.project.name).toBe("renamed");
    const listed = (await c.get("/projects", { query: { search: "renamed" } })).body.projects;
    expect(listed.map((p: { id: string }) => p.id)).toEqual([project]);
    // Nothing to change: no operations either, and updated_at stays.
    const same = await patch({ name: "renamed" });
    expect([same.body.operations, same.body.project.updated_at]).toEqual([[], r.body.project.updated_at]);
  });

  it("a new restore window runs apply_storage_config; the project is locked until it finishes", async () => {
    const r = await patch({ history_retention_seconds: 3600 });
    expect(r.body.project.history_retention_seconds).toBe(3600);
    expect(r.body.operations.map((o: { action: string; status: string }) => [o.action, o.status])).toEqual([
      ["apply_storage_config", "running"],
    ]);
    const locked = await patch({ name: "x" });
    expect([locked.status, locked.body.code, locked.body.message]).toEqual([423, "LOCKED", BUSY]);
    emu.clock.advance(1000);
    const op = (await c.get(OP1, { params: { project_id: project, operation_id: r.body.operations[0].id } }))
      .body.operation;
    expect(op.status).toBe("finished");
    expect((await patch({ name: "x" })).status).toBe(200);
    // The same window again changes nothing.
    expect((await patch({ history_retention_seconds: 3600 })).body.operations).toEqual([]);
    expect((await c.get(P, { params: { project_id: project } })).body.project.history_retention_seconds).toBe(
      3600,
    );
  });

  it("default endpoint settings are replaced whole; settings given replace those of the same name", async () => {
    const first = await patch({
      default_endpoint_settings: {
        autoscaling_limit_min_cu: 1,
        autoscaling_limit_max_cu: 2,
        pg_settings: { a: "1" },
      },
      settings: { allowed_ips: { ips: ["10.0.0.1"] }, block_public_connections: false },
    });
    expect(first.body.operations).toEqual([]);
    const second = await patch({
      default_endpoint_settings: { suspend_timeout_seconds: 600 },
      settings: { allowed_ips: { ips: [] } },
    });
    expect(second.body.project.default_endpoint_settings).toEqual({ suspend_timeout_seconds: 600 });
    expect(second.body.project.settings).toEqual({
      allowed_ips: { ips: [] },
      block_public_connections: false,
    });
    const got = (await c.get(P, { params: { project_id: project } })).body.project;
    expect([got.default_endpoint_settings, got.settings]).toEqual([
      second.body.project.default_endpoint_settings,
      second.body.project.settings,
    ]);
  });

  it("a project-scoped key may update its project", async () => {
    const r = await patch({ name: "by-scoped-key" }, await scopedKey());
    expect([r.status, r.body.project.name]).toEqual([200, "by-scoped-key"]);
  });

  it.each([
    [{}, 400, /project is required/],
    [{ project: { region_id: "aws-us-east-1" } }, 400, /project: unknown field "region_id"/],
    [
      { project: { history_retention_seconds: 2592001 } },
      400,
      /project.history_retention_seconds: must be 0/,
    ],
    [{ project: { name: 5 } }, 400, /project.name: expected string/],
    [
      {
        project: { default_endpoint_settings: { autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 2 } },
      },
      400,
      /update project \(project.default_endpoint_settings\): autoscaling_limit_min_cu 4 is greater/,
    ],
  ])("refuses %j", async (body, status, message) => {
    const r = await c.patch(P, { params: { project_id: project }, body });
    expect([r.status, r.body.message]).toEqual([status, expect.stringMatching(message)]);
  });

  it("logical replication cannot be turned off once on; an unknown project is 404", async () => {
    expect((await patch({ settings: { enable_logical_replication: true } })).status).toBe(200);
    const off = await patch({ settings: { enable_logical_replication: false } });
    expect([off.status, off.body.message]).toEqual([400, expect.stringMatching(/cannot be turned off/)]);
    const unknown = await c.patch(P, {
      params: { project_id: "no-such-1" },
      body: { project: { name: "x" } },
    });
    expect(unknown.status).toBe(404);
  });
});

describe("DELETE /projects/{project_id}", () => {
  it("answers {project} without operations, and everything of the project is gone; again: 404", async () => {
    // Something of every kind: another branch with its compute and roles, operations.
    await c.post("/projects/{project_id}/branches", {
      params: { project_id: project },
      body: { branch: { name: "extra" }, endpoints: [{ type: "read_write" }] },
    });
    await settle(c, project);
    const before = (await c.get(P, { params: { project_id: project } })).body.project;
    const r = await c.del(P, { params: { project_id: project } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["project"]);
    expect(r.body.project).toMatchObject({ id: project, name: before.name });
    const p = { project_id: project };
    const b = { ...p, branch_id: emu.seed.defaultBranchId };
    for (const [route, params, query] of [
      [P, p],
      ["/projects/{project_id}/branches", p],
      ["/projects/{project_id}/branches/{branch_id}/roles", b],
      ["/projects/{project_id}/branches/{branch_id}/databases", b],
      [EP, p],
      [OPS, p],
      ["/projects/{project_id}/connection_uri", p, { database_name: "neondb", role_name: "neondb_owner" }],
    ] as [string, Record<string, string>, Record<string, string>?][]) {
      const res = await c.get(route, { params, query });
      expect([route, res.status]).toEqual([route, 404]);
    }
    const ids = (await c.get("/projects", { query: { limit: 400 } })).body.projects.map(
      (x: { id: string }) => x.id,
    );
    expect(ids).not.toContain(project);
    const again = await c.del(P, { params: p });
    expect([again.status, again.body.message]).toEqual([404, expect.stringMatching(/not found/)]);
    // The other project is untouched.
    expect((await c.get(P, { params: { project_id: emu.seed.freeProjectId } })).status).toBe(200);
  });

  it("leaves nothing of the project in the state", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-delete-"));
    const path = join(dir, "state.json");
    const e = await startEmulator({ statePath: path, opMs: 20, seed: 92 });
    try {
      const ce = new Client(e);
      const created = await ce.post("/projects", { body: { project: { name: "doomed" } } });
      const id = created.body.project.id;
      await settle(ce, id);
      const branchIds = [created.body.branch.id];
      const stored = () => JSON.parse(readFileSync(path, "utf8"));
      expect(stored().projects[id]).toBeDefined();
      expect((await ce.del(P, { params: { project_id: id } })).status).toBe(200);
      const s = stored();
      expect([s.projects[id], s.operations[id], s.sim[id]]).toEqual([undefined, undefined, undefined]);
      expect(
        Object.values(s.branches).filter((x) => (x as { project_id: string }).project_id === id),
      ).toEqual([]);
      expect(
        Object.values(s.endpoints).filter((x) => (x as { project_id: string }).project_id === id),
      ).toEqual([]);
      expect(branchIds.map((bid) => [s.roles[bid], s.databases[bid]])).toEqual([[undefined, undefined]]);
      // Its operations cannot be read any more.
      const op = await ce.get(OP1, {
        params: { project_id: id, operation_id: created.body.operations[0].id },
      });
      expect(op.status).toBe(404);
    } finally {
      await e.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a project-scoped key cannot delete its project (403)", async () => {
    const r = await c.del(P, { params: { project_id: project }, key: await scopedKey() });
    expect([r.status, r.body.code]).toEqual([403, "FORBIDDEN"]);
    expect(r.body.message).toMatch(/cannot delete its project/);
    expect((await c.get(P, { params: { project_id: project } })).status).toBe(200);
  });

  it("refuses a project with a protected branch, naming it; unprotected, it goes", async () => {
    const branch = { project_id: project, branch_id: emu.seed.branchIds[2] };
    await c.patch("/projects/{project_id}/branches/{branch_id}", {
      params: branch,
      body: { branch: { protected: true } },
    });
    const r = await c.del(P, { params: { project_id: project } });
    expect([r.status, r.body.code]).toEqual([400, "INVALID_REQUEST"]);
    expect(r.body.message).toContain(`has protected branches (${branch.branch_id})`);
    await c.patch("/projects/{project_id}/branches/{branch_id}", {
      params: branch,
      body: { branch: { protected: false } },
    });
    expect((await c.del(P, { params: { project_id: project } })).status).toBe(200);
  });

  it("is locked while an operation of the project runs", async () => {
    await patch({ history_retention_seconds: 7200 });
    const r = await c.del(P, { params: { project_id: project } });
    expect([r.status, r.body.message]).toEqual([423, BUSY]);
    emu.clock.advance(1000);
    expect((await c.del(P, { params: { project_id: project } })).status).toBe(200);
  });
});
