/**
 * Snapshots and backup schedules (`emulator/routes/snapshots.ts`), every answer validated against the
 * OpenAPI document by the client: a snapshot's shape, rename, delete and expiry; the restore window of
 * `timestamp` and the other refusals; a restore into a new branch and its finalize (the restored branch
 * takes the original's name, computes, protection and place as default; the original is renamed); the
 * locks; the schedule; the state file; and, with real Postgres, rows dropped after a snapshot are back
 * on the restored branch through the same connection URI.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { psql } from "../../scripts/lib/psql";
import { Client, EP1, ownerUri, settle } from "./client";

const SNAP = "/projects/{project_id}/branches/{branch_id}/snapshot";
const SNAPS = "/projects/{project_id}/snapshots";
const SNAP1 = "/projects/{project_id}/snapshots/{snapshot_id}";
const RESTORE = "/projects/{project_id}/snapshots/{snapshot_id}/restore";
const FINALIZE = "/projects/{project_id}/branches/{branch_id}/finalize_restore";
const SCHEDULE = "/projects/{project_id}/branches/{branch_id}/backup_schedule";
const BR = "/projects/{project_id}/branches";
const BR1 = "/projects/{project_id}/branches/{branch_id}";
const ROLES = "/projects/{project_id}/branches/{branch_id}/roles";
const URI = "/projects/{project_id}/connection_uri";

jest.setTimeout(180_000);

type Branch = { id: string; name: string; default: boolean; protected: boolean; [k: string]: unknown };

describe("in memory", () => {
  let emu: EmulatorHandle;
  let c: Client;
  let project: string;
  let p: { project_id: string };

  beforeAll(async () => {
    // A frozen clock: operations run only when the test moves it, so the locks are seen on any machine.
    emu = await startEmulator({ opMs: 20, seed: 55, frozenClock: true });
    c = new Client(emu);
    project = emu.seed.projectId;
    p = { project_id: project };
  });
  afterAll(() => emu.stop());

  const at = (deltaMs: number) => new Date(emu.clock.now() + deltaMs).toISOString();

  async function branch(id: string): Promise<Branch> {
    const r = await c.get(BR1, { params: { ...p, branch_id: id } });
    expect(r.status).toBe(200);
    return r.body.branch;
  }

  async function newBranch(name: string, withCompute: boolean): Promise<Branch> {
    const r = await c.post(BR, {
      params: p,
      body: { branch: { name }, ...(withCompute ? { endpoints: [{ type: "read_write" }] } : {}) },
    });
    expect(r.status).toBe(201);
    await settle(c, project);
    return r.body.branch;
  }

  async function snapshot(branchId: string, query: Record<string, string> = {}) {
    return c.post(SNAP, { params: { ...p, branch_id: branchId }, query });
  }

  test("a snapshot: its shape, the list, a rename, a delete (202), and 404 once gone", async () => {
    const b = await newBranch("snap-shape", false);
    const expires = at(7 * 86_400_000);
    const r = await snapshot(b.id, { name: "before-migration", expires_at: expires });
    expect(r.status).toBe(200);
    expect(r.body.operations).toEqual([]);
    const s = r.body.snapshot;
    expect(s).toEqual({
      id: expect.stringMatching(/^snap-[a-z0-9-]+$/),
      name: "before-migration",
      timestamp: new Date(emu.clock.now()).toISOString(),
      source_branch_id: b.id,
      created_at: new Date(emu.clock.now()).toISOString(),
      expires_at: expires,
      manual: true,
      full_size: expect.any(Number),
    });
    const unnamed = (await snapshot(b.id)).body.snapshot;
    expect(unnamed.name).toContain("snap-shape");

    const listed = await c.get(SNAPS, { params: p });
    expect(listed.body.snapshots.map((x: { id: string }) => x.id)).toEqual(
      expect.arrayContaining([s.id, unnamed.id]),
    );
    const renamed = await c.patch(SNAP1, {
      params: { ...p, snapshot_id: s.id },
      body: { snapshot: { name: "renamed" } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.snapshot).toEqual({ ...s, name: "renamed" });
    expect(
      (await c.patch(SNAP1, { params: { ...p, snapshot_id: s.id }, body: { snapshot: { size: 1 } } })).status,
    ).toBe(400);

    for (const id of [s.id, unnamed.id]) {
      const del = await c.del(SNAP1, { params: { ...p, snapshot_id: id } });
      expect(del.status).toBe(202);
      expect(del.body).toEqual({ operations: [] });
    }
    expect((await c.del(SNAP1, { params: { ...p, snapshot_id: s.id } })).status).toBe(404);
    const gone = await c.patch(SNAP1, {
      params: { ...p, snapshot_id: s.id },
      body: { snapshot: { name: "x" } },
    });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toContain(s.id);
    expect((await c.post(RESTORE, { params: { ...p, snapshot_id: s.id } })).status).toBe(404);
    expect((await c.get(SNAPS, { params: p })).body.snapshots.map((x: { id: string }) => x.id)).not.toContain(
      s.id,
    );
    expect((await snapshot("br-nowhere-00000000")).status).toBe(404);
    expect((await c.get(SNAPS, { params: { project_id: "no-such-project" } })).status).toBe(404);
  });

  test("the window: a timestamp inside the project's history of the branch is taken; outside it, 400", async () => {
    const b = await newBranch("snap-window", false);
    emu.clock.advance(3_600_000);
    const inside = at(-1_800_000);
    const r = await snapshot(b.id, { timestamp: inside });
    expect(r.status).toBe(200);
    expect(r.body.snapshot.timestamp).toBe(inside);

    // Before the branch existed, before the project's history (a day), in the future.
    const before = await snapshot(b.id, { timestamp: at(-2 * 3_600_000) });
    expect(before.status).toBe(400);
    expect(before.body.message).toContain("restore window");
    const main = emu.seed.defaultBranchId;
    expect((await snapshot(main, { timestamp: at(-2 * 86_400_000) })).status).toBe(400);
    expect((await snapshot(main, { timestamp: at(-3_600_000) })).status).toBe(200);
    expect((await snapshot(b.id, { timestamp: at(60_000) })).status).toBe(400);

    // LSN or timestamp, not both; each well formed; an expiry in the future; no body.
    expect((await snapshot(b.id, { timestamp: inside, lsn: "0/1DE2850" })).status).toBe(400);
    expect((await snapshot(b.id, { lsn: "yesterday" })).status).toBe(400);
    expect((await snapshot(b.id, { timestamp: "yesterday" })).status).toBe(400);
    const lsn = await snapshot(b.id, { lsn: "16/b3733c50" });
    expect(lsn.status).toBe(200);
    expect(lsn.body.snapshot.lsn).toBe("16/B3733C50");
    expect((await snapshot(b.id, { expires_at: at(-1000) })).status).toBe(400);
    const withBody = await c.post(SNAP, { params: { ...p, branch_id: b.id }, body: { name: "in-body" } });
    expect(withBody.status).toBe(400);
    expect(withBody.body.message).toContain("query parameters");
  });

  test("a snapshot expires: gone from the list, and its restore is 404", async () => {
    const b = await newBranch("snap-expiring", false);
    const s = (await snapshot(b.id, { expires_at: at(3_600_000) })).body.snapshot;
    emu.clock.advance(3_600_001);
    expect((await c.get(SNAPS, { params: p })).body.snapshots.map((x: { id: string }) => x.id)).not.toContain(
      s.id,
    );
    expect((await c.post(RESTORE, { params: { ...p, snapshot_id: s.id } })).status).toBe(404);
  });

  test("the free plan holds one manual snapshot (422 for a second)", async () => {
    const fp = { project_id: emu.seed.freeProjectId };
    const first = await c.post(SNAP, { params: { ...fp, branch_id: emu.seed.freeProjectBranchId } });
    expect(first.status).toBe(200);
    const second = await c.post(SNAP, { params: { ...fp, branch_id: emu.seed.freeProjectBranchId } });
    expect(second.status).toBe(422);
    await c.del(SNAP1, { params: { ...fp, snapshot_id: first.body.snapshot.id } });
    expect((await c.post(SNAP, { params: { ...fp, branch_id: emu.seed.freeProjectBranchId } })).status).toBe(
      200,
    );
  });

  test("locks: 422 on a branch being created, 423 while the project's operations run", async () => {
    const made = await c.post(BR, { params: p, body: { branch: { name: "snap-young" } } });
    const young = made.body.branch.id;
    expect((await snapshot(young)).status).toBe(422);
    await settle(c, project);
    const s = (await snapshot(young)).body.snapshot;
    // A compute's creation runs: a snapshot, a restore and a finalize wait for it.
    const ep = await c.post("/projects/{project_id}/endpoints", {
      params: p,
      body: { endpoint: { branch_id: young, type: "read_write" } },
    });
    expect(ep.status).toBe(201);
    expect((await snapshot(young)).status).toBe(423);
    expect((await c.post(RESTORE, { params: { ...p, snapshot_id: s.id } })).status).toBe(423);
    await settle(c, project);
    const restored = await c.post(RESTORE, { params: { ...p, snapshot_id: s.id } });
    expect(restored.status).toBe(200);
    const finalize = await c.post(FINALIZE, { params: { ...p, branch_id: restored.body.branch.id } });
    expect(finalize.status).toBe(422); // the restored branch is being created
    emu.clock.advance(20); // create_branch ends; nothing else runs
    await c.post("/projects/{project_id}/endpoints/{endpoint_id}/suspend", {
      params: { ...p, endpoint_id: ep.body.endpoint.id },
    });
    expect((await c.post(FINALIZE, { params: { ...p, branch_id: restored.body.branch.id } })).status).toBe(
      423,
    );
    await settle(c, project);
  });

  test("a restore makes a new branch holding the snapshot's roles and databases; the original is untouched", async () => {
    const b = await newBranch("snap-restore", true);
    const s = (await snapshot(b.id)).body.snapshot;
    // A role made after the snapshot is not in it.
    expect(
      (await c.post(ROLES, { params: { ...p, branch_id: b.id }, body: { role: { name: "late" } } })).status,
    ).toBe(201);
    await settle(c, project);

    const r = await c.post(RESTORE, {
      params: { ...p, snapshot_id: s.id },
      body: { name: "snap-restore-preview" },
    });
    expect(r.status).toBe(200);
    const restored = r.body.branch;
    expect(restored).toMatchObject({
      name: "snap-restore-preview",
      current_state: "init",
      restore_status: "restored",
      restored_from: s.id,
      restored_as: b.id,
      default: false,
    });
    expect(restored.parent_id).toBeUndefined();
    expect(r.body.endpoints).toEqual([]);
    expect(r.body.operations.map((o: { action: string }) => o.action)).toEqual(["create_branch"]);
    await settle(c, project);
    expect((await branch(restored.id)).current_state).toBe("ready");
    const roles = (await c.get(ROLES, { params: { ...p, branch_id: restored.id } })).body.roles.map(
      (x: { name: string }) => x.name,
    );
    expect(roles).toContain("neondb_owner");
    expect(roles).not.toContain("late");
    expect(
      (
        await c.get("/projects/{project_id}/branches/{branch_id}/databases", {
          params: { ...p, branch_id: restored.id },
        })
      ).body.databases.map((d: { name: string }) => d.name),
    ).toEqual(["neondb"]);
    expect((await branch(b.id)).name).toBe("snap-restore");

    // The refusals: a name taken (409), an unknown target (404), a bad body (400), a finalize of a
    // branch no snapshot was restored into (400).
    expect(
      (await c.post(RESTORE, { params: { ...p, snapshot_id: s.id }, body: { name: "snap-restore" } })).status,
    ).toBe(409);
    expect(
      (
        await c.post(RESTORE, {
          params: { ...p, snapshot_id: s.id },
          body: { target_branch_id: "br-nowhere-0" },
        })
      ).status,
    ).toBe(404);
    expect(
      (await c.post(RESTORE, { params: { ...p, snapshot_id: s.id }, body: { finalize_restore: "yes" } }))
        .status,
    ).toBe(400);
    expect((await c.post(FINALIZE, { params: { ...p, branch_id: b.id } })).status).toBe(400);
    expect((await c.post(FINALIZE, { params: { ...p, branch_id: "br-nowhere-0" } })).status).toBe(404);
  });

  test("finalize: the restored branch takes the original's name, computes and protection; the original becomes '<name> (old)'", async () => {
    const b = await newBranch("snap-final", true);
    await c.patch(BR1, { params: { ...p, branch_id: b.id }, body: { branch: { protected: true } } });
    const computeId = (
      await c.get("/projects/{project_id}/branches/{branch_id}/endpoints", {
        params: { ...p, branch_id: b.id },
      })
    ).body.endpoints[0].id as string;
    const s = (await snapshot(b.id)).body.snapshot;
    const restored = (await c.post(RESTORE, { params: { ...p, snapshot_id: s.id } })).body.branch;
    expect(restored.name).toBe(restored.id); // no name given
    await settle(c, project);

    const f = await c.post(FINALIZE, { params: { ...p, branch_id: restored.id } });
    expect(f.status).toBe(200);
    expect(
      f.body.operations.map((o: { action: string; endpoint_id: string }) => [o.action, o.endpoint_id]),
    ).toEqual([["apply_config", computeId]]);
    await settle(c, project);
    expect(await branch(restored.id)).toMatchObject({
      name: "snap-final",
      protected: true,
      restore_status: "finalized",
      restored_as: b.id,
    });
    expect(await branch(b.id)).toMatchObject({ name: "snap-final (old)", protected: false });
    const ep = (await c.get(EP1, { params: { ...p, endpoint_id: computeId } })).body.endpoint;
    expect(ep.branch_id).toBe(restored.id);
    expect(ep.current_state).toBe("active");
    // Once finalized, never again; the original is an ordinary branch that can be deleted.
    expect((await c.post(FINALIZE, { params: { ...p, branch_id: restored.id } })).status).toBe(400);
    expect((await c.del(BR1, { params: { ...p, branch_id: b.id } })).status).toBe(200);
    await settle(c, project);
    // The snapshot outlives its branch; restoring it now needs a target to finalize into.
    expect(
      (await c.post(RESTORE, { params: { ...p, snapshot_id: s.id }, body: { finalize_restore: true } }))
        .status,
    ).toBe(404);
  });

  test("finalize_restore: true in the restore: the default branch is replaced, its compute moves, its old self is deletable", async () => {
    const main = await branch(emu.seed.defaultBranchId);
    const primary = emu.seed.primaryEndpointId;
    const s = (await snapshot(main.id, { name: "main-before" })).body.snapshot;
    const r = await c.post(RESTORE, {
      params: { ...p, snapshot_id: s.id },
      body: { finalize_restore: true },
    });
    expect(r.status).toBe(200);
    const restored = r.body.branch;
    expect(restored).toMatchObject({ name: main.name, default: true, restore_status: "finalized" });
    expect(r.body.endpoints.map((e: { id: string; branch_id: string }) => [e.id, e.branch_id])).toEqual([
      [primary, restored.id],
    ]);
    expect(r.body.operations.map((o: { action: string }) => o.action)).toEqual([
      "create_branch",
      "apply_config",
      "suspend_compute", // the compute was idle: woken for the move, suspended again
    ]);
    await settle(c, project);
    const old = await branch(main.id);
    expect(old).toMatchObject({ name: `${main.name} (old)`, default: false });
    // The connection URI of the project's default branch now names the restored branch's compute.
    const uri = await c.get(URI, {
      params: p,
      query: { role_name: "neondb_owner", database_name: "neondb" },
    });
    const host = (await c.get(EP1, { params: { ...p, endpoint_id: primary } })).body.endpoint.host;
    expect(new URL(uri.body.uri).hostname).toBe(host);
    // The original's children now hang under the restored branch.
    expect((await branch(emu.seed.branchIds[2])).parent_id).toBe(restored.id);

    // Again from the same snapshot, into the new default branch: the name "(old)" is taken.
    const again = await c.post(RESTORE, {
      params: { ...p, snapshot_id: s.id },
      body: { finalize_restore: true, target_branch_id: restored.id },
    });
    expect(again.status).toBe(200);
    await settle(c, project);
    expect((await branch(restored.id)).name).toBe(`${main.name} (old 2)`);
    expect((await branch(again.body.branch.id)).name).toBe(main.name);

    // A name given to the original: taken is 409, free is used.
    const third = (
      await c.post(RESTORE, {
        params: { ...p, snapshot_id: s.id },
        body: { target_branch_id: again.body.branch.id },
      })
    ).body.branch;
    await settle(c, project);
    const taken = await c.post(FINALIZE, {
      params: { ...p, branch_id: third.id },
      body: { name: `${main.name} (old)` },
    });
    expect(taken.status).toBe(409);
    const named = await c.post(FINALIZE, {
      params: { ...p, branch_id: third.id },
      body: { name: "main-pre-restore" },
    });
    expect(named.status).toBe(200);
    await settle(c, project);
    expect((await branch(again.body.branch.id)).name).toBe("main-pre-restore");
    expect((await c.del(BR1, { params: { ...p, branch_id: main.id } })).status).toBe(200);
    await settle(c, project);
  });

  test("backup schedule: empty until set, answered as set, cleared by an empty list; bad items 400", async () => {
    const b = await newBranch("snap-schedule", false);
    const bp = { ...p, branch_id: b.id };
    expect((await c.get(SCHEDULE, { params: bp })).body).toEqual({ schedule: [] });
    const schedule = [
      { frequency: "daily", hour: 23, retention_seconds: 604_800 },
      { frequency: "monthly", day: 1, hour: 2 },
    ];
    const put = await c.req("PUT", SCHEDULE, { params: bp, body: { schedule } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({});
    expect((await c.get(SCHEDULE, { params: bp })).body).toEqual({ schedule });
    for (const bad of [
      {},
      { schedule: [{ frequency: "minutely" }] },
      { schedule: [{ frequency: "daily", hour: 24 }] },
      { schedule: [{ frequency: "daily", retention_seconds: 60 }] },
      { schedule: [{ hour: 1 }] },
    ]) {
      expect((await c.req("PUT", SCHEDULE, { params: bp, body: bad })).status).toBe(400);
    }
    expect((await c.get(SCHEDULE, { params: bp })).body).toEqual({ schedule });
    expect((await c.req("PUT", SCHEDULE, { params: bp, body: { schedule: [] } })).status).toBe(200);
    expect((await c.get(SCHEDULE, { params: bp })).body).toEqual({ schedule: [] });
    expect((await c.get(SCHEDULE, { params: { ...p, branch_id: "br-nowhere-0" } })).status).toBe(404);
  });
});

test("the state file keeps snapshots and schedules across a restart", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emu-snapshots-"));
  try {
    const path = join(dir, "state.json");
    const a = await startEmulator({ statePath: path, apiKey: "boot", opMs: 20, seed: 56 });
    const ca = new Client(a);
    const bp = { project_id: a.seed.projectId, branch_id: a.seed.branchIds[1] };
    const s = (await ca.post(SNAP, { params: bp, query: { name: "kept" } })).body.snapshot;
    await ca.req("PUT", SCHEDULE, { params: bp, body: { schedule: [{ frequency: "weekly", day: 1 }] } });
    await a.stop();
    const b = await startEmulator({ statePath: path, apiKey: "boot" });
    const cb = new Client(b);
    expect((await cb.get(SNAPS, { params: { project_id: b.seed.projectId } })).body.snapshots).toEqual([s]);
    expect((await cb.get(SCHEDULE, { params: bp })).body).toEqual({
      schedule: [{ frequency: "weekly", day: 1 }],
    });
    await b.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("with real Postgres", () => {
  let emu: EmulatorHandle;
  let c: Client;
  let p: { project_id: string };

  beforeAll(async () => {
    emu = await startEmulator({ opMs: 100, seed: 57, postgres: true });
    c = new Client(emu);
    p = { project_id: emu.seed.projectId };
  });
  afterAll(() => emu?.stop());

  const uriOf = (branchId: string) => ownerUri(c, p.project_id, branchId);

  test("rows dropped after a snapshot are back on the restored branch, through the same connection URI", async () => {
    const created = await c.post(BR, {
      params: p,
      body: { branch: { name: "app" }, endpoints: [{ type: "read_write" }] },
    });
    expect(created.status).toBe(201);
    const app = created.body.branch.id as string;
    await settle(c, p.project_id);
    const uri = await uriOf(app);
    const made = await psql(
      uri,
      "CREATE TABLE items (id int primary key, name text); INSERT INTO items VALUES (1, 'one'), (2, 'two')",
    );
    expect(made.error).toBe("");
    const before = new Date(emu.clock.now()).toISOString();
    expect((await psql(uri, "INSERT INTO items VALUES (3, 'three')")).error).toBe("");

    // A snapshot "at" a time before the third row holds the data as it is now: no history is kept.
    const snap = await c.post(SNAP, { params: { ...p, branch_id: app }, query: { timestamp: before } });
    expect(snap.status).toBe(200);
    // The migration that goes wrong.
    expect((await psql(uri, "DROP TABLE items")).error).toBe("");

    const restored = await c.post(RESTORE, {
      params: { ...p, snapshot_id: snap.body.snapshot.id },
      body: { finalize_restore: true },
    });
    expect(restored.status).toBe(200);
    await settle(c, p.project_id);
    expect(await uriOf(restored.body.branch.id)).toBe(uri);
    expect((await psql(uri, "SELECT id FROM items ORDER BY id")).out).toBe("1\n2\n3");
    // The original keeps what it had (no table), under its new name.
    const old = (await c.get(BR1, { params: { ...p, branch_id: app } })).body.branch;
    expect(old.name).toBe("app (old)");
    const ep = await c.post("/projects/{project_id}/endpoints", {
      params: p,
      body: { endpoint: { branch_id: app, type: "read_write" } },
    });
    expect(ep.status).toBe(201);
    await settle(c, p.project_id);
    const oldUri = await uriOf(app);
    const missing = await psql(oldUri, "SELECT count(*) FROM items");
    expect(missing.ok).toBe(false);
    expect(missing.error).toContain('relation "items" does not exist');

    // A deleted snapshot's data goes with it.
    const del = await c.del(SNAP1, { params: { ...p, snapshot_id: snap.body.snapshot.id } });
    expect(del.status).toBe(202);
    expect(emu.postgres?.fleet.snapshotDirs()).toEqual([]);
  });
});
