import * as pulumi from "@pulumi/pulumi";
import { Branch, Compute } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const projectId = config.require("projectId");

// A pull request's environment: a branch with its compute, and a read replica on it.
const branch = new Branch("env", {
  projectId,
  name: config.require("branchName"),
  compute: { minCu: 0.25, maxCu: config.requireNumber("maxCu") },
});
const replica = new Compute("replica", { projectId, branchId: branch.id, type: "read_only", cu: 0.25 });

export const branchId = branch.id;
export const computeId = branch.computeId;
export const host = branch.host;
export const replicaId = replica.endpointId;
