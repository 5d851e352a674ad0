import { diffCompute } from "../../../provider/resources/compute/diff";
import { autoName } from "../../../provider/resources/compute/recovery";
import { UNKNOWN } from "../../../provider/resources/compute/inputs";
import type { Checked, Stated } from "../../../provider/resources/kit";
import type { ComputeInputs, ComputeOutputs } from "../../../provider/resources/compute/types";

// Old outputs as create leaves them: inputs overlaid with what the API reports.
const olds: Stated<ComputeOutputs> = {
  __provider: "serialized",
  projectId: "p-1",
  branchId: "br-a",
  type: "read_write",
  minCu: 1,
  maxCu: 1,
  regionId: "aws-us-east-2",
  suspendTimeoutSeconds: 0,
  pgSettings: { work_mem: "4096" },
  poolerEnabled: false,
  poolerMode: "transaction",
  disabled: false,
  provisioner: "k8s-neonvm",
  endpointId: "ep-1",
  host: "ep-1.example",
  currentState: "idle",
};
const news: Checked<ComputeInputs> = {
  __provider: "changed code",
  projectId: "p-1",
  branchId: "br-a",
  type: "read_write",
  minCu: 1,
  maxCu: 1,
  pgSettings: { work_mem: "4096" },
};

describe("diff", () => {
  it("reports no change when nothing changed, whatever the provider code or outputs", () => {
    expect(diffCompute(olds, news)).toMatchObject({ changes: false, replaces: [], updates: [] });
  });

  it.each<[string, Partial<ComputeInputs>]>([
    ["suspend timeout echoed as 0 vs 300", { suspendTimeoutSeconds: 300 }],
    [
      "default pooler and disabled written out",
      { poolerEnabled: false, disabled: false, poolerMode: "transaction" },
    ],
    ["unset sizes, name, region and provisioner", { minCu: undefined, maxCu: undefined }],
  ])("treats normalised values as equal: %s", (_label, patch) => {
    expect(diffCompute(olds, { ...news, ...patch }).changes).toBe(false);
  });

  it.each(["projectId", "type", "regionId"])("replaces on %s", (key) => {
    const value = key === "type" ? "read_only" : "other-value";
    const d = diffCompute(olds, { ...news, [key]: value });
    expect(d).toMatchObject({ changes: true, replaces: [key], deleteBeforeReplace: true });
  });

  it("deletes first when replacing a read_only compute too, so a replacement never runs beside its original", () => {
    const d = diffCompute(
      { ...olds, type: "read_only" },
      { ...news, type: "read_only", regionId: "aws-eu-1" },
    );
    expect(d).toMatchObject({ replaces: ["regionId"], deleteBeforeReplace: true });
  });

  it("treats an unset suspend timeout as the platform's choice, whatever the API echoes", () => {
    expect(diffCompute({ ...olds, suspendTimeoutSeconds: 10800 }, news).changes).toBe(false);
    expect(
      diffCompute({ ...olds, suspendTimeoutSeconds: 600 }, { ...news, suspendTimeoutSeconds: 0 }).updates,
    ).toEqual(["suspendTimeoutSeconds"]);
  });

  it.each([
    ["branchId", "br-b"],
    ["suspendTimeoutSeconds", -1],
    ["disabled", true],
    ["name", "primary"],
    ["provisioner", "k8s-pod"],
    ["restartTrigger", "2"],
  ])("updates %s in place", (key, value) => {
    const d = diffCompute(olds, { ...news, [key]: value });
    // Still "delete first": the engine reads it when replaceOnChanges turns this update into a replacement.
    expect(d).toMatchObject({ changes: true, replaces: [], updates: [key], deleteBeforeReplace: true });
    expect(d.restartWarning).toBeUndefined();
  });

  it("a retired pooler setting changes nothing: no update, no replacement", () => {
    const d = diffCompute(olds, { ...news, poolerEnabled: true, poolerMode: "transaction" });
    expect(d).toMatchObject({ changes: false, replaces: [], updates: [] });
  });

  it("updates sizes in place and warns that the compute restarts", () => {
    const d = diffCompute(olds, { ...news, minCu: 2, maxCu: 2 });
    expect(d).toMatchObject({ replaces: [], updates: ["minCu", "maxCu"] });
    expect(d.restartWarning).toMatch(/1 CU → 2 CU.*restarts the compute and drops its open connections/);
    expect(diffCompute(olds, { ...news, minCu: 0.5, maxCu: 4 }).restartWarning).toMatch(/0\.5–4 CU/);
  });

  it("sees a removed pg_settings key as a change", () => {
    expect(diffCompute(olds, { ...news, pgSettings: {} }).updates).toEqual(["pgSettings"]);
    expect(diffCompute(olds, { ...news, pgSettings: undefined }).updates).toEqual(["pgSettings"]);
    expect(diffCompute(olds, { ...news, pgSettings: { work_mem: "4096", x: "1" } }).updates).toEqual([
      "pgSettings",
    ]);
  });

  it("treats values unknown during preview as changes", () => {
    expect(diffCompute(olds, { ...news, branchId: UNKNOWN }).updates).toEqual(["branchId"]);
    expect(diffCompute(olds, { ...news, projectId: UNKNOWN }).replaces).toEqual(["projectId"]);
    expect(diffCompute(olds, { ...news, pgSettings: { work_mem: UNKNOWN } }).updates).toEqual(["pgSettings"]);
  });

  it("does not restart when restartTrigger is removed", () => {
    expect(diffCompute({ ...olds, restartTrigger: "1" }, news).changes).toBe(false);
  });
});

describe("auto-names", () => {
  const urn = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/neon:Compute::primary";

  it("are stable for one resource and differ for a replacement or another stack", () => {
    const rw = { projectId: "p-1", type: "read_write" as const };
    expect(autoName(urn, rw)).toBe(autoName(urn, { ...rw }));
    expect(autoName(urn, rw)).toMatch(/^primary-[0-9a-f]{7}$/);
    expect(autoName(urn, { ...rw, type: "read_only" })).not.toBe(autoName(urn, rw));
    expect(autoName(urn, { ...rw, regionId: "aws-eu-1" })).not.toBe(autoName(urn, rw));
    expect(autoName(urn, { ...rw, projectId: "p-2" })).not.toBe(autoName(urn, rw));
    expect(autoName(urn.replace("dev::", "prod::"), rw)).not.toBe(autoName(urn, rw));
  });
});
