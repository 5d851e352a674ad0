/** --state: the whole state survives a restart; writes are atomic. */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { Client, EP, EP1, OPS, settle } from "./client";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "emu-state-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("state file", () => {
  it("restarts with everything: computes, operations, keys, clock offset", async () => {
    const path = join(dir, "state.json");
    const a = await startEmulator({ statePath: path, apiKey: "boot", opMs: 20 });
    const ca = new Client(a);
    const p = { project_id: a.seed.projectId };
    const created = await ca.post(EP, {
      params: p,
      body: { endpoint: { branch_id: a.seed.branchIds[1], type: "read_write" } },
    });
    await settle(ca, a.seed.projectId);
    const token = (await ca.post("/api_keys", { body: { key_name: "kept" } })).body.key;
    a.clock.advance(10_000);
    const ops = (await ca.get(OPS, { params: p, query: { limit: 1000 } })).body.operations;
    const offsetA = a.clock.now() - Date.now();
    await a.stop();
    expect(readdirSync(dir)).toEqual(["state.json"]); // no temp file left behind

    const b = await startEmulator({ statePath: path, apiKey: "boot" });
    const cb = new Client(b);
    expect(b.seed).toEqual(a.seed);
    const ep = await cb.get(EP1, { params: { ...p, endpoint_id: created.body.endpoint.id } });
    expect(ep.body.endpoint).toMatchObject({
      id: created.body.endpoint.id,
      current_state: "active",
      host: created.body.endpoint.host,
    });
    expect(
      (await cb.get(OPS, { params: p, query: { limit: 1000 } })).body.operations.map(
        (o: { id: string }) => o.id,
      ),
    ).toEqual(ops.map((o: { id: string }) => o.id));
    expect((await cb.get("/projects", { key: token })).status).toBe(200);
    expect(Math.abs(b.clock.now() - Date.now() - offsetA)).toBeLessThan(1000);
    await b.stop();
  });

  it("adds a fresh bootstrap key when restarted without --api-key (old tokens are not stored)", async () => {
    const path = join(dir, "state.json");
    const a = await startEmulator({ statePath: path });
    await a.stop();
    const b = await startEmulator({ statePath: path });
    expect(b.apiKey).not.toBe(a.apiKey);
    const cb = new Client(b);
    expect((await cb.get("/projects")).status).toBe(200);
    // The first bootstrap key is still valid: keys are not dropped by a restart.
    expect((await cb.get("/projects", { key: a.apiKey })).status).toBe(200);
    await b.stop();
  });

  it("reset() rewrites the file with the seeded state", async () => {
    const path = join(dir, "state.json");
    const a = await startEmulator({ statePath: path, seed: 4, opMs: 20 });
    const ca = new Client(a);
    await ca.post(EP, {
      params: { project_id: a.seed.projectId },
      body: { endpoint: { branch_id: a.seed.branchIds[1], type: "read_write" } },
    });
    // Two seeded primaries (main and free project) plus the new one.
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")).endpoints)).toHaveLength(3);
    a.reset();
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")).endpoints)).toHaveLength(2);
    await a.stop();
  });

  it("refuses a corrupt or invalid state file, naming it", async () => {
    const path = join(dir, "bad.json");
    writeFileSync(path, "{not json");
    await expect(startEmulator({ statePath: path })).rejects.toThrow(
      /Failed to load emulator state from .*bad\.json/,
    );
    writeFileSync(path, JSON.stringify({ version: 2 }));
    await expect(startEmulator({ statePath: path })).rejects.toThrow(
      /Failed to load emulator state from .*bad\.json: seed/,
    );
  });

  it("keeps state in memory only without a path", async () => {
    const e = await startEmulator();
    expect(existsSync(join(dir, "state.json"))).toBe(false);
    await e.stop();
  });
});
