/**
 * Pagers against the emulator: operations and projects across pages.
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import { collectAll, type Operation } from "../../../provider/api";
import { clientFor } from "./helpers";

let emu: EmulatorHandle;
const made: string[] = [];
/** Every operation of the project, newest first, read in one page (the seed holds some too). */
let everything: string[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 21, opMs: 10 });
  const { api } = clientFor(emu);
  const p = emu.seed.projectId;
  const r = await api.endpoints.create(p, { branch_id: emu.seed.branchIds[1], type: "read_write" });
  made.push(...r.operations.map((o) => o.id));
  await api.waitForOperations(
    p,
    r.operations.map((o) => o.id),
  );
  // Eleven more operations: suspend / start cycles.
  for (let i = 0; i < 11; i++) {
    const next =
      i % 2 === 0
        ? await api.endpoints.suspend(p, r.endpoint.id)
        : await api.endpoints.start(p, r.endpoint.id);
    made.push(...next.operations.map((o) => o.id));
    await api.waitForOperations(
      p,
      next.operations.map((o) => o.id),
    );
  }
  everything = (await api.operations.listPage(p, { limit: 1000 })).operations.map((o) => o.id);
});

/** Requests a pager makes for `n` items in pages of `size`: a full last page is followed by an empty one. */
const pagesFor = (n: number, size: number) => Math.floor(n / size) + 1;
afterAll(async () => {
  await emu?.stop();
});

test("operations: every operation once, newest first, across pages of 5", async () => {
  const { api } = clientFor(emu);
  const before = emu.requestCount();
  const seen: Operation[] = [];
  for await (const op of api.operations.list(emu.seed.projectId, { limit: 5 })) seen.push(op);
  const ids = seen.map((o) => o.id);
  expect(everything.length).toBeGreaterThan(made.length);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual(everything);
  expect(ids.slice(0, made.length)).toEqual([...made].reverse());
  const created = seen.map((o) => Date.parse(o.created_at));
  for (let i = 1; i < created.length; i++) expect(created[i]).toBeLessThanOrEqual(created[i - 1]);
  expect(emu.requestCount() - before).toBe(pagesFor(everything.length, 5));
});

test("operations: with a page size that divides the total, one empty page ends the list", async () => {
  const { api } = clientFor(emu);
  const size = everything.length % 4 === 0 ? 4 : everything.length % 3 === 0 ? 3 : everything.length;
  const before = emu.requestCount();
  const all = await collectAll(api.operations.list(emu.seed.projectId, { limit: size }), { limit: 1000 });
  expect(all.map((o) => o.id)).toEqual(everything);
  expect(emu.requestCount() - before).toBe(everything.length / size + 1);
});

test("listPage returns the cursor to pass back, and none on the last page", async () => {
  const { api } = clientFor(emu);
  const first = await api.operations.listPage(emu.seed.projectId, { limit: 7 });
  expect(first.operations).toHaveLength(7);
  expect(first.cursor).toEqual(expect.any(String));
  const rest = await api.operations.listPage(emu.seed.projectId, { limit: 1000, cursor: first.cursor });
  expect(rest.cursor).toBeUndefined();
  expect([...first.operations, ...rest.operations].map((o) => o.id)).toEqual(everything);
});

test("collectAll stops fetching at its limit", async () => {
  const { api } = clientFor(emu);
  const before = emu.requestCount();
  const some = await collectAll(api.operations.list(emu.seed.projectId, { limit: 2 }), { limit: 3 });
  expect(some).toHaveLength(3);
  expect(emu.requestCount() - before).toBe(2);
});

test("collectAll requires a limit", async () => {
  const { api } = clientFor(emu);
  await expect(collectAll(api.operations.list(emu.seed.projectId), undefined as never)).rejects.toThrow(
    /limit/,
  );
});

test("projects: pages of one", async () => {
  const { api } = clientFor(emu);
  const ids: string[] = [];
  for await (const p of api.projects.list({ limit: 1 })) ids.push(p.id);
  expect(new Set(ids)).toEqual(new Set([emu.seed.projectId, emu.seed.freeProjectId]));
});
