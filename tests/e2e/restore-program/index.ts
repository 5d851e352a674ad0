import * as pulumi from "@pulumi/pulumi";
import {
  Branch,
  Database,
  Role,
  Snapshot,
  getConnectionUriOutput,
} from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const projectId = config.require("projectId");
// Set once the rows are written, so that the snapshot holds them.
const takeSnapshot = config.getBoolean("snapshot") ?? false;
// The snapshot to restore the branch from (the stack's own `snapshotId` output), after a bad migration.
const restoreFrom = config.get("restoreFrom");

const branch = new Branch("env", {
  projectId,
  name: config.require("branchName"),
  compute: { minCu: 0.25, maxCu: 0.25 },
  ...(restoreFrom ? { restoreFrom: { snapshotId: restoreFrom, original: "delete" } } : {}),
});

const role = new Role("app", { projectId, branchId: branch.id, name: "app" });

const db = new Database("appdb", { projectId, branchId: branch.id, name: "app", ownerName: role.name });

const snapshot = takeSnapshot
  ? new Snapshot("before", { projectId, branchId: branch.id, name: "before-migration" })
  : undefined;

const conn = getConnectionUriOutput({
  projectId,
  branchId: branch.id,
  databaseName: db.name,
  roleName: role.name,
});

export const branchId = branch.id;
export const computeId = branch.computeId;
export const snapshotId = snapshot?.snapshotId;
export const connectionUri = conn.uri;
