/**
 * The classes the kit makes keep the statics users rely on: `Compute.isInstance(x)` is true for that
 * class's instances only (by class in the dynamic face, where every resource has the engine type
 * `pulumi-nodejs:dynamic:Resource`; by type token in the plugin face, as generated SDKs do), and the
 * plugin classes carry their token. Under the SDK's mock monitor: no engine involved.
 */
import * as pulumi from "@pulumi/pulumi";

pulumi.runtime.setMocks(
  {
    newResource: async (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    call: () => ({}),
  },
  "project",
  "stack",
  false,
);

// Loaded after the mocks are set, as a program loads it after the runtime is configured.
const neon = require("../../../provider") as typeof import("../../../provider");

test("isInstance tells each class's instances apart, in both faces", async () => {
  process.env.NEON_COMPUTE_ADMISSION = "off";
  const compute = new neon.Compute("c", { projectId: "p", branchId: "br", type: "read_only" });
  const key = new neon.ApiKey("k", { name: "ci" });
  const pluginCompute = new neon.plugin.Compute("pc", { projectId: "p", branchId: "br", type: "read_only" });
  expect(neon.Compute.isInstance(compute)).toBe(true);
  expect(neon.Compute.isInstance(key)).toBe(false);
  expect(neon.ApiKey.isInstance(key)).toBe(true);
  expect(neon.Compute.isInstance(pluginCompute)).toBe(false);
  expect(neon.plugin.Compute.isInstance(pluginCompute)).toBe(true);
  expect(neon.plugin.Compute.isInstance(compute)).toBe(false);
  expect(neon.plugin.Compute.isInstance({ __pulumiType: "neoncompute:index:Compute" })).toBe(true);
  expect(neon.plugin.ApiKey.isInstance(pluginCompute)).toBe(false);
  expect(neon.Compute.isInstance(undefined)).toBe(false);
  // Let the registrations (and the dynamic providers' serialization) finish inside the test.
  const ids = [compute, key, pluginCompute].map((r) => new Promise((done) => r.id.apply(done)));
  expect(await Promise.all(ids)).toEqual(["c-id", "k-id", "pc-id"]);
  delete process.env.NEON_COMPUTE_ADMISSION;
});
