/**
 * The SnapshotSchedule provider's methods against the emulator over real HTTP (no Pulumi engine): a
 * branch's schedule set (PUT), read back, changed in place, cleared on delete and imported; a branch
 * whose schedule no resource manages refused at preview with its importId; bad items, an unknown
 * branch and two resources of one branch refused at preview, with nothing sent.
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
  boundResource("SnapshotSchedule", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));

async function check(name: string, inputs: Props, olds: Props = {}) {
  return impl.check(olds, {
    projectId,
    __provider: "shim",
    __urn: urnOf("SnapshotSchedule", name),
    ...inputs,
  });
}

withEmulator({ opMs: 10, seed: 56 }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
});

beforeEach(() => {
  logs = [];
  impl = fresh();
});

it("sets a branch's schedule, reads it back, changes it in place and clears it on delete", async () => {
  // Keys in any order: the state holds them in one, so the next diff does not depend on the program's.
  const checked = await check("daily", {
    branchId: branch(0),
    schedule: [{ retentionSeconds: 604800, hour: 3, frequency: "daily" }],
  });
  expect(checked.failures ?? []).toEqual([]);
  const { id, outs } = await impl.create(checked.inputs as Props);
  expect(id).toBe(`${projectId}/${branch(0)}`);
  expect(await api.snapshots.getSchedule(projectId, branch(0))).toEqual([
    { frequency: "daily", hour: 3, retention_seconds: 604800 },
  ]);
  expect(JSON.stringify((outs as Props).schedule)).toBe(
    JSON.stringify([{ frequency: "daily", hour: 3, retentionSeconds: 604800 }]),
  );
  const read = await impl.read(id, outs as Props);
  expect(read).toMatchObject({
    id,
    inputs: { projectId, branchId: branch(0), schedule: (outs as Props).schedule },
  });
  expect((await impl.diff(id, outs as Props, checked.inputs as Props)).changes).toBe(false);

  const weekly = [
    { frequency: "daily", hour: 3, retentionSeconds: 604800 },
    { frequency: "weekly", day: 7, hour: 1 },
  ];
  const changed = await check("daily", { branchId: branch(0), schedule: weekly }, checked.inputs as Props);
  expect(changed.failures ?? []).toEqual([]);
  expect(await impl.diff(id, outs as Props, changed.inputs as Props)).toMatchObject({
    changes: true,
    replaces: [],
  });
  const updated = await impl.update(id, outs as Props, changed.inputs as Props);
  expect((await api.snapshots.getSchedule(projectId, branch(0))).map((i) => i.frequency)).toEqual([
    "daily",
    "weekly",
  ]);
  // A changed branch replaces it: the old branch's schedule is cleared first.
  const moved = await check("daily", { branchId: branch(1), schedule: weekly }, changed.inputs as Props);
  expect(moved.failures ?? []).toEqual([]);
  expect(await impl.diff(id, updated.outs as Props, moved.inputs as Props)).toMatchObject({
    replaces: ["branchId"],
    deleteBeforeReplace: true,
  });

  await impl.delete(id, updated.outs as Props);
  expect(await api.snapshots.getSchedule(projectId, branch(0))).toEqual([]);
  expect(await impl.read(id, updated.outs as Props)).toEqual({});
  expect(logs.join("\n")).toMatch(/cleared outside the stack\); dropping it from the stack/);
});

it("refuses at preview a branch whose schedule no resource manages, with its importId; importId takes it over", async () => {
  await api.snapshots.setSchedule(projectId, branch(2), [{ frequency: "hourly" }]);
  const importId = `${projectId}/${branch(2)}`;
  const schedule = [{ frequency: "monthly", day: 1, hour: 0 }];
  const before = mutations();
  const refused = await check("held", { branchId: branch(2), schedule });
  expect(refused.failures).toEqual([
    { property: "branchId", reason: expect.stringContaining(`set importId: "${importId}"`) },
  ]);
  await expect(
    impl.create({ projectId, branchId: branch(2), schedule, __urn: urnOf("SnapshotSchedule", "held") }),
  ).rejects.toThrow(/already has a snapshot schedule \(1 frequency\) that no resource of this stack manages/);
  const elsewhere = await check("held", {
    branchId: branch(2),
    schedule,
    importId: `${projectId}/${branch(3)}`,
  });
  expect(elsewhere.failures).toEqual([
    { property: "importId", reason: expect.stringContaining("names another branch than this resource's") },
  ]);
  expect(mutations()).toBe(before);

  const taken = await check("held", { branchId: branch(2), schedule, importId });
  expect(taken.failures ?? []).toEqual([]);
  const { id, outs } = await impl.create(taken.inputs as Props);
  expect(id).toBe(importId);
  // The declared schedule replaces the one it took over.
  expect(await api.snapshots.getSchedule(projectId, branch(2))).toEqual([
    { frequency: "monthly", day: 1, hour: 0 },
  ]);
  // `pulumi import`: read by the id alone gives the inputs that describe it.
  expect((await fresh().read(importId)).inputs).toMatchObject({
    projectId,
    branchId: branch(2),
    schedule: [{ frequency: "monthly", day: 1, hour: 0 }],
  });
  await fresh().delete(id, outs as Props);
  expect(await api.snapshots.getSchedule(projectId, branch(2))).toEqual([]);
});

it("refuses at preview, with nothing sent: items outside the document's ranges, an empty schedule, an unknown branch, two resources of one branch", async () => {
  const before = mutations();
  const failures = async (schedule: unknown, branchId = branch(4)) =>
    (await check("bad", { branchId, schedule })).failures;
  const cases: Array<[unknown, string, RegExp]> = [
    [
      [{ frequency: "fortnightly" }],
      "schedule.0.frequency",
      /must be one of hourly, daily, weekly, monthly, yearly/,
    ],
    [[{ frequency: "daily", hour: 24 }], "schedule.0.hour", /must be 0 to 23/],
    [[{ frequency: "weekly", day: 0 }], "schedule.0.day", /must be 1 to 31/],
    [[{ frequency: "yearly", month: 13 }], "schedule.0.month", /must be 1 to 12/],
    [[{ frequency: "hourly", retentionSeconds: 60 }], "schedule.0.retentionSeconds", /must be at least 3600/],
    [[{ frequency: "daily", hour: 1.5 }], "schedule.0.hour", /must be a whole number/],
    [[{ frequency: "daily", minute: 5 }], "schedule.0", /minute/],
    [[], "schedule", /must hold at least one frequency; to stop .* remove the SnapshotSchedule/],
  ];
  for (const [schedule, property, reason] of cases) {
    expect(await failures(schedule)).toEqual([{ property, reason: expect.stringMatching(reason) }]);
  }
  expect(await failures([{ frequency: "daily" }], "br-no-such-branch-1")).toEqual([
    { property: "branchId", reason: expect.stringContaining("has no such branch") },
  ]);
  expect(
    (await check("first", { branchId: branch(5), schedule: [{ frequency: "daily" }] })).failures ?? [],
  ).toEqual([]);
  expect(
    (await check("second", { branchId: branch(5), schedule: [{ frequency: "hourly" }] })).failures,
  ).toEqual([
    {
      property: "branchId",
      reason: expect.stringContaining("already declared by another resource of this program (first)"),
    },
  ]);
  expect(mutations()).toBe(before);
});
