/**
 * Creating and deleting roles, revealing and resetting their passwords (the old password works until the
 * reset's operations finish, seen through `POST /_emulator/login`), and creating, renaming, re-owning and
 * deleting databases: answers, operations, the project's lock, refusals, inheritance and state files.
 *
 * The clock is frozen: operations move only when a test advances it, so "while the reset runs" is exact.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client, EP, EP1, OPS, settle, type Body } from "./client";

const OP_MS = 1000;
let emu: EmulatorHandle;
let c: Client;
let base: string;
let project: string;
let main: string;
let dev: string;

beforeAll(async () => {
  emu = await startEmulator({ opMs: OP_MS, seed: 81, frozenClock: true });
  c = new Client(emu);
  base = emu.url.replace(/\/api\/v2$/, "");
});
afterAll(() => emu.stop());
beforeEach(() => {
  emu.reset();
  project = emu.seed.projectId;
  main = emu.seed.defaultBranchId;
  dev = emu.seed.branchIds[1];
});

const BR = "/projects/{project_id}/branches";
const BR1 = "/projects/{project_id}/branches/{branch_id}";
const ROLES = "/projects/{project_id}/branches/{branch_id}/roles";
const ROLE1 = "/projects/{project_id}/branches/{branch_id}/roles/{role_name}";
const REVEAL = `${ROLE1}/reveal_password`;
const RESET = `${ROLE1}/reset_password`;
const DBS = "/projects/{project_id}/branches/{branch_id}/databases";
const DB1 = "/projects/{project_id}/branches/{branch_id}/databases/{database_name}";
const PASSWORD = /^[A-Za-z0-9]{12}$/;
const BUSY = "project already has running conflicting operations, scheduling of new ones is prohibited";

const on = (branch_id: string, more: Record<string, string> = {}) => ({
  project_id: project,
  branch_id,
  ...more,
});
const actions = (ops: Body[]) => ops.map((o) => [o.action, o.endpoint_id]);
const names = (list: { name: string }[]) => list.map((x) => x.name);
const settleAll = (p = project) => settle(c, p, OP_MS / 4);

/** `POST /_emulator/login` (loopback admin route, no API key). */
async function login(body: Record<string, unknown>, at = base): Promise<{ status: number; body: Body }> {
  const r = await fetch(`${at}/_emulator/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}
const loginAs = async (branch_id: string, role_name: string, password: string, p = project) =>
  (await login({ project_id: p, branch_id, role_name, password })).body;

/** `POST /_emulator/advance`: moves the emulator clock. */
async function advance(ms: number): Promise<void> {
  const r = await fetch(`${base}/_emulator/advance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ms }),
  });
  expect(r.status).toBe(200);
}

async function reveal(branch_id: string, role_name: string, p = project): Promise<string> {
  const r = await c.get(REVEAL, { params: { project_id: p, branch_id, role_name } });
  expect(r.status).toBe(200);
  return r.body.password;
}

/**
 * Gives a branch a read_write compute and lets its start finish: the service manages roles and
 * databases through it, and refuses their changes (412) on a branch without one.
 */
async function computeOn(branch_id: string): Promise<void> {
  const r = await c.post(EP, {
    params: { project_id: project },
    body: { endpoint: { branch_id, type: "read_write" } },
  });
  expect(r.status).toBe(201);
  await settleAll();
}

/** A change whose operations are let finish, so that the next change finds the project unlocked. */
async function settled<T>(r: Promise<T>): Promise<T> {
  const x = await r;
  await settleAll();
  return x;
}

/** Starts an operation on the project (a compute on dev-02 starting), so that it is locked. */
async function busy(): Promise<void> {
  const r = await c.post(EP, {
    params: { project_id: project },
    body: { endpoint: { branch_id: emu.seed.branchIds[2], type: "read_only" } },
  });
  expect(r.status).toBe(201);
}

describe("POST …/roles", () => {
  it("201 {role with password, operations}: apply_config on each compute of the branch, an idle one woken and suspended", async () => {
    // A second compute on main, active, beside the seeded (idle) primary.
    const ro = await c.post(EP, {
      params: { project_id: project },
      body: { endpoint: { branch_id: main, type: "read_only" } },
    });
    await settleAll();
    const primaryBefore = (
      await c.get(EP1, { params: { project_id: project, endpoint_id: emu.seed.primaryEndpointId } })
    ).body.endpoint;
    expect(primaryBefore.current_state).toBe("idle");

    const r = await c.post(ROLES, { params: on(main), body: { role: { name: "alice" } } });
    expect(r.status).toBe(201);
    expect(r.body.role).toEqual({
      branch_id: main,
      name: "alice",
      protected: false,
      authentication_method: "password",
      password: expect.stringMatching(PASSWORD),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const primary = emu.seed.primaryEndpointId;
    const roId = ro.body.endpoint.id;
    expect(actions(r.body.operations)).toEqual([
      ["apply_config", primary],
      ["suspend_compute", primary],
      ["apply_config", roId],
    ]);
    expect(r.body.operations.map((o: Body) => o.branch_id)).toEqual([main, main, main]);
    const pending = async (id: string) =>
      (await c.get(EP1, { params: { project_id: project, endpoint_id: id } })).body.endpoint.pending_state;
    expect([await pending(primary), await pending(roId)]).toEqual(["idle", "active"]);
    // Listed at once, without its password.
    const listed = (await c.get(ROLES, { params: on(main) })).body.roles;
    expect(names(listed)).toEqual(["neondb_owner", "alice"]);
    const { password: _p, ...view } = r.body.role;
    expect(listed[1]).toEqual(view);
    expect((await c.get(ROLE1, { params: on(main, { role_name: "alice" }) })).body.role).toEqual(view);
    // The idle primary was woken for the change and suspended again.
    await settleAll();
    const after = (await c.get(EP1, { params: { project_id: project, endpoint_id: primary } })).body.endpoint;
    expect(after.current_state).toBe("idle");
    expect(after.pending_state).toBeUndefined();
    expect(after.started_at).not.toBe(primaryBefore.started_at);
  });

  it("412 on a branch without a read_write compute, naming the remedy; nothing is made", async () => {
    // A read-only compute does not count: roles are applied through the read_write one.
    await c.post(EP, {
      params: { project_id: project },
      body: { endpoint: { branch_id: dev, type: "read_only" } },
    });
    await settleAll();
    const r = await c.post(ROLES, { params: on(dev), body: { role: { name: "bob" } } });
    expect([r.status, r.body.code]).toEqual([412, "PRECONDITION_FAILED"]);
    expect(r.body.message).toMatch(/branch .* has no read_write endpoint; create a read-write endpoint/);
    expect(names((await c.get(ROLES, { params: on(dev) })).body.roles)).toEqual(["neondb_owner"]);
    await computeOn(dev);
    const again = await c.post(ROLES, { params: on(dev), body: { role: { name: "bob" } } });
    expect(again.status).toBe(201);
    expect(await loginAs(dev, "bob", again.body.role.password)).toEqual({ ok: true });
  });

  it("no_login: no password, authentication_method no_login, and it cannot log in", async () => {
    await computeOn(dev);
    const r = await settled(
      c.post(ROLES, { params: on(dev), body: { role: { name: "reader", no_login: true } } }),
    );
    expect(r.status).toBe(201);
    expect(r.body.role.password).toBeUndefined();
    expect(r.body.role.authentication_method).toBe("no_login");
    expect((await c.get(ROLE1, { params: on(dev, { role_name: "reader" }) })).body.role).toEqual(r.body.role);
    expect(await loginAs(dev, "reader", "")).toEqual({
      ok: false,
      reason: 'role "reader" is not permitted to log in',
    });
    // It has no password to reveal or reset.
    for (const [method, route] of [
      ["GET", REVEAL],
      ["POST", RESET],
    ]) {
      const x = await c.req(method, route, { params: on(dev, { role_name: "reader" }) });
      expect([route, x.status, x.body.code]).toEqual([route, 422, "UNPROCESSABLE_ENTITY"]);
      expect(x.body.message).toMatch(/"reader" was created with no_login/);
    }
    // no_login: false is an ordinary role.
    const plain = await c.post(ROLES, { params: on(dev), body: { role: { name: "w", no_login: false } } });
    expect(plain.body.role).toMatchObject({
      authentication_method: "password",
      password: expect.any(String),
    });
  });

  it("names are 1–63 bytes; a bad body is a 400 naming the field", async () => {
    const cases: [unknown, RegExp][] = [
      [{ role: { name: "" } }, /role\.name: must not be empty/],
      [{ role: { name: "a".repeat(64) } }, /role\.name: must be at most 63 bytes/],
      [{ role: { name: "é".repeat(32) } }, /role\.name: must be at most 63 bytes/], // 64 bytes
      [{ role: {} }, /role\.name is required/],
      [{ role: { name: "x", colour: 1 } }, /role: unknown field "colour"/],
      [{ role: { name: "x", no_login: "yes" } }, /role\.no_login: expected boolean/],
      [{}, /role is required/],
    ];
    for (const [body, message] of cases) {
      const r = await c.post(ROLES, { params: on(dev), body });
      expect([body, r.status, r.body.code]).toEqual([body, 400, "INVALID_REQUEST"]);
      expect(r.body.message).toMatch(message);
    }
    await computeOn(dev);
    for (const name of ["a".repeat(63), "é".repeat(31)]) {
      expect((await settled(c.post(ROLES, { params: on(dev), body: { role: { name } } }))).status).toBe(201);
    }
  });

  it("409 for a name the branch has", async () => {
    const r = await c.post(ROLES, { params: on(main), body: { role: { name: "neondb_owner" } } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("CONFLICT");
    expect(r.body.message).toMatch(/role "neondb_owner" already exists/);
    // Another branch's role names do not count.
    await computeOn(dev);
    await computeOn(emu.seed.branchIds[3]);
    await settled(c.post(ROLES, { params: on(dev), body: { role: { name: "only-dev" } } }));
    expect(
      (await c.post(ROLES, { params: on(emu.seed.branchIds[3]), body: { role: { name: "only-dev" } } }))
        .status,
    ).toBe(201);
  });

  it("404 for an unknown branch or project", async () => {
    const r = await c.post(ROLES, { params: on("br-nope-1"), body: { role: { name: "x" } } });
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/branch br-nope-1 not found/);
    const p = await c.post(ROLES, {
      params: { project_id: "no-such-project-1", branch_id: main },
      body: { role: { name: "x" } },
    });
    expect(p.status).toBe(404);
  });
});

describe("every change to roles and databases takes the project's lock", () => {
  it("423 while another operation of the project runs, and nothing changes", async () => {
    await computeOn(dev);
    for (const name of ["app", "app2"])
      await settled(
        c.post(DBS, { params: on(dev), body: { database: { name, owner_name: "neondb_owner" } } }),
      );
    await settled(c.post(ROLES, { params: on(dev), body: { role: { name: "alice" } } }));
    const before = await reveal(dev, "alice");
    await busy();
    const requests: [string, string, Record<string, string>, unknown][] = [
      ["POST", ROLES, {}, { role: { name: "bob" } }],
      ["POST", RESET, { role_name: "alice" }, undefined],
      ["POST", DBS, {}, { database: { name: "other", owner_name: "alice" } }],
      ["PATCH", DB1, { database_name: "app" }, { database: { name: "renamed" } }],
      ["DELETE", DB1, { database_name: "app2" }, undefined],
      ["DELETE", ROLE1, { role_name: "neondb_owner" }, undefined],
    ];
    for (const [method, route, more, body] of requests) {
      const r = await c.req(method, route, { params: on(dev, more), body });
      expect([method, route, r.status, r.body.code, r.body.message]).toEqual([
        method,
        route,
        423,
        "LOCKED",
        BUSY,
      ]);
    }
    expect(names((await c.get(ROLES, { params: on(dev) })).body.roles)).toEqual(["neondb_owner", "alice"]);
    expect(names((await c.get(DBS, { params: on(dev) })).body.databases)).toEqual(["neondb", "app", "app2"]);
    // Reads are not locked.
    expect(await reveal(dev, "alice")).toBe(before);
    // Once the operation is over, the same requests are served (but the last: neondb_owner owns databases).
    await settleAll();
    const served = [];
    for (const [method, route, more, body] of requests) {
      served.push((await settled(c.req(method, route, { params: on(dev, more), body }))).status);
    }
    expect(served).toEqual([201, 200, 201, 200, 200, 409]);
  });

  it("422 'branch not ready yet' on a branch still being created", async () => {
    const br = await c.post(BR, { params: { project_id: project }, body: { branch: { name: "young" } } });
    const young = br.body.branch.id;
    const r = await c.post(ROLES, { params: on(young), body: { role: { name: "x" } } });
    expect([r.status, r.body.message]).toEqual([422, "branch not ready yet"]);
    const d = await c.post(DBS, {
      params: on(young),
      body: { database: { name: "x", owner_name: "neondb_owner" } },
    });
    expect([d.status, d.body.message]).toEqual([422, "branch not ready yet"]);
  });

  it("a project-scoped key of another project gets the service's 404 scope refusal", async () => {
    const k = await c.post("/organizations/{org_id}/api_keys", {
      params: { org_id: emu.seed.orgId },
      body: { key_name: "scoped", project_id: project },
    });
    const key = k.body.key as string;
    const other = emu.seed.freeProjectId;
    const params = {
      project_id: other,
      branch_id: emu.seed.freeProjectBranchId,
      role_name: "neondb_owner",
      database_name: "neondb",
    };
    const requests: [string, string, unknown][] = [
      ["POST", ROLES, { role: { name: "x" } }],
      ["DELETE", ROLE1, undefined],
      ["GET", REVEAL, undefined],
      ["POST", RESET, undefined],
      ["POST", DBS, { database: { name: "x", owner_name: "neondb_owner" } }],
      ["PATCH", DB1, { database: { name: "y" } }],
      ["DELETE", DB1, undefined],
    ];
    for (const [method, route, body] of requests) {
      const r = await c.req(method, route, { params, body, key });
      expect([method, route, r.status, r.body.code, r.body.message]).toEqual([
        method,
        route,
        404,
        "",
        `not allowed to perform actions outside the project this key is scoped to; subject_project_id:"${other}"`,
      ]);
    }
    // Its own project is served.
    await computeOn(dev);
    expect((await c.post(ROLES, { params: on(dev), body: { role: { name: "x" } }, key })).status).toBe(201);
  });
});

describe("DELETE …/roles/{role_name}", () => {
  it("200 {role, operations}; 204 once gone", async () => {
    await c.post(ROLES, { params: on(main), body: { role: { name: "alice" } } });
    await settleAll();
    const r = await c.del(ROLE1, { params: on(main, { role_name: "alice" }) });
    expect(r.status).toBe(200);
    expect(r.body.role).toMatchObject({ branch_id: main, name: "alice", authentication_method: "password" });
    expect(r.body.role.password).toBeUndefined();
    expect(actions(r.body.operations)).toEqual([
      ["apply_config", emu.seed.primaryEndpointId],
      ["suspend_compute", emu.seed.primaryEndpointId],
    ]);
    expect((await c.get(ROLE1, { params: on(main, { role_name: "alice" }) })).status).toBe(404);
    await settleAll();
    const again = await c.del(ROLE1, { params: on(main, { role_name: "alice" }) });
    expect([again.status, again.body]).toEqual([204, undefined]);
    // 204 also for a name that never existed (checked before the lock, like computes and branches).
    await busy();
    expect((await c.del(ROLE1, { params: on(main, { role_name: "never" }) })).status).toBe(204);
  });

  it("refused (409) while it owns databases, naming them; allowed once they have another owner or are gone", async () => {
    const one = await c.del(ROLE1, { params: on(dev, { role_name: "neondb_owner" }) });
    expect([one.status, one.body.code]).toEqual([409, "CONFLICT"]);
    expect(one.body.message).toMatch(
      /role "neondb_owner" owns the database "neondb" on branch .*; delete it or change its owner first/,
    );
    await computeOn(dev);
    await settled(c.post(ROLES, { params: on(dev), body: { role: { name: "alice" } } }));
    for (const name of ["a1", "a2"])
      await settled(c.post(DBS, { params: on(dev), body: { database: { name, owner_name: "alice" } } }));
    const two = await c.del(ROLE1, { params: on(dev, { role_name: "alice" }) });
    expect(two.status).toBe(409);
    expect(two.body.message).toMatch(
      /owns the databases "a1", "a2" on branch .*; delete them or change their owner first/,
    );
    await settled(
      c.patch(DB1, {
        params: on(dev, { database_name: "a1" }),
        body: { database: { owner_name: "neondb_owner" } },
      }),
    );
    await settled(c.del(DB1, { params: on(dev, { database_name: "a2" }) }));
    expect((await c.del(ROLE1, { params: on(dev, { role_name: "alice" }) })).status).toBe(200);
    expect(await loginAs(dev, "alice", "whatever")).toEqual({
      ok: false,
      reason: 'role "alice" does not exist',
    });
  });
});

describe("GET …/roles/{role_name}/reveal_password", () => {
  it("200 {password}: the one the create answer showed; 404 for an unknown role", async () => {
    await computeOn(dev);
    const r = await c.post(ROLES, { params: on(dev), body: { role: { name: "alice" } } });
    const x = await c.get(REVEAL, { params: on(dev, { role_name: "alice" }) });
    expect([x.status, x.body]).toEqual([200, { password: r.body.role.password }]);
    const missing = await c.get(REVEAL, { params: on(dev, { role_name: "bob" }) });
    expect([missing.status, missing.body.code]).toEqual([404, "NOT_FOUND"]);
    expect(missing.body.message).toMatch(/role "bob" not found on branch/);
    expect((await c.get(REVEAL, { params: on("br-nope-1", { role_name: "alice" }) })).status).toBe(404);
  });

  it("412 for a project created with store_passwords false (kept by the project); a reset still works there", async () => {
    const np = await c.post("/projects", { body: { project: { name: "nopw", store_passwords: false } } });
    expect(np.status).toBe(201);
    const pid = np.body.project.id;
    const b = np.body.branch.id;
    expect(np.body.project.store_passwords).toBe(false);
    expect(
      (await c.get("/projects/{project_id}", { params: { project_id: pid } })).body.project.store_passwords,
    ).toBe(false);
    await settleAll(pid);
    const params = { project_id: pid, branch_id: b, role_name: "neondb_owner" };
    const r = await c.get(REVEAL, { params });
    expect([r.status, r.body.code]).toEqual([412, "PRECONDITION_FAILED"]);
    expect(r.body.message).toMatch(new RegExp(`storing passwords is disabled for project ${pid}`));
    // The password the create answer showed once still logs in; a reset returns a new one.
    const first = np.body.roles[0].password;
    expect(await loginAs(b, "neondb_owner", first, pid)).toEqual({ ok: true });
    const reset = await c.post(RESET, { params });
    expect(reset.status).toBe(200);
    expect(reset.body.role.password).toMatch(PASSWORD);
    await settleAll(pid);
    expect(await loginAs(b, "neondb_owner", reset.body.role.password, pid)).toEqual({ ok: true });
    expect((await loginAs(b, "neondb_owner", first, pid)).ok).toBe(false);
    expect((await c.get(REVEAL, { params })).status).toBe(412);
  });
});

describe("POST …/roles/{role_name}/reset_password", () => {
  it("returns the new password; the old one works until the reset's last operation finishes, then only the new one", async () => {
    const old = await reveal(main, "neondb_owner");
    const r = await c.post(RESET, { params: on(main, { role_name: "neondb_owner" }) });
    expect(r.status).toBe(200);
    expect(r.body.role).toEqual({
      branch_id: main,
      name: "neondb_owner",
      protected: false,
      authentication_method: "password",
      password: expect.stringMatching(PASSWORD),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(r.body.role.updated_at > r.body.role.created_at).toBe(true);
    const fresh = r.body.role.password as string;
    expect(fresh).not.toBe(old);
    expect(actions(r.body.operations)).toEqual([
      ["apply_config", emu.seed.primaryEndpointId],
      ["suspend_compute", emu.seed.primaryEndpointId],
    ]);
    expect(await reveal(main, "neondb_owner")).toBe(fresh);
    const statuses = async () =>
      Promise.all(
        r.body.operations.map(
          async (o: Body) =>
            (await c.get(`${OPS}/{operation_id}`, { params: { project_id: project, operation_id: o.id } }))
              .body.operation.status,
        ),
      );
    // While the operations run (apply_config, then suspend_compute) the old password logs in and the
    // new one is not in effect yet.
    for (const [step, expected] of [
      [0, ["running", "scheduling"]],
      [OP_MS - 1, ["running", "scheduling"]],
      [1, ["finished", "running"]],
      [OP_MS - 1, ["finished", "running"]],
    ] as const) {
      await advance(step);
      expect(await statuses()).toEqual(expected);
      expect(await loginAs(main, "neondb_owner", old)).toEqual({ ok: true });
      expect(await loginAs(main, "neondb_owner", fresh)).toEqual({
        ok: false,
        reason: expect.stringMatching(/a password reset is still being applied/),
      });
    }
    // The last one finishes: the old password stops working.
    await advance(1);
    expect(await statuses()).toEqual(["finished", "finished"]);
    expect(await loginAs(main, "neondb_owner", old)).toEqual({
      ok: false,
      reason: expect.stringMatching(/^password authentication failed for user "neondb_owner"/),
    });
    expect(await loginAs(main, "neondb_owner", fresh)).toEqual({ ok: true });
    // Other branches keep their own copy of the role and its password.
    expect(await loginAs(dev, "neondb_owner", old)).toEqual({ ok: true });
    expect(await loginAs(dev, "neondb_owner", fresh)).toMatchObject({ ok: false });
  });

  it("an operation of the reset that fails and is retried keeps the old password working until it finishes", async () => {
    const old = await reveal(main, "neondb_owner");
    const r = await c.post(RESET, {
      params: on(main, { role_name: "neondb_owner" }),
      headers: { "x-emulator-fault": "op=failed" },
    });
    // Each operation: running, failed, running again (3 × OP_MS); two of them.
    await advance(OP_MS + 1);
    const first = await c.get(`${OPS}/{operation_id}`, {
      params: { project_id: project, operation_id: r.body.operations[0].id },
    });
    expect(first.body.operation.status).toBe("failed");
    expect((await loginAs(main, "neondb_owner", old)).ok).toBe(true);
    await advance(5 * OP_MS - 2);
    expect((await loginAs(main, "neondb_owner", old)).ok).toBe(true);
    await advance(1);
    expect((await loginAs(main, "neondb_owner", old)).ok).toBe(false);
  });

  it("412 without a read_write compute on the branch; the password is kept", async () => {
    const old = await reveal(dev, "neondb_owner");
    const r = await c.post(RESET, { params: on(dev, { role_name: "neondb_owner" }) });
    expect([r.status, r.body.code]).toEqual([412, "PRECONDITION_FAILED"]);
    expect(r.body.message).toMatch(/reset role password: branch .* has no read_write endpoint/);
    expect(await reveal(dev, "neondb_owner")).toBe(old);
    expect(await loginAs(dev, "neondb_owner", old)).toEqual({ ok: true });
  });

  it("404 for an unknown role; a second reset while the first runs is 423", async () => {
    expect((await c.post(RESET, { params: on(main, { role_name: "nobody" }) })).status).toBe(404);
    const first = await c.post(RESET, { params: on(main, { role_name: "neondb_owner" }) });
    const second = await c.post(RESET, { params: on(main, { role_name: "neondb_owner" }) });
    expect([second.status, second.body.message]).toEqual([423, BUSY]);
    expect(await reveal(main, "neondb_owner")).toBe(first.body.role.password);
  });

  it("a branch created after a reset inherits the new password", async () => {
    const r = await c.post(RESET, { params: on(main, { role_name: "neondb_owner" }) });
    await settleAll();
    const child = await c.post(BR, { params: { project_id: project }, body: { branch: { name: "after" } } });
    expect(child.body.roles[0].password).toBe(r.body.role.password);
  });
});

describe("POST /_emulator/login", () => {
  it("refuses a malformed body with a 400 naming the field; unknown things and wrong passwords are ok:false without the password", async () => {
    const missing = await login({ project_id: project, branch_id: main, role_name: "neondb_owner" });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/password is required/);
    const extra = await login({
      project_id: project,
      branch_id: main,
      role_name: "x",
      password: "p",
      port: 5,
    });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toMatch(/unknown field "port"/);
    expect(await loginAs(main, "neondb_owner", "wrong-secret-1")).toEqual({
      ok: false,
      reason: 'password authentication failed for user "neondb_owner"',
    });
    expect(await loginAs("br-nope-1", "neondb_owner", "x")).toEqual({
      ok: false,
      reason: `branch br-nope-1 not found in project ${project}`,
    });
    expect(await loginAs(main, "neondb_owner", "x", "no-such-project-1")).toEqual({
      ok: false,
      reason: "project no-such-project-1 not found",
    });
    // No API key is needed, and none is counted as an API request.
    const n = emu.requestCount();
    expect(await loginAs(main, "neondb_owner", await reveal(main, "neondb_owner"))).toEqual({ ok: true });
    expect(emu.requestCount()).toBe(n + 1); // the reveal only
  });
});

describe("databases", () => {
  it("POST: 201 {database, operations} with apply_config per compute; 409 for a taken name; the owner must be a role of the branch (404)", async () => {
    const r = await c.post(DBS, {
      params: on(main),
      body: { database: { name: "app", owner_name: "neondb_owner" } },
    });
    expect(r.status).toBe(201);
    expect(r.body.database).toEqual({
      id: expect.any(Number),
      branch_id: main,
      name: "app",
      owner_name: "neondb_owner",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(actions(r.body.operations)).toEqual([
      ["apply_config", emu.seed.primaryEndpointId],
      ["suspend_compute", emu.seed.primaryEndpointId],
    ]);
    expect((await c.get(DB1, { params: on(main, { database_name: "app" }) })).body.database).toEqual(
      r.body.database,
    );
    await settleAll();
    const taken = await c.post(DBS, {
      params: on(main),
      body: { database: { name: "neondb", owner_name: "neondb_owner" } },
    });
    expect([taken.status, taken.body.code]).toEqual([409, "CONFLICT"]);
    expect(taken.body.message).toMatch(/database "neondb" already exists/);
    const ghost = await c.post(DBS, {
      params: on(main),
      body: { database: { name: "x", owner_name: "ghost" } },
    });
    expect([ghost.status, ghost.body.code]).toEqual([404, "NOT_FOUND"]);
    expect(ghost.body.message).toMatch(/owner role "ghost" not found on branch/);
  });

  it("POST: names 1–63 bytes; a bad body is a 400 naming the field", async () => {
    const cases: [unknown, RegExp][] = [
      [{ database: { name: "", owner_name: "neondb_owner" } }, /database\.name: must not be empty/],
      [
        { database: { name: "d".repeat(64), owner_name: "neondb_owner" } },
        /database\.name: must be at most 63 bytes/,
      ],
      [{ database: { name: "x" } }, /database\.owner_name is required/],
      [{ database: { name: "x", owner_name: "neondb_owner", locale: "C" } }, /unknown field "locale"/],
    ];
    await computeOn(dev);
    for (const [body, message] of cases) {
      const r = await c.post(DBS, { params: on(dev), body });
      expect([body, r.status]).toEqual([body, 400]);
      expect(r.body.message).toMatch(message);
    }
    const max = await c.post(DBS, {
      params: on(dev),
      body: { database: { name: "d".repeat(63), owner_name: "neondb_owner" } },
    });
    expect(max.status).toBe(201);
  });

  it("PATCH: a rename keeps the id; the owner changes; 409 for a taken name; 404 for an unknown owner or database; no change, no operations", async () => {
    // Without a read_write compute a database cannot be made, renamed or re-owned (412).
    const refused = await c.patch(DB1, {
      params: on(dev, { database_name: "neondb" }),
      body: { database: { name: "neondb2" } },
    });
    expect([refused.status, refused.body.code]).toEqual([412, "PRECONDITION_FAILED"]);
    await computeOn(dev);
    await settled(c.post(ROLES, { params: on(dev), body: { role: { name: "alice" } } }));
    const created = (
      await settled(
        c.post(DBS, { params: on(dev), body: { database: { name: "app", owner_name: "neondb_owner" } } }),
      )
    ).body.database;
    const renamed = await c.patch(DB1, {
      params: on(dev, { database_name: "app" }),
      body: { database: { name: "app2" } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.database).toMatchObject({ id: created.id, name: "app2", owner_name: "neondb_owner" });
    expect(actions(renamed.body.operations)).toEqual([["apply_config", expect.any(String)]]);
    await settleAll();
    expect((await c.get(DB1, { params: on(dev, { database_name: "app" }) })).status).toBe(404);
    expect((await c.get(DB1, { params: on(dev, { database_name: "app2" }) })).body.database.id).toBe(
      created.id,
    );
    const owned = await c.patch(DB1, {
      params: on(dev, { database_name: "app2" }),
      body: { database: { owner_name: "alice" } },
    });
    expect(owned.body.database).toMatchObject({ id: created.id, name: "app2", owner_name: "alice" });
    await settleAll();
    const taken = await c.patch(DB1, {
      params: on(dev, { database_name: "app2" }),
      body: { database: { name: "neondb" } },
    });
    expect([taken.status, taken.body.message]).toEqual([
      409,
      expect.stringMatching(/database "neondb" already exists/),
    ]);
    const ghost = await c.patch(DB1, {
      params: on(dev, { database_name: "app2" }),
      body: { database: { owner_name: "ghost" } },
    });
    expect([ghost.status, ghost.body.message]).toEqual([
      404,
      expect.stringMatching(/owner role "ghost" not found/),
    ]);
    const unknown = await c.patch(DB1, {
      params: on(dev, { database_name: "nope" }),
      body: { database: { name: "z" } },
    });
    expect([unknown.status, unknown.body.message]).toEqual([
      404,
      expect.stringMatching(/database "nope" not found/),
    ]);
    const bad = await c.patch(DB1, {
      params: on(dev, { database_name: "app2" }),
      body: { database: { name: "" } },
    });
    expect([bad.status, bad.body.message]).toEqual([
      400,
      expect.stringMatching(/database\.name: must not be empty/),
    ]);
    const same = await c.patch(DB1, {
      params: on(dev, { database_name: "app2" }),
      body: { database: { name: "app2", owner_name: "alice" } },
    });
    expect(same.body).toEqual({ database: owned.body.database, operations: [] });
    // On a branch with a compute, a change is a configuration change of it.
    const m = await c.patch(DB1, {
      params: on(main, { database_name: "neondb" }),
      body: { database: { name: "main_db" } },
    });
    expect(actions(m.body.operations)).toEqual([
      ["apply_config", emu.seed.primaryEndpointId],
      ["suspend_compute", emu.seed.primaryEndpointId],
    ]);
  });

  it("DELETE: 200 {database, operations}; 204 once gone", async () => {
    const r = await c.del(DB1, { params: on(main, { database_name: "neondb" }) });
    expect(r.status).toBe(200);
    expect(r.body.database).toMatchObject({ branch_id: main, name: "neondb" });
    expect(actions(r.body.operations)).toEqual([
      ["apply_config", emu.seed.primaryEndpointId],
      ["suspend_compute", emu.seed.primaryEndpointId],
    ]);
    expect((await c.get(DBS, { params: on(main) })).body.databases).toEqual([]);
    const again = await c.del(DB1, { params: on(main, { database_name: "neondb" }) });
    expect([again.status, again.body]).toEqual([204, undefined]);
  });
});

describe("a child branch inherits what was created", () => {
  it("roles (no_login too) and databases under their current names; no connection_uris with two roles", async () => {
    await c.post(ROLES, { params: on(main), body: { role: { name: "reader", no_login: true } } });
    await settleAll();
    await c.post(DBS, { params: on(main), body: { database: { name: "app", owner_name: "reader" } } });
    await settleAll();
    await c.patch(DB1, {
      params: on(main, { database_name: "app" }),
      body: { database: { name: "app_v2" } },
    });
    await settleAll();
    const child = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { name: "kid" }, endpoints: [{ type: "read_write" }] },
    });
    expect(child.status).toBe(201);
    const kid = child.body.branch.id;
    expect(child.body.roles).toEqual([
      expect.objectContaining({
        name: "neondb_owner",
        authentication_method: "password",
        password: expect.any(String),
      }),
      expect.not.objectContaining({ password: expect.anything() }),
    ]);
    expect(child.body.roles[1]).toMatchObject({ name: "reader", authentication_method: "no_login" });
    expect(child.body.databases.map((d: Body) => [d.name, d.owner_name])).toEqual([
      ["neondb", "neondb_owner"],
      ["app_v2", "reader"],
    ]);
    expect(child.body.connection_uris).toBeUndefined();
    expect(
      (await c.get(ROLE1, { params: on(kid, { role_name: "reader" }) })).body.role.authentication_method,
    ).toBe("no_login");
    expect(await loginAs(kid, "reader", "")).toMatchObject({ ok: false });
  });

  it("a branch whose only role is no_login gets no connection_uris", async () => {
    await computeOn(dev);
    await settled(c.post(ROLES, { params: on(dev), body: { role: { name: "reader", no_login: true } } }));
    await settled(
      c.patch(DB1, {
        params: on(dev, { database_name: "neondb" }),
        body: { database: { owner_name: "reader" } },
      }),
    );
    expect((await settled(c.del(ROLE1, { params: on(dev, { role_name: "neondb_owner" }) }))).status).toBe(
      200,
    );
    const child = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { parent_id: dev }, endpoints: [{ type: "read_write" }] },
    });
    expect(names(child.body.roles)).toEqual(["reader"]);
    expect(child.body.connection_uris).toBeUndefined();
    await settleAll();
    const uri = await c.get("/projects/{project_id}/connection_uri", {
      params: { project_id: project },
      query: { branch_id: child.body.branch.id, role_name: "reader", database_name: "neondb" },
    });
    expect([uri.status, uri.body.message]).toEqual([
      422,
      expect.stringMatching(/"reader" was created with no_login/),
    ]);
  });
});

describe("state files", () => {
  let dir: string;
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
    dir = mkdtempSync(join(tmpdir(), "emu-roles-write-"));
  });
  afterEach(async () => {
    for (const e of [...running]) await stop(e);
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads role records written before roles could be created; a protected (system) role is refused", async () => {
    const path = join(dir, "state.json");
    const a = await start({ statePath: path, apiKey: "boot", opMs: 20, seed: 82 });
    await stop(a);
    const state = JSON.parse(readFileSync(path, "utf8"));
    for (const list of Object.values(state.roles) as Record<string, unknown>[][])
      for (const r of list) delete r.no_login;
    const m = a.seed.defaultBranchId;
    state.roles[m].push({
      ...state.roles[m][0],
      name: "cloud_admin",
      protected: true,
      password: "systemPass12",
    });
    writeFileSync(path, JSON.stringify(state));
    const b = await start({ statePath: path, apiKey: "boot", opMs: 20 });
    const cb = new Client(b);
    const p = { project_id: b.seed.projectId, branch_id: m };
    const roles = (await cb.get(ROLES, { params: p })).body.roles;
    expect(roles.map((r: Body) => [r.name, r.protected, r.authentication_method])).toEqual([
      ["neondb_owner", false, "password"],
      ["cloud_admin", true, "password"],
    ]);
    for (const [method, route] of [
      ["DELETE", ROLE1],
      ["POST", RESET],
      ["GET", REVEAL],
    ]) {
      const r = await cb.req(method, route, { params: { ...p, role_name: "cloud_admin" } });
      expect([method, r.status, r.body.code]).toEqual([method, 400, "INVALID_REQUEST"]);
      expect(r.body.message).toMatch(/role "cloud_admin" is a protected system role/);
    }
    expect((await cb.post(ROLES, { params: p, body: { role: { name: "fresh" } } })).status).toBe(201);
  });

  it("a running reset's previous password survives a restart, and expires with its operations", async () => {
    const path = join(dir, "state.json");
    // Long operations: a restart on a slow machine must not outlast them.
    const a = await start({ statePath: path, apiKey: "boot", opMs: 60_000, seed: 83 });
    const ca = new Client(a);
    const p = { project_id: a.seed.projectId, branch_id: a.seed.defaultBranchId, role_name: "neondb_owner" };
    const old = (await ca.get(REVEAL, { params: p })).body.password;
    const fresh = (await ca.post(RESET, { params: p })).body.role.password;
    await stop(a);
    const b = await start({ statePath: path, apiKey: "boot", opMs: 60_000 });
    const bBase = b.url.replace(/\/api\/v2$/, "");
    const tryLogin = async (password: string) => (await login({ ...p, password }, bBase)).body.ok;
    expect([await tryLogin(old), await tryLogin(fresh)]).toEqual([true, false]);
    b.clock.advance(120_001);
    expect([await tryLogin(old), await tryLogin(fresh)]).toEqual([false, true]);
    // Once over, the old password is no longer kept in the file.
    const stored = JSON.parse(readFileSync(path, "utf8")).roles[p.branch_id][0];
    expect(stored.password_rotation).toBeUndefined();
    expect(JSON.stringify(stored)).not.toContain(old);
  });
});

describe("deleting a branch", () => {
  it("takes the roles and databases created on it", async () => {
    const br = await c.post(BR, { params: { project_id: project }, body: { branch: { name: "tmp" } } });
    await settleAll();
    const id = br.body.branch.id;
    await c.post(ROLES, { params: on(id), body: { role: { name: "alice" } } });
    await c.post(DBS, { params: on(id), body: { database: { name: "app", owner_name: "alice" } } });
    expect((await c.del(BR1, { params: on(id) })).status).toBe(200);
    expect((await c.get(ROLES, { params: on(id) })).status).toBe(404);
    expect(await loginAs(id, "alice", "x")).toEqual({
      ok: false,
      reason: `branch ${id} not found in project ${project}`,
    });
  });
});
