/**
 * The SQL that makes a branch's server hold its records' roles and databases (pure: no Postgres):
 * renames that swap names, a database deleted and made again under its name, a parent's copy matched by
 * name, what an application made with SQL left alone, names the server keeps for itself skipped, and
 * names that try to break out of their quotes.
 */
import {
  catalogPlan,
  parseCatalog,
  wantedCatalog,
  type CurrentCatalog,
  type WantedDatabase,
  type WantedRole,
} from "../../emulator/postgres/catalog";

const BR = "br-child-1";
const role = (name: string, password = "pw"): WantedRole => ({ name, login: true, password });
const plan = (current: CurrentCatalog, roles: WantedRole[], databases: WantedDatabase[]) =>
  catalogPlan(current, wantedCatalog(BR, roles, databases));
const tagged = (name: string, id: number, owner = "app", branchId = BR) => ({ name, owner, branchId, id });
const owner = { name: "app", login: true, managed: true };

test("two databases that swap names are renamed through names no record has", () => {
  const p = plan(
    { roles: [owner], databases: [tagged("a", 1), tagged("b", 2)] },
    [role("app")],
    [
      { id: 1, name: "b", owner: "app" },
      { id: 2, name: "a", owner: "app" },
    ],
  );
  const renames = p.main.filter((l) => l.startsWith("ALTER DATABASE"));
  expect(renames).toEqual([
    'ALTER DATABASE "a" RENAME TO "neon_emulator_rename_1";',
    'ALTER DATABASE "b" RENAME TO "neon_emulator_rename_2";',
    'ALTER DATABASE "neon_emulator_rename_1" RENAME TO "b";',
    'ALTER DATABASE "neon_emulator_rename_2" RENAME TO "a";',
  ]);
  expect(p.main.join("\n")).not.toMatch(/DROP DATABASE|CREATE DATABASE/);
});

test("a database deleted and made again under its name is dropped and made empty, not kept", () => {
  const p = plan(
    { roles: [owner], databases: [tagged("app", 7)] },
    [role("app")],
    [{ id: 9, name: "app", owner: "app" }],
  );
  expect(p.main).toContain('DROP DATABASE "app" WITH (FORCE);');
  expect(p.main).toContain('CREATE DATABASE "app" OWNER "app";');
  expect(p.main.indexOf('DROP DATABASE "app" WITH (FORCE);')).toBeLessThan(
    p.main.indexOf('CREATE DATABASE "app" OWNER "app";'),
  );
});

test("a branch's copy of its parent's databases (the parent's ids) is kept by name and tagged as the branch's", () => {
  const p = plan(
    { roles: [owner], databases: [tagged("app", 3, "app", "br-parent-1")] },
    [role("app")],
    [{ id: 11, name: "app", owner: "app" }],
  );
  expect(p.main.join("\n")).not.toMatch(/DROP DATABASE|CREATE DATABASE/);
  expect(p.main).toContain(`COMMENT ON DATABASE "app" IS 'neon-emulator database ${BR}/11';`);
});

test("what the application made with SQL is left alone; what the emulator made and the records dropped goes", () => {
  const p = plan(
    {
      roles: [
        owner,
        { name: "readonly", login: false, managed: false },
        { name: "old", login: true, managed: true },
      ],
      databases: [{ name: "analytics", owner: "app" }, tagged("gone", 4)],
    },
    [role("app")],
    [],
  );
  expect(p.main).toContain('DROP DATABASE "gone" WITH (FORCE);');
  expect(p.main.join("\n")).not.toMatch(/analytics/);
  expect(p.last).toEqual(['DROP ROLE IF EXISTS "old";']);
  expect(JSON.stringify(p)).not.toMatch(/readonly/);
  // What the dropped role owned passes to the superuser in every database that stays, one connection each.
  expect(p.perDatabase.map(([db]) => db)).toEqual(["postgres", "analytics"]);
  expect(p.perDatabase[0][1]).toEqual(['REASSIGN OWNED BY "old" TO cloud_admin;', 'DROP OWNED BY "old";']);
});

test("names the server keeps for itself are never made, altered or dropped", () => {
  const p = plan(
    { roles: [], databases: [] },
    [role("cloud_admin"), role("pg_monitor"), role("app")],
    [
      { id: 1, name: "postgres", owner: "app" },
      { id: 2, name: "template1", owner: "app" },
    ],
  );
  const sql = [...p.main, ...p.last].join("\n");
  expect(sql).not.toMatch(/cloud_admin"|pg_monitor|"postgres"|template1/);
  expect(sql).toMatch(/CREATE ROLE "app"/);
});

test("a name that tries to leave its quotes stays one identifier; no line is a psql meta-command; no password in clear", () => {
  const evil = 'x"; DROP DATABASE postgres; --\n\\! touch pwned-file #';
  const p = plan(
    { roles: [{ name: evil, login: true, managed: true }], databases: [] },
    [role("app", "s3cret")],
    [{ id: 1, name: evil, owner: "app" }],
  );
  const sql = [...p.main, ...p.perDatabase.flatMap(([, l]) => l), ...p.last].join("\n");
  expect(sql).toContain(
    'CREATE DATABASE "x""; DROP DATABASE postgres; --\n\\! touch pwned-file #" OWNER "app";',
  );
  // Every statement is one of the kinds the plan writes; none starts with a backslash.
  for (const statement of [...p.main, ...p.last, ...p.perDatabase.flatMap(([, l]) => l)]) {
    expect(statement).toMatch(/^(CREATE|ALTER|COMMENT|DROP|SELECT|REASSIGN) /);
  }
  expect(p.perDatabase.map(([db]) => db)).toEqual(["postgres", evil]);
  expect(sql).not.toContain("s3cret");
  expect(sql).toMatch(/PASSWORD 'SCRAM-SHA-256\$4096:/);
});

test("the catalog is read as JSON, whatever the names hold", () => {
  const current = parseCatalog(
    JSON.stringify({
      roles: [
        { name: "a|b\nc", login: true, tag: "neon-emulator role" },
        { name: "mine", login: false, tag: "" },
      ],
      databases: [
        { name: "app|1", owner: "a|b\nc", tag: `neon-emulator database ${BR}/5` },
        { name: "app", owner: "mine", tag: "" },
      ],
    }),
  );
  expect(current).toEqual({
    roles: [
      { name: "a|b\nc", login: true, managed: true },
      { name: "mine", login: false, managed: false },
    ],
    databases: [
      { name: "app|1", owner: "a|b\nc", branchId: BR, id: 5 },
      { name: "app", owner: "mine" },
    ],
  });
});

test("a copy of a parent whose database was renamed while it was stopped keeps that database under the new name", () => {
  // The parent's record 3 is now "shop"; its data (copied while stopped) still says "app".
  const p = catalogPlan(
    { roles: [owner], databases: [tagged("app", 3, "app", "br-parent-1")] },
    wantedCatalog(BR, [role("app")], [{ id: 12, name: "shop", owner: "app" }], (branch, id) =>
      branch === "br-parent-1" && id === 3 ? "shop" : undefined,
    ),
  );
  expect(p.main.join("\n")).not.toMatch(/DROP DATABASE|CREATE DATABASE/);
  expect(p.main).toContain('ALTER DATABASE "neon_emulator_rename_12" RENAME TO "shop";');
});

test("a database whose record took a name the server keeps is not dropped", () => {
  const p = plan(
    { roles: [owner], databases: [tagged("app", 5)] },
    [role("app")],
    [{ id: 5, name: "postgres", owner: "app" }],
  );
  expect(p.main.join("\n")).not.toMatch(/DROP DATABASE/);
});

test("a role that goes hands over what it owns in a database the application made too", () => {
  const p = plan(
    {
      roles: [owner, { name: "old", login: true, managed: true }],
      databases: [{ name: "analytics", owner: "old" }],
    },
    [role("app")],
    [],
  );
  expect(p.perDatabase.map(([db]) => db)).toEqual(["postgres", "analytics"]);
});

test("a role the application made with SQL, then made through the API, gets what an API role has", () => {
  const p = plan(
    { roles: [{ name: "app", login: false, managed: false }], databases: [] },
    [role("app")],
    [],
  );
  expect(p.main).toEqual([
    expect.stringMatching(/^ALTER ROLE "app" WITH LOGIN PASSWORD 'SCRAM-SHA-256\$/),
    'ALTER ROLE "app" WITH CREATEDB CREATEROLE;',
    'GRANT neon_superuser TO "app";',
    `COMMENT ON ROLE "app" IS 'neon-emulator role';`,
  ]);
});
