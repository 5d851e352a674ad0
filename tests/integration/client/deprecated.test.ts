/**
 * The client against an emulator that leaves out every deprecated response field
 * (`omitDeprecatedFields`: `pooler_enabled`, `pooler_mode`, `proxy_host` of computes, `cpu_used_sec` of
 * projects): every call still parses. The clock is frozen and the client's sleeps advance it, so the
 * waits take no real time.
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import { collectAll, type NeonClient } from "../../../provider/api";
import { clientFor, raw } from "./helpers";

let emu: EmulatorHandle;
let api: NeonClient;

beforeAll(async () => {
  emu = await startEmulator({ seed: 71, opMs: 500, frozenClock: true, omitDeprecatedFields: true });
  ({ api } = clientFor(emu, {
    now: () => emu.clock.now(),
    sleep: async (ms: number) => emu.clock.advance(ms),
  }));
});
afterAll(async () => {
  await emu?.stop();
});

const wait = (ops: { id: string }[]) =>
  api.waitForOperations(
    emu.seed.projectId,
    ops.map((o) => o.id),
  );

test("the emulator really leaves the deprecated fields out", async () => {
  const r = await raw<{ endpoint: Record<string, unknown> }>(
    emu,
    "GET",
    `/projects/${emu.seed.projectId}/endpoints/${emu.seed.primaryEndpointId}`,
  );
  expect(r.status).toBe(200);
  for (const f of ["pooler_enabled", "pooler_mode", "proxy_host"])
    expect(r.data.endpoint).not.toHaveProperty(f);
  expect(r.data.endpoint.host).toEqual(expect.any(String));
});

test("every endpoint, operation, project and key call parses without the deprecated fields", async () => {
  const p = emu.seed.projectId;
  const branch = emu.seed.branchIds[1];
  const created = await api.endpoints.create(p, { branch_id: branch, type: "read_write" });
  expect(created.endpoint.pooler_enabled).toBeUndefined();
  expect(created.endpoint.proxy_host).toBeUndefined();
  await wait(created.operations);
  const id = created.endpoint.id;
  expect((await api.endpoints.get(p, id)).current_state).toBe("active");
  expect((await api.endpoints.list(p)).map((e) => e.id)).toEqual(
    expect.arrayContaining([emu.seed.primaryEndpointId, id]),
  );
  expect((await api.endpoints.listByBranch(p, branch)).map((e) => e.id)).toEqual([id]);
  const updated = await api.endpoints.update(p, id, {
    autoscaling_limit_min_cu: 1,
    autoscaling_limit_max_cu: 2,
  });
  await wait(updated.operations);
  await wait((await api.endpoints.restart(p, id)).operations);
  await wait((await api.endpoints.suspend(p, id)).operations);
  await wait((await api.endpoints.start(p, id)).operations);
  const deleted = await api.endpoints.delete(p, id);
  await wait(deleted?.operations ?? []);
  expect(await api.endpoints.listByBranch(p, branch)).toEqual([]);

  const ops = await collectAll(api.operations.list(p, { limit: 5 }), { limit: 1000 });
  expect(ops.length).toBeGreaterThan(5);
  expect((await api.operations.get(p, ops[0].id)).id).toBe(ops[0].id);

  const projects = await collectAll(api.projects.list({ limit: 1 }), { limit: 10 });
  expect(projects.map((x) => x.id).sort()).toEqual([emu.seed.projectId, emu.seed.freeProjectId].sort());
  expect(projects.every((x) => x.cpu_used_sec === undefined)).toBe(true);

  const key = await api.apiKeys.create("deprecated-fields");
  expect((await api.apiKeys.list()).some((k) => k.id === key.id)).toBe(true);
  expect((await api.apiKeys.revoke(key.id)).revoked).toBe(true);
});
