/**
 * The emulator's branch create as the API facts describe it (§267, §285): `init_source: "schema-only"`
 * makes a root branch (no parent link) and needs exactly one read_write endpoint; `parent_timestamp`
 * must fall inside the project's history retention and after the parent was made, and is recorded on
 * the branch. Each answer is validated against the OpenAPI document (`Client`); the clock is the
 * emulator's, driven by the test.
 */
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client } from "./client";

const BRANCHES = "/projects/{project_id}/branches";
const HOUR = 3600 * 1000;
let emu: EmulatorHandle;
let c: Client;

beforeAll(async () => {
  emu = await startEmulator({ opMs: 10, seed: 61 });
  c = new Client(emu);
});

afterAll(async () => {
  await emu.stop();
});

const create = (body: unknown) => c.post(BRANCHES, { params: { project_id: emu.seed.projectId }, body });
const at = (msAgo: number) => new Date(emu.clock.now() - msAgo).toISOString();

test("schema-only: a root branch with its read_write compute; without exactly one, 400", async () => {
  const made = await create({
    branch: { name: "schema-only", init_source: "schema-only" },
    endpoints: [{ type: "read_write" }],
  });
  expect(made.status).toBe(201);
  expect(made.body.branch).toMatchObject({ name: "schema-only", init_source: "schema-only" });
  expect(made.body.branch.parent_id).toBeUndefined();
  for (const endpoints of [
    undefined,
    [],
    [{ type: "read_only" }],
    [{ type: "read_write" }, { type: "read_only" }],
  ]) {
    const refused = await create({
      branch: { init_source: "schema-only" },
      ...(endpoints ? { endpoints } : {}),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/schema-only branch .* needs exactly one read_write endpoint/);
  }
});

test("parent_timestamp: inside the history retention it is recorded; before it, in the future or before the parent, 400", async () => {
  // Every operation so far has ended (a create meets the project's lock otherwise).
  emu.clock.advance(60_000);
  const parent = await create({ branch: { name: "pit-parent" } });
  expect(parent.status).toBe(201);
  emu.clock.advance(3 * HOUR);
  const anHourAgo = at(HOUR);
  const inside = await create({
    branch: { name: "an-hour-ago", parent_id: parent.body.branch.id, parent_timestamp: anHourAgo },
  });
  expect(inside.status).toBe(201);
  expect(inside.body.branch).toMatchObject({ parent_id: parent.body.branch.id, parent_timestamp: anHourAgo });

  // Refused before the lock: no operation of the project matters.
  const beforeParent = await create({
    branch: { parent_id: parent.body.branch.id, parent_timestamp: at(4 * HOUR) },
  });
  expect(beforeParent.status).toBe(400);
  expect(beforeParent.body.message).toMatch(
    new RegExp(`parent_timestamp .* is outside the history of branch ${parent.body.branch.id}`),
  );

  emu.clock.advance(48 * HOUR);
  const tooOld = await create({ branch: { parent_timestamp: at(25 * HOUR) } });
  expect(tooOld.status).toBe(400);
  expect(tooOld.body.message).toMatch(/the project keeps 86400 s of history/);

  const future = await create({ branch: { parent_timestamp: at(-HOUR) } });
  expect(future.status).toBe(400);
});
