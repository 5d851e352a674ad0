/**
 * `passwordInState: false` on `Role` and `Project` against the emulator over real HTTP, their steps
 * called as the engine calls them: no password or connection URI in any output, never read back by a
 * create, a lost answer, a refresh or an update; a rotation still made and waited for; switching an
 * existing role both ways neither resets it nor breaks its logins; a project that does not store
 * passwords refused at preview with nothing sent.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { boundResource, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { emulatorLogin, projectWithoutPasswords, withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let branchId: string;
let logs: string[] = [];
let roles: ReturnType<typeof boundResource>;

const REVEAL = "GET /projects/:project_id/branches/:branch_id/roles/:role_name/reveal_password";
const RESET = "POST /projects/:project_id/branches/:branch_id/roles/:role_name/reset_password";
const URI = "GET /projects/:project_id/connection_uri";
const count = (route: string) => emulator.requestsByRoute()[route] ?? 0;

async function checked(
  impl: ReturnType<typeof boundResource>,
  type: string,
  name: string,
  inputs: Props,
  olds: Props = {},
): Promise<Props> {
  const r = await impl.check(olds, { __provider: "shim", __urn: urnOf(type, name), ...inputs });
  expect(r.failures ?? []).toEqual([]);
  return r.inputs;
}

const roleInputs = (inputs: Props) => ({ projectId, branchId, ...inputs });

/** Whether `password` logs `role` in on the test's branch (the emulator's Postgres login). */
const login = (role: string, password: unknown) =>
  emulatorLogin(emulator, { projectId, branchId }, role, password);

/** Neither the password nor anything like one in what the engine would store. */
function expectNoSecret(outs: Props, secret: string): void {
  expect(outs.password).toBeUndefined();
  expect(outs.connectionUri).toBeUndefined();
  expect(JSON.stringify(outs)).not.toContain(secret);
}

withEmulator(
  { opMs: 40, seed: 31 },
  (e, client) => {
    emulator = e;
    api = client;
    projectId = emulator.seed.projectId;
  },
  { resetEach: true },
);

beforeEach(async () => {
  emulator.setFaults({});
  logs = [];
  roles = boundResource("Role", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));
  const b = await api.branches.create(projectId, {
    branch: { name: "env" },
    endpoints: [{ type: "read_write" }],
  });
  branchId = b.branch.id;
  await api.waitForOperations(projectId, b.operations);
});

describe("Role with passwordInState: false", () => {
  it("creates, refreshes and rotates without a password in any output or a read of it; the rotation is waited for", async () => {
    const inputs = await checked(roles, "Role", "app", roleInputs({ name: "app", passwordInState: false }));
    const c = await roles.create(inputs);
    const outs = c.outs as Props;
    const password = await api.roles.revealPassword(projectId, branchId, "app");
    const reveals = count(REVEAL);
    expectNoSecret(outs, password);
    expect(outs.passwordInState).toBe(false);
    expect(await login("app", password)).toBe(true);

    const r = await roles.read(c.id, outs);
    expectNoSecret(r.props as Props, password);
    expect(r.inputs).toMatchObject({ passwordInState: false });
    // Refresh keeps the choice and the next diff sees nothing.
    const same = await checked(
      roles,
      "Role",
      "app",
      roleInputs({ name: "app", passwordInState: false }),
      outs,
    );
    expect((await roles.diff(c.id, r.props as Props, same)).changes).toBe(false);

    const rotate = await checked(
      roles,
      "Role",
      "app",
      roleInputs({ name: "app", passwordInState: false, passwordRotationTrigger: "1" }),
      outs,
    );
    expect(await roles.diff(c.id, outs, rotate)).toMatchObject({ changes: true, replaces: [] });
    const u = (await roles.update(c.id, outs, rotate)).outs as Props;
    const rotated = await api.roles.revealPassword(projectId, branchId, "app");
    expect(rotated).not.toBe(password);
    expectNoSecret(u, rotated);
    // Waited for: when the update returns, the new password works and the old one no longer.
    expect([await login("app", rotated), await login("app", password)]).toEqual([true, false]);
    expect(count(REVEAL)).toBe(reveals + 1); // this test's own read, not the provider's
    expect(logs.join("\n")).not.toContain(rotated);
  });

  it("a rotation whose reset fails keeps no password in the partial outputs, and says it is not kept", async () => {
    const inputs = await checked(roles, "Role", "rf", roleInputs({ name: "rf", passwordInState: false }));
    const c = await roles.create(inputs);
    const outs = c.outs as Props;
    const rotate = await checked(
      roles,
      "Role",
      "rf",
      roleInputs({ name: "rf", passwordInState: false, passwordRotationTrigger: "1" }),
      outs,
    );
    emulator.setFaults({ opErrorRate: 1 });
    const err = (await roles.update(c.id, outs, rotate).catch((e: unknown) => e)) as {
      message: string;
      properties?: Props;
    };
    emulator.setFaults({});
    expect(err.message).toMatch(
      /Failed to finish the password reset.*not in the stack: passwordInState is false/,
    );
    expect(err.properties?.password).toBeUndefined();
    expect(err.properties?.passwordInState).toBe(false);
  });

  it("a lost create answer is reconciled without reading the password", async () => {
    const inputs = await checked(roles, "Role", "lost", roleInputs({ name: "lost", passwordInState: false }));
    const reveals = count(REVEAL);
    emulator.setFaults({ dropAfterCommitRate: 1 });
    const c = await roles.create(inputs);
    emulator.setFaults({});
    expect(logs.join("\n")).toMatch(/the answer to the create request was lost; found role "lost"/);
    expect(count(REVEAL)).toBe(reveals);
    expect((c.outs as Props).password).toBeUndefined();
    expect((await api.roles.list(projectId, branchId)).filter((x) => x.name === "lost")).toHaveLength(1);
  });

  it("an existing role switched out of the state and back: never reset, its password keeps logging in", async () => {
    const resets = count(RESET);
    const c = await roles.create(await checked(roles, "Role", "sw", roleInputs({ name: "sw" })));
    const outs = c.outs as Props;
    const password = outs.password as string;
    expect(typeof password).toBe("string");

    const off = await checked(roles, "Role", "sw", roleInputs({ name: "sw", passwordInState: false }), outs);
    const d = await roles.diff(c.id, outs, off);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    expect(logs.join("\n")).toMatch(/dropped from the state; the password is not reset/);
    const dropped = (await roles.update(c.id, outs, off)).outs as Props;
    expectNoSecret(dropped, password);
    expect(await login("sw", password)).toBe(true);

    const reveals = count(REVEAL);
    const on = await checked(roles, "Role", "sw", roleInputs({ name: "sw" }), dropped);
    expect((await roles.diff(c.id, dropped, on)).changes).toBe(true);
    const back = (await roles.update(c.id, dropped, on)).outs as Props;
    expect(back.password).toBe(password);
    expect(count(REVEAL)).toBe(reveals + 1);
    expect(count(RESET)).toBe(resets);
    expect(await login("sw", password)).toBe(true);
    // Left out means true: the next diff sees nothing.
    expect((await roles.diff(c.id, back, on)).changes).toBe(false);
  });

  it("a project that does not store passwords is refused at preview, naming passwordInState, with nothing sent", async () => {
    const made = await projectWithoutPasswords(emulator, api, "nostore");
    const before = mutationCount(emulator);
    const r = await roles.check(
      {},
      {
        projectId: made.projectId,
        branchId: made.branchId,
        name: "app",
        passwordInState: false,
        __urn: urnOf("Role", "ns"),
        __provider: "shim",
      },
    );
    expect(r.failures).toEqual([
      {
        property: "passwordInState",
        // store_passwords is a create-time field (absent from ProjectUpdateRequest): no remedy to turn it on.
        reason: expect.stringMatching(/does not store role passwords.*412(?![\s\S]*turn on)/),
      },
    ]);
    expect(mutationCount(emulator)).toBe(before);
  });
});

describe("Project with passwordInState: false", () => {
  it("has no connectionUri, never reads one, and reads it once when switched back", async () => {
    const projects = boundResource("Project", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) =>
      logs.push(l),
    );
    const inputs = await checked(projects, "Project", "sf", { name: "sf", passwordInState: false });
    const c = await projects.create(inputs);
    const outs = c.outs as Props;
    const uri = await api.projects.connectionUri(c.id, {
      branchId: String(outs.defaultBranchId),
      databaseName: String(outs.databaseName),
      roleName: String(outs.roleName),
    });
    const uris = count(URI);
    expectNoSecret(outs, uri);
    const r = await projects.read(c.id, outs);
    expectNoSecret(r.props as Props, uri);
    expect(count(URI)).toBe(uris);

    const on = await checked(projects, "Project", "sf", { name: "sf" }, outs);
    expect((await projects.diff(c.id, outs, on)).changes).toBe(true);
    const back = (await projects.update(c.id, outs, on)).outs as Props;
    expect(back.connectionUri).toBe(uri);
    expect(count(URI)).toBe(uris + 1);
    await projects.delete(c.id, back);
  });
  it("an imported project (importId) with passwordInState: false never reads its connection URI", async () => {
    const projects = boundResource("Project", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) =>
      logs.push(l),
    );
    const made = await api.projects.create({ name: "sf-import" });
    await api.waitForOperations(made.project.id, made.operations);
    const uris = count(URI);
    const inputs = await checked(projects, "Project", "sfi", {
      importId: made.project.id,
      passwordInState: false,
    });
    const c = await projects.create(inputs);
    expect((c.outs as Props).connectionUri).toBeUndefined();
    expect(count(URI)).toBe(uris);
  });
});
