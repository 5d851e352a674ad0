import * as pulumi from "@pulumi/pulumi";
import { Branch, Database, ProjectPermission, Role } from "@neon-labs-unofficial/pulumi-neon-compute";

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

// A role of the stack that owns a database; `withRole: false` removes the Role but keeps the database.
const owner = config.getBoolean("withRole")
  ? new Role("gateOwner", { projectId, branchId: env.id, name: config.get("roleName") ?? "gate_owner" })
  : undefined;
new Database("owned", {
  projectId,
  branchId: env.id,
  name: "owned",
  ownerName: owner ? owner.name : "gate_owner",
});

// A reviewer's access to the project: an address someone else already gave access fails the preview.
new ProjectPermission("reviewer", { projectId, email: config.require("shareWith") });

export const branchId = env.id;
