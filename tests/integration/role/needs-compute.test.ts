/**
 * Roles and databases need their branch's read_write compute (issue 29 item 6): the service refuses a
 * role or database change on a branch without one (412), as users of other Neon tools report. The
 * provider says what to declare; a Role or Database created beside the Compute that gives its branch
 * one waits for it instead of failing; a replacement that deletes first never deletes into a branch
 * where the create would be refused; a preview warns. Against the emulator over real HTTP, the steps
 * called as the engine calls them (one runtime for the program, as one provider process serves it);
 * the first two with the 412s' words replaced, which the provider never reads.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { ApiError, NeonClient } from "../../../provider/api";
import { boundProgram, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(120_000);

type Props = Record<string, unknown>;
type Program = ReturnType<typeof boundProgram>;

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let logs: string[];
let program: Program;

const settings = () => ({ apiKey: emulator.apiKey, apiUrl: emulator.url });
const mutations = () => mutationCount(emulator);
/** A seeded branch without any compute. */
const bare = () => emulator.seed.branchIds[4];

/** The check as the engine runs it before a create (at `up`); it must pass. */
async function checked(type: string, name: string, inputs: Props): Promise<Props> {
  const r = await program[type].check({}, { __provider: "shim", __urn: urnOf(type, name), ...inputs });
  expect(r.failures ?? []).toEqual([]);
  return r.inputs;
}

async function made(type: string, name: string, inputs: Props) {
  const news = await checked(type, name, inputs);
  const c = await program[type].create(news);
  return { id: c.id, outs: c.outs as Props, inputs: news };
}

async function computeOn(branchId: string) {
  const r = await api.endpoints.create(projectId, { branch_id: branchId, type: "read_write" });
  await api.waitForOperations(projectId, r.operations);
  return r.endpoint.id;
}

withEmulator(
  { opMs: 30, seed: 29 },
  (e, client) => {
    emulator = e;
    api = client;
  },
  { resetEach: true },
);
beforeEach(() => {
  projectId = emulator.seed.projectId;
  logs = [];
  program = boundProgram(["Role", "Database", "Compute", "Branch"], settings(), (l) => logs.push(l));
  emulator.setFaults({});
});

// The 412 is judged by its status, its route and a read of the branch: these two run with the 412s'
// words replaced (the emulator's follow one user's report; the document states none).
it("a Role on a branch without a read_write compute: the preview warns, the create fails saying what to declare, nothing is made", async () => {
  emulator.setFaults({ rewordPreconditions: true });
  const inputs = await checked("Role", "app", { projectId, branchId: bare(), name: "app" });
  expect(logs.join("\n")).toMatch(
    new RegExp(`branch ${bare()} has no read_write compute.*creating this role will fail unless`),
  );
  const err = await program.Role.create(inputs).catch((e: Error) => e);
  expect(String((err as Error).message)).toMatch(
    new RegExp(
      `Failed to create role "app" of branch ${bare()}: branch ${bare()} has no read_write compute.*` +
        'the compute input of its Branch, or a Compute of type "read_write".*dependsOn',
    ),
  );
  expect((await api.roles.list(projectId, bare())).map((r) => r.name)).not.toContain("app");
  // The service's answer itself: a 412 whose words say nothing about a compute.
  const raw = await api.roles.create(projectId, bare(), { name: "raw" }).catch((e: ApiError) => e);
  expect([(raw as ApiError).status, (raw as ApiError).apiMessage]).toEqual([
    412,
    expect.stringMatching(/^The request's precondition/),
  ]);
});

it("a Role and a Database created beside the Compute that gives their branch one wait for it and succeed", async () => {
  emulator.setFaults({ rewordPreconditions: true });
  const where = { projectId, branchId: bare() };
  // The engine's order when nothing depends on the Compute: all three checked, then created at once.
  const computeInputs = await checked("Compute", "rw", { ...where, type: "read_write" });
  const roleInputs = await checked("Role", "app", { ...where, name: "app" });
  const dbInputs = await checked("Database", "appdb", { ...where, name: "appdb", ownerName: "neondb_owner" });
  // No warning: this program declares the compute.
  expect(logs.join("\n")).not.toMatch(/has no read_write compute/);
  const [role, db, compute] = await Promise.all([
    program.Role.create(roleInputs),
    program.Database.create(dbInputs),
    program.Compute.create(computeInputs),
  ]);
  expect(role.outs.password).toEqual(expect.any(String));
  expect(db.outs.name).toBe("appdb");
  // They were refused first and waited (their creates reached the service before the compute's).
  expect(logs.join("\n")).toMatch(
    new RegExp(`waiting for the read_write compute this program declares on branch ${bare()}`),
  );
  expect((await api.endpoints.get(projectId, compute.id)).type).toBe("read_write");
  expect((await api.roles.list(projectId, bare())).map((r) => r.name)).toContain("app");
});

it("a Role whose create reaches the service before its Compute is even checked waits for it", async () => {
  const where = { projectId, branchId: bare() };
  const roleInputs = await checked("Role", "early", { ...where, name: "early" });
  const role = program.Role.create(roleInputs);
  // The Compute's check comes a little later (the engine registers both once the branch's id is known).
  await new Promise((r) => setTimeout(r, 300));
  const compute = program.Compute.create(await checked("Compute", "rw", { ...where, type: "read_write" }));
  await expect(role).resolves.toMatchObject({ id: expect.stringContaining("early") });
  await compute;
});

it("a Compute checked but never created (the engine stopped): a Role waits only the grace, then fails saying so", async () => {
  const where = { projectId, branchId: bare() };
  await checked("Compute", "rw", { ...where, type: "read_write" });
  const roleInputs = await checked("Role", "app", { ...where, name: "app" });
  const err = await program.Role.create(roleInputs).catch((e: Error) => e);
  expect(String((err as Error).message)).toMatch(
    new RegExp(
      `has no read_write compute.*The Compute this program declares on branch ${bare()} had not begun to be made 10 s later.*dependsOn`,
    ),
  );
  expect(logs.join("\n")).not.toMatch(/waiting for the read_write compute/);
});

it("a Database moved to a branch without a read_write compute is refused before its delete; nothing is lost", async () => {
  const db = await made("Database", "appdb", {
    projectId,
    branchId: emulator.seed.defaultBranchId,
    name: "appdb",
    ownerName: "neondb_owner",
  });
  const news = { ...db.inputs, branchId: bare() };
  await program.Database.check(db.inputs, news);
  const before = mutations();
  await expect(program.Database.diff(db.id, db.outs, news)).rejects.toThrow(
    new RegExp(
      `replacement deletes it first and then creates database "appdb" on branch ${bare()}, which has no ` +
        "read_write compute.*Nothing was changed",
    ),
  );
  expect(mutations()).toBe(before);
  const names = (await api.databases.list(projectId, emulator.seed.defaultBranchId)).map((d) => d.name);
  expect(names).toContain("appdb");
  // With a compute on the target, the same change is a replacement.
  await computeOn(bare());
  expect((await program.Database.diff(db.id, db.outs, news)).replaces).toEqual(["branchId"]);
});

it("a Role's delete-first replacement (noLogin) on a branch whose compute was deleted is refused; a rotation there fails and keeps the password", async () => {
  const ep = await computeOn(bare());
  const role = await made("Role", "app", { projectId, branchId: bare(), name: "app" });
  const del = await api.endpoints.delete(projectId, ep);
  await api.waitForOperations(projectId, del?.operations ?? []);
  const news = { ...role.inputs, noLogin: true };
  await program.Role.check(role.inputs, news);
  await expect(program.Role.diff(role.id, role.outs, news)).rejects.toThrow(
    /deletes it first and then creates role "app" .* no read_write compute.*Nothing was changed/,
  );
  const rotate = { ...role.inputs, passwordRotationTrigger: "1" };
  await program.Role.check(role.inputs, rotate);
  await expect(program.Role.update(role.id, role.outs, rotate)).rejects.toThrow(
    new RegExp(
      `Failed to reset the password of role "app" of branch ${bare()}: branch .* has no read_write compute`,
    ),
  );
  expect(await api.roles.revealPassword(projectId, bare(), "app")).toBe(role.outs.password);
});
