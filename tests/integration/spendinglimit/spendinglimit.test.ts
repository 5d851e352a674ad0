/**
 * The SpendingLimit provider's methods against the emulator over real HTTP (no Pulumi engine): a budget
 * alert set, changed in place (no replacement), read back, imported and removed; refused at preview
 * with nothing sent: below 1 cent or not whole, an organization the key cannot see, one on a plan
 * without it (Free), one whose alert no resource manages (a killed run's: with its importId), two
 * resources of one organization. A lost answer to the `PUT` is the HTTP layer's to send again (an
 * idempotent method: tests/unit/http).
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { boundProgram, boundResource, urnOf } from "../../support/provider";
import type { BoundResource } from "../../../provider/resources/kit";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let impl: BoundResource;
let logs: string[] = [];

withEmulator(
  { opMs: 40, seed: 37 },
  (e, client) => {
    emulator = e;
    api = client;
  },
  { resetEach: true },
);

beforeEach(() => {
  emulator.setFaults({});
  logs = [];
  impl = boundResource("SpendingLimit", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) =>
    logs.push(l),
  );
});

const inputs = (name: string, more: Props = {}): Props => ({
  orgId: emulator.seed.orgId,
  limitCents: 50000,
  __provider: "shim",
  __urn: urnOf("SpendingLimit", name),
  ...more,
});
const limit = () => api.organizations.spendingLimit(emulator.seed.orgId);

it("sets the alert, changes it in place, reads it back and removes it on delete", async () => {
  const checked = await impl.check({}, inputs("budget"));
  expect(checked.failures ?? []).toEqual([]);
  const made = await impl.create(checked.inputs as Props);
  expect(made.id).toBe(emulator.seed.orgId);
  expect(made.outs).toMatchObject({ orgId: emulator.seed.orgId, limitCents: 50000 });
  expect(await limit()).toBe(50000);

  const next = (await impl.check(made.outs as Props, inputs("budget", { limitCents: 75000 })))
    .inputs as Props;
  const d = await impl.diff(made.id, made.outs as Props, next);
  expect([d.changes, d.replaces]).toEqual([true, []]);
  const updated = await impl.update(made.id, made.outs as Props, next);
  expect(updated.outs).toMatchObject({ limitCents: 75000 });
  expect(await limit()).toBe(75000);

  // Changed outside the stack: a refresh reads it, and the next diff sets it back in place.
  await api.organizations.setSpendingLimit(emulator.seed.orgId, 1000);
  const read = await impl.read(made.id, updated.outs as Props);
  expect(read).toMatchObject({ id: made.id, props: { limitCents: 1000 }, inputs: { limitCents: 1000 } });

  await impl.delete(made.id, updated.outs as Props);
  expect(await limit()).toBeNull();
  await impl.delete(made.id, updated.outs as Props); // none: the service answers the same
  expect(await impl.read(made.id, updated.outs as Props)).toEqual({});
  expect(logs.join("\n")).toMatch(/was removed outside the stack; dropping it from the stack/);
});

it("refuses at preview, sending nothing: below 1 cent, not whole, an alert set outside the stack (with its importId), an unseen organization, two of one organization", async () => {
  const before = mutationCount(emulator);
  for (const bad of [0, -5, 12.5, "100"]) {
    const c = await impl.check({}, inputs("bad", { limitCents: bad }));
    expect(c.failures).toEqual([
      { property: "limitCents", reason: expect.stringMatching(/at least 1 .*remove the resource/) },
    ]);
  }
  const unseen = await impl.check({}, inputs("unseen", { orgId: "org-nobody-12345678" }));
  expect(unseen.failures).toEqual([{ property: "orgId", reason: expect.stringMatching(/cannot see it/) }]);
  const program = boundProgram(["SpendingLimit"], { apiKey: emulator.apiKey, apiUrl: emulator.url });
  expect((await program.SpendingLimit.check({}, inputs("a"))).failures ?? []).toEqual([]);
  const twice = await program.SpendingLimit.check({}, inputs("b"));
  expect(twice.failures?.[0].reason).toMatch(/already declared by another resource of this program \(a\)/);
  expect(mutationCount(emulator)).toBe(before);

  await api.organizations.setSpendingLimit(emulator.seed.orgId, 2500);
  const sent = mutationCount(emulator);
  const held = await impl.check({}, inputs("held"));
  expect(held.failures).toEqual([
    { property: "orgId", reason: expect.stringContaining(`($25.00) that no resource of this stack manages`) },
  ]);
  expect(held.failures?.[0].reason).toContain(`set importId: "${emulator.seed.orgId}"`);
  expect(mutationCount(emulator)).toBe(sent);
  // importId takes it over: the declared amount replaces it.
  const c = await impl.check({}, inputs("held", { importId: emulator.seed.orgId }));
  expect(c.failures ?? []).toEqual([]);
  await impl.create(c.inputs as Props);
  expect(await limit()).toBe(50000);
});

it("refuses at preview an organization on a plan without it (Free), sending nothing", async () => {
  const free = await startEmulator({ opMs: 40, seed: 38, plan: "free" });
  try {
    const r = boundResource("SpendingLimit", { apiKey: free.apiKey, apiUrl: free.url });
    const before = mutationCount(free);
    const c = await r.check({}, { ...inputs("free"), orgId: free.seed.orgId });
    expect(c.failures).toEqual([
      {
        property: "orgId",
        reason: expect.stringMatching(/is on the free plan, which has no spending limit/),
      },
    ]);
    expect(mutationCount(free)).toBe(before);
  } finally {
    await free.stop();
  }
});
