/**
 * `Branch` from its parent's past and schema-only (issue 27 item 5), against the emulator over real
 * HTTP, its clock moved by the test: `parentTimestamp` outside the project's history retention, in the
 * future or before the parent was made fails at preview (when the branch is to be made — new, or
 * replaced — never for a branch made while it was valid); `initSource: "schema-only"` makes a root
 * branch with its compute; `parentLsn` is sent and read back; all three replace on a change and
 * change nothing when removed.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { boundResource, urnOf } from "../../support/provider";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let logs: string[];
let impl: ReturnType<typeof boundResource>;

const HOUR = 3_600_000;
const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
const posts = () => emulator.requestsByRoute()["POST /projects/:project_id/branches"] ?? 0;
const inputs = (name: string, extra: Props): Props => ({
  projectId,
  __provider: "shim",
  __urn: urnOf("Branch", name),
  name,
  ...extra,
});

withEmulator({ opMs: 10, seed: 41 }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
  // The seeded branches were made when the emulator started: give them three hours of history.
  emulator.clock.advance(3 * HOUR);
});

beforeEach(() => {
  logs = [];
  impl = boundResource("Branch", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));
});

describe("parentTimestamp", () => {
  it("outside the history retention, in the future or before the parent was made: refused at preview, nothing sent", async () => {
    const before = posts();
    const now = emulator.clock.now();
    const cases: Array<[number, RegExp]> = [
      [
        now - 2 * 24 * HOUR,
        /older than the history project .* keeps \(history_retention_seconds 86400: from .*\); give a later time, or raise/,
      ],
      [now + HOUR, /is in the future \(the service's time is .*\)/],
    ];
    for (const [when, reason] of cases) {
      const r = await impl.check({}, inputs("pit-bad", { parentTimestamp: at(when) }));
      expect(r.failures).toEqual([{ property: "parentTimestamp", reason: expect.stringMatching(reason) }]);
    }
    expect(posts()).toBe(before);
    // A parent made a moment ago has no history from an hour ago.
    const parent = await impl.create((await impl.check({}, inputs("young-parent", {}))).inputs);
    const young = await impl.check(
      {},
      inputs("pit-bad", { parentId: parent.id, parentTimestamp: at(now - HOUR) }),
    );
    expect(young.failures).toEqual([
      {
        property: "parentTimestamp",
        reason: expect.stringMatching(
          new RegExp(`is before branch ${parent.id} was made \\(.*\\); give a time after that`),
        ),
      },
    ]);
    expect(posts()).toBe(before + 1);
  });

  it("inside the window: the branch starts there (recorded by the service); a refresh shows no change, a later preview does not judge it again, a replacement does", async () => {
    const when = at(emulator.clock.now() - HOUR);
    // Any spelling of the instant: checked and sent in the service's UTC form.
    const offset = new Date(Date.parse(when) + HOUR).toISOString().replace(".000Z", "+01:00");
    const news = (await impl.check({}, inputs("pit", { parentTimestamp: offset }))).inputs;
    expect(news.parentTimestamp).toBe(when);
    const made = await impl.create(news);
    const outs = made.outs as Props;
    const b = await api.branches.get(projectId, made.id);
    expect(Date.parse(String(b.parent_timestamp))).toBe(Date.parse(when));
    expect(outs).toMatchObject({ parentTimestamp: when, initSource: "parent-data" });
    const read = await impl.read(made.id, outs);
    expect((await impl.diff(made.id, read.props as Props, news)).changes).toBe(false);
    // Removed from the program: the branch stays as it was made.
    const { parentTimestamp: _dropped, ...rest } = news;
    expect((await impl.diff(made.id, outs, rest)).changes).toBe(false);

    // Two days later the time has left the window: the branch is fine, previews pass. (The engine
    // gives check the old inputs, and diff the old outputs.)
    emulator.clock.advance(2 * 24 * HOUR);
    const later = boundResource("Branch", { apiKey: emulator.apiKey, apiUrl: emulator.url }, () => {});
    const same = await later.check(news, inputs("pit", { parentTimestamp: when }));
    expect(same.failures ?? []).toEqual([]);
    expect((await later.diff(made.id, outs, same.inputs)).changes).toBe(false);
    // Declaring what the branch already is (its parent, parent-data) is no replacement, and not judged.
    const explicit = await later.check(
      news,
      inputs("pit", { parentTimestamp: when, parentId: outs.parentId, initSource: "parent-data" }),
    );
    expect(explicit.failures ?? []).toEqual([]);
    expect((await later.diff(made.id, outs, explicit.inputs)).changes).toBe(false);
    // ...but a replacement (another parent) would make it again from a time the project no longer
    // keeps, after deleting this one: refused by the diff, at preview and before any delete.
    const moved = await later.check(
      news,
      inputs("pit", { parentTimestamp: when, parentId: emulator.seed.branchIds[1] }),
    );
    expect(moved.failures ?? []).toEqual([]);
    const deletes = () => emulator.requestsByRoute()["DELETE /projects/:project_id/branches/:branch_id"] ?? 0;
    const before = deletes();
    await expect(later.diff(made.id, outs, moved.inputs)).rejects.toThrow(
      new RegExp(
        `Failed to replace branch ${made.id}: parentTimestamp .* is older than the history .*Nothing was deleted`,
      ),
    );
    expect(deletes()).toBe(before);
    expect((await api.branches.get(projectId, made.id)).id).toBe(made.id);

    // A new time well inside the window replaces the branch (a create-time fact); one that leaves the
    // window within the replacement's margin is refused.
    const edge = at(emulator.clock.now() - 24 * HOUR + 5 * 60_000);
    const tight = await later.check(news, inputs("pit", { parentTimestamp: edge }));
    await expect(later.diff(made.id, outs, tight.inputs)).rejects.toThrow(
      /a replacement, which deletes the old branch first, needs 30 minutes more of it/,
    );
    const fresh = at(emulator.clock.now() - HOUR);
    const replaced = await later.check(news, inputs("pit", { parentTimestamp: fresh }));
    expect(replaced.failures ?? []).toEqual([]);
    const d = await later.diff(made.id, outs, replaced.inputs);
    expect(d.replaces).toEqual(["parentTimestamp"]);
  });
});

describe("initSource and parentLsn", () => {
  it('"schema-only" needs the compute and refuses a reset; with it, a root branch whose compute runs', async () => {
    const bare = await impl.check({}, inputs("schema", { initSource: "schema-only" }));
    expect(bare.failures).toEqual([
      { property: "initSource", reason: expect.stringMatching(/needs the branch's compute.*add compute/) },
    ]);
    const reset = await impl.check(
      {},
      inputs("schema", { initSource: "schema-only", compute: { cu: 0.25 }, resetTrigger: "1" }),
    );
    expect(reset.failures).toEqual([
      { property: "resetTrigger", reason: expect.stringMatching(/no parent to be reset to/) },
    ]);
    const news = (
      await impl.check({}, inputs("schema", { initSource: "schema-only", compute: { cu: 0.25 } }))
    ).inputs;
    const made = await impl.create(news);
    const b = await api.branches.get(projectId, made.id);
    expect([b.init_source, b.parent_id]).toEqual(["schema-only", undefined]);
    const outs = made.outs as Props;
    expect(outs).toMatchObject({ initSource: "schema-only", computeState: "active" });
    const read = await impl.read(made.id, outs);
    expect((await impl.diff(made.id, read.props as Props, news)).changes).toBe(false);
    // A change to parent-data makes it again (with the parent's data): a replacement, said at preview.
    const d = await impl.diff(made.id, outs, { ...news, initSource: "parent-data" });
    expect(d.replaces).toEqual(["initSource"]);
  });

  it("parentLsn is sent and read back; a malformed one, or one beside parentTimestamp, fails its check", async () => {
    const bad = await impl.check({}, inputs("lsn", { parentLsn: "yesterday" }));
    expect(bad.failures).toEqual([
      { property: "parentLsn", reason: expect.stringMatching(/must be a log position such as "0\/1F2A3B8"/) },
    ]);
    const both = await impl.check(
      {},
      inputs("lsn", { parentLsn: "0/1F2A3B8", parentTimestamp: at(emulator.clock.now() - HOUR) }),
    );
    expect(both.failures).toEqual([
      { property: "parentLsn", reason: expect.stringMatching(/give one of them/) },
    ]);
    const made = await impl.create((await impl.check({}, inputs("lsn", { parentLsn: "0/1F2A3B8" }))).inputs);
    expect((await api.branches.get(projectId, made.id)).parent_lsn).toBe("0/1F2A3B8");
    expect((made.outs as Props).parentLsn).toBe("0/1F2A3B8");
  });

  it("adoptDefault refuses them: the default branch exists already", async () => {
    const r = await impl.check({}, inputs("adopt", { adoptDefault: true, initSource: "schema-only" }));
    expect(r.failures).toContainEqual({
      property: "initSource",
      reason: expect.stringMatching(/shape a new branch, and adoptDefault takes over .*; remove it/),
    });
  });
});
