/**
 * A green preview means a green up (issue 25): what `up` would have refused is refused by check, at
 * preview, with one read at most and nothing sent — a wrong project, an invalid key, a branch name
 * where an id is wanted, a size above a Free project's limit, a database owner that is no role of the
 * branch. Against the emulator over real HTTP, the steps called as the engine calls them.
 */
import type { EmulatorHandle } from "../../../emulator";
import { resourceKind } from "../../../provider/registry";
import { bind } from "../../../provider/resources/kit";
import { Runtime } from "../../../provider/resources/runtime";
import { boundResource, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;

const settings = () => ({ apiKey: emulator.apiKey, apiUrl: emulator.url });
const mutations = () => mutationCount(emulator);

withEmulator(
  { opMs: 30, seed: 25 },
  (e) => {
    emulator = e;
  },
  { resetEach: true },
);

async function failuresOf(type: string, name: string, news: Props, apiKey?: string): Promise<Props[]> {
  const impl = boundResource(type, apiKey ? { ...settings(), apiKey } : settings());
  const before = mutations();
  const r = await impl.check({}, { __urn: urnOf(type, name), ...news });
  expect(mutations()).toBe(before);
  return (r.failures ?? []) as unknown as Props[];
}

describe("the table of issue 25: each mistake fails the preview", () => {
  it("a wrong projectId on a new Branch", async () => {
    expect(await failuresOf("Branch", "b", { projectId: "wrong-project-1" })).toEqual([
      expect.objectContaining({
        property: "projectId",
        reason: expect.stringMatching(/cannot see this project/),
      }),
    ]);
  });

  it("an invalid API key", async () => {
    const impl = boundResource("Branch", { ...settings(), apiKey: "wrong" });
    await expect(
      impl.check({}, { __urn: urnOf("Branch", "b"), projectId: emulator.seed.projectId }),
    ).rejects.toThrow(/401|API key/);
  });

  it("maxCu 4 on a Free-plan project (a Branch's compute and a Compute), and not on a paid one", async () => {
    const free = emulator.seed.freeProjectId;
    expect(await failuresOf("Branch", "b", { projectId: free, compute: { minCu: 1, maxCu: 4 } })).toEqual([
      expect.objectContaining({
        property: "compute",
        reason: expect.stringMatching(/above the free plan's 2 CU/),
      }),
    ]);
    expect(
      await failuresOf("Compute", "c", {
        projectId: free,
        branchId: emulator.seed.freeProjectBranchIds[1] ?? emulator.seed.freeProjectBranchId,
        type: "read_only",
        minCu: 1,
        maxCu: 4,
      }),
    ).toEqual([expect.objectContaining({ property: "maxCu" })]);
    expect(
      await failuresOf("Branch", "b", {
        projectId: emulator.seed.projectId,
        compute: { minCu: 1, maxCu: 4 },
      }),
    ).toEqual([]);
  });

  it('parentId: "main", a name where the id is wanted, with the id in the message', async () => {
    const [f] = await failuresOf("Branch", "b", { projectId: emulator.seed.projectId, parentId: "main" });
    expect(f).toMatchObject({ property: "parentId" });
    expect(String(f.reason)).toContain(
      `"main" is the name of a branch; its id is ${emulator.seed.defaultBranchId}`,
    );
  });

  it("a Database whose ownerName is no role of the branch, unless a Role of the program declares it", async () => {
    const where = { projectId: emulator.seed.projectId, branchId: emulator.seed.branchIds[2] };
    expect(await failuresOf("Database", "d", { ...where, name: "app", ownerName: "nobody" })).toEqual([
      expect.objectContaining({
        property: "ownerName",
        reason: expect.stringMatching(/not a role of branch/),
      }),
    ]);
    // Declared in the same program (the same provider instance checks the Role first).
    const rt = new Runtime({ settings: settings() });
    const role = bind(resourceKind("Role"), rt);
    const db = bind(resourceKind("Database"), rt);
    expect(
      (await role.check({}, { ...where, name: "nobody", __urn: urnOf("Role", "r") })).failures ?? [],
    ).toEqual([]);
    const r = await db.check(
      {},
      { ...where, name: "app", ownerName: "nobody", __urn: urnOf("Database", "d") },
    );
    expect(r.failures ?? []).toEqual([]);
  });
});
