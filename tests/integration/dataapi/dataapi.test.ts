/**
 * The DataApi provider's methods against the emulator over real HTTP (no Pulumi engine): a Data API
 * created over a database with Neon Auth as its provider, read back, its settings changed in place,
 * deleted, imported; refused at preview with nothing sent: an unknown database, a JWKS URL that is no URL,
 * `external` without one, `neon_auth` on a branch without Neon Auth, a database whose Data API no resource
 * manages (with its importId), two resources of one database; a lost answer to the create reconciled into
 * one. Its URL answers a request without a token 401.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { boundResource, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let impl: ReturnType<typeof boundResource>;
let logs: string[] = [];
let projectId: string;

const mutations = () => mutationCount(emulator);
const branch = (n: number) => emulator.seed.branchIds[n];
const fresh = () =>
  boundResource("DataApi", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));

async function check(name: string, inputs: Props, olds: Props = {}) {
  return impl.check(olds, { projectId, __provider: "shim", __urn: urnOf("DataApi", name), ...inputs });
}

withEmulator({ opMs: 10, seed: 58 }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
});

beforeEach(() => {
  logs = [];
  impl = fresh();
});

it("creates the Data API of a database with Neon Auth, reads it, changes its settings in place and deletes it", async () => {
  const b = branch(0);
  await api.neonAuth.enable(projectId, b, "better_auth");
  const checked = await check("api", {
    branchId: b,
    databaseName: "neondb",
    authProvider: "neon_auth",
    settings: { dbMaxRows: 100 },
  });
  expect(checked.failures ?? []).toEqual([]);
  const { id, outs } = await impl.create(checked.inputs as Props);
  expect(id).toBe(`${projectId}/${b}/neondb`);
  const o = outs as Props;
  expect(o).toMatchObject({
    url: expect.stringMatching(/\/rest\/v1$/),
    status: "ready",
    settings: { dbMaxRows: 100 },
  });
  expect((await api.dataApi.get(projectId, b, "neondb")).settings).toMatchObject({ db_max_rows: 100 });
  // Its URL refuses a request without a token.
  expect((await fetch(`${String(o.url)}/orders`)).status).toBe(401);

  const read = await impl.read(id, o);
  expect(read).toMatchObject({ id, inputs: { databaseName: "neondb", settings: { dbMaxRows: 100 } } });
  expect((await impl.diff(id, o, checked.inputs as Props)).changes).toBe(false);

  const next = await check(
    "api",
    { branchId: b, databaseName: "neondb", settings: { dbMaxRows: 5, dbSchemas: ["app"] } },
    checked.inputs as Props,
  );
  expect(await impl.diff(id, o, next.inputs as Props)).toMatchObject({ changes: true, replaces: [] });
  const updated = await impl.update(id, o, next.inputs as Props);
  expect((updated.outs as Props).settings).toEqual({ dbMaxRows: 5, dbSchemas: ["app"] });
  expect((await api.dataApi.get(projectId, b, "neondb")).settings).toMatchObject({
    db_max_rows: 5,
    db_schemas: ["app"],
  });
  // A new auth provider replaces it.
  const external = await check(
    "api",
    {
      branchId: b,
      databaseName: "neondb",
      authProvider: "external",
      jwksUrl: "https://auth.example.com/.well-known/jwks.json",
    },
    next.inputs as Props,
  );
  expect((await impl.diff(id, updated.outs as Props, external.inputs as Props)).replaces).toEqual(
    expect.arrayContaining(["authProvider", "jwksUrl"]),
  );

  await impl.delete(id, updated.outs as Props);
  await expect(api.dataApi.get(projectId, b, "neondb")).rejects.toMatchObject({ kind: "not_found" });
  expect((await fetch(`${String(o.url)}/orders`)).status).toBe(404);
  expect(await impl.read(id, updated.outs as Props)).toEqual({});
});

it("refuses at preview, with nothing sent: an unknown database, a JWKS URL that is no URL, external without one, neon_auth without Neon Auth, a Data API no resource manages, two resources of one database", async () => {
  const b = branch(1);
  const before = mutations();
  const failures = async (name: string, inputs: Props) =>
    (await fresh().check({}, { projectId, __urn: urnOf("DataApi", name), ...inputs })).failures;
  expect(
    await failures("nodb", {
      branchId: b,
      databaseName: "nodb",
      authProvider: "external",
      jwksUrl: "https://a.example.com/jwks.json",
    }),
  ).toEqual([
    {
      property: "databaseName",
      reason: expect.stringMatching(/databaseName "nodb": branch .* has no such database/),
    },
  ]);
  expect(
    await failures("url", {
      branchId: b,
      databaseName: "neondb",
      authProvider: "external",
      jwksUrl: "not a url",
    }),
  ).toEqual([{ property: "jwksUrl", reason: expect.stringContaining("must be the http(s) URL of a JWKS") }]);
  expect(await failures("nourl", { branchId: b, databaseName: "neondb", authProvider: "external" })).toEqual([
    { property: "jwksUrl", reason: expect.stringContaining('is required with authProvider "external"') },
  ]);
  expect(await failures("noauth", { branchId: b, databaseName: "neondb" })).toEqual([
    {
      property: "authProvider",
      reason: expect.stringContaining(`branch ${b} has no Neon Auth. Declare a NeonAuth`),
    },
  ]);
  expect(mutations()).toBe(before);

  await api.dataApi.create(projectId, b, "neondb", {
    auth_provider: "external",
    jwks_url: "https://a.example.com/jwks.json",
  });
  const sent = mutations();
  expect(
    await failures("held", {
      branchId: b,
      databaseName: "neondb",
      authProvider: "external",
      jwksUrl: "https://a.example.com/jwks.json",
    }),
  ).toEqual([
    { property: "databaseName", reason: expect.stringContaining(`importId: "${projectId}/${b}/neondb"`) },
  ]);
  const twice = {
    branchId: branch(2),
    databaseName: "neondb",
    authProvider: "external",
    jwksUrl: "https://a.example.com/j",
  };
  expect((await check("one", twice)).failures ?? []).toEqual([]);
  expect((await check("two", twice)).failures).toEqual([
    { property: "databaseName", reason: expect.stringContaining("already declared by another resource") },
  ]);
  expect(mutations()).toBe(sent);

  // importId takes it over.
  const taken = await fresh().create({
    projectId,
    branchId: b,
    databaseName: "neondb",
    authProvider: "external",
    jwksUrl: "https://a.example.com/jwks.json",
    importId: `${projectId}/${b}/neondb`,
    __urn: urnOf("DataApi", "held"),
  });
  expect(taken.id).toBe(`${projectId}/${b}/neondb`);
});

it("a lost answer to the create is reconciled by reading the database's Data API: created once", async () => {
  const b = branch(3);
  const inputs = {
    branchId: b,
    databaseName: "neondb",
    authProvider: "external",
    jwksUrl: "https://a.example.com/j",
  };
  const checked = await check("lost", inputs);
  emulator.setFaults({ dropAfterCommitRate: 1 });
  const made = await impl.create(checked.inputs as Props).finally(() => emulator.setFaults({}));
  expect(made.id).toBe(`${projectId}/${b}/neondb`);
  expect(logs.join("\n")).toMatch(
    /the answer to the create request was lost; found the Data API of database "neondb"/,
  );
  expect((await api.dataApi.get(projectId, b, "neondb")).status).toBe("ready");
});

it("a change to neon_auth on a branch without Neon Auth is refused at preview, before the replacement deletes it", async () => {
  const b = branch(4);
  const inputs = {
    branchId: b,
    databaseName: "neondb",
    authProvider: "external",
    jwksUrl: "https://auth.example.com/.well-known/jwks.json",
  };
  const checked = await check("switching", inputs);
  expect(checked.failures ?? []).toEqual([]);
  const { id, outs } = await impl.create(checked.inputs as Props);
  const before = mutations();
  const switched = await check(
    "switching",
    { branchId: b, databaseName: "neondb", authProvider: "neon_auth" },
    checked.inputs as Props,
  );
  expect(switched.failures).toEqual([expect.objectContaining({ property: "authProvider" })]);
  expect(mutations()).toBe(before);
  expect((await api.dataApi.get(projectId, b, "neondb")).url).toBe((outs as Props).url);
  await impl.delete(id, outs as Props);
});
