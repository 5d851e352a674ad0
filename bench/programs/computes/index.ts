import * as pulumi from "@pulumi/pulumi";
import { Compute } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const cu = config.getNumber("cu") ?? 0.25;
// One project (projectId, branchIds), or several: targets = [{ projectId, branchIds }, …], count each.
const targets = config.getObject<{ projectId: string; branchIds: string[] }[]>("targets") ?? [
  { projectId: config.require("projectId"), branchIds: config.requireObject<string[]>("branchIds") },
];

// "project" (default): all computes of one project, then the next project's. "interleaved": the i-th
// compute of every project, then the (i+1)-th (the declaration order decides which resources get the
// engine's parallel slots first).
const order = config.get("order") ?? "project";
const declare = (p: number, i: number) => {
  const { projectId, branchIds } = targets[p];
  new Compute(p === 0 ? `compute-${i}` : `compute-p${p}-${i}`, {
    projectId,
    branchId: branchIds[i % branchIds.length],
    type: i < branchIds.length ? "read_write" : "read_only",
    cu,
  });
};
if (order === "interleaved") {
  for (let i = 0; i < count; i++) targets.forEach((_, p) => declare(p, i));
} else {
  targets.forEach((_, p) => {
    for (let i = 0; i < count; i++) declare(p, i);
  });
}
