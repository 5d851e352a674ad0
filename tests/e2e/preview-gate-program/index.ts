import * as pulumi from "@pulumi/pulumi";
import {
  Branch,
  Database,
  Project,
  ProjectPermission,
  Role,
  getConnectionUriOutput,
} from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const projectId = config.require("projectId");

// `expiringChild: true`: the branch expires and has a child, which the service's expiry rule forbids.
const expiringChild = config.getBoolean("expiringChild");
const env = new Branch("env", {
  projectId,
  parentId: config.require("parentId"),
  compute: { minCu: 0.25, maxCu: config.requireNumber("maxCu") },
  ...(expiringChild ? { expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString() } : {}),
});
if (expiringChild) new Branch("child", { projectId, parentId: env.id });

// `grantsTwice: true`: one address given access twice to a project made in the same run.
if (config.getBoolean("grantsTwice")) {
  const made = new Project("made", { name: "gate-made", orgId: config.require("orgId") });
  for (const name of ["twiceA", "twiceB"]) {
    new ProjectPermission(name, { projectId: made.id, email: "twice@example.com" });
  }
}

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

// `mistypedUri: true`: a connection string of a database name that no database has ("gat" for "gate"):
// unknown at preview, with a warning (it could be one this update makes); `up` fails on the lookup.
if (config.getBoolean("mistypedUri")) {
  getConnectionUriOutput({
    projectId,
    branchId: config.require("dbBranchId"),
    databaseName: "gat",
    roleName: config.require("ownerName"),
  });
}

export const branchId = env.id;
