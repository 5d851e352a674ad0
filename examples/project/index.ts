import * as pulumi from "@pulumi/pulumi";
import { Branch, Compute, Project } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();

// The project, with its default branch, primary compute, owner role and database. It is never
// replaced: changing regionId later fails at preview instead of deleting the project.
const project = new Project("app", {
  name: config.require("projectName"),
  orgId: config.require("orgId"),
  regionId: config.require("regionId"),
  defaultCompute: { minCu: 0.25, maxCu: 1 },
});

// A branch with its read_write compute, created in one request; a read replica on it.
const branch = new Branch("env", {
  projectId: project.id,
  name: "pr-1",
  compute: { minCu: 0.25, maxCu: 0.5 },
});
const replica = new Compute("replica", {
  projectId: project.id,
  branchId: branch.id,
  type: "read_only",
  cu: 0.25,
});

export const projectId = project.id;
export const defaultBranchId = project.defaultBranchId;
export const branchId = branch.id;
export const computeId = branch.computeId;
export const replicaId = replica.endpointId;
export const connectionUri = project.connectionUri; // a secret: `pulumi stack output --show-secrets`
