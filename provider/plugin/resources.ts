// Generated from provider/registry.ts by `npm run types:gen`: do not edit (a test fails when it is stale).
/** The provider plugin's class of every resource of the registry, with its args and outputs types. */
import { pluginClass } from "./class";
import * as registry from "../registry";
import type { ComputeArgs, ComputeOutputs } from "../resources/compute/types";
import type { ApiKeyArgs, ApiKeyOutputs } from "../resources/apikey/types";
import type { ProjectArgs, ProjectOutputs } from "../resources/project/types";
import type { BranchArgs, BranchOutputs } from "../resources/branch/types";
import type { RoleArgs, RoleOutputs } from "../resources/role/types";
import type { DatabaseArgs, DatabaseOutputs } from "../resources/database/types";
import type { ProjectPermissionArgs, ProjectPermissionOutputs } from "../resources/projectpermission/types";
import type { SnapshotArgs, SnapshotOutputs } from "../resources/snapshot/types";
import type { SnapshotScheduleArgs, SnapshotScheduleOutputs } from "../resources/snapshotschedule/types";
import type { VpcEndpointArgs, VpcEndpointOutputs } from "../resources/vpcendpoint/types";
import type {
  ProjectVpcEndpointArgs,
  ProjectVpcEndpointOutputs,
} from "../resources/projectvpcendpoint/types";
import type { SpendingLimitArgs, SpendingLimitOutputs } from "../resources/spendinglimit/types";
import type { NeonAuthArgs, NeonAuthOutputs } from "../resources/neonauth/types";
import type { DataApiArgs, DataApiOutputs } from "../resources/dataapi/types";
import type { ProjectJwksArgs, ProjectJwksOutputs } from "../resources/projectjwks/types";
export type { ComputeArgs, ComputeOutputs } from "../resources/compute/types";
export type { ApiKeyArgs, ApiKeyOutputs } from "../resources/apikey/types";
export type { ProjectDefaultComputeArgs, ProjectArgs, ProjectOutputs } from "../resources/project/types";
export type {
  BranchComputeArgs,
  BranchMaskingRuleArgs,
  BranchRestoreArgs,
  BranchArgs,
  BranchOutputs,
} from "../resources/branch/types";
export type { RoleArgs, RoleOutputs } from "../resources/role/types";
export type { DatabaseArgs, DatabaseOutputs } from "../resources/database/types";
export type { ProjectPermissionArgs, ProjectPermissionOutputs } from "../resources/projectpermission/types";
export type { SnapshotArgs, SnapshotOutputs } from "../resources/snapshot/types";
export type {
  SnapshotScheduleItemArgs,
  SnapshotScheduleArgs,
  SnapshotScheduleOutputs,
} from "../resources/snapshotschedule/types";
export type { VpcEndpointArgs, VpcEndpointOutputs } from "../resources/vpcendpoint/types";
export type {
  ProjectVpcEndpointArgs,
  ProjectVpcEndpointOutputs,
} from "../resources/projectvpcendpoint/types";
export type { SpendingLimitArgs, SpendingLimitOutputs } from "../resources/spendinglimit/types";
export type { NeonAuthOauthProviderArgs, NeonAuthArgs, NeonAuthOutputs } from "../resources/neonauth/types";
export type { DataApiSettingsArgs, DataApiArgs, DataApiOutputs } from "../resources/dataapi/types";
export type { ProjectJwksArgs, ProjectJwksOutputs } from "../resources/projectjwks/types";
/**
 * A Neon compute endpoint: the Postgres server attached to a branch. Every change blocks until the control
 * plane's operations finish, so resources that depend on a compute only proceed once it is ready. Served by
 * the provider plugin as `neoncompute:index:Compute`. Inputs and outputs: `docs/api/Compute.md`.
 */
export const Compute = pluginClass<ComputeArgs, ComputeOutputs>(registry.compute);
export type Compute = InstanceType<typeof Compute>;
/**
 * A Neon API key: personal (no `orgId`/`projectId`), organization (`orgId`) or project-scoped (`projectId`).
 * Its `token` is a secret output, known only for keys this stack created. Any input change replaces the key,
 * creating the new key before revoking the old one, so resources that use the token switch to the new one
 * without an outage. Deleting the resource revokes the key. Served by the provider plugin as
 * `neoncompute:index:ApiKey`. Inputs and outputs: `docs/api/ApiKey.md`.
 */
export const ApiKey = pluginClass<ApiKeyArgs, ApiKeyOutputs>(registry.apiKey);
export type ApiKey = InstanceType<typeof ApiKey>;
/**
 * A Neon project with its default branch, primary compute, owner role and database. A project is **never
 * replaced**: a change that would need a new project fails at preview and names the property. A killed run or
 * a lost answer is reconciled by the project's name (never a second, billed project). Destroy deletes the
 * project with every branch, compute and database in it. Served by the provider plugin as
 * `neoncompute:index:Project`. Inputs and outputs: `docs/api/Project.md`.
 */
export const Project = pluginClass<ProjectArgs, ProjectOutputs>(registry.project);
export type Project = InstanceType<typeof Project>;
/**
 * A Neon branch, optionally with its read_write compute created in the same request. A killed run or a lost
 * answer is reconciled by the branch's name (never a second branch, never a 409 loop); a name held by a
 * branch this stack did not create fails with the exact `importId`. The project's default branch can be
 * managed with `adoptDefault` (destroy leaves it in place). Delete waits; a default, protected or parent
 * branch is not deleted, and the error says which. Served by the provider plugin as
 * `neoncompute:index:Branch`. Inputs and outputs: `docs/api/Branch.md`.
 */
export const Branch = pluginClass<BranchArgs, BranchOutputs>(registry.branch);
export type Branch = InstanceType<typeof Branch>;
/**
 * A Postgres role of a branch, with its password as a secret output. Changing `passwordRotationTrigger`
 * resets the password through the service and reports the new one only when the reset has finished (the old
 * one works until then). Creating a role drops the open connections to the branch's computes. The roles the
 * service made (a project's owner role, the roles a branch inherits) are managed with `adopt` or `importId`.
 * Served by the provider plugin as `neoncompute:index:Role`. Inputs and outputs: `docs/api/Role.md`.
 */
export const Role = pluginClass<RoleArgs, RoleOutputs>(registry.role);
export type Role = InstanceType<typeof Role>;
/**
 * A Postgres database of a branch. A rename or an owner change is made in place (the database keeps its id
 * and data); only another project or branch replaces it. A lost answer is reconciled by the name; a name held
 * by a database this stack did not create fails with the exact `importId`. The databases the service made (a
 * project's first database, the ones a branch inherits) are managed with `adopt` or `importId`. Delete waits.
 * Served by the provider plugin as `neoncompute:index:Database`. Inputs and outputs: `docs/api/Database.md`.
 */
export const Database = pluginClass<DatabaseArgs, DatabaseOutputs>(registry.database);
export type Database = InstanceType<typeof Database>;
/**
 * Access to a project for another Neon account, by its email address (the console's project sharing). A grant
 * starts no operation: nothing waits for the project's lock. An address that already has access through a
 * grant no resource of the stack manages fails at preview with the exact `importId` (the service does not
 * record who made a grant: also one a killed run made, or one a resource renamed without an alias holds). A
 * change of `projectId` or `email` grants the new access before the old one is revoked. Deleting the resource
 * revokes the access. Served by the provider plugin as `neoncompute:index:ProjectPermission`. Inputs and
 * outputs: `docs/api/ProjectPermission.md`.
 */
export const ProjectPermission = pluginClass<ProjectPermissionArgs, ProjectPermissionOutputs>(
  registry.projectPermission,
);
export type ProjectPermission = InstanceType<typeof ProjectPermission>;
/**
 * A snapshot of a branch (Beta in Neon's API): its data now, or as it was at a `timestamp` or `lsn` inside
 * the project's history (checked at preview). A snapshot carries no mark of who made it: a lost answer or a
 * killed run's snapshot is found again by its name and branch (never a second snapshot), and a declared name
 * that a snapshot of the branch already has, which no resource of the stack manages, fails at preview with
 * the exact `importId`. Renamed in place; any other change fails at preview, since a replacement would delete
 * the data it holds: declare another Snapshot instead. Deleting the resource deletes the snapshot. Served by
 * the provider plugin as `neoncompute:index:Snapshot`. Inputs and outputs: `docs/api/Snapshot.md`.
 */
export const Snapshot = pluginClass<SnapshotArgs, SnapshotOutputs>(registry.snapshot);
export type Snapshot = InstanceType<typeof Snapshot>;
/**
 * A branch's schedule of automatic snapshots (its `backup_schedule`, Beta in Neon's API): one per branch.
 * Setting it starts no operation. A branch that already has a schedule no resource of the stack manages fails
 * at preview with the exact `importId`. Changed in place; deleting the resource clears the branch's schedule
 * (the snapshots it made stay, until their retention ends). Served by the provider plugin as
 * `neoncompute:index:SnapshotSchedule`. Inputs and outputs: `docs/api/SnapshotSchedule.md`.
 */
export const SnapshotSchedule = pluginClass<SnapshotScheduleArgs, SnapshotScheduleOutputs>(
  registry.snapshotSchedule,
);
export type SnapshotSchedule = InstanceType<typeof SnapshotSchedule>;
/**
 * An AWS VPC endpoint registered with an organization in a Neon region (private networking over AWS
 * PrivateLink; the Scale plan, AWS regions only). Registering starts no operation; the service then accepts
 * the connection (`endpointState` turns from `new` to `accepted`). An endpoint already registered that no
 * resource of the stack manages fails at preview with the exact `importId`. The label changes in place.
 * **Deleting the resource removes the endpoint from the organization for good**: Neon's document says a
 * removed endpoint cannot be added back to the organization. A change of `vpcEndpointId` or `orgId` registers
 * the new endpoint before the old one is removed; `regionId` cannot change (an endpoint lives in one region,
 * and a removed one cannot come back). Served by the provider plugin as `neoncompute:index:VpcEndpoint`.
 * Inputs and outputs: `docs/api/VpcEndpoint.md`.
 */
export const VpcEndpoint = pluginClass<VpcEndpointArgs, VpcEndpointOutputs>(registry.vpcEndpoint);
export type VpcEndpoint = InstanceType<typeof VpcEndpoint>;
/**
 * A project's restriction to one of its organization's VPC endpoints: once a project has one, it accepts
 * connections only from its restricting endpoints (private networking, the Scale plan). The endpoint must be
 * registered with the project's organization first (`VpcEndpoint`; pass its `vpcEndpointId`). Setting it
 * starts no operation. A restriction no resource of the stack manages fails at preview with the exact
 * `importId`. The label changes in place; a change of `projectId` or `vpcEndpointId` restricts anew before
 * the old restriction is lifted. Deleting the resource lifts the restriction. Served by the provider plugin
 * as `neoncompute:index:ProjectVpcEndpoint`. Inputs and outputs: `docs/api/ProjectVpcEndpoint.md`.
 */
export const ProjectVpcEndpoint = pluginClass<ProjectVpcEndpointArgs, ProjectVpcEndpointOutputs>(
  registry.projectVpcEndpoint,
);
export type ProjectVpcEndpoint = InstanceType<typeof ProjectVpcEndpoint>;
/**
 * An organization's monthly budget alert (the API's spending limit; the Launch and Scale plans): Neon emails
 * the organization at 80% and at 100% of it. **It stops nothing**: computes are not suspended when the spend
 * passes it. One per organization. Setting it starts no operation. An organization that already has one no
 * resource of the stack manages fails at preview with the exact `importId`. Changed in place; deleting the
 * resource removes the alert. Served by the provider plugin as `neoncompute:index:SpendingLimit`. Inputs and
 * outputs: `docs/api/SpendingLimit.md`.
 */
export const SpendingLimit = pluginClass<SpendingLimitArgs, SpendingLimitOutputs>(registry.spendingLimit);
export type SpendingLimit = InstanceType<typeof SpendingLimit>;
/**
 * Neon Auth on a branch (Beta in Neon's API): the branch's user sign-in service, its users kept in the
 * `neon_auth` schema of one database. One per branch: a branch that already has Neon Auth that no resource of
 * the stack manages fails at preview with the exact `importId`, and two resources of one branch fail there
 * too. Enabling it starts no operation. Its settings (trusted domains, OAuth providers, email and password
 * sign-in, localhost) change in place; its `baseUrl` and `jwksUrl` are outputs (the JWKS holds the public
 * keys that verify its users' tokens: give it to a `DataApi`). Deleting the resource disables Neon Auth and
 * keeps the users' data unless `deleteDataOnDestroy`. Served by the provider plugin as
 * `neoncompute:index:NeonAuth`. Inputs and outputs: `docs/api/NeonAuth.md`.
 */
export const NeonAuth = pluginClass<NeonAuthArgs, NeonAuthOutputs>(registry.neonAuth);
export type NeonAuth = InstanceType<typeof NeonAuth>;
/**
 * The Data API of a database of a branch: a REST interface over its tables at `url`, for requests that carry
 * a token of its auth provider (the branch's Neon Auth, or an external provider's JWKS). One per database: a
 * database whose Data API no resource of the stack manages fails at preview with the exact `importId`; an
 * unknown database, a `jwksUrl` that is no URL, and `neon_auth` on a branch without Neon Auth (declare a
 * `NeonAuth` it depends on) fail there too, with nothing sent. Creating it starts no operation. Its settings
 * change in place; its auth provider is fixed (a change replaces it). Deleting the resource deletes the Data
 * API: its URL stops answering. Served by the provider plugin as `neoncompute:index:DataApi`. Inputs and
 * outputs: `docs/api/DataApi.md`.
 */
export const DataApi = pluginClass<DataApiArgs, DataApiOutputs>(registry.dataApi);
export type DataApi = InstanceType<typeof DataApi>;
/**
 * A JWKS URL of a project: the JSON Web Key Set that JWTs sent to the project's computes (Neon RLS, the Data
 * API with an external auth provider) are checked against, for every branch or, with `branchId`, one. The
 * service has no update: any change replaces the JWKS. A change of `projectId`, `branchId` or `jwksUrl` adds
 * the new JWKS before the old one is removed (tokens are accepted throughout, and a refused add leaves the
 * old one); a change of `providerName`, `roleNames` or `jwtAudience` alone removes the old JWKS first, since
 * the new one has the same URL and scope, which the service may hold once (Neon's document says nothing of
 * it) — the preview has checked what the add needs (the project, the branch, its roles). A JWKS of the same
 * URL and scope that no resource of the stack manages (one made in the console, or by a killed run: the
 * service keeps no mark of who made it) fails at preview with the exact `importId`, but for one exactly as
 * declared on a branch this stack made (see the notes). Deleting the resource removes the JWKS. Served by the
 * provider plugin as `neoncompute:index:ProjectJwks`. Inputs and outputs: `docs/api/ProjectJwks.md`.
 */
export const ProjectJwks = pluginClass<ProjectJwksArgs, ProjectJwksOutputs>(registry.projectJwks);
export type ProjectJwks = InstanceType<typeof ProjectJwks>;
