import * as pulumi from "@pulumi/pulumi";
import { COMPUTE_OUTPUT_KEYS } from "@neon-labs-unofficial/pulumi-neon-compute";

// A dynamic provider that does nothing: the baseline for the preview benchmark.
const provider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff() {
    return { changes: false };
  },
  async create(inputs) {
    // The lead-time benchmark notes when the first create reaches a provider (one request each).
    if (typeof inputs.pingUrl === "string") await fetch(inputs.pingUrl).catch(() => undefined);
    return { id: String(inputs.n), outs: inputs };
  },
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, props: pulumi.Inputs) {
    super(provider, name, props, undefined, "bench", "Noop");
  }
}

const config = new pulumi.Config();
const count = config.requireNumber("count");
// "compute": the same inputs and seeded outputs as the computes program declares, so that the
// comparison measures the provider, not the SDK's per-property cost. "minimal": one input.
const shape = config.get("shape") ?? "compute";
const pingUrl = config.get("pingUrl");
for (let i = 0; i < count; i++) {
  const props =
    shape === "minimal"
      ? { n: i, pingUrl }
      : {
          ...Object.fromEntries(COMPUTE_OUTPUT_KEYS.map((key) => [key, undefined])),
          n: i,
          projectId: "bench-project",
          branchId: `br-bench-${i}`,
          type: "read_write",
          cu: 0.25,
          __urn: `urn:bench:${i}`,
          pingUrl,
        };
  new Noop(`noop-${i}`, props);
}
