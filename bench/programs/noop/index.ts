import * as pulumi from "@pulumi/pulumi";

const provider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff() {
    return { changes: false };
  },
  async create(inputs) {
    return { id: String(inputs.n), outs: inputs };
  },
};

class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, n: number) {
    super(provider, name, { n }, undefined, "bench", "Noop");
  }
}

const config = new pulumi.Config();
const count = config.requireNumber("count");
for (let i = 0; i < count; i++) new Noop(`noop-${i}`, i);
