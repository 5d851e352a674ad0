import * as pulumi from "@pulumi/pulumi";
import {
  Branch,
  Database,
  Role,
  getConnectionUriOutput,
  getSchemaDiffOutput,
} from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const projectId = config.require("projectId");

// A branch of the project with its read_write compute, created in one request.
const branch = new Branch("env", {
  projectId,
  name: config.require("branchName"),
  compute: { minCu: 0.25, maxCu: 0.5 },
});

// A role of that branch; its password is a secret output. `pulumi config set passwordRotationTrigger 2`
// then `pulumi up` resets it: the old password works until the reset has finished, and the new one is
// reported only then.
const role = new Role("app", {
  projectId,
  branchId: branch.id,
  name: config.require("roleName"),
  passwordRotationTrigger: config.require("passwordRotationTrigger"),
});

// A database owned by the role (`role.name` also orders the two: created after it, deleted before it).
// `pulumi config set databaseName …` renames it in place: it keeps its id and its data.
const db = new Database("appdb", {
  projectId,
  branchId: branch.id,
  name: config.require("databaseName"),
  ownerName: role.name,
});

// The connection string of the role and database on the branch's compute: a secret Output, read after
// the role's and database's changes (so after a rotation it carries the new password).
const conn = getConnectionUriOutput({
  projectId,
  branchId: branch.id,
  // In the preview of a rename the new name is not in the service yet: the uri is then unknown.
  databaseName: db.name,
  roleName: role.name,
});

// With `pulumi config set schemaDatabase neondb` (a database the branch inherited from its parent): what
// the branch changed in that database's schema, read at each `up` — after a migration, the next `up`
// shows it.
const schemaDatabase = config.get("schemaDatabase");
const schema = schemaDatabase
  ? getSchemaDiffOutput({ projectId, branchId: branch.id, databaseName: schemaDatabase })
  : undefined;

export const branchId = branch.id;
export const roleName = role.name;
export const databaseName = db.name;
export const databaseId = db.databaseId;
// Secret outputs: `pulumi stack output password --show-secrets` (or connectionUri) prints them.
export const password = role.password;
export const connectionUri = conn.uri;
export const schemaChanged = schema?.changed;
export const schemaDiff = schema?.diff;
