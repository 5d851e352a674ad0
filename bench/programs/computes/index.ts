import * as pulumi from "@pulumi/pulumi";
import { Compute } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const projectId = config.require("projectId");
const branchIds = config.requireObject<string[]>("branchIds");
const count = config.requireNumber("count");
const cu = config.getNumber("cu") ?? 0.25;

for (let i = 0; i < count; i++) {
  new Compute(`compute-${i}`, {
    projectId,
    branchId: branchIds[i % branchIds.length],
    type: i < branchIds.length ? "read_write" : "read_only",
    cu,
  });
}
