import * as pulumi from "@pulumi/pulumi";
import {
  Branch,
  Database,
  Role,
  getConnectionUriOutput,
  getSchemaDiffOutput,
} from "@neon-labs-unofficial/pulumi-neon-compute";

// The shape of examples/connect: a branch, a role, a database it owns, the connection string, and the
// schema diff read after it; the connection string's databaseName is typed in config.
const config = new pulumi.Config();
const projectId = config.require("projectId");
const branch = new Branch("env", {
  projectId,
  name: "lookup-failure",
  compute: { minCu: 0.25, maxCu: 0.25 },
});
const role = new Role("app", { projectId, branchId: branch.id, name: "app" });
const db = new Database("appdb", { projectId, branchId: branch.id, name: "app", ownerName: role.name });
// Read once the database exists, by the name config gives: a name the branch lacks (the benchmark's
// typo) fails the `up` here.
const conn = getConnectionUriOutput({
  projectId,
  branchId: branch.id,
  databaseName: db.name.apply(() => config.require("databaseName")),
  roleName: role.name,
});
// `schemaDatabase`: a database to diff other than the role's (one neither side has fails the preview).
const schema = getSchemaDiffOutput({
  projectId,
  branchId: branch.id,
  databaseName: config.get("schemaDatabase") || pulumi.unsecret(conn.apply(() => db.name)),
});

export const connectionUri = conn.uri;
export const schemaChanged = schema.changed;
