import * as pulumi from "@pulumi/pulumi";
import { Branch, Database } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const projectId = config.require("projectId");

const env = new Branch("env", {
  projectId,
  parentId: config.require("parentId"),
  compute: { minCu: 0.25, maxCu: config.requireNumber("maxCu") },
});

new Database("appdb", {
  projectId,
  branchId: config.require("dbBranchId"),
  name: "gate",
  ownerName: config.require("ownerName"),
});

export const branchId = env.id;
