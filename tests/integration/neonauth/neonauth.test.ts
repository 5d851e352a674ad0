/**
 * The NeonAuth provider's methods against the emulator over real HTTP (no Pulumi engine): Neon Auth
 * enabled on a branch with its settings, read back, changed in place (a domain and a provider added
 * and removed, a secret rotated), disabled on delete and imported; refused at preview with nothing
 * sent: a branch that already has Neon Auth (with its importId), two resources of one branch, an unknown
 * database, a trusted domain that is no URL; a lost answer to the enable reconciled into one; the OAuth
 * client secret in no log line and no error; a domain or a secret not known yet at preview left to
 * `up`.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { UNKNOWN } from "../../../provider/resources/definition";
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

const SECRET = "gh-client-secret-5f1e2d3c4b5a";
const ROTATED = "gh-client-secret-rotated-0a9b8c";
const mutations = () => mutationCount(emulator);
const branch = (n: number) => emulator.seed.branchIds[n];
const fresh = () =>
  boundResource("NeonAuth", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));

async function check(name: string, inputs: Props, olds: Props = {}) {
  return impl.check(olds, { projectId, __provider: "shim", __urn: urnOf("NeonAuth", name), ...inputs });
}

withEmulator({ opMs: 10, seed: 57 }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
});

beforeEach(() => {
  logs = [];
  impl = fresh();
});

it("enables Neon Auth with its settings, reads them back, changes them in place and disables it on delete", async () => {
  const b = branch(0);
  const checked = await check("auth", {
    branchId: b,
    databaseName: "neondb",
    allowLocalhost: false,
    emailAndPassword: true,
    trustedDomains: ["https://b.example.com", "https://a.example.com"],
    oauthProviders: [{ clientSecret: SECRET, clientId: "gh-id", id: "github" }],
  });
  expect(checked.failures ?? []).toEqual([]);
  const { id, outs } = await impl.create(checked.inputs as Props);
  expect(id).toBe(`${projectId}/${b}`);
  const o = outs as Props;
  expect(o).toMatchObject({
    databaseName: "neondb",
    authProvider: "better_auth",
    allowLocalhost: false,
    emailAndPassword: true,
    trustedDomains: ["https://a.example.com", "https://b.example.com"],
    oauthProviders: [{ id: "github", clientId: "gh-id", clientSecret: SECRET }],
    jwksUrl: expect.stringMatching(/\/\.well-known\/jwks\.json$/),
    secretServerKey: expect.any(String),
  });
  expect(await api.neonAuth.oauthProviders(projectId, b)).toEqual([
    { id: "github", type: "standard", client_id: "gh-id" },
  ]);
  expect(await api.neonAuth.allowLocalhost(projectId, b)).toBe(false);
  const jwks = (await (await fetch(String(o.jwksUrl))).json()) as { keys: { kty: string }[] };
  expect(jwks.keys.map((k) => k.kty)).toEqual(["OKP"]);

  const read = await impl.read(id, o);
  expect(read.props).toMatchObject({
    oauthProviders: [{ id: "github", clientId: "gh-id", clientSecret: SECRET }],
  });
  expect((await impl.diff(id, read.props as Props, checked.inputs as Props)).changes).toBe(false);

  // A domain swapped, a provider added, the secret rotated: in place.
  const next = await check(
    "auth",
    {
      branchId: b,
      databaseName: "neondb",
      trustedDomains: ["https://a.example.com", "https://c.example.com"],
      oauthProviders: [{ id: "github", clientId: "gh-id", clientSecret: ROTATED }, { id: "google" }],
    },
    checked.inputs as Props,
  );
  expect(await impl.diff(id, o, next.inputs as Props)).toMatchObject({ changes: true, replaces: [] });
  const updated = await impl.update(id, o, next.inputs as Props);
  expect(await api.neonAuth.domains(projectId, b)).toEqual([
    "https://a.example.com",
    "https://c.example.com",
  ]);
  expect(await api.neonAuth.oauthProviders(projectId, b)).toEqual([
    { id: "github", type: "standard", client_id: "gh-id" },
    { id: "google", type: "shared" },
  ]);
  expect((updated.outs as Props).oauthProviders).toEqual([
    { id: "github", clientId: "gh-id", clientSecret: ROTATED },
    { id: "google" },
  ]);

  await impl.delete(id, updated.outs as Props);
  await expect(api.neonAuth.get(projectId, b)).rejects.toMatchObject({ kind: "not_found" });
  expect(await impl.read(id, updated.outs as Props)).toEqual({});
  for (const secret of [SECRET, ROTATED]) expect(logs.join("\n")).not.toContain(secret);
});

it("a domain and a client secret not known yet (outputs of other resources) pass the preview, nothing sent", async () => {
  const b = branch(0);
  const before = mutations();
  const inputs = {
    branchId: b,
    trustedDomains: ["https://b.example.com", UNKNOWN],
    oauthProviders: [{ id: "github", clientId: "gh-id", clientSecret: UNKNOWN }, UNKNOWN],
  };
  const checked = await check("later", inputs);
  expect(checked.failures ?? []).toEqual([]);
  expect(checked.inputs).toMatchObject({
    trustedDomains: [UNKNOWN, "https://b.example.com"],
    oauthProviders: [{ id: "github", clientId: "gh-id", clientSecret: UNKNOWN }, UNKNOWN],
  });
  // An existing one: the lists change in place, judged when known.
  const olds = { projectId, branchId: b, trustedDomains: ["https://b.example.com"] };
  const d = await impl.diff(`${projectId}/${b}`, olds, checked.inputs as Props);
  expect(d).toMatchObject({ changes: true, replaces: [] });
  // Beside them, a known domain that is no URL is still refused.
  const bad = await check("later", { ...inputs, trustedDomains: ["app.example.com", UNKNOWN] });
  expect(bad.failures).toEqual([
    { property: "trustedDomains.0", reason: expect.stringContaining("must be a URL") },
  ]);
  expect(mutations()).toBe(before);
});

it("refuses at preview, with nothing sent: Neon Auth already on the branch, two resources of a branch, an unknown database, a domain that is no URL", async () => {
  const b = branch(1);
  await api.neonAuth.enable(projectId, b, "better_auth");
  const before = mutations();
  const held = await check("held", { branchId: b });
  expect(held.failures).toEqual([
    {
      property: "branchId",
      reason: expect.stringMatching(new RegExp(`already has Neon Auth .*importId: "${projectId}/${b}"`)),
    },
  ]);
  // The create refuses it too (enabled between the preview and the up).
  await expect(impl.create({ projectId, branchId: b, __urn: urnOf("NeonAuth", "held") })).rejects.toThrow(
    /already has Neon Auth .*no resource of this stack manages/,
  );

  const b2 = branch(2);
  expect((await check("one", { branchId: b2 })).failures ?? []).toEqual([]);
  expect((await check("two", { branchId: b2 })).failures).toEqual([
    {
      property: "branchId",
      reason: expect.stringMatching(/already declared by another resource .*\(two|one\)/),
    },
  ]);
  expect(
    (
      await fresh().check(
        {},
        { projectId, branchId: b2, databaseName: "nodb", __urn: urnOf("NeonAuth", "x") },
      )
    ).failures,
  ).toEqual([
    {
      property: "databaseName",
      reason: expect.stringMatching(
        /databaseName "nodb": branch .* has no such database \(it has "neondb"\)/,
      ),
    },
  ]);
  expect((await check("dom", { branchId: b2, trustedDomains: ["app.example.com"] })).failures).toEqual([
    { property: "trustedDomains.0", reason: expect.stringContaining("must be a URL") },
  ]);
  expect(
    (await check("sec", { branchId: b2, oauthProviders: [{ id: "github", clientSecret: SECRET }] })).failures,
  ).toEqual([
    { property: "oauthProviders.0", reason: expect.stringContaining("clientSecret needs clientId") },
  ]);
  expect(mutations()).toBe(before);

  // importId takes the branch's Neon Auth over and applies the declared settings.
  const taken = await fresh().create({
    projectId,
    branchId: b,
    importId: `${projectId}/${b}`,
    allowLocalhost: false,
    __urn: urnOf("NeonAuth", "held"),
  });
  expect(taken.id).toBe(`${projectId}/${b}`);
  expect(await api.neonAuth.allowLocalhost(projectId, b)).toBe(false);
  expect(JSON.stringify([held, logs])).not.toContain(SECRET);
});

it("a lost answer to the enable is reconciled by reading the branch's Neon Auth: enabled once", async () => {
  const b = branch(3);
  const checked = await check("lost", { branchId: b });
  emulator.setFaults({ dropAfterCommitRate: 1 });
  const made = await impl.create(checked.inputs as Props).finally(() => emulator.setFaults({}));
  expect(made.id).toBe(`${projectId}/${b}`);
  expect((await api.neonAuth.get(projectId, b)).branch_id).toBe(b);
  expect(logs.join("\n")).toMatch(/the answer to the create request was lost; found the Neon Auth of branch/);
  expect((made.outs as Props).secretServerKey).toBeUndefined();
});

it("deleteDataOnDestroy is recorded in place, providers compare in any order, an import unlike the service is refused", async () => {
  const b = branch(2);
  const base = {
    branchId: b,
    databaseName: "neondb",
    oauthProviders: [
      { id: "google", clientId: "go-id", clientSecret: SECRET },
      { id: "github", clientId: "gh-id", clientSecret: SECRET },
    ],
  };
  const checked = await check("keeping", base);
  expect(checked.failures ?? []).toEqual([]);
  const { id, outs } = await impl.create(checked.inputs as Props);
  // The service's order and the program's differ: no change.
  const swapped = await check(
    "keeping",
    { ...base, oauthProviders: [...base.oauthProviders].reverse() },
    checked.inputs as Props,
  );
  const read = await impl.read(id, outs as Props);
  expect((await impl.diff(id, read.props as Props, swapped.inputs as Props)).changes).toBe(false);
  // What the delete does is recorded by an update that sends nothing.
  const dropping = await check("keeping", { ...base, deleteDataOnDestroy: true }, checked.inputs as Props);
  expect(await impl.diff(id, outs as Props, dropping.inputs as Props)).toMatchObject({
    changes: true,
    replaces: [],
  });
  const before = mutations();
  const updated = await impl.update(id, outs as Props, dropping.inputs as Props);
  expect(mutations()).toBe(before);
  expect((updated.outs as Props).deleteDataOnDestroy).toBe(true);
  // A new resource importing it with another database: refused at preview, naming importId.
  const other = await fresh().check(
    {},
    {
      projectId,
      __provider: "shim",
      __urn: urnOf("NeonAuth", "importer"),
      branchId: b,
      databaseName: "neondb",
      authProvider: "stack",
      importId: `${projectId}/${b}`,
    },
  );
  expect(other.failures).toEqual([
    expect.objectContaining({
      property: "importId",
      reason: expect.stringContaining('authProvider is "stack" but it is "better_auth"'),
    }),
  ]);
  expect(mutations()).toBe(before);
  await impl.delete(id, updated.outs as Props);
});
