/**
 * Authentication against the emulator: missing, wrong and revoked keys, and
 * the API key calls (personal and organization).
 */
import util from "node:util";
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import { ApiError, createNeonClient } from "../../../provider/api";
import { raw } from "./helpers";

let emu: EmulatorHandle;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 31, opMs: 20 });
});
afterAll(async () => {
  await emu?.stop();
});

async function unauthorized(p: Promise<unknown>, secret: string): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  const err = e as ApiError;
  expect(err.kind).toBe("unauthorized");
  expect(err.status).toBe(401);
  expect(err.attempts).toBe(1);
  for (const text of [err.message, JSON.stringify(err), util.inspect(err, { depth: 10, showHidden: true })]) {
    expect(text).not.toContain(secret);
  }
  return err;
}

test("no key: the client refuses to start, and the API answers 401", async () => {
  expect(() => createNeonClient({ apiKey: "" })).toThrow(/no API key/);
  expect(() => createNeonClient({ apiKey: "   " })).toThrow(/no API key/);
  expect((await raw(emu, "GET", "/projects", undefined, "")).status).toBe(401);
});

test("a wrong key gets unauthorized, with a remedy and without the key", async () => {
  const wrong = "napi_wrong_key_1234567890_abcdefghijklmnopqrstuvwxyz";
  const api = createNeonClient({ apiKey: wrong, baseUrl: emu.url });
  const err = await unauthorized(api.endpoints.list(emu.seed.projectId), wrong);
  expect(err.message).toMatch(
    /^Failed to list the computes of project [a-z0-9-]+: .+\(HTTP 401, code [A-Z_]+, request id .+\)\. Check the API key/,
  );
});

test("personal keys: create, use, list, revoke; the revoked key gets 401", async () => {
  const admin = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
  const created = await admin.apiKeys.create("integration-personal");
  expect(created).toMatchObject({
    name: "integration-personal",
    key: expect.any(String),
    id: expect.any(Number),
  });
  const user = createNeonClient({ apiKey: created.key, baseUrl: emu.url });
  await expect(user.endpoints.list(emu.seed.projectId)).resolves.toEqual(expect.any(Array));
  const listed = await admin.apiKeys.list();
  expect(listed.map((k) => k.id)).toContain(created.id);
  expect(JSON.stringify(listed)).not.toContain(created.key);
  const revoked = await admin.apiKeys.revoke(created.id);
  expect(revoked).toMatchObject({ id: created.id, revoked: true });
  await unauthorized(user.endpoints.list(emu.seed.projectId), created.key);
});

test("organization keys, project-scoped: create, use on its project, list, revoke", async () => {
  const admin = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
  const org = emu.seed.orgId;
  const created = await admin.apiKeys.createOrg(org, "integration-scoped", emu.seed.projectId);
  expect(created.project_id).toBe(emu.seed.projectId);
  const scoped = createNeonClient({ apiKey: created.key, baseUrl: emu.url });
  await expect(scoped.endpoints.list(emu.seed.projectId)).resolves.toEqual(expect.any(Array));
  expect((await admin.apiKeys.listOrg(org)).map((k) => k.id)).toContain(created.id);
  await expect(admin.apiKeys.revokeOrg(org, created.id)).resolves.toMatchObject({ revoked: true });
  await unauthorized(scoped.endpoints.list(emu.seed.projectId), created.key);
});

test("a wait whose key is revoked midway fails with unauthorized instead of hanging", async () => {
  const admin = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
  const created = await admin.apiKeys.create("integration-wait");
  const user = createNeonClient({ apiKey: created.key, baseUrl: emu.url });
  const p = emu.seed.projectId;
  const r = await user.endpoints.create(p, { branch_id: emu.seed.branchIds[5], type: "read_write" });
  emu.clock.advance(0);
  await admin.apiKeys.revoke(created.id);
  await unauthorized(
    user.waitForOperations(
      p,
      r.operations.map((o) => o.id),
    ),
    created.key,
  );
});
