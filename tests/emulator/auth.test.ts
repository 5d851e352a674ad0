/** Authentication and API keys: personal, organization and project-scoped keys. */
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, EP } from "./client";

let emu: EmulatorHandle;
let c: Client;

beforeAll(async () => {
  emu = await startEmulator({ opMs: 20, seed: 21, apiKey: "fixed-bootstrap-token" });
  c = new Client(emu);
});
afterAll(() => emu.stop());
beforeEach(() => emu.reset());

const orgKeys = "/organizations/{org_id}/api_keys";
const orgKey1 = "/organizations/{org_id}/api_keys/{key_id}";
const projects = async (key: string) =>
  ((await c.get("/projects", { key, query: { limit: 400 } })).body.projects as { id: string }[])
    .map((p) => p.id)
    .sort();

describe("401", () => {
  it.each([
    ["no Authorization header", null, /send the header Authorization: Bearer/],
    ["an unknown key", "nope", /invalid or has been revoked/],
  ])("refuses %s", async (_what, key, message) => {
    const r = await c.get("/projects", { key });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ code: "UNAUTHORIZED", message: expect.stringMatching(message) });
  });

  it("refuses a non-Bearer scheme", async () => {
    const r = await c.get("/projects", { key: null, headers: { authorization: `Basic ${emu.apiKey}` } });
    expect(r.status).toBe(401);
  });

  it("uses the fixed bootstrap token, and it survives reset()", async () => {
    expect(emu.apiKey).toBe("fixed-bootstrap-token");
    expect((await c.get("/projects")).status).toBe(200);
  });
});

describe("personal keys", () => {
  it("creates (token shown once), lists (no token), revokes; a revoked key gets 401", async () => {
    const created = await c.post("/api_keys", { body: { key_name: "ci" } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: "ci", created_by: expect.any(String) });
    expect(created.body.key).toHaveLength(64);
    const token = created.body.key as string;
    expect((await c.get("/projects", { key: token })).status).toBe(200);
    const list = await c.get("/api_keys");
    const item = list.body.find((k: { id: number }) => k.id === created.body.id);
    expect(item).toMatchObject({ name: "ci", created_by: { id: created.body.created_by } });
    expect(item.last_used_at).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(token);
    const revoked = await c.del("/api_keys/{key_id}", { params: { key_id: created.body.id } });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: created.body.id, revoked: true });
    expect((await c.get("/projects", { key: token })).status).toBe(401);
    expect((await c.get("/api_keys")).body.some((k: { id: number }) => k.id === created.body.id)).toBe(false);
  });

  it("generates a different random token each time", async () => {
    const a = (await c.post("/api_keys", { body: { key_name: "a" } })).body.key;
    const b = (await c.post("/api_keys", { body: { key_name: "b" } })).body.key;
    expect(a).not.toBe(b);
  });

  it("refuses a bad body, an unknown key id and another user's key", async () => {
    expect((await c.post("/api_keys", { body: {} })).body.message).toMatch(/key_name is required/);
    expect((await c.post("/api_keys", { body: { key_name: "x".repeat(65) } })).body.message).toMatch(
      /key_name: must be at most 64/,
    );
    expect((await c.del("/api_keys/{key_id}", { params: { key_id: 999 } })).status).toBe(404);
    expect((await c.del("/api_keys/{key_id}", { params: { key_id: "abc" } })).status).toBe(400);
    const member = emu.createPersonalKey("member");
    const mine = (await c.post("/api_keys", { body: { key_name: "admin-only" } })).body.id;
    expect((await c.del("/api_keys/{key_id}", { params: { key_id: mine }, key: member })).status).toBe(404);
  });

  it("sees the user's personal projects and the organization projects", async () => {
    expect(await projects(emu.apiKey)).toEqual([emu.seed.projectId, emu.seed.freeProjectId].sort());
    // The member has no personal project here, only the organization's.
    expect(await projects(emu.createPersonalKey("member"))).toEqual([emu.seed.projectId]);
  });
});

describe("organization and project-scoped keys", () => {
  it("an admin creates an organization key; it sees the organization's projects only", async () => {
    const r = await c.post(orgKeys, { params: { org_id: emu.seed.orgId }, body: { key_name: "org" } });
    expect(r.status).toBe(200);
    expect(r.body.project_id).toBeUndefined();
    expect(await projects(r.body.key)).toEqual([emu.seed.projectId]);
    const free = await c.get(EP, { params: { project_id: emu.seed.freeProjectId }, key: r.body.key });
    expect(free.status).toBe(404);
    // Organization keys cannot create keys (a personal key is required) …
    const nested = await c.post(orgKeys, {
      params: { org_id: emu.seed.orgId },
      body: { key_name: "x" },
      key: r.body.key,
    });
    expect(nested.status).toBe(403);
    // … but act as administrators: list and revoke organization keys.
    const list = await c.get(orgKeys, { params: { org_id: emu.seed.orgId }, key: r.body.key });
    expect(list.body.map((k: { id: number }) => k.id)).toContain(r.body.id);
  });

  it("refuses an organization key to a non-admin member (403), but lets them create a project-scoped key", async () => {
    const member = emu.createPersonalKey("member");
    const r = await c.post(orgKeys, {
      params: { org_id: emu.seed.orgId },
      body: { key_name: "org" },
      key: member,
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/only administrators/);
    const scoped = await c.post(orgKeys, {
      params: { org_id: emu.seed.orgId },
      body: { key_name: "proj", project_id: emu.seed.projectId },
      key: member,
    });
    expect(scoped.status).toBe(200);
    expect(scoped.body.project_id).toBe(emu.seed.projectId);
    // Members cannot list or revoke organization keys.
    expect((await c.get(orgKeys, { params: { org_id: emu.seed.orgId }, key: member })).status).toBe(403);
    expect(
      (await c.del(orgKey1, { params: { org_id: emu.seed.orgId, key_id: scoped.body.id }, key: member }))
        .status,
    ).toBe(403);
  });

  it("a project-scoped key sees and manages only its project", async () => {
    const r = await c.post(orgKeys, {
      params: { org_id: emu.seed.orgId },
      body: { key_name: "proj", project_id: emu.seed.projectId },
    });
    const key = r.body.key as string;
    expect(await projects(key)).toEqual([emu.seed.projectId]);
    const created = await c.post(EP, {
      params: { project_id: emu.seed.projectId },
      body: { endpoint: { branch_id: emu.seed.branchIds[1], type: "read_write" } },
      key,
    });
    expect(created.status).toBe(201);
    expect((await c.get(EP, { params: { project_id: emu.seed.freeProjectId }, key })).status).toBe(404);
    // No organization-level actions.
    expect((await c.get(orgKeys, { params: { org_id: emu.seed.orgId }, key })).status).toBe(403);
    expect((await c.get("/api_keys", { key })).status).toBe(403);
    expect((await c.post("/api_keys", { body: { key_name: "x" }, key })).status).toBe(403);
  });

  it("answers a project-scoped key on any other project exactly as the service does: 404, empty code, its scope message", async () => {
    const r = await c.post(orgKeys, {
      params: { org_id: emu.seed.orgId },
      body: { key_name: "proj", project_id: emu.seed.projectId },
    });
    const key = r.body.key as string;
    const routes: [string, string][] = [
      ["GET", "/projects/{project_id}"],
      ["PATCH", "/projects/{project_id}"],
      ["DELETE", "/projects/{project_id}"],
      ["GET", "/projects/{project_id}/branches"],
      ["GET", "/projects/{project_id}/branches/{branch_id}/roles"],
      ["GET", "/projects/{project_id}/branches/{branch_id}/databases"],
      ["POST", "/projects/{project_id}/branches/{branch_id}/roles"],
      ["DELETE", "/projects/{project_id}/branches/{branch_id}/roles/{role_name}"],
      ["GET", "/projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password"],
      ["POST", "/projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password"],
      ["POST", "/projects/{project_id}/branches/{branch_id}/databases"],
      ["PATCH", "/projects/{project_id}/branches/{branch_id}/databases/{database_name}"],
      ["DELETE", "/projects/{project_id}/branches/{branch_id}/databases/{database_name}"],
      ["GET", "/projects/{project_id}/connection_uri"],
      ["POST", "/projects/{project_id}/branches"],
      ["GET", "/projects/{project_id}/branches/{branch_id}"],
      ["DELETE", "/projects/{project_id}/branches/{branch_id}"],
      ["GET", "/projects/{project_id}/branches/{branch_id}/endpoints"],
      ["GET", "/projects/{project_id}/endpoints"],
      ["POST", "/projects/{project_id}/endpoints"],
      ["GET", "/projects/{project_id}/endpoints/{endpoint_id}"],
      ["PATCH", "/projects/{project_id}/endpoints/{endpoint_id}"],
      ["DELETE", "/projects/{project_id}/endpoints/{endpoint_id}"],
      ["POST", "/projects/{project_id}/endpoints/{endpoint_id}/start"],
      ["POST", "/projects/{project_id}/endpoints/{endpoint_id}/suspend"],
      ["POST", "/projects/{project_id}/endpoints/{endpoint_id}/restart"],
      ["GET", "/projects/{project_id}/operations"],
      ["GET", "/projects/{project_id}/operations/{operation_id}"],
    ];
    // Another existing project (with its real branch and compute ids) and a project that does not exist.
    for (const other of [emu.seed.freeProjectId, "no-such-project-1"]) {
      for (const [method, route] of routes) {
        const res = await c.req(method, route, {
          params: {
            project_id: other,
            branch_id: emu.seed.freeProjectBranchId,
            endpoint_id: "ep-other-1",
            operation_id: "00000000-0000-4000-8000-000000000000",
            role_name: "neondb_owner",
            database_name: "neondb",
          },
          body: method === "GET" || method === "DELETE" ? undefined : {},
          key,
        });
        expect([method, route, res.status, res.body]).toEqual([
          method,
          route,
          404,
          {
            code: "",
            message: `not allowed to perform actions outside the project this key is scoped to; subject_project_id:"${other}"`,
            request_id: expect.any(String),
          },
        ]);
      }
    }
    // The bootstrap (personal) key still gets the ordinary "not found" for an unknown project.
    const unknown = await c.get(EP, { params: { project_id: "no-such-project-1" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("NOT_FOUND");
    // An organization key outside its organization is not refused as out of scope either.
    const org = await c.post(orgKeys, { params: { org_id: emu.seed.orgId }, body: { key_name: "org" } });
    const free = await c.get(EP, { params: { project_id: emu.seed.freeProjectId }, key: org.body.key });
    expect(free.body.code).toBe("NOT_FOUND");
  });

  it("refuses a project outside the organization and an unknown organization", async () => {
    const outside = await c.post(orgKeys, {
      params: { org_id: emu.seed.orgId },
      body: { key_name: "p", project_id: emu.seed.freeProjectId },
    });
    expect(outside.status).toBe(404);
    expect(
      (await c.post(orgKeys, { params: { org_id: "org-none-1" }, body: { key_name: "p" } })).status,
    ).toBe(404);
    const bad = await c.post(orgKeys, {
      params: { org_id: emu.seed.orgId },
      body: { key_name: "p", project_id: "BAD ID" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/project_id/);
  });

  it("an admin revokes an organization key immediately; revoking again is idempotent", async () => {
    const r = await c.post(orgKeys, { params: { org_id: emu.seed.orgId }, body: { key_name: "org" } });
    const del = await c.del(orgKey1, { params: { org_id: emu.seed.orgId, key_id: r.body.id } });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: r.body.id, revoked: true, name: "org" });
    expect((await c.get("/projects", { key: r.body.key })).status).toBe(401);
    expect(
      (await c.del(orgKey1, { params: { org_id: emu.seed.orgId, key_id: r.body.id } })).body.revoked,
    ).toBe(true);
    // A personal key id is not an organization key.
    const personal = (await c.post("/api_keys", { body: { key_name: "me" } })).body.id;
    expect((await c.del(orgKey1, { params: { org_id: emu.seed.orgId, key_id: personal } })).status).toBe(404);
  });
});

describe("storage of tokens", () => {
  it("keeps only sha256 hashes of tokens in the state file", async () => {
    const path = `${tmpdir()}/emu-auth-${process.pid}.json`;
    const e = await startEmulator({ statePath: path, seed: 1 });
    const cl = new Client(e);
    const token = (await cl.post("/api_keys", { body: { key_name: "secret" } })).body.key;
    const file = readFileSync(path, "utf8");
    expect(file).not.toContain(token);
    expect(file).not.toContain(e.apiKey);
    expect(file).toContain(createHash("sha256").update(token).digest("hex"));
    await e.stop();
    rmSync(path);
  });
});
