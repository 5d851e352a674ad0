import * as pulumi from "@pulumi/pulumi";
import { Branch, Database, Role } from "@neon-labs-unofficial/pulumi-neon-compute";

// The API key comes from NEON_API_KEY in the environment of `pulumi up` (never `pulumi config set
// neon:apiKey`, which would keep it, encrypted, in the stack's configuration).
const config = new pulumi.Config();
const projectId = config.require("projectId");

const branch = new Branch("env", {
  projectId,
  name: config.require("branchName"),
  compute: { minCu: 0.25, maxCu: 0.5 },
});

// passwordInState: false — the role has no `password` output, and no step reads its password into the
// state. A new passwordRotationTrigger still resets it (waited for): the next read returns the new one.
const role = new Role("app", {
  projectId,
  branchId: branch.id,
  name: "app",
  passwordRotationTrigger: config.require("passwordRotationTrigger"),
  passwordInState: config.requireBoolean("passwordInState"),
});

const db = new Database("appdb", {
  projectId,
  branchId: branch.id,
  name: "app",
  ownerName: role.name,
});

// Not secrets: where to connect, not how. The deploy step reads the connection string itself:
//   npx neon-connection-string --project "$(pulumi stack output projectId)" \
//     --branch "$(pulumi stack output branchId)" --role app --database app
// (A getConnectionUriOutput here would work too, but exporting it would store it in the state.)
export { projectId };
export const branchId = branch.id;
export const host = branch.host;
export const roleName = role.name;
export const databaseName = db.name;
