/**
 * The emulator's branch listing as the spec has it (`listProjectBranches`): `limit` pages with an
 * opaque `pagination.next` that walks every branch once, `search` by part of a name or id, `sort_by`
 * and `sort_order`, a bad cursor refused, and every branch at once without `limit`. Each answer is
 * also validated against the OpenAPI document (`Client`).
 */
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { Client } from "./client";

const BRANCHES = "/projects/{project_id}/branches";
let emu: EmulatorHandle;
let c: Client;

beforeAll(async () => {
  emu = await startEmulator({ opMs: 10, seed: 29, branchPageCap: 7 });
  c = new Client(emu);
});

afterAll(async () => {
  await emu.stop();
});

const list = (query: Record<string, string | number>) =>
  c.get(BRANCHES, { params: { project_id: emu.seed.projectId }, query });

test("limit pages with pagination.next, capped per page, each branch once; next only while branches remain", async () => {
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await list({ limit: 10, ...(cursor ? { cursor } : {}) });
    expect(r.status).toBe(200);
    expect(r.body.branches.length).toBeLessThanOrEqual(7);
    seen.push(...r.body.branches.map((b: { id: string }) => b.id));
    expect(r.body.pagination).toMatchObject({ sort_by: "updated_at", sort_order: "desc" });
    cursor = r.body.pagination.next;
    pages++;
  } while (cursor);
  expect(pages).toBe(4); // 25 branches, 7 a page
  expect(new Set(seen).size).toBe(25);
  expect(seen.sort()).toEqual([...emu.seed.branchIds].sort());
});

test("without limit, every branch and no pagination", async () => {
  const r = await list({});
  expect(r.body.branches).toHaveLength(25);
  expect(r.body.pagination).toBeUndefined();
});

test("search by part of a name or an id; sort by name ascending", async () => {
  const byName = await list({ search: "dev-1", sort_by: "name", sort_order: "asc", limit: 100 });
  expect(byName.body.branches.map((b: { name: string }) => b.name)).toEqual([
    "dev-10",
    "dev-11",
    "dev-12",
    "dev-13",
    "dev-14",
    "dev-15",
    "dev-16",
  ]);
  const rest = await list({
    search: "dev-1",
    sort_by: "name",
    sort_order: "asc",
    limit: 100,
    cursor: byName.body.pagination.next,
  });
  expect(rest.body.branches.map((b: { name: string }) => b.name)).toEqual(["dev-17", "dev-18", "dev-19"]);
  expect(rest.body.pagination.next).toBeUndefined();
  const byId = await list({ search: emu.seed.defaultBranchId });
  expect(byId.body.branches.map((b: { id: string }) => b.id)).toEqual([emu.seed.defaultBranchId]);
});

test("a cursor not from the previous page, or read in another order, is refused", async () => {
  expect((await list({ limit: 5, cursor: "not-a-cursor" })).status).toBe(400);
  const first = await list({ limit: 5 });
  const other = await list({ limit: 5, sort_by: "name", cursor: first.body.pagination.next });
  expect(other.status).toBe(400);
  expect((await list({ limit: 0 })).status).toBe(400);
  expect((await list({ sort_by: "size" })).status).toBe(400);
});
