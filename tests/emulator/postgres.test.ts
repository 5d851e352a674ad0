/**
 * Real Postgres behind the emulator (`postgres: true`): the API's connection URIs connect with `psql`
 * over TLS; a connection starts a suspended compute (and the operation is recorded) and scale to zero
 * stops the server; roles, passwords (across a reset) and databases are Postgres's; a new branch holds
 * its parent's rows as they were when it was made, and a reset takes the parent's current rows.
 *
 * Two emulators: one on the real clock (connections that wake a compute wait for its operation) and one
 * whose clock stands still (a reset's window is exact: the test moves the clock).
 */
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { psql, withPassword } from "../../scripts/lib/psql";
import { Client, EP, EP1, settle } from "./client";

const URI = "/projects/{project_id}/connection_uri";
const BR = "/projects/{project_id}/branches";
const BR1 = "/projects/{project_id}/branches/{branch_id}";
const ROLES = "/projects/{project_id}/branches/{branch_id}/roles";
const RESET = "/projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password";
const DBS = "/projects/{project_id}/branches/{branch_id}/databases";
const DB1 = "/projects/{project_id}/branches/{branch_id}/databases/{database_name}";
const OPS = "/projects/{project_id}/operations";

jest.setTimeout(180_000);

describe("on the real clock", () => {
  let emu: EmulatorHandle;
  let c: Client;
  let project: string;
  let main: string;

  beforeAll(async () => {
    emu = await startEmulator({ opMs: 150, seed: 91, postgres: true });
    c = new Client(emu);
    project = emu.seed.projectId;
    main = emu.seed.defaultBranchId;
  });
  afterAll(() => emu?.stop());

  async function uriOf(branchId: string, role = "neondb_owner", database = "neondb"): Promise<string> {
    const r = await c.get(URI, {
      params: { project_id: project },
      query: { branch_id: branchId, role_name: role, database_name: database },
    });
    expect(r.status).toBe(200);
    return r.body.uri as string;
  }

  async function actions(): Promise<string[]> {
    const r = await c.get(OPS, { params: { project_id: project }, query: { limit: 100 } });
    return (r.body.operations as { action: string; endpoint_id?: string }[]).map((o) => o.action);
  }

  test("a connection URI connects over TLS as its role, and starts the suspended compute it names", async () => {
    const ep = (
      await c.get(EP1, { params: { project_id: project, endpoint_id: emu.seed.primaryEndpointId } })
    ).body.endpoint;
    expect(ep.current_state).toBe("idle");
    const uri = await uriOf(main);
    expect(new URL(uri).hostname).toBe(ep.host);
    expect(ep.host).toMatch(/^127\.\d+\.\d+\.\d+$/);

    const before = (await actions()).filter((a) => a === "start_compute").length;
    const r = await psql(
      uri,
      "SELECT current_user, current_database(), ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
    );
    expect(r.error).toBe("");
    expect(r.out).toBe("neondb_owner|neondb|t");
    expect((await actions()).filter((a) => a === "start_compute").length).toBe(before + 1);
    const after = (await c.get(EP1, { params: { project_id: project, endpoint_id: ep.id } })).body.endpoint;
    expect(after.current_state).toBe("active");

    // A wrong password is refused by Postgres itself.
    const wrong = await psql(withPassword(uri, "not-the-password"), "SELECT 1");
    expect(wrong.ok).toBe(false);
    expect(wrong.error).toContain('password authentication failed for user "neondb_owner"');
  });

  test("a branch holds its parent's rows as they were when it was made; a reset takes the parent's current rows", async () => {
    const parentUri = await uriOf(main);
    const made = await psql(
      parentUri,
      "CREATE TABLE items (id int primary key, name text); INSERT INTO items VALUES (1, 'one'), (2, 'two')",
    );
    expect(made.error).toBe("");

    const created = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { name: "pr-1", parent_id: main }, endpoints: [{ type: "read_write" }] },
    });
    expect(created.status).toBe(201);
    const child = created.body.branch.id as string;
    await psql(parentUri, "INSERT INTO items VALUES (3, 'three')");

    const childUri = await uriOf(child);
    expect(new URL(childUri).hostname).not.toBe(new URL(parentUri).hostname);
    expect((await psql(childUri, "SELECT id FROM items ORDER BY id")).out).toBe("1\n2");
    // The child's changes stay in the child.
    expect((await psql(childUri, "INSERT INTO items VALUES (10, 'ten')")).error).toBe("");
    expect((await psql(parentUri, "SELECT count(*) FROM items")).out).toBe("3");

    const reset = await c.post(`${BR1}/restore`, {
      params: { project_id: project, branch_id: child },
      body: { source_branch_id: main },
    });
    expect(reset.status).toBe(200);
    await settle(c, project);
    expect((await psql(childUri, "SELECT id FROM items ORDER BY id")).out).toBe("1\n2\n3");

    // A deleted branch's compute no longer answers.
    const del = await c.del(BR1, { params: { project_id: project, branch_id: child } });
    expect(del.status).toBe(200);
    expect((await psql(childUri, "SELECT 1", 20_000)).ok).toBe(false);
  });

  test("compare_schema answers the unified difference of the two branches' schemas, empty when they agree", async () => {
    expect((await psql(await uriOf(main), "CREATE TABLE notes (id int)")).error).toBe("");
    await settle(c, project);
    const created = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { name: "pr-2", parent_id: main }, endpoints: [{ type: "read_write" }] },
    });
    expect(created.status).toBe(201);
    const pr = created.body.branch.id as string;
    const cmp = (q: Record<string, string>) =>
      c.get(`${BR1}/compare_schema`, { params: { project_id: project, branch_id: pr }, query: q });

    const same = await cmp({ db_name: "neondb" });
    expect(same.status).toBe(200);
    expect(same.body).toEqual({ diff: "" });

    const migrated = await psql(
      await uriOf(pr),
      "CREATE TABLE orders (id bigint primary key, total numeric NOT NULL); ALTER TABLE notes ADD COLUMN price int",
    );
    expect(migrated.error).toBe("");
    // Against its parent (the default base), with the parent stopped meanwhile or not.
    const diff = (await cmp({ db_name: "neondb" })).body.diff as string;
    expect(diff).toMatch(/^\+CREATE TABLE public\.orders \($/m);
    expect(diff).toMatch(/^\+    price integer$/m);
    // As the service writes it (its documented example): a/ and b/ headers, then the hunks.
    expect(diff).toMatch(/^--- a\/neondb\n\+\+\+ b\/neondb\n@@ /);
    expect(diff).not.toMatch(/restrict/);
    // The other way round, against the parent named as base of the parent itself: the reverse.
    const reverse = await c.get(`${BR1}/compare_schema`, {
      params: { project_id: project, branch_id: main },
      query: { db_name: "neondb", base_branch_id: pr },
    });
    expect(reverse.body.diff).toMatch(/^-CREATE TABLE public\.orders \($/m);

    expect((await cmp({ db_name: "nope" })).status).toBe(404);
    expect((await cmp({})).status).toBe(400);
    const root = await c.get(`${BR1}/compare_schema`, {
      params: { project_id: project, branch_id: main },
      query: { db_name: "neondb" },
    });
    expect(root.status).toBe(400);
    expect(root.body.message).toContain("pass base_branch_id");
  });

  test("schema answers one database's schema: as SQL (pg_dump, as compare_schema compares it) or as JSON tables", async () => {
    await settle(c, project);
    const created = await c.post(BR, {
      params: { project_id: project },
      body: { branch: { name: "pr-schema", parent_id: main }, endpoints: [{ type: "read_write" }] },
    });
    const pr = created.body.branch.id as string;
    await settle(c, project);
    expect(
      (
        await c.post(ROLES, {
          params: { project_id: project, branch_id: pr },
          body: { role: { name: "app" } },
        })
      ).status,
    ).toBe(201);
    await settle(c, project);
    const db = await c.post(DBS, {
      params: { project_id: project, branch_id: pr },
      body: { database: { name: "app", owner_name: "app" } },
    });
    expect(db.status).toBe(201);
    await settle(c, project);
    const schema = (q: Record<string, string>) =>
      c.get(`${BR1}/schema`, { params: { project_id: project, branch_id: pr }, query: q });

    const empty = await schema({ db_name: "app" });
    expect(empty.status).toBe(200);
    expect(empty.body.sql).toMatch(/^-- PostgreSQL database dump$/m);
    expect(empty.body.sql).not.toMatch(/CREATE|restrict/);
    expect((await schema({ db_name: "app", format: "json" })).body).toEqual({ json: { tables: [] } });

    const migrated = await psql(
      await uriOf(pr, "app", "app"),
      "CREATE TABLE users (id bigint PRIMARY KEY, email text UNIQUE);" +
        "CREATE TABLE orders (id bigint PRIMARY KEY, user_id bigint NOT NULL REFERENCES users)",
    );
    expect(migrated.error).toBe("");
    const sql = (await schema({ db_name: "app" })).body.sql as string;
    expect(sql).toMatch(/^CREATE TABLE public\.orders \($/m);
    // Without owners, as compare_schema compares: the two read alike.
    expect(sql).not.toMatch(/OWNER TO/);
    const json = (await schema({ db_name: "app", format: "json" })).body.json;
    expect(json.tables.map((t: { name: string }) => t.name)).toEqual(["orders", "users"]);
    expect(json.tables[0]).toEqual({
      schema: "public",
      name: "orders",
      columns: [
        { name: "id", type: "bigint", nullable: false, generated: false },
        { name: "user_id", type: "bigint", nullable: false, generated: false },
      ],
      constraints: [
        { type: "primary_key", name: "orders_pkey", columns: ["id"] },
        {
          type: "foreign_key",
          name: "orders_user_id_fkey",
          columns: ["user_id"],
          referenced_table: { schema: "public", table: "users", columns: ["id"] },
        },
      ],
    });
    // The parent has no database "app": 404, as for a branch that does not exist.
    const onMain = await c.get(`${BR1}/schema`, {
      params: { project_id: project, branch_id: main },
      query: { db_name: "app" },
    });
    expect(onMain.status).toBe(404);
    expect((await schema({})).status).toBe(400);
    expect((await schema({ db_name: "app", format: "yaml" })).status).toBe(400);
    // The document: lsn and timestamp cannot be given together.
    expect((await schema({ db_name: "app", lsn: "0/1", timestamp: "2026-01-01T00:00:00Z" })).status).toBe(
      400,
    );
  });

  test("a read-only compute serves its branch's data, follows its writes and refuses its own", async () => {
    await settle(c, project);
    const made = await c.post(EP, {
      params: { project_id: project },
      body: { endpoint: { branch_id: main, type: "read_only" } },
    });
    expect(made.status).toBe(201);
    await settle(c, project);
    const ro = (
      await c.get(URI, {
        params: { project_id: project },
        query: {
          branch_id: main,
          endpoint_id: made.body.endpoint.id,
          role_name: "neondb_owner",
          database_name: "neondb",
        },
      })
    ).body.uri as string;
    expect(new URL(ro).hostname).toBe(made.body.endpoint.host);
    expect((await psql(ro, "SELECT pg_is_in_recovery()")).out).toBe("t");
    const write = await psql(ro, "CREATE TABLE nope (id int)");
    expect(write.error).toContain("cannot execute CREATE TABLE in a read-only transaction");
    // A write through the read_write compute reaches it (a replica lags: look a few times).
    expect((await psql(await uriOf(main), "CREATE TABLE seen_by_replica (id int)")).error).toBe("");
    let seen = "";
    for (let i = 0; i < 50 && seen !== "1"; i++) {
      seen = (await psql(ro, "SELECT count(*) FROM pg_tables WHERE tablename = 'seen_by_replica'")).out;
      if (seen !== "1") await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toBe("1");
    const gone = await c.del(`${EP1}`, {
      params: { project_id: project, endpoint_id: made.body.endpoint.id },
    });
    expect(gone.status).toBe(200);
    expect(emu.postgres!.fleet.replicas.size).toBe(0);
  });

  test("a schema-only branch holds its parent's tables, owners included, and none of their rows", async () => {
    const parent = await uriOf(main);
    expect((await psql(parent, "CREATE TABLE accounts (id int PRIMARY KEY, secret text)")).error).toBe("");
    expect((await psql(parent, "INSERT INTO accounts VALUES (1, 'do not copy')")).error).toBe("");
    await settle(c, project);
    const made = await c.post(BR, {
      params: { project_id: project },
      body: {
        branch: { name: "anon", parent_id: main, init_source: "schema-only" },
        endpoints: [{ type: "read_write" }],
      },
    });
    expect(made.status).toBe(201);
    const uri = await uriOf(made.body.branch.id as string);
    expect((await psql(uri, "SELECT count(*) FROM accounts")).out).toBe("0");
    expect((await psql(uri, "SELECT tableowner FROM pg_tables WHERE tablename = 'accounts'")).out).toBe(
      "neondb_owner",
    );
  });

  test("scale to zero stops the server; the next connection starts the compute again", async () => {
    const uri = await uriOf(main);
    expect((await psql(uri, "SELECT 1")).out).toBe("1");
    expect(emu.postgres!.fleet.servers.has(main)).toBe(true);
    // psql has gone; its connection's end reaches the compute's address a moment later (an open one
    // would keep the compute active).
    for (let i = 0; i < 600 && emu.postgres!.openConnections() > 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(emu.postgres!.openConnections()).toBe(0);
    // Nobody connected for the compute's timeout (300 s when 0): the service suspends it.
    emu.clock.advance(301_000);
    await settle(c, project);
    const ep = (
      await c.get(EP1, { params: { project_id: project, endpoint_id: emu.seed.primaryEndpointId } })
    ).body.endpoint;
    expect(ep.current_state).toBe("idle");
    expect(emu.postgres!.fleet.servers.has(main)).toBe(false);

    const starts = (await actions()).filter((a) => a === "start_compute").length;
    expect((await psql(uri, "SELECT count(*) FROM items")).out).toBe("3");
    expect((await actions()).filter((a) => a === "start_compute").length).toBe(starts + 1);
  });
});

describe("with the clock standing still", () => {
  let emu: EmulatorHandle;
  let c: Client;
  let project: string;
  let main: string;

  beforeAll(async () => {
    emu = await startEmulator({ opMs: 1000, seed: 92, postgres: true, frozenClock: true });
    c = new Client(emu);
    project = emu.seed.projectId;
    main = emu.seed.defaultBranchId;
    // The primary compute started through the API (a connection would wait for a clock that stands still).
    const r = await c.post(`${EP1}/start`, {
      params: { project_id: project, endpoint_id: emu.seed.primaryEndpointId },
    });
    expect(r.status).toBe(200);
    await settle(c, project);
  });
  afterAll(() => emu?.stop());

  const uri = async (role: string, database: string) =>
    (
      await c.get(URI, {
        params: { project_id: project },
        query: { branch_id: main, role_name: role, database_name: database },
      })
    ).body.uri as string;

  test("a new role logs in; after a reset the old password works until the reset's operations end, then only the new one", async () => {
    const made = await c.post(ROLES, {
      params: { project_id: project, branch_id: main },
      body: { role: { name: "app" } },
    });
    expect(made.status).toBe(201);
    await settle(c, project);
    const first = await uri("app", "neondb");
    expect((await psql(first, "SELECT current_user")).out).toBe("app");

    const reset = await c.post(RESET, { params: { project_id: project, branch_id: main, role_name: "app" } });
    expect(reset.status).toBe(200);
    const second = withPassword(first, reset.body.role.password as string);
    // The reset's operations run (the clock stands still): the old password still works, the new not yet.
    expect((await psql(first, "SELECT 1")).out).toBe("1");
    expect((await psql(second, "SELECT 1")).ok).toBe(false);

    await settle(c, project);
    expect((await psql(second, "SELECT current_user")).out).toBe("app");
    const old = await psql(first, "SELECT 1");
    expect(old.ok).toBe(false);
    expect(old.error).toContain('password authentication failed for user "app"');
  });

  test("databases are made, renamed, re-owned and dropped in Postgres", async () => {
    const made = await c.post(DBS, {
      params: { project_id: project, branch_id: main },
      body: { database: { name: "shop", owner_name: "neondb_owner" } },
    });
    expect(made.status).toBe(201);
    await settle(c, project);
    const owner = await uri("neondb_owner", "shop");
    expect((await psql(owner, "CREATE TABLE orders (id int)")).error).toBe("");

    const renamed = await c.patch(DB1, {
      params: { project_id: project, branch_id: main, database_name: "shop" },
      body: { database: { name: "store", owner_name: "app" } },
    });
    expect(renamed.status).toBe(200);
    await settle(c, project);
    const list = await psql(
      await uri("neondb_owner", "neondb"),
      "SELECT datname, pg_get_userbyid(datdba) FROM pg_database WHERE datname IN ('shop', 'store')",
    );
    expect(list.out).toBe("store|app");
    // The data moved with the name (the table is still its maker's).
    expect((await psql(await uri("neondb_owner", "store"), "SELECT count(*) FROM orders")).out).toBe("0");
    const denied = await psql(await uri("app", "store"), "SELECT count(*) FROM orders");
    expect(denied.error).toContain("permission denied for table orders");

    const dropped = await c.del(DB1, {
      params: { project_id: project, branch_id: main, database_name: "store" },
    });
    expect(dropped.status).toBe(200);
    await settle(c, project);
    const gone = await psql(
      await uri("neondb_owner", "neondb"),
      "SELECT count(*) FROM pg_database WHERE datname = 'store'",
    );
    expect(gone.out).toBe("0");
  });

  test("a name made to break out of its quotes is only a name to Postgres: nothing else runs", async () => {
    const marker = join(tmpdir(), `pw${process.pid}`);
    const evil = `x"; DROP DATABASE neondb;\n\\! touch ${marker} #`;
    expect(Buffer.byteLength(evil)).toBeLessThanOrEqual(63);
    const made = await c.post(DBS, {
      params: { project_id: project, branch_id: main },
      body: { database: { name: evil, owner_name: "neondb_owner" } },
    });
    expect(made.status).toBe(201);
    await settle(c, project);
    // A role made and deleted: what it owned is handed over in every database, the evil one included.
    await c.post(ROLES, {
      params: { project_id: project, branch_id: main },
      body: { role: { name: "temp" } },
    });
    await settle(c, project);
    const gone = await c.del(`${ROLES}/{role_name}`, {
      params: { project_id: project, branch_id: main, role_name: "temp" },
    });
    expect(gone.status).toBe(200);
    await settle(c, project);
    expect(existsSync(marker)).toBe(false);
    const names = await psql(
      await uri("neondb_owner", "neondb"),
      "SELECT count(*) FROM pg_database WHERE datname IN ('neondb', " + `'${evil.replace(/'/g, "''")}')`,
    );
    expect(names.out).toBe("2");
    expect(
      (
        await psql(
          await uri("neondb_owner", "neondb"),
          "SELECT count(*) FROM pg_roles WHERE rolname = 'temp'",
        )
      ).out,
    ).toBe("0");
  });
});

test("in memory, compare_schema answers an empty difference and schema an empty one (databases hold no schema)", async () => {
  const emu = await startEmulator({ opMs: 10, seed: 93 });
  try {
    const c = new Client(emu);
    const r = await c.get(`${BR1}/compare_schema`, {
      params: { project_id: emu.seed.projectId, branch_id: emu.seed.branchIds[1] },
      query: { db_name: "neondb" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ diff: "" });
    const one = (format: string) =>
      c.get(`${BR1}/schema`, {
        params: { project_id: emu.seed.projectId, branch_id: emu.seed.branchIds[1] },
        query: { db_name: "neondb", format },
      });
    expect((await one("sql")).body).toEqual({ sql: "" });
    expect((await one("json")).body).toEqual({ json: { tables: [] } });
    expect(emu.postgres).toBeUndefined();
  } finally {
    await emu.stop();
  }
});
