/**
 * A compute's suspend timeout of 0 means the project's default: the comparison of 0 with a number
 * goes through the project's own setting (else the service's 300 s), read only when it matters.
 */
import { diffCompute, PROJECT_SUSPEND_DEFAULT_KEY } from "../../../provider/resources/compute/diff";
import { withProjectDefault } from "../../../provider/resources/compute/project-default";
import { endpoint, fakeApi } from "../../support/fake-api";
import type { Checked } from "../../../provider/resources/kit";
import type { ComputeInputs } from "../../../provider/resources/compute/types";

// One fixture as the old state and as the new inputs: the same shape here.
const olds: Checked<ComputeInputs> = {
  projectId: "p-1",
  branchId: "br-a",
  type: "read_write",
  suspendTimeoutSeconds: 0,
};

describe("suspend timeout 0: the project's default", () => {
  it("0 against 300 is a change when the project's own default is 600, and none when it has none", async () => {
    const f = fakeApi([endpoint({ id: "ep-1", branch_id: "br-a" })]);
    const news = { ...olds, suspendTimeoutSeconds: 300 };
    // Without a default of its own, 0 means 300: nothing to apply.
    const plain = await withProjectDefault(f.api, olds, news);
    expect(diffCompute(plain, news).updates).toEqual([]);
    // The project's own default is 600: 0 means 600 there, so 300 must be applied.
    const project = f.projects.get("p-1")!;
    f.projects.set("p-1", { ...project, default_endpoint_settings: { suspend_timeout_seconds: 600 } });
    const withOwn = await withProjectDefault(f.api, olds, news);
    expect(withOwn[PROJECT_SUSPEND_DEFAULT_KEY]).toBe(600);
    expect(diffCompute(withOwn, news).updates).toEqual(["suspendTimeoutSeconds"]);
    // And 600 declared against 0 is then no change.
    const same = { ...olds, suspendTimeoutSeconds: 600 };
    expect(diffCompute(await withProjectDefault(f.api, olds, same), same).updates).toEqual([]);
  });

  it("reads the project only when exactly one side is 0", async () => {
    const f = fakeApi([endpoint({ id: "ep-1", branch_id: "br-a" })]);
    await withProjectDefault(f.api, olds, { ...olds });
    await withProjectDefault(
      f.api,
      { ...olds, suspendTimeoutSeconds: 300 },
      { ...olds, suspendTimeoutSeconds: 600 },
    );
    await withProjectDefault(f.api, olds, { projectId: "p-1", branchId: "br-a", type: "read_write" });
    expect(f.calls.filter((c) => c.startsWith("projects.get"))).toEqual([]);
    await withProjectDefault(f.api, olds, { ...olds, suspendTimeoutSeconds: 300 });
    expect(f.calls.filter((c) => c.startsWith("projects.get"))).toEqual(["projects.get p-1"]);
  });
});
