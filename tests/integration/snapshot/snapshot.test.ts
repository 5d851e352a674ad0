/**
 * The Snapshot provider's methods against the emulator over real HTTP (no Pulumi engine), its clock
 * moved by the test: a snapshot taken once (a lost answer reconciled by its name and branch, a killed
 * run's snapshot of the derived name taken over — never a second one), renamed in place, any other
 * change refused (a replacement would delete its data), deleted, refreshed and imported; and every refusal the preview can know — an
 * unknown branch, a `timestamp` outside the history window (as a Branch's `parentTimestamp`), `lsn`
 * with `timestamp`, a bad `expiresAt`, a name held by a snapshot no resource manages — with nothing sent.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { resourceKind } from "../../../provider/registry";
import { importInputsOf, UNKNOWN } from "../../../provider/resources/kit";
import { autoName } from "../../../provider/resources/snapshot/mapping";
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

const HOUR = 3_600_000;
const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
const now = () => emulator.clock.now();
const mutations = () => mutationCount(emulator);
const posts = () =>
  emulator.requestsByRoute()["POST /projects/:project_id/branches/:branch_id/snapshot"] ?? 0;
const branch = (n: number) => emulator.seed.branchIds[n];
const snapshotsOf = async (branchId: string) =>
  (await api.snapshots.list(projectId)).filter((s) => s.source_branch_id === branchId);

/** A new runtime, as a new `pulumi up` has. */
const fresh = () =>
  boundResource("Snapshot", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));

/** `check` as the engine runs it for a new resource (or one whose old inputs are `olds`). */
async function check(name: string, inputs: Props, olds: Props = {}) {
  return impl.check(olds, { projectId, __provider: "shim", __urn: urnOf("Snapshot", name), ...inputs });
}

/** check then create, as the engine does. */
async function take(name: string, inputs: Props) {
  const checked = await check(name, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const made = await impl.create(checked.inputs as Props);
  return { id: made.id, outs: made.outs as Props, inputs: checked.inputs as Props };
}

withEmulator({ opMs: 10, seed: 55 }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
  // The seeded branches were made when the emulator started: give them three hours of history.
  emulator.clock.advance(3 * HOUR);
});

beforeEach(() => {
  emulator.setFaults({});
  logs = [];
  impl = fresh();
});

it("takes a snapshot at a time once, reads it back, renames it in place, refuses any other change, deletes it", async () => {
  const when = at(now() - HOUR);
  const expires = at(now() + 48 * HOUR);
  const { id, outs, inputs } = await take("a", {
    branchId: branch(0),
    name: "before-migration",
    timestamp: when.replace("Z", "+00:00"), // written as the service writes it
    expiresAt: expires,
  });
  const [s] = (await api.snapshots.list(projectId)).filter((x) => x.name === "before-migration");
  expect(id).toBe(`${projectId}/${s.id}`);
  expect(outs).toMatchObject({
    projectId,
    branchId: branch(0),
    name: "before-migration",
    timestamp: when,
    expiresAt: expires,
    snapshotId: s.id,
    sourceBranchId: branch(0),
    createdAt: s.created_at,
    manual: true,
  });
  expect(logs.join("\n")).toMatch(/took snapshot .*"before-migration"/);

  // Refresh: read from the project's list (the document has no read of one snapshot).
  const read = await impl.read(id, outs);
  expect(read).toMatchObject({
    id,
    props: { snapshotId: s.id },
    inputs: { projectId, branchId: branch(0), name: "before-migration", timestamp: when, expiresAt: expires },
  });
  expect((await impl.diff(id, outs, inputs)).changes).toBe(false);

  // A rename is made in place.
  const renamed = await check("a", { ...inputs, name: "kept" }, inputs);
  const d = await impl.diff(id, outs, renamed.inputs as Props);
  expect(d).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: true });
  const before = posts();
  const updated = await impl.update(id, outs, renamed.inputs as Props);
  expect((updated.outs as Props).name).toBe("kept");
  expect((await api.snapshots.list(projectId)).find((x) => x.id === s.id)?.name).toBe("kept");
  expect(posts()).toBe(before);

  // Its expiry cannot change, and a replacement would delete the data it holds: refused, nothing sent.
  const later = await check(
    "a",
    { ...renamed.inputs, expiresAt: at(now() + 72 * HOUR) },
    renamed.inputs as Props,
  );
  expect(later.failures ?? []).toEqual([]);
  const sent = mutationCount(emulator);
  await expect(impl.diff(id, updated.outs as Props, later.inputs as Props)).rejects.toThrow(
    /Failed to change snapshot .*: expiresAt .* cannot be changed on an existing snapshot .*declare another Snapshot for another branch or time; .*Nothing was changed\./,
  );
  expect(mutationCount(emulator)).toBe(sent);
  // Another point in the branch's history, or its branch replaced (its id unknown at preview): refused too.
  const earlier = await check(
    "a",
    { ...renamed.inputs, timestamp: at(Date.parse(when) - HOUR) },
    renamed.inputs as Props,
  );
  await expect(impl.diff(id, updated.outs as Props, earlier.inputs as Props)).rejects.toThrow(
    /: timestamp .* cannot be changed on an existing snapshot/,
  );
  await expect(
    impl.diff(id, updated.outs as Props, { ...(renamed.inputs as Props), branchId: UNKNOWN }),
  ).rejects.toThrow(
    /: branchId .* → \(replaced in this update\) cannot be changed .*first remove this Snapshot from the program/,
  );
  expect(mutationCount(emulator)).toBe(sent);
  // Removing timestamp changes nothing (it only said where the snapshot was taken).
  const { timestamp: _t, ...noTime } = inputs;
  expect((await impl.diff(id, outs, noTime)).changes).toBe(false);

  await impl.delete(id, updated.outs as Props);
  expect((await api.snapshots.list(projectId)).some((x) => x.id === s.id)).toBe(false);
  // Gone already: a second delete is success, a refresh drops it.
  await impl.delete(id, updated.outs as Props);
  expect(await impl.read(id, updated.outs as Props)).toEqual({});
  expect(logs.join("\n")).toMatch(/was deleted outside the stack; dropping it from the stack/);
});

it("a lost answer to the create is reconciled by the derived name and the branch: one snapshot", async () => {
  const checked = await check("lost", { branchId: branch(1) });
  expect(checked.failures ?? []).toEqual([]);
  emulator.setFaults({ dropAfterCommitRate: 1 });
  const made = await impl.create(checked.inputs as Props);
  emulator.setFaults({});
  const all = await snapshotsOf(branch(1));
  expect(all).toHaveLength(1);
  expect(all[0].name).toBe(autoName(urnOf("Snapshot", "lost"), projectId, branch(1)));
  expect(made.id).toBe(`${projectId}/${all[0].id}`);
  expect(logs.join("\n")).toMatch(/the answer to the create request was lost; found snapshot/);
});

it("a killed run's snapshot of the derived name is taken over by the next run, never a duplicate", async () => {
  const urn = urnOf("Snapshot", "killed");
  // The killed run sent its create; its state never learned the answer.
  const left = await api.snapshots.create(projectId, branch(2), {
    name: autoName(urn, projectId, branch(2)),
  });
  const before = mutations();
  const checked = await check("killed", { branchId: branch(2) });
  expect(checked.failures ?? []).toEqual([]);
  expect(logs.join("\n")).toMatch(/was made for this resource by an earlier run .*`pulumi up` manages it/);
  const made = await impl.create(checked.inputs as Props);
  expect(made.id).toBe(`${projectId}/${left.snapshot.id}`);
  expect(mutations()).toBe(before);
  expect(await snapshotsOf(branch(2))).toHaveLength(1);
  expect(logs.join("\n")).toMatch(
    /made for this resource by an earlier run \(its derived name says\); managing it/,
  );
});

it("a declared name held by a snapshot no resource manages is refused at preview with its importId; importId takes it over", async () => {
  const held = await api.snapshots.create(projectId, branch(3), { name: "nightly" });
  const importId = `${projectId}/${held.snapshot.id}`;
  const before = mutations();
  const refused = await check("n", { branchId: branch(3), name: "nightly" });
  expect(refused.failures).toEqual([
    { property: "name", reason: expect.stringContaining(`set importId: "${importId}"`) },
  ]);
  // The create refuses it too (a snapshot made between the preview and the up).
  await expect(
    impl.create({ projectId, branchId: branch(3), name: "nightly", __urn: urnOf("Snapshot", "n") }),
  ).rejects.toThrow(/is already named "nightly" .*no resource of this stack manages it/);
  // The same name on another branch is another snapshot's.
  expect((await check("other", { branchId: branch(4), name: "nightly" })).failures ?? []).toEqual([]);

  const absent = await check("n", { branchId: branch(3), importId: `${projectId}/no-such-snapshot` });
  expect(absent.failures).toEqual([
    {
      property: "importId",
      reason: expect.stringContaining(`project ${projectId} has no snapshot no-such-snapshot`),
    },
  ]);
  const elsewhere = await check("n", { branchId: branch(4), importId });
  expect(elsewhere.failures).toEqual([
    { property: "branchId", reason: expect.stringContaining(`the snapshot's branchId is "${branch(3)}"`) },
  ]);
  expect(mutations()).toBe(before);

  impl = fresh();
  const { id, outs } = await take("n", { branchId: branch(3), name: "nightly", importId });
  expect(id).toBe(importId);
  expect(outs.snapshotId).toBe(held.snapshot.id);
  expect(mutations()).toBe(before);
  // `pulumi import`: read by the id alone gives the outputs, and the inputs that describe it (not where
  // in the history it was taken, which the service reports for every snapshot).
  const imported = (await impl.read(importId)).props as Props;
  expect(imported).toMatchObject({ snapshotId: held.snapshot.id, timestamp: expect.any(String) });
  expect(importInputsOf(resourceKind("Snapshot"), imported)).toEqual({
    projectId,
    branchId: branch(3),
    name: "nightly",
  });
  // The run that took it over leaves it to that resource; a later destroy (a new run) deletes it.
  await impl.delete(id, outs);
  expect((await api.snapshots.list(projectId)).some((s) => s.id === held.snapshot.id)).toBe(true);
  await fresh().delete(id, outs);
  expect((await api.snapshots.list(projectId)).some((s) => s.id === held.snapshot.id)).toBe(false);
});

it("refuses at preview, with nothing sent: an unknown branch, a time outside the window, lsn with timestamp, a bad expiresAt", async () => {
  const before = mutations();
  const failures = async (inputs: Props, olds: Props = {}) =>
    (await check("bad", { branchId: branch(5), ...inputs }, olds)).failures;
  expect(await failures({ branchId: "br-no-such-branch-1" })).toEqual([
    { property: "branchId", reason: expect.stringContaining("has no such branch") },
  ]);
  expect(await failures({ branchId: "main" })).toEqual([
    { property: "branchId", reason: expect.stringContaining("must be a branch id") },
  ]);
  expect(await failures({ timestamp: at(now() - 48 * HOUR) })).toEqual([
    {
      property: "timestamp",
      reason: expect.stringMatching(
        /^timestamp .* is older than the history project .* keeps \(history_retention_seconds 86400: from .*\); give a later time/,
      ),
    },
  ]);
  expect(await failures({ timestamp: at(now() + HOUR) })).toEqual([
    {
      property: "timestamp",
      reason: expect.stringMatching(/^timestamp .* is in the future .*give a time in the branch's past/),
    },
  ]);
  expect(await failures({ timestamp: at(now() - HOUR), lsn: "0/1F2A3B8" })).toEqual([
    { property: "lsn", reason: expect.stringContaining("give one of them") },
  ]);
  expect(await failures({ expiresAt: at(now() - HOUR) })).toEqual([
    { property: "expiresAt", reason: expect.stringContaining("is not in the future") },
  ]);
  expect(await failures({ expiresAt: "tomorrow" })).toEqual([
    { property: "expiresAt", reason: expect.stringContaining("must be an RFC 3339 time") },
  ]);
  expect(await failures({ lsn: "16-B3" })).toEqual([
    { property: "lsn", reason: expect.stringContaining("must be a log position") },
  ]);
  const olds = { projectId, branchId: branch(5), timestamp: at(now() - HOUR) };
  // An expiry that passed since it was set is not judged again.
  const expired = at(now() - HOUR);
  expect(
    await failures({ expiresAt: expired }, { ...olds, timestamp: undefined, expiresAt: expired }),
  ).toBeUndefined();
  expect(mutations()).toBe(before);
});

it("two resources of one program cannot declare one name on one branch", async () => {
  expect((await check("first", { branchId: branch(6), name: "pair" })).failures ?? []).toEqual([]);
  expect((await check("second", { branchId: branch(6), name: "pair" })).failures).toEqual([
    {
      property: "name",
      reason: expect.stringContaining("already declared by another resource of this program (first)"),
    },
  ]);
});

it("a refresh drops a snapshot that reached its expiry, saying so", async () => {
  const { id, outs } = await take("short", { branchId: branch(7), expiresAt: at(now() + HOUR) });
  emulator.clock.advance(2 * HOUR);
  expect(await fresh().read(id, outs)).toEqual({});
  expect(logs.join("\n")).toMatch(/reached its expiry .* and is gone; dropping it from the stack/);
});
