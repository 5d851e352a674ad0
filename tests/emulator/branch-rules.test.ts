/**
 * The emulator's branch rules, as §9 of the API facts states them: a rename (409 on a taken name),
 * protection, expiry (future, ≤ 30 days, not on protected/default/parent branches, `null` clears),
 * deletion at expiry, restore to the parent's head keeping the id (operations, refused for a protected branch), and a
 * protected branch refused at delete.
 */
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { ApiError, createNeonClient, type NeonClient } from "../../provider/api";

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 20, seed: 29 });
  projectId = emulator.seed.projectId;
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url, retryDeadlineMs: 5_000 });
});

afterAll(async () => {
  await emulator.stop();
});

const days = (n: number) => new Date(emulator.clock.now() + n * 24 * 3600 * 1000).toISOString();

async function newBranch(name: string) {
  const r = await api.branches.create(projectId, { branch: { name } });
  await api.waitForOperations(projectId, r.operations);
  return r.branch;
}

async function status(p: Promise<unknown>): Promise<number | undefined> {
  return p.then(
    () => undefined,
    (e: unknown) => (e instanceof ApiError ? e.status : -1),
  );
}

test("expiry: once the emulator clock passes expires_at, the branch is gone with its compute (404, not listed)", async () => {
  const r = await api.branches.create(projectId, {
    branch: { name: "rules-expiring", expires_at: days(1) },
    endpoints: [{ type: "read_write" }],
  });
  await api.waitForOperations(projectId, r.operations);
  const kept = await newBranch("rules-kept");
  emulator.clock.advance(23 * 3600 * 1000);
  expect((await api.branches.get(projectId, r.branch.id)).id).toBe(r.branch.id);
  emulator.clock.advance(2 * 3600 * 1000);
  expect(await status(api.branches.get(projectId, r.branch.id))).toBe(404);
  const names = (await api.branches.list(projectId)).map((b) => b.name);
  expect(names).not.toContain("rules-expiring");
  expect(names).toContain(kept.name);
  expect((await api.endpoints.list(projectId)).filter((e) => e.branch_id === r.branch.id)).toEqual([]);
});

test("rename: 409 on a name another branch holds; the id stays", async () => {
  const a = await newBranch("rules-a");
  await newBranch("rules-b");
  expect(await status(api.branches.update(projectId, a.id, { name: "rules-b" }))).toBe(409);
  const r = await api.branches.update(projectId, a.id, { name: "rules-a2" });
  expect([r.branch.id, r.branch.name]).toEqual([a.id, "rules-a2"]);
});

test("expiry: in the future, at most 30 days ahead, not on a protected or default branch; null clears it", async () => {
  const b = await newBranch("rules-exp");
  expect(await status(api.branches.update(projectId, b.id, { expires_at: days(31) }))).toBe(400);
  expect(await status(api.branches.update(projectId, b.id, { expires_at: days(-1) }))).toBe(400);
  const set = await api.branches.update(projectId, b.id, { expires_at: days(3) });
  expect(set.branch.expires_at).toBeDefined();
  expect(await status(api.branches.update(projectId, b.id, { protected: true }))).toBe(400);
  const cleared = await api.branches.update(projectId, b.id, { expires_at: null });
  expect(cleared.branch.expires_at).toBeUndefined();
  const main = emulator.seed.defaultBranchId;
  expect(await status(api.branches.update(projectId, main, { expires_at: days(3) }))).toBe(400);
  expect(
    await status(
      api.branches.create(projectId, { branch: { name: "x", protected: true, expires_at: days(3) } }),
    ),
  ).toBe(400);
});

test("restore of a branch with children needs preserve_under_name: its old state becomes that branch, holding the children", async () => {
  const b = await newBranch("rules-parent");
  const child = await api.branches.create(projectId, { branch: { name: "rules-child", parent_id: b.id } });
  await api.waitForOperations(projectId, child.operations);
  expect(await status(api.branches.restore(projectId, b.id, emulator.seed.defaultBranchId))).toBe(400);
  // A name another branch holds is refused.
  expect(
    await status(api.branches.restore(projectId, b.id, emulator.seed.defaultBranchId, "rules-child")),
  ).toBe(409);
  const r = await api.branches.restore(projectId, b.id, emulator.seed.defaultBranchId, "rules-parent-old");
  await api.waitForOperations(projectId, r.operations);
  const kept = (await api.branches.list(projectId)).find((x) => x.name === "rules-parent-old");
  expect(kept).toMatchObject({ parent_id: b.parent_id, default: false, current_state: "ready" });
  expect((await api.branches.get(projectId, child.branch.id)).parent_id).toBe(kept?.id);
  expect(r.branch.id).toBe(b.id);
  // No child left: restored again without a name.
  const again = await api.branches.restore(projectId, b.id, emulator.seed.defaultBranchId);
  await api.waitForOperations(projectId, again.operations);
});

test("restore to the parent's head keeps the id and runs operations; protected branches refuse it and delete", async () => {
  const b = await newBranch("rules-restore");
  const r = await api.branches.restore(projectId, b.id, emulator.seed.defaultBranchId);
  expect(r.branch.id).toBe(b.id);
  expect(r.operations.map((o) => o.action)).toContain("create_branch");
  await api.waitForOperations(projectId, r.operations);
  expect((await api.branches.get(projectId, b.id)).current_state).toBe("ready");
  await api.branches.update(projectId, b.id, { protected: true });
  expect(await status(api.branches.restore(projectId, b.id, emulator.seed.defaultBranchId))).toBe(400);
  expect(await status(api.branches.delete(projectId, b.id))).toBe(400);
  await api.branches.update(projectId, b.id, { protected: false });
  const gone = await api.branches.delete(projectId, b.id);
  await api.waitForOperations(projectId, gone?.operations ?? []);
  expect(await api.branches.delete(projectId, b.id)).toBeUndefined();
});

test("a project on the Free plan holds at most 10 branches: the 11th create answers 422", async () => {
  const free = emulator.seed.freeProjectId;
  const have = (await api.branches.list(free)).length;
  for (let i = have; i < 10; i++) {
    const r = await api.branches.create(free, { branch: { name: `limit-${i}` } });
    await api.waitForOperations(free, r.operations);
  }
  expect(await api.branches.list(free)).toHaveLength(10);
  const err = await api.branches.create(free, { branch: { name: "one-too-many" } }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect([(err as ApiError).status, (err as ApiError).apiMessage]).toEqual([
    422,
    expect.stringMatching(/already has 10 branches, the most its plan allows/),
  ]);
  expect(await api.branches.list(free)).toHaveLength(10);
});
