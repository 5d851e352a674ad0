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

// What the branch changed in the schema of the role's database, read at each `up`: after a migration
// run as the role (through `connectionUri`), the next `up` shows it. Its parent has no such database, so
// it shows as wholly new — the migrated schema, every line added; nothing while it holds no object.
// `pulumi config set schemaDatabase neondb` reads a database the branch inherited instead: the change
// against the parent's copy.
const schema = getSchemaDiffOutput({
  projectId,
  branchId: branch.id,
  // In the preview of the database's rename its new name is not in the service yet: the diff is then
  // unknown, with a warning.
  databaseName: config.get("schemaDatabase") || db.name,
});

export const branchId = branch.id;
export const roleName = role.name;
export const databaseName = db.name;
export const databaseId = db.databaseId;
// Secret outputs: `pulumi stack output password --show-secrets` (or connectionUri) prints them.
export const password = role.password;
export const connectionUri = conn.uri;
export const schemaChanged = schema.changed;
export const schemaDiff = schema.diff;
