/**
 * The ProjectJwks provider's methods against the emulator over real HTTP (no Pulumi engine): a JWKS
 * added once (a lost answer reconciled), bad inputs and a JWKS no resource manages refused at preview
 * with nothing sent, the replacement's order by what changed (and under `pulumi up --replace`), import,
 * refresh and delete.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { boundProgram, boundResource, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

const URL1 = "https://auth.example.com/.well-known/jwks.json";
const URL2 = "https://auth2.example.com/.well-known/jwks.json";

let emulator: EmulatorHandle;
let api: NeonClient;
let impl: ReturnType<typeof boundResource>;
let logs: string[] = [];
let projectId: string;
let branchId: string;

const mutations = () => mutationCount(emulator);
const settings = () => ({ apiKey: emulator.apiKey, apiUrl: emulator.url });

/** `check` as the engine runs it for a new resource (or one whose old outputs are `olds`). */
async function check(name: string, inputs: Props, olds: Props = {}) {
  return impl.check(olds, {
    projectId,
    providerName: "Clerk",
    jwksUrl: URL1,
    __provider: "shim",
    __urn: urnOf("ProjectJwks", name),
    ...inputs,
  });
}

/** check then create, as the engine does. */
async function add(name: string, inputs: Props) {
  const checked = await check(name, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const made = await impl.create(checked.inputs as Props);
  return { id: made.id, outs: made.outs as Props };
}

const listed = () => api.jwks.list(projectId);

withEmulator(
  { opMs: 40, seed: 29 },
  (e, client) => {
    emulator = e;
    api = client;
  },
  { resetEach: true },
);

beforeEach(() => {
  emulator.setFaults({});
  logs = [];
  projectId = emulator.seed.projectId;
  branchId = emulator.seed.branchIds[0];
  impl = boundResource("ProjectJwks", settings(), (l) => logs.push(l));
});

it("adds a JWKS once, waits for its operations, reads it back by id and removes it on delete", async () => {
  const { id, outs } = await add("clerk", { branchId, jwtAudience: "app" });
  const [j] = await listed();
  expect(id).toBe(`${projectId}/${j.id}`);
  expect(outs).toMatchObject({
    projectId,
    branchId,
    providerName: "Clerk",
    jwksUrl: URL1,
    jwtAudience: "app",
    jwksId: j.id,
    createdAt: j.created_at,
  });
  // The service's default roles are not declared: no roleNames, so the next diff finds nothing.
  expect(outs.roleNames).toBeUndefined();
  const ops = [];
  for await (const o of api.operations.list(projectId)) ops.push(o);
  expect(ops.filter((o) => o.action === "apply_config").every((o) => o.status === "finished")).toBe(true);
  const read = await impl.read(id, outs);
  expect(read).toMatchObject({ id, props: { jwksId: j.id }, inputs: { projectId, jwksUrl: URL1 } });
  const again = await check("clerk", { branchId, jwtAudience: "app" }, outs);
  expect((await impl.diff(id, outs, again.inputs as Props)).changes).toBe(false);
  await impl.delete(id, outs);
  expect(await listed()).toEqual([]);
  // Deleted already: a second delete is success, a refresh drops it.
  await impl.delete(id, outs);
  expect(await impl.read(id, outs)).toEqual({});
  expect(logs.join("\n")).toMatch(/was deleted outside the stack; dropping it from the stack/);
});

it("refuses bad inputs at preview, naming the property and the remedy, with nothing sent", async () => {
  const before = mutations();
  const cases: [Props, string, RegExp][] = [
    [{ jwksUrl: "http://auth.example.com/jwks.json" }, "jwksUrl", /must be an https:\/\/ URL/],
    [{ jwksUrl: "auth.example.com/jwks.json" }, "jwksUrl", /must be a URL such as/],
    [{ branchId: "main" }, "branchId", /must be a branch id/],
    [{ roleNames: ["app"] }, "roleNames", /roleNames needs branchId/],
    [{ branchId, roleNames: ["a", "a"] }, "roleNames", /names "a" twice/],
    [{ branchId, roleNames: [] }, "roleNames", /at least one role/],
    [{ providerName: "" }, "providerName", /must not be empty/],
    [{ importId: "other-project/j-1" }, "importId", /but projectId is/],
  ];
  for (const [inputs, property, reason] of cases) {
    const r = await check("bad", inputs);
    expect(r.failures).toEqual([{ property, reason: expect.stringMatching(reason) }]);
  }
  const noProject = await check("p", { projectId: "no-such-project-1" });
  expect(noProject.failures).toEqual([
    { property: "projectId", reason: expect.stringContaining("no-such-project-1") },
  ]);
  const noBranch = await check("b", { branchId: "br-no-such-branch-1" });
  expect(noBranch.failures).toEqual([
    { property: "branchId", reason: expect.stringContaining("has no such branch") },
  ]);
  const noRole = await check("r", { branchId, roleNames: ["neondb_owner", "web_anon"] });
  expect(noRole.failures).toEqual([
    {
      property: "roleNames",
      reason: expect.stringMatching(/branch br-\S+ has no role "web_anon" \(it has /),
    },
  ]);
  expect(mutations()).toBe(before);
});

it("takes roles the branch has, or a Role of this program declares, and sends skip_role_creation", async () => {
  const program = boundProgram(["Role", "ProjectJwks"], settings());
  const role = await program.Role.check(
    {},
    { projectId, branchId, name: "web_anon", __urn: urnOf("Role", "web") },
  );
  expect(role.failures ?? []).toEqual([]);
  const jwks = await program.ProjectJwks.check(
    {},
    {
      projectId,
      branchId,
      providerName: "Auth0",
      jwksUrl: URL1,
      roleNames: ["neondb_owner", "web_anon"],
      __urn: urnOf("ProjectJwks", "a"),
    },
  );
  expect(jwks.failures ?? []).toEqual([]);
  const made = await program.ProjectJwks.create(jwks.inputs as Props);
  expect((made.outs as Props).roleNames).toEqual(["neondb_owner", "web_anon"]);
  const [j] = await listed();
  expect(j.role_names).toEqual(["neondb_owner", "web_anon"]);
  // No role was created behind the stack: the branch still lacks web_anon until the Role makes it.
  expect((await api.roles.list(projectId, branchId)).map((r) => r.name)).not.toContain("web_anon");
});

it("refuses at preview a JWKS of the URL and scope that no resource manages, with its importId", async () => {
  const { jwks: other } = await api.jwks.add(projectId, {
    jwks_url: URL1,
    provider_name: "Clerk",
    branch_id: branchId,
  });
  const before = mutations();
  const held = await check("clerk", { branchId });
  expect(held.failures).toEqual([
    { property: "jwksUrl", reason: expect.stringContaining(`set importId: "${projectId}/${other.id}"`) },
  ]);
  // Another scope is another JWKS.
  expect((await check("every", {})).failures ?? []).toEqual([]);
  // The create refuses it too (one added between the preview and the up).
  await expect(
    impl.create({
      projectId,
      branchId,
      providerName: "Clerk",
      jwksUrl: URL1,
      __urn: urnOf("ProjectJwks", "c"),
    }),
  ).rejects.toThrow(/is already a JWKS of project .*no resource of this stack manages it/);
  expect(mutations()).toBe(before);
  expect((await listed()).map((j) => j.id)).toEqual([other.id]);
});

it("a lost answer to the add is reconciled by URL, scope and provider name: one JWKS", async () => {
  const checked = await check("lost", { branchId });
  emulator.setFaults({ dropAfterCommitRate: 1 });
  const made = await impl.create(checked.inputs as Props);
  emulator.setFaults({});
  const all = await listed();
  expect(all).toHaveLength(1);
  expect(made.id).toBe(`${projectId}/${all[0].id}`);
  expect(logs.join("\n")).toMatch(/the answer to the create request was lost; found JWKS \S+ \(Clerk, /);
});

it("imports a JWKS by importId; one unlike the inputs fails at preview, and at create", async () => {
  const { jwks: j } = await api.jwks.add(projectId, { jwks_url: URL2, provider_name: "Stytch" });
  const importId = `${projectId}/${j.id}`;
  const wrong = await check("s", { jwksUrl: URL2, providerName: "Clerk", importId });
  expect(wrong.failures).toEqual([
    { property: "providerName", reason: expect.stringContaining("the JWKS's providerName is Stytch") },
  ]);
  await expect(
    impl.create({
      projectId,
      providerName: "Clerk",
      jwksUrl: URL2,
      importId,
      __urn: urnOf("ProjectJwks", "w"),
    }),
  ).rejects.toThrow(/providerName is Stytch/);
  const absent = await check("s", { jwksUrl: URL2, providerName: "Stytch", importId: `${projectId}/nope` });
  expect(absent.failures).toEqual([
    { property: "importId", reason: expect.stringContaining(`project ${projectId} has no JWKS nope`) },
  ]);
  const { id, outs } = await add("s", { jwksUrl: URL2, providerName: "Stytch", importId });
  expect(id).toBe(importId);
  expect(outs.jwksId).toBe(j.id);
  // `pulumi import`: read by the id alone gives the inputs that describe it.
  expect((await impl.read(importId)).inputs).toMatchObject({
    projectId,
    jwksUrl: URL2,
    providerName: "Stytch",
  });
  expect(await listed()).toHaveLength(1);
});

it("replaces on any change: a new URL or scope is added first, the same URL and scope removed first", async () => {
  const { id, outs } = await add("r", { branchId });
  const moved = await check("r", { branchId, jwksUrl: URL2 }, outs);
  expect(moved.failures ?? []).toEqual([]);
  expect(await impl.diff(id, outs, moved.inputs as Props)).toMatchObject({
    changes: true,
    replaces: ["jwksUrl"],
    deleteBeforeReplace: false,
  });
  const everyBranch = await check("r", {}, outs);
  expect(await impl.diff(id, outs, everyBranch.inputs as Props)).toMatchObject({
    replaces: ["branchId"],
    deleteBeforeReplace: false,
  });
  // Same URL and scope: the replacement's own JWKS is no holder at preview, and goes first.
  // As the engine calls it: the old inputs (no jwksId) as olds, then the replacement's check without.
  const olds = Object.fromEntries(Object.entries(outs).filter(([k]) => k !== "jwksId"));
  const renamed = await check("r", { branchId, providerName: "Clerk prod" }, olds);
  expect(renamed.failures ?? []).toEqual([]);
  expect(await impl.diff(id, outs, renamed.inputs as Props)).toMatchObject({
    replaces: ["providerName"],
    deleteBeforeReplace: true,
  });
  const again = await check("r", { branchId, providerName: "Clerk prod" });
  expect(again.failures ?? []).toEqual([]);
  // The engine's delete-first replacement: the add of the same URL and scope then succeeds.
  await impl.delete(id, outs);
  const next = await impl.create(renamed.inputs as Props);
  expect((await listed()).map((j) => [j.id, j.provider_name])).toEqual([
    [(next.outs as Props).jwksId, "Clerk prod"],
  ]);
});

it("`pulumi up --replace` of an unchanged JWKS: on a branch this stack made, removed first by the create", async () => {
  const branches = boundResource("Branch", settings(), (l) => logs.push(l));
  const bc = await branches.check({}, { projectId, __provider: "shim", __urn: urnOf("Branch", "pr") });
  expect(bc.failures ?? []).toEqual([]);
  const pr = await branches.create(bc.inputs as Props);
  const { id, outs } = await add("pr-jwks", { branchId: pr.id });
  // As the engine runs a targeted replace: check without olds, no diff (so no deleteBeforeReplace), the
  // replacement's create, then the delete of the old resource.
  const before = mutations();
  const again = await check("pr-jwks", { branchId: pr.id });
  expect(again.failures ?? []).toEqual([]);
  expect(mutations()).toBe(before);
  const next = await impl.create(again.inputs as Props);
  expect(next.id).not.toBe(id);
  await impl.delete(id, outs);
  expect((await listed()).map((j) => `${projectId}/${j.id}`)).toEqual([next.id]);
  expect(logs.join("\n")).toMatch(/removed JWKS \S+ \(Clerk, \S+\) of branch br-\S+ first: this stack's own/);

  // Not as declared (another provider name on that branch): someone else's, refused.
  await impl.delete(next.id, next.outs as Props);
  const { jwks: theirs } = await api.jwks.add(projectId, {
    jwks_url: URL1,
    provider_name: "Auth0",
    branch_id: pr.id,
  });
  expect((await check("pr-jwks", { branchId: pr.id })).failures).toEqual([
    { property: "jwksUrl", reason: expect.stringContaining(`set importId: "${projectId}/${theirs.id}"`) },
  ]);
  // One of every branch cannot be told from one no resource manages: refused, saying how to renew it.
  const { jwks: every } = await api.jwks.add(projectId, { jwks_url: URL2, provider_name: "Clerk" });
  const all = await check("every", { jwksUrl: URL2 });
  expect(all.failures).toEqual([
    {
      property: "jwksUrl",
      reason: expect.stringMatching(
        new RegExp(`importId: "${projectId}/${every.id}".*pulumi up --replace.*pulumi destroy --target`),
      ),
    },
  ]);
  await expect(impl.create({ ...(all.inputs as Props) })).rejects.toThrow(
    /no resource of this stack manages it/,
  );
  expect((await listed()).map((j) => j.id).sort()).toEqual([theirs.id, every.id].sort());
});

it("two resources of one program cannot declare one JWKS", async () => {
  await check("first", { branchId });
  expect((await check("other-scope", {})).failures ?? []).toEqual([]);
  const second = await check("second", { branchId, providerName: "Auth0" });
  expect(second.failures).toEqual([
    {
      property: "jwksUrl",
      reason: expect.stringContaining("already declared by another resource of this program (first)"),
    },
  ]);
});
