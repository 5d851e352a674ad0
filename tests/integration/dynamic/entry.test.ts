/**
 * The one dynamic entry of the resources after 0.1.0, as their shared shim calls it inside the
 * dynamic provider process (`entryShim`: `configure`, then `resourceOf(props).<step>`), against the
 * emulator over real HTTP: each request finds its resource by the type in its `__urn`, and a state's
 * outputs keep that URN, so that a refresh and a delete — which get only the outputs — find it too;
 * without it, nothing is sent.
 */
import type { NeonClient } from "../../../provider/api";
import { configure, resourceOf } from "../../../provider/dynamic/impl";
import { InitError } from "../../../provider/resources/steps";
import { UNKNOWN } from "../../../provider/resources/kit";
import { urnOf } from "../../support/provider";
import { withEmulator } from "../../support/emulator";
import type { EmulatorHandle } from "../../../emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;

withEmulator({ opMs: 40, seed: 31 }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
});

beforeAll(async () => {
  const values: Record<string, string> = { "neon:apiKey": emulator.apiKey, "neon:apiUrl": emulator.url };
  await configure({ config: { rawConfig: values, get: (k: string) => values[k] } } as never);
});

/** check then create, as the engine calls them, through the entry. */
async function created(type: string, name: string, inputs: Props): Promise<{ id: string; outs: Props }> {
  const news = { __provider: "shim", __urn: urnOf(type, name), ...inputs };
  const checked = await resourceOf(news).check({}, news);
  expect(checked.failures ?? []).toEqual([]);
  const c = await resourceOf(checked.inputs).create(checked.inputs);
  return { id: c.id, outs: c.outs as Props };
}

it("creates, refreshes and deletes a branch, a role and a database, each step finding its resource by the URN", async () => {
  const branch = await created("Branch", "pr-7", { projectId, compute: { minCu: 0.25, maxCu: 1 } });
  expect(branch.outs.__urn).toBe(urnOf("Branch", "pr-7"));
  const branchId = branch.id;
  const role = await created("Role", "app", { projectId, branchId, name: "app" });
  expect(role.id).toBe(`${projectId}/${branchId}/app`);
  expect(role.outs.__urn).toBe(urnOf("Role", "app"));
  const database = await created("Database", "app", { projectId, branchId, name: "app", ownerName: "app" });
  expect(database.outs.__urn).toBe(urnOf("Database", "app"));

  // A refresh gets the state's outputs only; what it returns is the next state's.
  const read = await resourceOf(role.outs).read(role.id, role.outs);
  expect(read.id).toBe(role.id);
  expect((read.props as Props).__urn).toBe(urnOf("Role", "app"));

  await resourceOf(database.outs).delete(database.id, database.outs);
  expect((await api.databases.list(projectId, branchId)).map((d) => d.name)).not.toContain("app");
  await resourceOf(role.outs).delete(role.id, role.outs);
  expect((await api.roles.list(projectId, branchId)).map((r) => r.name)).not.toContain("app");
  await resourceOf(branch.outs).delete(branch.id, branch.outs);
  expect((await api.branches.list(projectId)).map((b) => b.id)).not.toContain(branchId);
});

it("finds the resource of a diff whose URN is unknown (a child of a replaced parent) by the state's outputs", async () => {
  const branch = await created("Branch", "pr-10", { projectId, compute: { minCu: 0.25, maxCu: 1 } });
  const role = await created("Role", "child", { projectId, branchId: branch.id, name: "child" });
  // The engine's cascade: the old inputs, with what comes from the replaced parent unknown.
  const news = { ...role.outs, __urn: UNKNOWN, branchId: UNKNOWN };
  const diff = await resourceOf(news).diff(role.id, role.outs, news);
  expect(diff.replaces).toEqual(["branchId"]);
  expect(diff.changes).toBe(true);
});

it("refuses, before any request, a state entry without its URN, saying what to do", async () => {
  const branch = await created("Branch", "pr-8", { projectId, compute: { minCu: 0.25, maxCu: 1 } });
  const role = await created("Role", "kept", { projectId, branchId: branch.id, name: "kept" });
  const withoutUrn = Object.fromEntries(Object.entries(role.outs).filter(([k]) => k !== "__urn"));
  const before = emulator.requestCount();
  await expect(async () => resourceOf(withoutUrn).delete(role.id, withoutUrn)).rejects.toThrow(
    /Failed to tell which Neon resource this is: its properties have no __urn[\s\S]*pulumi state delete/,
  );
  expect(emulator.requestCount()).toBe(before);
  expect((await api.roles.list(projectId, branch.id)).map((r) => r.name)).toContain("kept");
});

it("keeps the URN in what a create that did not finish keeps in the stack, so its delete finds it", async () => {
  const news = { __provider: "shim", __urn: urnOf("Branch", "pr-9"), projectId };
  const checked = await resourceOf(news).check({}, news);
  emulator.setFaults({ opErrorRate: 1 });
  const err = (await resourceOf(checked.inputs)
    .create(checked.inputs)
    .catch((e: unknown) => e)) as InitError;
  emulator.setFaults({});
  expect(err).toBeInstanceOf(InitError);
  expect(err.message).toMatch(/kept in the stack/);
  expect(err.properties.__urn).toBe(urnOf("Branch", "pr-9"));
  await resourceOf(err.properties).delete(err.id, err.properties);
  expect((await api.branches.list(projectId)).map((b) => b.id)).not.toContain(err.id);
});
