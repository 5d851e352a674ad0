/**
 * The lookups (getProjects, getOperations, getCompute, getComputes, getBranches) against the emulator over real
 * HTTP, as a program would call them (key and URL from the environment).
 */
import * as pulumi from "@pulumi/pulumi";
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import {
  getBranches,
  getBranchesOutput,
  getCompute,
  getComputes,
  getComputesOutput,
  getOperations,
  getProjects,
} from "../../../provider/lookups";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let branches: string[];

/** A read_only compute on a seeded non-default branch, its operations finished (emulator clock). */
async function makeCompute(branchId: string) {
  const made = await api.endpoints.create(projectId, { branch_id: branchId, type: "read_only" });
  emulator.clock.advance(5_000);
  return made.endpoint;
}

withEmulator({ opMs: 40, seed: 12 }, (e, client) => {
  emulator = e;
  api = client;
  ({ projectId, branchIds: branches } = emulator.seed);
  process.env.NEON_API_KEY = emulator.apiKey;
  process.env.NEON_API_URL = emulator.url;
});

afterAll(async () => {
  delete process.env.NEON_API_KEY;
  delete process.env.NEON_API_URL;
});

describe("getOperations", () => {
  it("walks the cursor across pages up to the limit, newest first as the service returns them", async () => {
    const before = emulator.requestCount();
    const ops = await getOperations({ projectId, limit: 8, pageSize: 3 });
    // 8 operations at 3 per page: three requests, no more.
    expect(emulator.requestCount() - before).toBe(3);
    const onePage = (await api.operations.listPage(projectId, { limit: 8 })).operations;
    expect(ops.map((o) => o.id)).toEqual(onePage.map((o) => o.id));
    expect(ops[0]).toEqual({
      id: onePage[0].id,
      projectId,
      branchId: onePage[0].branch_id,
      ...(onePage[0].endpoint_id !== undefined ? { endpointId: onePage[0].endpoint_id } : {}),
      action: onePage[0].action,
      status: onePage[0].status,
      failuresCount: onePage[0].failures_count,
      createdAt: onePage[0].created_at,
      updatedAt: onePage[0].updated_at,
      ...(onePage[0].total_duration_ms !== undefined
        ? { totalDurationMs: onePage[0].total_duration_ms }
        : {}),
    });
    const times = ops.map((o) => o.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("stops at the end of the history when the limit is larger", async () => {
    const all = await getOperations({ projectId, limit: 10_000, pageSize: 7 });
    const direct = (await api.operations.listPage(projectId, { limit: 1000 })).operations;
    // The seeded history spans several pages of 7.
    expect(direct.length).toBeGreaterThan(14);
    expect(all.map((o) => o.id)).toEqual(direct.map((o) => o.id));
  });

  it("keeps only the operations of endpointId, still up to the limit", async () => {
    const a = await makeCompute(branches[1]);
    await makeCompute(branches[2]);
    const ops = await getOperations({ projectId, endpointId: a.id, limit: 5, pageSize: 2 });
    expect(ops.length).toBeGreaterThan(0);
    expect(ops.every((o) => o.endpointId === a.id)).toBe(true);
    expect(ops.map((o) => o.action)).toContain("start_compute");
  });

  it("requires a positive limit", async () => {
    await expect(getOperations({ projectId, limit: 0 })).rejects.toThrow(
      /limit must be a positive whole number/,
    );
  });
});

describe("getProjects", () => {
  it("lists, filters by organization and search, and honours the limit", async () => {
    const all = await getProjects();
    expect(all.map((p) => p.id).sort()).toEqual([emulator.seed.freeProjectId, projectId].sort());
    const main = all.find((p) => p.id === projectId);
    expect(main).toMatchObject({
      orgId: emulator.seed.orgId,
      regionId: "aws-us-east-2",
      createdAt: expect.any(String),
    });
    expect((await getProjects({ orgId: emulator.seed.orgId })).map((p) => p.id)).toEqual([projectId]);
    expect((await getProjects({ search: "emulator-main" })).map((p) => p.id)).toEqual([projectId]);
    expect(await getProjects({ limit: 1 })).toHaveLength(1);
  });
});

describe("getBranches", () => {
  it("lists every branch with its annotations and the stack that made it; search narrows; an Output variant", async () => {
    const made = await api.branches.create(projectId, {
      branch: { name: "pr-77" },
      annotation_value: {
        "pulumi-project": "acme",
        "pulumi-stack": "pr-77",
        "pulumi-resource": "abc",
        pr: "77",
      },
    });
    const all = await getBranches({ projectId });
    expect(all.length).toBe(26); // main, dev-01 … dev-24, pr-77
    expect(all.find((b) => b.branchId === made.branch.id)).toMatchObject({
      name: "pr-77",
      projectId,
      parentId: emulator.seed.defaultBranchId,
      default: false,
      protected: false,
      stack: "acme/pr-77",
      annotations: { pr: "77", "pulumi-stack": "pr-77" },
    });
    const main = all.find((b) => b.default);
    expect(main).toMatchObject({ branchId: emulator.seed.defaultBranchId, annotations: {} });
    expect(main?.stack).toBeUndefined();
    expect((await getBranches({ projectId, search: "pr-7" })).map((b) => b.branchId)).toEqual([
      made.branch.id,
    ]);
    const out = getBranchesOutput({ projectId: pulumi.output(projectId), search: "pr-77" });
    const value = await new Promise((resolve) => out.apply(resolve));
    expect(value).toEqual([expect.objectContaining({ branchId: made.branch.id })]);
  });
});

describe("getCompute / getComputes", () => {
  it("reads one compute and lists a project's or a branch's computes in camelCase", async () => {
    const ep = await makeCompute(branches[3]);
    const one = await getCompute({ projectId, endpointId: ep.id });
    expect(one).toMatchObject({
      endpointId: ep.id,
      projectId,
      branchId: branches[3],
      type: "read_only",
      host: ep.host,
      minCu: ep.autoscaling_limit_min_cu,
      maxCu: ep.autoscaling_limit_max_cu,
      pgSettings: {},
    });
    expect(Object.keys(one).some((k) => k.includes("_"))).toBe(false);
    expect((await getComputes({ projectId })).map((c) => c.endpointId)).toContain(ep.id);
    expect((await getComputes({ projectId, branchId: branches[3] })).map((c) => c.endpointId)).toEqual([
      ep.id,
    ]);
  });

  it("has an Output variant taking Inputs", async () => {
    const ep = await makeCompute(branches[4]);
    const out = getComputesOutput({ projectId: pulumi.output(projectId), branchId: branches[4] });
    const value = await new Promise((resolve) => out.apply(resolve));
    expect(value).toEqual([expect.objectContaining({ endpointId: ep.id })]);
  });

  it("fails with a message naming the compute when it does not exist", async () => {
    await expect(getCompute({ projectId, endpointId: "ep-missing-1" })).rejects.toThrow(
      /Failed to read compute ep-missing-1/,
    );
  });

  it("says how to set the key when none is set", async () => {
    const key = process.env.NEON_API_KEY;
    delete process.env.NEON_API_KEY;
    try {
      await expect(getComputes({ projectId })).rejects.toThrow(/neon:apiKey.*NEON_API_KEY/);
    } finally {
      process.env.NEON_API_KEY = key;
    }
  });
});
