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

// An anonymized child of the branch (issue 56), made with the snapshot: two masking rules on its copy.
const masked = takeSnapshot
  ? new Branch("masked", {
      projectId,
      name: `${config.require("branchName")}-masked`,
      parentId: branch.id,
      compute: { minCu: 0.25, maxCu: 0.25 },
      maskingRules: [
        {
          databaseName: "app",
          schemaName: "public",
          tableName: "orders",
          columnName: "email",
          maskingFunction: "anon.fake_email()",
        },
        {
          databaseName: "app",
          schemaName: "public",
          tableName: "orders",
          columnName: "note",
          maskingValue: config.get("maskNote") ?? "'hidden'",
        },
      ],
      anonymizeTrigger: config.get("maskTrigger"),
    })
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
export const maskedUri = masked
  ? getConnectionUriOutput({ projectId, branchId: masked.id, databaseName: db.name, roleName: role.name }).uri
  : undefined;
