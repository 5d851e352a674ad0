/**
 * Roles and databases per branch: the seeded owner role and database, their GET routes (no password),
 * the connection URI, inheritance by a child branch (new passwords under a protected parent), and state
 * files of version 2 written before roles and databases were kept.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, settle } from "./client";

let emu: EmulatorHandle;
let c: Client;
let project: string;

beforeAll(async () => {
  // A frozen clock: only `advance` (and `settle`) moves it, so a new branch is still being created when a
  // test reads it, however slow the machine.
  emu = await startEmulator({ opMs: 20, seed: 71, frozenClock: true });
  c = new Client(emu);
});
afterAll(() => emu.stop());
beforeEach(() => {
  emu.reset();
  project = emu.seed.projectId;
});

const BR = "/projects/{project_id}/branches";
const BR1 = "/projects/{project_id}/branches/{branch_id}";
const ROLES = "/projects/{project_id}/branches/{branch_id}/roles";
const ROLE1 = "/projects/{project_id}/branches/{branch_id}/roles/{role_name}";
const DBS = "/projects/{project_id}/branches/{branch_id}/databases";
const DB1 = "/projects/{project_id}/branches/{branch_id}/databases/{database_name}";
const URI = "/projects/{project_id}/connection_uri";
const URI_RE = /^postgresql:\/\/neondb_owner:([A-Za-z0-9]{12})@([^/]+)\/neondb\?sslmode=require$/;

const owner = { database_name: "neondb", role_name: "neondb_owner" };
const names = (list: { name: string }[]) => list.map((x) => x.name);

/** The password of neondb_owner on a branch, read from its connection URI. */
async function passwordOn(branchId: string, endpointId?: string): Promise<string> {
  const query = { ...owner, branch_id: branchId, ...(endpointId ? { endpoint_id: endpointId } : {}) };
  const r = await c.get(URI, { params: { project_id: project }, query });
  expect(r.status).toBe(200);
  return URI_RE.exec(r.body.uri)![1];
}

describe("seeded roles and databases", () => {
  it("each project's default branch has neondb_owner and neondb; lists and gets carry no password", async () => {
    for (const [p, b] of [
      [project, emu.seed.defaultBranchId],
      [emu.seed.freeProjectId, emu.seed.freeProjectBranchId],
    ]) {
      const roles = (await c.get(ROLES, { params: { project_id: p, branch_id: b } })).body.roles;
      expect(roles).toEqual([
        {
          branch_id: b,
          name: "neondb_owner",
          protected: false,
          authentication_method: "password",
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ]);
      const role = (
        await c.get(ROLE1, { params: { project_id: p, branch_id: b, role_name: "neondb_owner" } })
      ).body.role;
      expect(role).toEqual(roles[0]);
      const dbs = (await c.get(DBS, { params: { project_id: p, branch_id: b } })).body.databases;
      expect(dbs).toEqual([
        {
          id: expect.any(Number),
          branch_id: b,
          name: "neondb",
          owner_name: "neondb_owner",
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ]);
      const db = (await c.get(DB1, { params: { project_id: p, branch_id: b, database_name: "neondb" } })).body
        .database;
      expect(db).toEqual(dbs[0]);
    }
  });

  it("the seeded dev branches inherited them from main, with the same password and their own database ids", async () => {
    const dev = emu.seed.branchIds[1];
    const params = { project_id: project, branch_id: dev };
    expect(names((await c.get(ROLES, { params })).body.roles)).toEqual(["neondb_owner"]);
    const devDb = (await c.get(DBS, { params })).body.databases[0];
    const mainDb = (await c.get(DBS, { params: { ...params, branch_id: emu.seed.defaultBranchId } })).body
      .databases[0];
    expect(devDb.name).toBe("neondb");
    expect(devDb.id).not.toBe(mainDb.id);
    // dev-01 has no compute; give it one to read its URI.
    const ep = await c.post("/projects/{project_id}/endpoints", {
      params: { project_id: project },
      body: { endpoint: { branch_id: dev, type: "read_write" } },
    });
    expect(ep.status).toBe(201);
    expect(await passwordOn(dev)).toBe(await passwordOn(emu.seed.defaultBranchId));
  });

  it("404 names the unknown branch, role or database", async () => {
    const b = emu.seed.defaultBranchId;
    const cases: [string, Record<string, string>, RegExp][] = [
      [ROLES, { branch_id: "br-nope-1" }, /branch br-nope-1 not found/],
      [DBS, { branch_id: "br-nope-1" }, /branch br-nope-1 not found/],
      [ROLE1, { branch_id: b, role_name: "alice" }, /role "alice" not found on branch/],
      [DB1, { branch_id: b, database_name: "other" }, /database "other" not found on branch/],
    ];
    for (const [route, params, message] of cases) {
      const r = await c.get(route, { params: { project_id: project, ...params } });
      expect([route, r.status, r.body.code]).toEqual([route, 404, "NOT_FOUND"]);
      expect(r.body.message).toMatch(message);
    }
  });
});

describe("GET /projects/{project_id}/connection_uri", () => {
  it("defaults to the default branch and its read_write compute; pooled puts -pooler after the endpoint id", async () => {
    const primary = (
      await c.get("/projects/{project_id}/endpoints/{endpoint_id}", {
        params: { project_id: project, endpoint_id: emu.seed.primaryEndpointId },
      })
    ).body.endpoint;
    const direct = (await c.get(URI, { params: { project_id: project }, query: owner })).body.uri;
    expect(URI_RE.exec(direct)![2]).toBe(primary.host);
    const pooled = (
      await c.get(URI, { params: { project_id: project }, query: { ...owner, pooled: "true" } })
    ).body.uri;
    expect(URI_RE.exec(pooled)![2]).toBe(primary.host.replace(primary.id, `${primary.id}-pooler`));
    expect(URI_RE.exec(pooled)![1]).toBe(URI_RE.exec(direct)![1]);
    const explicit = await c.get(URI, {
      params: { project_id: project },
      query: { ...owner, branch_id: emu.seed.defaultBranchId, endpoint_id: primary.id, pooled: "false" },
    });
    expect(explicit.body.uri).toBe(direct);
  });

  it("refuses what it cannot find (404) and malformed queries (400), naming them", async () => {
    const p = { project_id: project };
    const cases: [Record<string, string>, number, RegExp][] = [
      [{ ...owner, branch_id: emu.seed.branchIds[1] }, 404, /branch br-.* has no read_write endpoint/],
      [{ ...owner, branch_id: "br-nope-1" }, 404, /branch br-nope-1 not found/],
      [{ ...owner, endpoint_id: "ep-nope-1" }, 404, /endpoint ep-nope-1 not found on branch/],
      [{ ...owner, role_name: "alice" }, 404, /role "alice" not found/],
      [{ ...owner, database_name: "other" }, 404, /database "other" not found/],
      [{ role_name: "neondb_owner" }, 400, /database_name: it is required/],
      [{ database_name: "neondb" }, 400, /role_name: it is required/],
      [{ ...owner, pooled: "yes" }, 400, /pooled=yes: must be true or false/],
      [{ ...owner, branch_id: "BAD" }, 400, /branch_id=BAD/],
    ];
    for (const [query, status, message] of cases) {
      const r = await c.get(URI, { params: p, query });
      expect([query, r.status]).toEqual([query, status]);
      expect(r.body.message).toMatch(message);
    }
    // A compute of another branch is not one of this branch.
    const other = await c.post("/projects/{project_id}/endpoints", {
      params: p,
      body: { endpoint: { branch_id: emu.seed.branchIds[2], type: "read_only" } },
    });
    const r = await c.get(URI, { params: p, query: { ...owner, endpoint_id: other.body.endpoint.id } });
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/not found on branch/);
  });
});

describe("a child branch inherits its parent's roles and databases", () => {
  it("same names and password; the create answer carries them and the connection URI of its compute", async () => {
    const r = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { name: "child" }, endpoints: [{ type: "read_write" }] },
    });
    expect(r.status).toBe(201);
    const id = r.body.branch.id;
    const parentPassword = await passwordOn(emu.seed.defaultBranchId);
    expect(r.body.roles).toEqual([expect.objectContaining({ branch_id: id, name: "neondb_owner" })]);
    expect(r.body.roles[0].password).toBe(parentPassword);
    expect(r.body.databases).toEqual([
      expect.objectContaining({ branch_id: id, name: "neondb", owner_name: "neondb_owner" }),
    ]);
    expect(r.body.connection_uris).toEqual([
      {
        connection_uri: `postgresql://neondb_owner:${parentPassword}@${r.body.endpoints[0].host}/neondb?sslmode=require`,
        connection_parameters: {
          database: "neondb",
          password: parentPassword,
          role: "neondb_owner",
          host: r.body.endpoints[0].host,
          pooler_host: r.body.endpoints[0].host.replace(
            r.body.endpoints[0].id,
            `${r.body.endpoints[0].id}-pooler`,
          ),
        },
      },
    ]);
    // The lists show the same (without the password), also while the branch is still being created.
    expect(
      (await c.get(BR1, { params: { project_id: project, branch_id: id } })).body.branch.current_state,
    ).toBe("init");
    const roles = (await c.get(ROLES, { params: { project_id: project, branch_id: id } })).body.roles;
    expect(roles[0].password).toBeUndefined();
    expect(names(roles)).toEqual(["neondb_owner"]);
    const dbs = (await c.get(DBS, { params: { project_id: project, branch_id: id } })).body.databases;
    expect(dbs).toEqual(r.body.databases);
    // A grandchild inherits too.
    await settle(c, project);
    const g = await c.post(BR, { params: { project_id: project }, body: { branch: { parent_id: id } } });
    expect(names(g.body.roles)).toEqual(["neondb_owner"]);
    expect(g.body.roles[0].password).toBe(parentPassword);
  });

  it("no connection_uris without a read_write compute", async () => {
    const none = await c.post(BR, { params: { project_id: project }, body: { branch: { name: "bare" } } });
    expect(names(none.body.roles)).toEqual(["neondb_owner"]);
    expect(none.body.connection_uris).toBeUndefined();
    await settle(c, project);
    const ro = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { name: "ro" }, endpoints: [{ type: "read_only" }] },
    });
    expect(ro.body.connection_uris).toBeUndefined();
  });

  it("children of a protected parent get new passwords", async () => {
    const b = emu.seed.branchIds[3];
    await c.patch(BR1, {
      params: { project_id: project, branch_id: b },
      body: { branch: { protected: true } },
    });
    const child = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { parent_id: b }, endpoints: [{ type: "read_write" }] },
    });
    expect(child.status).toBe(201);
    const before = await passwordOn(emu.seed.defaultBranchId);
    expect(child.body.roles[0].password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(child.body.roles[0].password).not.toBe(before);
    expect(child.body.connection_uris[0].connection_parameters.password).toBe(child.body.roles[0].password);
    // The parent keeps its own.
    await settle(c, project);
    await c.post("/projects/{project_id}/endpoints", {
      params: { project_id: project },
      body: { endpoint: { branch_id: b, type: "read_write" } },
    });
    expect(await passwordOn(b)).toBe(before);
  });
});

describe("state files", () => {
  let dir: string;
  /** Emulators a test started and has not stopped: stopped after it, also when it fails. */
  const running = new Set<EmulatorHandle>();
  const start = async (o: Parameters<typeof startEmulator>[0]) => {
    const e = await startEmulator(o);
    running.add(e);
    return e;
  };
  const stop = async (e: EmulatorHandle) => {
    running.delete(e);
    await e.stop();
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "emu-roles-"));
  });
  afterEach(async () => {
    for (const e of [...running]) await stop(e);
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps roles, passwords and databases across a restart; two roles mean no connection_uris", async () => {
    const path = join(dir, "state.json");
    const a = await start({ statePath: path, apiKey: "boot", opMs: 20, seed: 72 });
    const ca = new Client(a);
    const p = { project_id: a.seed.projectId };
    const uri = (await ca.get(URI, { params: p, query: owner })).body.uri;
    await stop(a);
    // A second role on main, written into the file (roles-write.test.ts creates them through the API).
    const state = JSON.parse(readFileSync(path, "utf8"));
    const main = a.seed.defaultBranchId;
    state.roles[main].push({ ...state.roles[main][0], name: "alice", password: "alicePass123" });
    writeFileSync(path, JSON.stringify(state));
    const b = await start({ statePath: path, apiKey: "boot", opMs: 20 });
    const cb = new Client(b);
    expect((await cb.get(URI, { params: p, query: owner })).body.uri).toBe(uri);
    const child = await cb.post(BR, { params: p, body: { endpoints: [{ type: "read_write" }] } });
    expect(names(child.body.roles)).toEqual(["neondb_owner", "alice"]);
    expect(child.body.connection_uris).toBeUndefined();
    await stop(b);
  });

  it("a deleted branch takes its roles and databases with it", async () => {
    const path = join(dir, "state.json");
    const a = await start({ statePath: path, opMs: 20, seed: 74 });
    const ca = new Client(a);
    const p = { project_id: a.seed.projectId };
    const r = await ca.post(BR, { params: p, body: { branch: { name: "gone" } } });
    const id = r.body.branch.id;
    await settle(ca, a.seed.projectId);
    const stored = () => JSON.parse(readFileSync(path, "utf8"));
    expect([stored().roles[id]?.length, stored().databases[id]?.length]).toEqual([1, 1]);
    expect((await ca.del(BR1, { params: { ...p, branch_id: id } })).status).toBe(200);
    expect([stored().roles[id], stored().databases[id]]).toEqual([undefined, undefined]);
    expect((await ca.get(ROLES, { params: { ...p, branch_id: id } })).status).toBe(404);
    await stop(a);
  });

  it("loads a version 2 file written before roles, databases and the project fields existed", async () => {
    const path = join(dir, "old.json");
    const a = await start({ statePath: path, apiKey: "boot", seed: 73 });
    await stop(a);
    const state = JSON.parse(readFileSync(path, "utf8"));
    for (const k of ["roles", "databases", "next_database_id"]) delete state[k];
    for (const proj of Object.values(state.projects) as Record<string, unknown>[]) {
      for (const k of ["history_retention_seconds", "store_passwords", "settings"]) delete proj[k];
    }
    writeFileSync(path, JSON.stringify(state));
    const b = await start({ statePath: path, apiKey: "boot" });
    const cb = new Client(b);
    const proj = (await cb.get("/projects/{project_id}", { params: { project_id: b.seed.projectId } })).body
      .project;
    expect(proj).toMatchObject({ history_retention_seconds: 86400, store_passwords: true, settings: {} });
    const roles = await cb.get(ROLES, {
      params: { project_id: b.seed.projectId, branch_id: b.seed.defaultBranchId },
    });
    expect(roles.body.roles).toEqual([]);
    await stop(b);
  });
});
