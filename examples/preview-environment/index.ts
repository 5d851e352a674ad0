import * as pulumi from "@pulumi/pulumi";
import {
  Branch,
  DataApi,
  Database,
  NeonAuth,
  Role,
  getConnectionUriOutput,
  getSchemaDiffOutput,
} from "@neon-labs-unofficial/pulumi-neon-compute";

// One stack per pull request, named after it: `pulumi stack init pr-42`.
const stack = pulumi.getStack();
const config = new pulumi.Config();
const projectId = config.require("projectId");

// A safety net should the close step never run: the service deletes the branch then. Whole days, so
// that every push of the same day previews no change; the date moves forward as pushes come.
const days = config.getNumber("expiresInDays") ?? 3;
const expiresAt = new Date(Math.floor(Date.now() / 86_400_000 + days) * 86_400_000).toISOString();

// The branch of the pull request, from the project's default branch, with its compute created in the
// same request (scale to zero after 5 idle minutes). Named `<stack>-<hash>` by the provider, so that a
// run killed mid-create is found again by the next one instead of leaving a second branch.
const branch = new Branch(stack, {
  projectId,
  expiresAt,
  compute: { minCu: 0.25, maxCu: 1, suspendTimeoutSeconds: 300 },
});

// The application's role and its database on that branch.
// Its password changes when `passwordRotation` does (`pulumi config set passwordRotation 2`); the old
// one keeps working until the reset has finished.
const passwordRotation = config.get("passwordRotation");
const role = new Role("app", {
  projectId,
  branchId: branch.id,
  name: "app",
  ...(passwordRotation ? { passwordRotationTrigger: passwordRotation } : {}),
});
const database = new Database("app", { projectId, branchId: branch.id, name: "app", ownerName: role.name });

// The app's sign-in service on the branch (Neon Auth), and the Data API: a REST interface over the tables
// of `app` that accepts the tokens Neon Auth issues. Its branch is Neon Auth's, so that it is made after.
const auth = new NeonAuth("auth", { projectId, branchId: branch.id });
const dataApi = new DataApi("app", {
  projectId,
  branchId: auth.branchId,
  databaseName: database.name,
  authProvider: "neon_auth",
});

export const branchId = branch.id;
export const branchName = branch.name;
export const host = branch.host;
export const databaseName = database.name;
export const roleName = role.name;
// A secret: `pulumi stack output connectionUri --show-secrets` hands it to the application's deploy.
export const connectionUri = getConnectionUriOutput({
  projectId,
  branchId: branch.id,
  databaseName: database.name,
  roleName: role.name,
}).uri;
// What the app's frontend and backend are given: sign-in at `authUrl`, then `GET <dataApiUrl>/<table>`
// with `Authorization: Bearer <token>` (without a token the Data API answers 401).
export const authUrl = auth.baseUrl;
export const dataApiUrl = dataApi.url;

// What the pull request's migrations made in its database, for review: run them as the role (with
// `connectionUri`), then `pulumi up --yes` reads the diff again and `pulumi stack output schemaDiff`
// prints it. The default branch has no `app`, so the database shows as wholly new — its schema, every
// line added — and `schemaChanged` is false while no migration has made anything.
const schema = getSchemaDiffOutput({ projectId, branchId: branch.id, databaseName: database.name });
export const schemaChanged = schema.changed;
export const schemaDiff = schema.diff;
