/**
 * `Role`, `Database` and `getConnectionUri` against the emulator over real HTTP, their steps called
 * as the engine calls them: a role's password as an output that logs in; a rotation that reports the
 * new password only when the reset has finished (the old one working until then); a project without
 * stored passwords explained, not a raw 412; names the stack did not create refused with their
 * importId; the service's own role and database adopted and left in place; a database renamed in
 * place keeping its id; a role that owns a database refused before anything is sent.
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import { createNeonClient, type NeonClient } from "../../../provider/api";
import { getConnectionUri, withLookupClient } from "../../../provider/lookups";
import { boundProgram, boundResource, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { emulatorLogin, withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let branchId: string;
let logs: string[] = [];
let roles: ReturnType<typeof boundResource>;
let databases: ReturnType<typeof boundResource>;

const settings = () => ({ apiKey: emulator.apiKey, apiUrl: emulator.url });

async function checked(
  impl: ReturnType<typeof boundResource>,
  type: string,
  name: string,
  inputs: Props,
  olds: Props = {},
): Promise<Props> {
  const r = await impl.check(olds, {
    projectId,
    branchId,
    __provider: "shim",
    __urn: urnOf(type, name),
    ...inputs,
  });
  expect(r.failures ?? []).toEqual([]);
  return r.inputs;
}

async function createRole(name: string, inputs: Props) {
  const c = await roles.create(await checked(roles, "Role", name, inputs));
  return { id: c.id, outs: c.outs as Props };
}

async function createDatabase(name: string, inputs: Props) {
  const c = await databases.create(await checked(databases, "Database", name, inputs));
  return { id: c.id, outs: c.outs as Props };
}

const mutations = () => mutationCount(emulator);

/** A client connecting with `password` (the emulator's stand-in for a Postgres login). */
const login = (
  role: string,
  password: unknown,
  on = { projectId, branchId },
  emu: EmulatorHandle = emulator,
) => emulatorLogin(emu, on, role, password);

withEmulator(
  { opMs: 40, seed: 29 },
  (e, client) => {
    emulator = e;
    api = client;
    projectId = emulator.seed.projectId;
  },
  { resetEach: true },
);

beforeEach(async () => {
  emulator.setFaults({});
  logs = [];
  roles = boundResource("Role", settings(), (l) => logs.push(l));
  databases = boundResource("Database", settings(), (l) => logs.push(l));
  // A branch of its own with an active compute, as a preview environment has.
  const b = await api.branches.create(projectId, {
    branch: { name: "env" },
    endpoints: [{ type: "read_write" }],
  });
  branchId = b.branch.id;
  await api.waitForOperations(projectId, b.operations);
});

describe("Role", () => {
  it("creates a role whose password output logs in, and says at preview that connections are dropped", async () => {
    const before = emulator.requestsByRoute()["POST /projects/:project_id/branches/:branch_id/roles"] ?? 0;
    const c = await createRole("app", { name: "app" });
    expect(logs.join("\n")).toMatch(
      /creating role "app" drops the open connections to the computes of branch/,
    );
    expect(emulator.requestsByRoute()["POST /projects/:project_id/branches/:branch_id/roles"]).toBe(
      before + 1,
    );
    expect(c.id).toBe(`${projectId}/${branchId}/app`);
    expect(typeof c.outs.password).toBe("string");
    expect(await login("app", c.outs.password)).toBe(true);
    expect(c.outs).toMatchObject({ name: "app", branchId, projectId, protected: false });
    // The password is nowhere but the outputs.
    expect(logs.join("\n")).not.toContain(String(c.outs.password));
  });

  it("rotates: the new password is reported only when the reset has finished; the old one worked until then", async () => {
    const c = await createRole("rot", { name: "rot", passwordRotationTrigger: "1" });
    const old = c.outs.password as string;
    const news = await checked(roles, "Role", "rot", { name: "rot", passwordRotationTrigger: "2" }, c.outs);
    const d = await roles.diff(c.id, c.outs, news);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(logs.join("\n")).toMatch(/gets a new password; the old one works until the reset has finished/);
    // (While the reset's operations run: see the frozen-clock test below.)
    const outs = (await roles.update(c.id, c.outs, news)).outs as Props;
    expect(outs.password).not.toBe(old);
    // Reported after the reset's operations: the new one works at once, the old one no longer.
    expect(await login("rot", outs.password)).toBe(true);
    expect(await login("rot", old)).toBe(false);
    expect(
      emulator.requestsByRoute()[
        "POST /projects/:project_id/branches/:branch_id/roles/:role_name/reset_password"
      ],
    ).toBe(1);
    const again = await checked(roles, "Role", "rot", { name: "rot", passwordRotationTrigger: "2" }, outs);
    expect((await roles.diff(c.id, outs, again)).changes).toBe(false);
  });

  it("a name the stack did not create fails naming its importId, changing nothing", async () => {
    const inputs = await checked(roles, "Role", "owner", { name: "neondb_owner" });
    const before = mutations();
    await expect(roles.create(inputs)).rejects.toThrow(
      new RegExp(`adopt: true .*importId: "${projectId}/${branchId}/neondb_owner"`),
    );
    expect(mutations()).toBe(before);
  });

  it("a lost create answer is reconciled: one role, its password read back", async () => {
    const inputs = await checked(roles, "Role", "lost", { name: "lost" });
    emulator.setFaults({ dropAfterCommitRate: 1 });
    const c = await roles.create(inputs);
    emulator.setFaults({});
    expect(logs.join("\n")).toMatch(/the answer to the create request was lost; found role "lost"/);
    expect((await api.roles.list(projectId, branchId)).filter((r) => r.name === "lost")).toHaveLength(1);
    expect(await login("lost", (c.outs as Props).password)).toBe(true);
  });

  it("adopts the branch's inherited owner role with its password, and destroy leaves it", async () => {
    const c = await createRole("owner", { name: "neondb_owner", adopt: true });
    expect(c.outs.adopted).toBe(true);
    expect(await login("neondb_owner", c.outs.password)).toBe(true);
    const before = mutations();
    await roles.delete(c.id, c.outs);
    expect(mutations()).toBe(before);
    expect((await api.roles.list(projectId, branchId)).map((r) => r.name)).toContain("neondb_owner");
  });

  it("a project that does not store passwords: a message saying so and what to do, then a rotation gives one (412s reworded)", async () => {
    // The provider judges the 412 by a read of the project, whatever the answer's words.
    emulator.setFaults({ rewordPreconditions: true });
    const res = await fetch(`${emulator.url}/projects`, {
      method: "POST",
      headers: { authorization: `Bearer ${emulator.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ project: { name: "nostore", store_passwords: false } }),
    });
    const made = (await res.json()) as {
      project: { id: string };
      branch: { id: string };
      operations: never[];
    };
    await api.waitForOperations(made.project.id, made.operations);
    const on = { projectId: made.project.id, branchId: made.branch.id };
    const inputs = {
      ...on,
      name: "neondb_owner",
      adopt: true,
      __urn: urnOf("Role", "ns"),
      __provider: "shim",
    };
    const r = await roles.check({}, inputs);
    const c = await roles.create(r.inputs);
    const outs = c.outs as Props;
    expect(outs.password).toBeUndefined();
    expect(logs.join("\n")).toMatch(
      /does not store role passwords.*change \(or add\) passwordRotationTrigger, and the new password becomes the password output/,
    );
    const news = (await roles.check(outs, { ...inputs, passwordRotationTrigger: "1" })).inputs;
    const u = (await roles.update(c.id, outs, news)).outs as Props;
    expect(await login("neondb_owner", u.password, on)).toBe(true);
    emulator.setFaults({});
  });

  it("a delete-first replacement of a role that owns a database is refused before anything is sent; its delete is refused naming the databases", async () => {
    const c = await createRole("own", { name: "own" });
    await createDatabase("owned", { name: "owned", ownerName: "own" });
    // noLogin keeps the name: the old role must go first, which the service refuses while it owns "owned".
    const news = await checked(roles, "Role", "own", { name: "own", noLogin: true }, c.outs);
    const before = mutations();
    await expect(roles.diff(c.id, c.outs, news)).rejects.toThrow(
      /Failed to replace role "own" .*owns database "owned".*another owner \(ownerName of the Database resource\)/,
    );
    // A rename creates the new role first (the database's owner moves to it before the old one goes).
    const renamed = await checked(roles, "Role", "own", { name: "own2" }, c.outs);
    expect(await roles.diff(c.id, c.outs, renamed)).toMatchObject({
      replaces: ["name"],
      deleteBeforeReplace: false,
    });
    expect(mutations()).toBe(before);
    // The delete is sent at once (no read first): the service refuses it, and the message names the
    // database and what to do.
    await expect(roles.delete(c.id, c.outs)).rejects.toThrow(
      /Failed to delete role "own" .*owns database "owned".*Nothing was changed/,
    );
    expect((await api.roles.list(projectId, branchId)).map((r) => r.name)).toContain("own");
  });

  it("a database handed to a role the same update removes: the role's refusal says the update did it", async () => {
    const run = boundProgram(["Role", "Database"], settings(), (l) => logs.push(l));
    const leaving = await createRole("leaving", { name: "leaving" });
    await createRole("keeper", { name: "keeper" });
    const db = await createDatabase("handed", { name: "handed", ownerName: "keeper" });
    // The engine's order: the database's update (its owner is now the role the program removes), then the delete.
    const given = await checked(
      run.Database,
      "Database",
      "handed",
      { name: "handed", ownerName: "leaving" },
      db.outs,
    );
    await run.Database.update(db.id, db.outs, given);
    await expect(run.Role.delete(leaving.id, leaving.outs)).rejects.toThrow(
      /Failed to delete role "leaving" .*this update made it the owner of database "handed" \(the Database's ownerName\).*The new owner is in place; the role was not deleted. Keep the Role in the program, or give the database another owner/,
    );
    expect((await api.roles.list(projectId, branchId)).map((r) => r.name)).toContain("leaving");
  });

  it("a role that owns a database is renamed in one up: the new role first, the owner moves, the old role goes", async () => {
    const old = await createRole("renamed", { name: "before" });
    const db = await createDatabase("kept", { name: "kept", ownerName: "before" });
    // The engine's order for a create-first replacement: create, update the dependents, delete the old.
    const news = await checked(roles, "Role", "renamed", { name: "after" }, old.outs);
    expect(await roles.diff(old.id, old.outs, news)).toMatchObject({
      replaces: ["name"],
      deleteBeforeReplace: false,
    });
    const made = await roles.create(news);
    const moved = await checked(databases, "Database", "kept", { name: "kept", ownerName: "after" }, db.outs);
    await databases.update(db.id, db.outs, moved);
    await roles.delete(old.id, old.outs);
    const names = (await api.roles.list(projectId, branchId)).map((r) => r.name);
    expect(names).toContain("after");
    expect(names).not.toContain("before");
    const kept = (await api.databases.list(projectId, branchId)).find((d) => d.name === "kept");
    expect([kept?.id, kept?.owner_name]).toEqual([Number(db.id), "after"]);
    expect(await login("after", (made.outs as Props).password)).toBe(true);
  });

  it("a Role removed from the program while its role owns a database that stays fails at preview, before anything is sent", async () => {
    // Each run is a new provider process: the Role's check comes before the Database's (program order).
    const run = () => boundProgram(["Role", "Database"], settings(), (l) => logs.push(l));
    const first = run();
    const role = await first.Role.create(await checked(first.Role, "Role", "owner", { name: "owner" }));
    const dbInputs = { name: "owned", ownerName: "owner" };
    const db = await first.Database.create(await checked(first.Database, "Database", "owned", dbInputs));
    const outs = db.outs as Props;

    // The next preview without the Role: the database's diff refuses, naming the Role and the remedies.
    const second = run();
    const news = await checked(second.Database, "Database", "owned", dbInputs, outs);
    const before = mutations();
    await expect(second.Database.diff(db.id, outs, news)).rejects.toThrow(
      /its owner, role "owner", was made by the Role "owner" of this stack, which the program no longer declares.*Give the database another owner \(ownerName\), keep the Role, or remove the Database too/,
    );
    expect(mutations()).toBe(before);

    // Still declared (checked first): no refusal. Owner moved to another role: no refusal.
    const third = run();
    await checked(third.Role, "Role", "owner", { name: "owner" }, role.outs as Props);
    const kept = await checked(third.Database, "Database", "owned", dbInputs, outs);
    expect((await third.Database.diff(db.id, outs, kept)).changes).toBe(false);
    const fourth = run();
    const moved = await checked(
      fourth.Database,
      "Database",
      "owned",
      { ...dbInputs, ownerName: "neondb_owner" },
      outs,
    );
    expect((await fourth.Database.diff(db.id, outs, moved)).changes).toBe(true);
    // A refresh keeps the record: the next preview without the Role is still refused.
    const sixth = run();
    const refreshed = await sixth.Database.read(db.id, outs);
    expect(refreshed.inputs?.__ownerRole).toBe(outs.__ownerRole);
    const after = await checked(sixth.Database, "Database", "owned", dbInputs, refreshed.inputs as Props);
    await expect(sixth.Database.diff(db.id, refreshed.props as Props, after)).rejects.toThrow(
      /no longer declares/,
    );

    // An adopted role is left in place when its Role goes: its database is never refused for it.
    const seventh = run();
    const adoptedInputs = { name: "neondb_owner", adopt: true };
    await seventh.Role.create(await checked(seventh.Role, "Role", "adopted", adoptedInputs));
    const held = await seventh.Database.create(
      await checked(seventh.Database, "Database", "held", { name: "held", ownerName: "neondb_owner" }),
    );
    expect((held.outs as Props).__ownerRole).toBeUndefined();

    // A literal owner whose Role was not created in this run (no proof the database waited for it).
    const eighth = run();
    await checked(eighth.Role, "Role", "owner", { name: "owner" }, role.outs as Props);
    const literal = await eighth.Database.create(
      await checked(eighth.Database, "Database", "literal", { name: "literal", ownerName: "owner" }),
    );
    expect((literal.outs as Props).__ownerRole).toBeUndefined();

    // A database whose owner no Role of the program declared is never refused for it.
    const plain = await createDatabase("plain", { name: "plain", ownerName: "neondb_owner" });
    const fifth = run();
    const same = await checked(
      fifth.Database,
      "Database",
      "plain",
      { name: "plain", ownerName: "neondb_owner" },
      plain.outs,
    );
    expect((await fifth.Database.diff(plain.id, plain.outs, same)).changes).toBe(false);
  });

  it("a no-login role is taken over only when the program says noLogin: true (else every up would replace it)", async () => {
    await api.roles.create(projectId, branchId, { name: "ro", no_login: true });
    const importId = `${projectId}/${branchId}/ro`;
    const left = await checked(roles, "Role", "ro", { name: "ro", importId });
    await expect(roles.create(left)).rejects.toThrow(
      /noLogin is left out \(false\) but the role cannot log in/,
    );
    const c = await createRole("ro", { name: "ro", importId, noLogin: true });
    const again = await checked(roles, "Role", "ro", { name: "ro", importId, noLogin: true }, c.outs);
    expect((await roles.diff(c.id, c.outs, again)).changes).toBe(false);
  });

  it("a replacement into a name the branch already has is refused at preview; one that moves branch is not held by its databases", async () => {
    const free = await createRole("free", { name: "free" });
    const c = await createRole("mv", { name: "mv" });
    await createDatabase("mvdb", { name: "mvdb", ownerName: "mv" });
    const before = mutations();
    const clash = await checked(roles, "Role", "free", { name: "neondb_owner" }, free.outs);
    await expect(roles.diff(free.id, free.outs, clash)).rejects.toThrow(
      /its replacement would be role "neondb_owner" of branch .* which already exists.*Nothing was changed/,
    );
    // Moving to another branch replaces (and deletes) its databases too: not refused for owning them.
    const other = emulator.seed.branchIds[1];
    const moved = await checked(roles, "Role", "mv", { name: "mv", branchId: other }, c.outs);
    expect(await roles.diff(c.id, c.outs, moved)).toMatchObject({ replaces: ["branchId"] });
    expect(mutations()).toBe(before);
  });

  it("delete waits; a role already gone is deleted; refresh shows a rotation made outside", async () => {
    const c = await createRole("gone", { name: "gone" });
    const reset = await api.roles.resetPassword(projectId, branchId, "gone");
    await api.waitForOperations(projectId, reset.operations);
    const r = await roles.read(c.id, c.outs);
    expect((r.props as Props).password).toBe(reset.role.password);
    expect(r.inputs).toMatchObject({ projectId, branchId, name: "gone" });
    expect(Object.keys(r.inputs ?? {}).filter((k) => !k.startsWith("__"))).toEqual([
      "projectId",
      "branchId",
      "name",
    ]);
    await roles.delete(c.id, c.outs);
    expect((await api.roles.list(projectId, branchId)).map((x) => x.name)).not.toContain("gone");
    await roles.delete(c.id, c.outs);
    expect(await roles.read(c.id, c.outs)).toEqual({});
  });
});

describe("Database", () => {
  it("creates a database owned by a role; a rename and an owner change keep its id", async () => {
    await createRole("a", { name: "a" });
    await createRole("b", { name: "b" });
    const c = await createDatabase("db", { name: "app", ownerName: "a" });
    const id = c.outs.databaseId;
    expect(c.id).toBe(String(id));
    const news = await checked(databases, "Database", "db", { name: "app2", ownerName: "b" }, c.outs);
    expect(await databases.diff(c.id, c.outs, news)).toMatchObject({ changes: true, replaces: [] });
    const u = (await databases.update(c.id, c.outs, news)).outs as Props;
    expect(u).toMatchObject({ name: "app2", ownerName: "b", databaseId: id });
    const listed = (await api.databases.list(projectId, branchId)).find((d) => d.id === id);
    expect(listed).toMatchObject({ name: "app2", owner_name: "b" });
    expect(
      emulator.requestsByRoute()[
        "DELETE /projects/:project_id/branches/:branch_id/databases/:database_name"
      ] ?? 0,
    ).toBe(0);
  });

  it("a rename made outside the stack shows as a rename at refresh (found by id)", async () => {
    await createRole("o", { name: "o" });
    const c = await createDatabase("ren", { name: "ren", ownerName: "o" });
    const r = await api.databases.update(projectId, branchId, "ren", { name: "renamed" });
    await api.waitForOperations(projectId, r.operations);
    const read = await databases.read(c.id, c.outs);
    expect(read.id).toBe(c.id);
    expect(read.inputs).toMatchObject({ name: "renamed", ownerName: "o" });
  });

  it("a name the stack did not create fails naming its importId; a lost answer is reconciled", async () => {
    const taken = await checked(databases, "Database", "t", { name: "neondb", ownerName: "neondb_owner" });
    const before = mutations();
    await expect(databases.create(taken)).rejects.toThrow(
      new RegExp(`importId: "${projectId}/${branchId}/neondb"`),
    );
    expect(mutations()).toBe(before);
    const inputs = await checked(databases, "Database", "l", { name: "lostdb", ownerName: "neondb_owner" });
    emulator.setFaults({ dropAfterCommitRate: 1 });
    const c = await databases.create(inputs);
    emulator.setFaults({});
    expect(logs.join("\n")).toMatch(/the answer to the create request was lost; found database "lostdb"/);
    expect((await api.databases.list(projectId, branchId)).filter((d) => d.name === "lostdb")).toHaveLength(
      1,
    );
    expect(c.id).toBe(String((c.outs as Props).databaseId));
  });

  it("an owner that is not a role of the branch fails naming the remedy: at check, and at create if it got past", async () => {
    const news = {
      projectId,
      branchId,
      __provider: "shim",
      __urn: urnOf("Database", "x"),
      name: "x",
      ownerName: "nobody",
    };
    expect((await databases.check({}, news)).failures).toEqual([
      expect.objectContaining({ property: "ownerName", reason: expect.stringMatching(/declare a Role/) }),
    ]);
    await expect(databases.create(news)).rejects.toThrow(
      /ownerName "nobody" is not a role of branch .*declare a Role/,
    );
  });

  it("adopts the inherited database, applying the declared owner; destroy leaves it (with its owner back); delete of its own waits", async () => {
    await createRole("new-owner", { name: "new-owner" });
    const c = await createDatabase("neondb", { name: "neondb", ownerName: "new-owner", adopt: true });
    expect(c.outs).toMatchObject({ adopted: true, ownerName: "new-owner" });
    await databases.delete(c.id, c.outs);
    // Left in place, given back to the owner it had.
    expect((await api.databases.list(projectId, branchId)).find((d) => d.name === "neondb")?.owner_name).toBe(
      "neondb_owner",
    );
    const own = await createDatabase("own", { name: "mine", ownerName: "new-owner" });
    await databases.delete(own.id, own.outs);
    const ops = (await api.operations.listPage(projectId, { limit: 100 })).operations;
    expect(ops.filter((o) => o.branch_id === branchId).every((o) => o.status === "finished")).toBe(true);
    expect((await api.databases.list(projectId, branchId)).map((d) => d.name)).not.toContain("mine");
    await databases.delete(own.id, own.outs); // already gone: nothing to do
  });

  it("an adopted database given to the stack's role goes back to its owner at destroy, so the role can go", async () => {
    const role = await createRole("owner2", { name: "owner2" });
    const c = await createDatabase("neondb", { name: "neondb", ownerName: "owner2", adopt: true });
    expect((await api.databases.list(projectId, branchId)).find((d) => d.name === "neondb")?.owner_name).toBe(
      "owner2",
    );
    await databases.delete(c.id, c.outs);
    const db = (await api.databases.list(projectId, branchId)).find((d) => d.name === "neondb");
    expect(db?.owner_name).toBe("neondb_owner");
    await roles.delete(role.id, role.outs);
    expect((await api.roles.list(projectId, branchId)).map((r) => r.name)).not.toContain("owner2");
  });

  it("an adopted database given to the stack's role in a later update also goes back at destroy", async () => {
    const role = await createRole("later", { name: "later" });
    const c = await createDatabase("neondb2", { name: "neondb", ownerName: "neondb_owner", adopt: true });
    const news = await checked(
      databases,
      "Database",
      "neondb2",
      { name: "neondb", ownerName: "later", adopt: true },
      c.outs,
    );
    const u = (await databases.update(c.id, c.outs, news)).outs as Props;
    await databases.delete(c.id, u);
    expect((await api.databases.list(projectId, branchId)).find((d) => d.name === "neondb")?.owner_name).toBe(
      "neondb_owner",
    );
    await roles.delete(role.id, role.outs);
  });

  it("an import whose declared owner differs fails and changes nothing", async () => {
    await createRole("someone", { name: "someone" });
    const inputs = await checked(databases, "Database", "imp", {
      name: "neondb",
      ownerName: "someone",
      importId: `${projectId}/${branchId}/neondb`,
    });
    await expect(databases.create(inputs)).rejects.toThrow(/declared "someone", actual "neondb_owner"/);
  });
});

describe("on a branch this run made", () => {
  it("a Role and a Database are created without a look first (the branch's create named what it holds); an inherited name is still refused", async () => {
    const program = boundProgram(["Branch", "Role", "Database"], settings(), (l) => logs.push(l));
    const check = async (type: string, name: string, inputs: Props) => {
      const r = await program[type].check({}, { __provider: "shim", __urn: urnOf(type, name), ...inputs });
      expect(r.failures ?? []).toEqual([]);
      return r.inputs;
    };
    const b = await program.Branch.create(
      await check("Branch", "env", { projectId, compute: { minCu: 0.25, maxCu: 0.25 } }),
    );
    const where = { projectId, branchId: b.id };
    const roleInputs = await check("Role", "app", { ...where, name: "app" });
    const dbInputs = await check("Database", "appdb", { ...where, name: "appdb", ownerName: "app" });
    const looks = () => {
      const r = emulator.requestsByRoute();
      return (
        (r["GET /projects/:project_id/branches/:branch_id/roles/:role_name"] ?? 0) +
        (r["GET /projects/:project_id/branches/:branch_id/databases"] ?? 0)
      );
    };
    const before = looks();
    await program.Role.create(roleInputs);
    await program.Database.create(dbInputs);
    expect(looks()).toBe(before);
    expect((await api.databases.list(projectId, b.id)).map((d) => [d.name, d.owner_name])).toContainEqual([
      "appdb",
      "app",
    ]);
    // The branch inherited neondb_owner and neondb from its parent: those names are looked up and refused.
    const inherited = await check("Role", "owner", { ...where, name: "neondb_owner" });
    await expect(program.Role.create(inherited)).rejects.toThrow(/this stack did not create it/);
    const db = await check("Database", "neondb", { ...where, name: "neondb", ownerName: "neondb_owner" });
    await expect(program.Database.create(db)).rejects.toThrow(/this stack did not create it/);
  });
});

describe("getConnectionUri", () => {
  it("gives the uri of a role and database on the branch's compute, with the role's password", async () => {
    const role = await createRole("conn", { name: "conn" });
    await createDatabase("conndb", { name: "conndb", ownerName: "conn" });
    const { uri } = await withLookupClient(api, () =>
      getConnectionUri({ projectId, branchId, databaseName: "conndb", roleName: "conn" }),
    );
    const u = new URL(uri);
    expect([u.username, decodeURIComponent(u.password), u.pathname]).toEqual([
      "conn",
      role.outs.password,
      "/conndb",
    ]);
    const pooled = await withLookupClient(api, () =>
      getConnectionUri({ projectId, branchId, databaseName: "conndb", roleName: "conn", pooled: true }),
    );
    expect(new URL(pooled.uri).hostname).toMatch(/-pooler\./);
  });

  it('a missing argument fails naming it, before any request (no "database undefined")', async () => {
    const before = Object.values(emulator.requestsByRoute()).reduce((n, v) => n + v, 0);
    await expect(
      withLookupClient(api, () =>
        getConnectionUri({ projectId, branchId, roleName: "conn" } as unknown as Parameters<
          typeof getConnectionUri
        >[0]),
      ),
    ).rejects.toThrow(/Failed to run getConnectionUri: databaseName is required \(a string\), got nothing/);
    expect(Object.values(emulator.requestsByRoute()).reduce((n, v) => n + v, 0)).toBe(before);
  });
});

describe("Role rotation, on a frozen emulator clock", () => {
  let emu: EmulatorHandle;
  let client: NeonClient;
  const RESET = "POST /projects/:project_id/branches/:branch_id/roles/:role_name/reset_password";
  const tick = () => new Promise((r) => setTimeout(r, 10));

  beforeAll(async () => {
    emu = await startEmulator({ opMs: 40, seed: 31, frozenClock: true });
    client = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
  });
  afterAll(async () => {
    await emu.stop();
  });

  /** Moves the emulator's clock until `p` settles (the provider polls the operations in real time). */
  async function settle<T>(p: Promise<T>): Promise<T> {
    let done = false;
    p.then(
      () => (done = true),
      () => (done = true),
    );
    while (!done) {
      emu.clock.advance(100);
      await tick();
    }
    return p;
  }

  it("the update waits for the reset's operations: until they end the old password works and the new one not", async () => {
    const pid = emu.seed.projectId;
    const b = await client.branches.create(pid, {
      branch: { name: "rot" },
      endpoints: [{ type: "read_write" }],
    });
    await settle(client.waitForOperations(pid, b.operations));
    const on = { projectId: pid, branchId: b.branch.id };
    const impl = boundResource("Role", { apiKey: emu.apiKey, apiUrl: emu.url });
    const raw = {
      ...on,
      name: "rot",
      passwordRotationTrigger: "1",
      __urn: urnOf("Role", "rotf"),
      __provider: "shim",
    };
    const c = await settle(impl.create((await impl.check({}, raw)).inputs));
    const old = (c.outs as Props).password;
    const news = (await impl.check(c.outs as Props, { ...raw, passwordRotationTrigger: "2" })).inputs;
    let settled = false;
    const updating = impl.update(c.id, c.outs as Props, news).finally(() => (settled = true));
    // The clock stands still: the reset is made, and its operations run until the test moves the clock.
    while ((emu.requestsByRoute()[RESET] ?? 0) === 0 && !settled) await tick();
    const fresh = await client.roles.revealPassword(pid, b.branch.id, "rot");
    expect(fresh).not.toBe(old);
    expect(await login("rot", old, on, emu)).toBe(true);
    expect(await login("rot", fresh, on, emu)).toBe(false);
    expect(settled).toBe(false);
    const outs = (await settle(updating)).outs as Props;
    expect(outs.password).toBe(fresh);
    expect(await login("rot", fresh, on, emu)).toBe(true);
    expect(await login("rot", old, on, emu)).toBe(false);
  });
});
