import * as pulumi from "@pulumi/pulumi";
import { Compute } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const cu = config.getNumber("cu") ?? 0.25;
// One project (projectId, branchIds), or several: targets = [{ projectId, branchIds }, …], count each.
const targets = config.getObject<{ projectId: string; branchIds: string[] }[]>("targets") ?? [
  { projectId: config.require("projectId"), branchIds: config.requireObject<string[]>("branchIds") },
];

targets.forEach(({ projectId, branchIds }, p) => {
  for (let i = 0; i < count; i++) {
    new Compute(p === 0 ? `compute-${i}` : `compute-p${p}-${i}`, {
      projectId,
      branchId: branchIds[i % branchIds.length],
      type: i < branchIds.length ? "read_write" : "read_only",
      cu,
    });
  }
});
