/**
 * `emulator/collection.ts`: a resource whose emulator part is one file (tests/emulator/fixtures/widgets.ts)
 * served by passing it to the emulator, as `emulator/resources.ts` lists the built-in ones; create,
 * read, update and delete over real HTTP, and what the helper promises: 404s that name the unknown id,
 * records removed with their branch or project, the seed again on reset, the state file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { collection, resource, startEmulator, type EmulatorHandle } from "../../emulator";
import { Store } from "../../emulator/store";
import { Client, settle } from "./client";
import { widgetResource, widgets } from "./fixtures/widgets";

const WIDGETS = "/projects/{project_id}/branches/{branch_id}/widgets";
const WIDGET = `${WIDGETS}/{widget_id}`;

let dir: string;
let statePath: string;
let emu: EmulatorHandle;
let c: Client;

/** The state file as written after the last change. */
const stateFile = () => JSON.parse(readFileSync(statePath, "utf8"));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "emu-collection-"));
  statePath = join(dir, "state.json");
  // A frozen clock: operations run only when the test moves it (the 423 below is seen on any machine).
  emu = await startEmulator({
    seed: 52,
    opMs: 20,
    frozenClock: true,
    statePath,
    resources: [widgetResource],
  });
  c = new Client(emu);
});
afterAll(async () => {
  await emu.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a resource made with the collection helper", () => {
  it("is served: create, read, update, delete over HTTP, with 404s naming what is unknown", async () => {
    const s = emu.seed;
    const at = { project_id: s.projectId, branch_id: s.branchIds[1] };
    expect((await c.get(WIDGETS, { params: at })).body).toEqual({ widgets: [] });

    const created = await c.post(WIDGETS, { params: at, body: { widget: { name: "w1", size: 3 } } });
    expect(created.status).toBe(201);
    // dev-01 has no compute: no operations.
    expect(created.body).toEqual({
      widget: {
        id: expect.any(String),
        branch_id: at.branch_id,
        name: "w1",
        size: 3,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      operations: [],
    });
    const w = { ...at, widget_id: created.body.widget.id };
    expect((await c.get(WIDGET, { params: w })).body).toEqual({ widget: created.body.widget });
    expect((await c.get(WIDGETS, { params: at })).body).toEqual({ widgets: [created.body.widget] });

    const dup = await c.post(WIDGETS, { params: at, body: { widget: { name: "w1" } } });
    expect(dup.status).toBe(409);
    const bad = await c.post(WIDGETS, { params: at, body: { widget: { name: "w2", colour: "red" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Failed to create widget: invalid request: widget: unknown field "colour"');

    emu.clock.advance(1000);
    const updated = await c.patch(WIDGET, { params: w, body: { widget: { size: 5 } } });
    expect(updated.status).toBe(200);
    expect(updated.body.widget).toEqual({
      ...created.body.widget,
      size: 5,
      updated_at: new Date(emu.clock.now()).toISOString(),
    });
    expect((await c.get(WIDGET, { params: w })).body.widget.size).toBe(5);

    const deleted = await c.del(WIDGET, { params: w });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ widget: updated.body.widget });

    for (const gone of [
      await c.get(WIDGET, { params: w }),
      await c.patch(WIDGET, { params: w, body: { widget: { size: 1 } } }),
      await c.del(WIDGET, { params: w }),
    ]) {
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe("NOT_FOUND");
      expect(gone.body.message).toMatch(
        new RegExp(
          `^Failed to (get|update|delete) widget: widget ${w.widget_id} not found on branch ${at.branch_id}$`,
        ),
      );
    }
    const noBranch = await c.get(WIDGETS, { params: { ...at, branch_id: "br-none" } });
    expect(noBranch.status).toBe(404);
    expect(noBranch.body.message).toBe(
      `Failed to list widgets: branch br-none not found in project ${s.projectId}`,
    );
    const noProject = await c.get(WIDGETS, { params: { ...at, project_id: "no-such-project" } });
    expect(noProject.status).toBe(404);
    expect(noProject.body.message).toBe(
      "Failed to list widgets: project no-such-project not found. It does not exist or this API key cannot access it",
    );
  });

  it("takes part in operations: a change runs them, and waits (423) while the project runs one", async () => {
    const s = emu.seed;
    // `main` has the idle primary compute: a change wakes it for the new configuration, as a role's does.
    const at = { project_id: s.projectId, branch_id: s.defaultBranchId };
    const created = await c.post(WIDGETS, { params: at, body: { widget: { name: "with-ops" } } });
    expect(created.status).toBe(201);
    expect(created.body.operations.map((o: { action: string }) => o.action)).toEqual([
      "apply_config",
      "suspend_compute",
    ]);
    const locked = await c.post(WIDGETS, { params: at, body: { widget: { name: "too-soon" } } });
    expect(locked.status).toBe(423);
    expect(locked.body.code).toBe("LOCKED");
    // Reads are never locked.
    expect((await c.get(WIDGETS, { params: at })).status).toBe(200);
    await settle(c, s.projectId);
    expect((await c.post(WIDGETS, { params: at, body: { widget: { name: "later" } } })).status).toBe(201);
    await settle(c, s.projectId);
  });

  it("seeds its records, and reset() brings back the seeded ones only", async () => {
    const s = emu.seed;
    const at = { project_id: s.projectId, branch_id: s.defaultBranchId };
    emu.reset();
    const seeded = (await c.get(WIDGETS, { params: at })).body.widgets;
    expect(seeded).toEqual([
      expect.objectContaining({ name: "seeded", size: 1, branch_id: s.defaultBranchId }),
    ]);
    await c.post(WIDGETS, { params: { ...at, branch_id: s.branchIds[2] }, body: { widget: { name: "x" } } });
    emu.reset();
    // The same seed gives the same seeded widget (its id from the seeded id stream).
    expect((await c.get(WIDGETS, { params: at })).body.widgets).toEqual(seeded);
    expect((await c.get(WIDGETS, { params: { ...at, branch_id: s.branchIds[2] } })).body.widgets).toEqual([]);
    expect(Object.keys(stateFile().widgets)).toEqual([s.defaultBranchId]);
  });

  it("goes with its branch (delete) and its project (delete), records of other collections too", async () => {
    const s = emu.seed;
    emu.reset();
    const dev = { project_id: s.projectId, branch_id: s.branchIds[3] };
    expect((await c.post(WIDGETS, { params: dev, body: { widget: { name: "b" } } })).status).toBe(201);
    expect(Object.keys(stateFile().widgets)).toContain(dev.branch_id);
    expect((await c.del("/projects/{project_id}/branches/{branch_id}", { params: dev })).status).toBe(200);
    expect(Object.keys(stateFile().widgets)).not.toContain(dev.branch_id);
    await settle(c, s.projectId);

    const made = await c.post("/projects", { body: { project: { name: "doomed", org_id: s.orgId } } });
    expect(made.status).toBe(201);
    const p = { project_id: made.body.project.id as string };
    const main = { ...p, branch_id: made.body.branch.id as string };
    await settle(c, p.project_id);
    expect((await c.post(WIDGETS, { params: main, body: { widget: { name: "p" } } })).status).toBe(201);
    await settle(c, p.project_id);
    // A project collection (ProjectPermission's) beside the branch one.
    const grant = await c.post("/projects/{project_id}/permissions", {
      params: p,
      body: { email: "a@example.com" },
    });
    expect(grant.status).toBe(200);
    expect(Object.keys(stateFile().widgets)).toContain(main.branch_id);
    expect(Object.keys(stateFile().permissions)).toContain(p.project_id);

    expect((await c.del("/projects/{project_id}", { params: p })).status).toBe(200);
    expect(Object.keys(stateFile().widgets)).not.toContain(main.branch_id);
    expect(Object.keys(stateFile().permissions)).not.toContain(p.project_id);
    expect((await c.get(WIDGETS, { params: main })).status).toBe(404);
  });
});

describe("the collection helper's state file", () => {
  it("keeps the records across a restart, and refuses an invalid record naming it", async () => {
    const path = join(dir, "restart.json");
    const a = await startEmulator({ seed: 3, statePath: path, apiKey: "boot", resources: [widgetResource] });
    const at = { project_id: a.seed.projectId, branch_id: a.seed.branchIds[1] };
    const made = await new Client(a).post(WIDGETS, {
      params: at,
      body: { widget: { name: "kept", size: 2 } },
    });
    await a.stop();

    const b = await startEmulator({ statePath: path, apiKey: "boot", resources: [widgetResource] });
    expect((await new Client(b).get(WIDGETS, { params: at })).body.widgets).toEqual([made.body.widget]);
    await b.stop();

    // An emulator without the resource starts on the file (and does not serve widgets).
    const without = await startEmulator({ statePath: path, apiKey: "boot" });
    expect((await new Client(without).get(WIDGETS, { params: at })).status).toBe(404);
    await without.stop();

    const file = JSON.parse(readFileSync(path, "utf8"));
    file.widgets = { [at.branch_id]: [{ ...made.body.widget, size: "big" }] };
    writeFileSync(path, JSON.stringify(file));
    await expect(startEmulator({ statePath: path, resources: [widgetResource] })).rejects.toThrow(
      `Failed to load emulator state from ${path}: widgets.${at.branch_id}.0.size: Invalid input: expected number, received string`,
    );
  });

  it("refuses a collection whose name is taken, and a store that does not keep it", async () => {
    const clash = (name: string) =>
      resource({
        name: "clash",
        collections: [
          collection({
            name,
            noun: "x",
            scope: "project",
            schema: z.object({ id: z.string() }),
            id: (x) => x.id,
          }),
        ],
        routes: () => {},
      });
    await expect(startEmulator({ resources: [clash("projects")] })).rejects.toThrow(
      'Collection "projects" takes the name of the emulator state\'s own "projects"',
    );
    await expect(startEmulator({ resources: [clash("permissions")] })).rejects.toThrow(
      'Two collections are named "permissions"',
    );
    expect(() => widgets.in(Store.seeded(1, "launch"))).toThrow(
      'Collection "widgets" is not kept by this emulator',
    );
  });
});
