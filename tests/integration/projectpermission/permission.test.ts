/**
 * The ProjectPermission provider's methods against the emulator over real HTTP (no Pulumi engine): a
 * grant made once (a lost answer reconciled), an address someone else gave access refused at preview
 * with its importId and nothing sent, import, refresh and revoke.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { UNKNOWN } from "../../../provider/resources/kit";
import { boundProgram, boundResource, urnOf } from "../../support/provider";
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

/** `check` as the engine runs it for a new resource (or one whose old outputs are `olds`). */
async function check(name: string, inputs: Props, olds: Props = {}) {
  return impl.check(olds, {
    projectId,
    __provider: "shim",
    __urn: urnOf("ProjectPermission", name),
    ...inputs,
  });
}

/** check then create, as the engine does. */
async function grant(name: string, inputs: Props) {
  const checked = await check(name, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const made = await impl.create(checked.inputs as Props);
  return { id: made.id, outs: made.outs as Props };
}

const grants = () => api.permissions.list(projectId);

withEmulator(
  { opMs: 40, seed: 23 },
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
  impl = boundResource("ProjectPermission", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) =>
    logs.push(l),
  );
});

it("grants access once, reads it back by id, and revokes it on delete", async () => {
  const { id, outs } = await grant("dev", { email: "Dev@Example.com" });
  const [g] = await grants();
  expect(id).toBe(`${projectId}/${g.id}`);
  expect(outs).toMatchObject({
    projectId,
    email: "dev@example.com", // kept in lower case: the next diff compares it as check wrote it
    permissionId: g.id,
    grantedAt: g.granted_at,
  });
  const read = await impl.read(id, outs);
  expect(read).toMatchObject({
    id,
    props: { permissionId: g.id },
    inputs: { projectId, email: "dev@example.com" },
  });
  await impl.delete(id, outs);
  expect(await grants()).toEqual([]);
  // Revoked already: a second delete is success, a refresh drops it.
  await impl.delete(id, outs);
  expect(await impl.read(id, outs)).toEqual({});
  expect(logs.join("\n")).toMatch(/was revoked outside the stack; dropping it from the stack/);
});

it("refuses at preview an address that has access through a grant no resource of the stack manages, sending nothing", async () => {
  const other = await api.permissions.grant(projectId, "ops@example.com");
  const before = mutations();
  const checked = await check("ops", { email: "OPS@example.com" });
  expect(checked.failures).toEqual([
    {
      property: "email",
      reason: expect.stringContaining(`set importId: "${projectId}/${other.id}"`),
    },
  ]);
  // The create refuses it too (a grant made between the preview and the up).
  await expect(
    impl.create({ projectId, email: "ops@example.com", __urn: urnOf("ProjectPermission", "ops") }),
  ).rejects.toThrow(/ops@example.com already has access .*which no resource of this stack manages/);
  expect(mutations()).toBe(before);
  expect((await grants()).map((g) => g.id)).toEqual([other.id]);
});

it("a lost answer to the grant is reconciled by the address: one grant", async () => {
  const checked = await check("lost", { email: "lost@example.com" });
  emulator.setFaults({ dropAfterCommitRate: 1 });
  const made = await impl.create(checked.inputs as Props);
  emulator.setFaults({});
  const all = await grants();
  expect(all).toHaveLength(1);
  expect(made.id).toBe(`${projectId}/${all[0].id}`);
  expect(logs.join("\n")).toMatch(
    /the answer to the create request was lost; found access of lost@example.com/,
  );
});

it("imports a grant by importId; a wrong importId fails at preview, and at create", async () => {
  const g = await api.permissions.grant(projectId, "team@example.com");
  const importId = `${projectId}/${g.id}`;
  const wrongAddress =
    /gives access to team@example.com, not else@example.com; set email to "team@example.com"/;
  const wrong = await check("wrong", { email: "else@example.com", importId });
  expect(wrong.failures).toEqual([{ property: "importId", reason: expect.stringMatching(wrongAddress) }]);
  await expect(
    impl.create({ projectId, email: "else@example.com", importId, __urn: urnOf("ProjectPermission", "w") }),
  ).rejects.toThrow(wrongAddress);
  const absent = await check("team", { email: "team@example.com", importId: `${projectId}/no-such-grant` });
  expect(absent.failures).toEqual([
    {
      property: "importId",
      reason: expect.stringContaining(`project ${projectId} has no grant no-such-grant`),
    },
  ]);

  const { id, outs } = await grant("team", { email: "team@example.com", importId });
  expect(id).toBe(importId);
  expect(outs.permissionId).toBe(g.id);
  // `pulumi import`: read by the id alone gives the inputs that describe it.
  expect((await impl.read(importId)).inputs).toMatchObject({ projectId, email: "team@example.com" });
  // importId is read at creation only: changing the address with it still set fails at preview.
  const moved = await check("team", { email: "new@example.com", importId }, outs);
  expect(moved.failures).toEqual([
    { property: "importId", reason: expect.stringContaining("remove importId so that the changed address") },
  ]);
  // A later destroy (a new run) revokes it.
  impl = boundResource("ProjectPermission", { apiKey: emulator.apiKey, apiUrl: emulator.url });
  await impl.delete(id, outs);
  expect(await grants()).toEqual([]);
});

it("a grant imported under a new name is left by the old resource's delete in the same run", async () => {
  // The resource renamed without an alias: the new one takes the grant over, then the old one is deleted.
  const old = await grant("before", { email: "keep@example.com" });
  // The next `up`: a new run, which no longer declares "before".
  impl = boundResource("ProjectPermission", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) =>
    logs.push(l),
  );
  const taken = await check("after", { email: "keep@example.com" });
  expect(taken.failures).toEqual([
    { property: "email", reason: expect.stringContaining(`set importId: "${old.id}"`) },
  ]);
  const renamed = await grant("after", { email: "keep@example.com", importId: old.id });
  await impl.delete(old.id, old.outs);
  expect((await grants()).map((x) => x.id)).toEqual([renamed.outs.permissionId]);
  expect(logs.join("\n")).toMatch(/a create of this update took it over/);
});

it("two resources of one program cannot declare one address of a project", async () => {
  await check("first", { email: "pair@example.com" });
  const second = await check("second", { email: "Pair@example.com" });
  expect(second.failures).toEqual([
    {
      property: "email",
      reason: expect.stringContaining("already declared by another resource of this program (first)"),
    },
  ]);
});

it("two grants of one address to the one project this run makes: refused at preview, ids unknown", async () => {
  const program = boundProgram(["Project", "ProjectPermission"], {
    apiKey: emulator.apiKey,
    apiUrl: emulator.url,
  });
  const permission = (name: string, email: string) =>
    program.ProjectPermission.check(
      {},
      { projectId: UNKNOWN, email, __provider: "shim", __urn: urnOf("ProjectPermission", name) },
    );
  const before = mutations();
  const made = await program.Project.check({}, { name: "made-now", __urn: urnOf("Project", "made-now") });
  expect(made.failures ?? []).toEqual([]);
  expect((await permission("a", "twice@example.com")).failures ?? []).toEqual([]);
  expect((await permission("other", "once@example.com")).failures ?? []).toEqual([]);
  expect((await permission("b", "twice@example.com")).failures).toEqual([
    {
      property: "email",
      reason: expect.stringMatching(
        /access of twice@example.com to the project this program makes \(made-now\) is already declared by another resource of this program \(a\)/,
      ),
    },
  ]);
  // A second project this run makes: an unknown projectId may be either, so nothing is judged.
  await program.Project.check({}, { name: "made-too", __urn: urnOf("Project", "made-too") });
  expect((await permission("c", "twice@example.com")).failures ?? []).toEqual([]);
  expect(mutations()).toBe(before);
});

it("names the property and the remedy for bad inputs, and a project that is not there", async () => {
  const bad = await check("bad", { email: "not-an-address" });
  expect(bad.failures).toEqual([
    { property: "email", reason: expect.stringContaining("must be an email address") },
  ]);
  const elsewhere = await check("elsewhere", { email: "a@example.com", importId: "other-project/abc" });
  expect(elsewhere.failures).toEqual([
    { property: "importId", reason: expect.stringContaining("but projectId is") },
  ]);
  // With an importId too: the project is named, not the grant.
  const importing = await check("gone", {
    projectId: "no-such-project-1",
    email: "a@example.com",
    importId: "no-such-project-1/g-1",
  });
  expect(importing.failures).toEqual([
    { property: "projectId", reason: expect.stringContaining("no-such-project-1") },
  ]);
  const missing = await check("gone", { projectId: "no-such-project-1", email: "a@example.com" });
  expect(missing.failures).toEqual([
    { property: "projectId", reason: expect.stringContaining("no-such-project-1") },
  ]);
});

it("a changed address is a replacement that grants first", async () => {
  const { outs } = await grant("r", { email: "a@example.com" });
  const checked = await check("r", { email: "b@example.com" }, outs);
  expect(checked.failures ?? []).toEqual([]);
  const d = await impl.diff(String(outs.permissionId), outs, checked.inputs as Props);
  expect(d).toMatchObject({ changes: true, replaces: ["email"], deleteBeforeReplace: false });
  const same = await check("r", { email: "A@example.com" }, outs);
  expect((await impl.diff(String(outs.permissionId), outs, same.inputs as Props)).changes).toBe(false);
});
