import * as pulumi from "@pulumi/pulumi";
// The same admission as the Compute classes (bench only: not a public entry point).
import { admit } from "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/compute/admission";

// A perfect provider: no requests, no polls, no listing; each project runs one "operation" at a
// time, exactly opMs long, back to back (a queue per project in the provider process, as the real
// provider's). What the engine makes of it is the floor any provider can reach.
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    const g = globalThis as unknown as { idealQueues?: Map<string, Promise<void>> };
    const queues = (g.idealQueues ??= new Map());
    const previous = queues.get(inputs.projectId) ?? Promise.resolve();
    const mine = previous.then(() => new Promise<void>((r) => setTimeout(r, inputs.opMs)));
    queues.set(inputs.projectId, mine);
    await mine;
    return { id: `${inputs.projectId}-${inputs.n}`, outs: inputs };
  },
};

class Ideal extends pulumi.dynamic.Resource {
  constructor(name: string, props: { projectId: string; n: number; opMs: number }, withAdmission: boolean) {
    const admitted = withAdmission ? admit(props, undefined) : { args: props, track: () => undefined };
    super(provider, name, admitted.args, undefined, "bench", "Ideal");
    admitted.track(this);
  }
}

const config = new pulumi.Config();
const projects = config.requireNumber("projects");
const count = config.requireNumber("count");
const opMs = config.requireNumber("opMs");
const order = config.get("order") ?? "project";
const withAdmission = config.getBoolean("admission") ?? true;
const declare = (p: number, i: number) =>
  new Ideal(`ideal-p${p}-${i}`, { projectId: `project-${p}`, n: i, opMs }, withAdmission);
if (order === "interleaved") {
  for (let i = 0; i < count; i++) for (let p = 0; p < projects; p++) declare(p, i);
} else {
  for (let p = 0; p < projects; p++) for (let i = 0; i < count; i++) declare(p, i);
}
