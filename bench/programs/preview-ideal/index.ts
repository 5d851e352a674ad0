import * as pulumi from "@pulumi/pulumi";

// A perfect provider for one pull-request environment: no API requests, no polls, no retries. Each
// create asks the benchmark's queue (one per project, first come first served across every process)
// for `ops` operations of `opMs` and returns as soon as they are over, as if the provider knew when
// the project's lock frees. What the engine and CLI make of it is the floor any provider can reach.
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    const res = await fetch(`${inputs.queueUrl}?ops=${inputs.ops}&ms=${inputs.opMs}`, { method: "POST" });
    if (!res.ok) throw new Error(`the benchmark's queue answered HTTP ${res.status}`);
    return { id: `${inputs.kind}-${await res.text()}`, outs: inputs };
  },
};

class Ideal extends pulumi.dynamic.Resource {
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>) {
    super(provider, name, props, undefined, "bench", "Ideal");
  }
}

const config = new pulumi.Config();
const common = { queueUrl: config.require("queueUrl"), opMs: config.requireNumber("opMs") };
// The same shape as examples/preview-environment: a branch (with its compute), a role on it, a
// database owned by the role, and a connection string from the three.
const branch = new Ideal(pulumi.getStack(), {
  ...common,
  kind: "branch",
  ops: config.requireNumber("branchOps"),
});
const role = new Ideal("app", {
  ...common,
  kind: "role",
  ops: config.requireNumber("roleOps"),
  after: branch.id,
});
const database = new Ideal("app-db", {
  ...common,
  kind: "database",
  ops: config.requireNumber("databaseOps"),
  after: role.id,
});
export const connectionUri = pulumi.secret(pulumi.interpolate`postgresql://app@${branch.id}/${database.id}`);
