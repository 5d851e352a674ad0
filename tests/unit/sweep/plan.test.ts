/**
 * The sweep's verdicts (provider/sweep.ts): only a branch this package annotated, of a stack gone from
 * the backend (or, with no backend given, older than the age), is swept; never the default branch, a
 * protected one, a parent of other branches, a live stack's, or an unannotated one. Pure: no clock.
 */
import { planSweep } from "../../../provider/sweep";
import type { BranchInfo } from "../../../provider/lookups";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const DAY = 86_400_000;

function branch(id: string, extra: Partial<BranchInfo> = {}): BranchInfo {
  return {
    branchId: id,
    projectId: "p",
    name: id,
    default: false,
    protected: false,
    createdAt: new Date(NOW - 10 * DAY).toISOString(),
    annotations: {},
    ...extra,
  };
}

const made = (stack: string, extra: Partial<BranchInfo> = {}) => {
  const [project, name] = stack.split("/");
  return { annotations: { "pulumi-project": project, "pulumi-stack": name }, stack, ...extra };
};

const BRANCHES = [
  branch("br-main", { default: true, ...made("app/prod") }),
  branch("br-leaked", made("app/pr-41")),
  branch("br-live", made("app/pr-42")),
  branch("br-protected", made("app/pr-43", { protected: true })),
  branch("br-foreign", { annotations: { owner: "someone" } }),
  branch("br-parent", made("app/pr-44")),
  branch("br-child", made("app/pr-45", { parentId: "br-parent" })),
  branch("br-young", made("app/pr-46", { createdAt: new Date(NOW - 3600_000).toISOString() })),
];

const swept = (v: ReturnType<typeof planSweep>) => v.filter((x) => x.sweep).map((x) => x.branch.branchId);

describe("planSweep", () => {
  it("with the backend's stacks: sweeps only the annotated branches of stacks that are gone", () => {
    const v = planSweep(BRANCHES, { liveStacks: ["app/pr-42", "app/prod"], now: NOW });
    expect(swept(v)).toEqual(["br-leaked", "br-child", "br-young"]);
    const why = Object.fromEntries(v.map((x) => [x.branch.branchId, x.reason]));
    expect(why["br-leaked"]).toBe("its stack app/pr-41 no longer exists in the backend");
    expect(why["br-main"]).toBe("the project's default branch");
    expect(why["br-live"]).toMatch(/its stack app\/pr-42 exists/);
    expect(why["br-protected"]).toMatch(/^protected/);
    expect(why["br-foreign"]).toMatch(/not made by this package/);
    expect(why["br-parent"]).toMatch(/other branches start from it/);
  });

  it("with an age only: sweeps the annotated branches older than it, never a young one", () => {
    const v = planSweep(BRANCHES, { olderThanSeconds: 7 * 86_400, now: NOW });
    expect(swept(v)).toEqual(["br-leaked", "br-live", "br-child"]);
    expect(v.find((x) => x.branch.branchId === "br-leaked")?.reason).toBe(
      "made by stack app/pr-41 10 d ago, older than 604800 s",
    );
    expect(v.find((x) => x.branch.branchId === "br-young")?.reason).toBe("made by stack app/pr-46 1 h ago");
  });

  it("a live stack's branch is kept whatever its age", () => {
    const v = planSweep(BRANCHES, { liveStacks: ["app/pr-42"], olderThanSeconds: 1, now: NOW });
    expect(v.find((x) => x.branch.branchId === "br-live")?.sweep).toBe(false);
  });

  it("keeps the branches of a Pulumi project the backend lists no stack of, unless allowed", () => {
    const other = [...BRANCHES, branch("br-other", made("billing/pr-7"))];
    const v = planSweep(other, { liveStacks: ["app/pr-42"], now: NOW });
    expect(v.find((x) => x.branch.branchId === "br-other")).toMatchObject({
      sweep: false,
      reason: expect.stringMatching(/backend lists no stack of Pulumi project billing at all/),
    });
    expect(swept(v)).toContain("br-leaked");
    // An empty backend: nothing at all is swept.
    expect(swept(planSweep(other, { liveStacks: [], now: NOW }))).toEqual([]);
    expect(swept(planSweep(other, { liveStacks: [], allowEmptyProjects: true, now: NOW }))).toEqual([
      "br-leaked",
      "br-live",
      "br-child",
      "br-young",
      "br-other",
    ]);
  });

  it("refuses to decide with neither the backend's stacks nor an age", () => {
    expect(() => planSweep(BRANCHES, { now: NOW })).toThrow(/needs the backend's stacks .* or an age/);
  });
});
