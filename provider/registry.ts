/**
 * The registry: every resource and lookup of the package, in one list each. A resource is a folder
 * under `resources/` and an entry here, as CONTRIBUTING.md lists (a test holds the list to the code):
 * the dynamic face loads every resource through its one entry (`dynamic/impl.ts`); both faces'
 * classes are generated from this file (`npm run types:gen`: `dynamic/resources.ts`,
 * `plugin/resources.ts`); the plugin's schema and the generated docs (`scripts/lib/api-docs.ts`) read it.
 */
import { LOOKUPS, OBJECT_TYPES as LOOKUP_TYPES } from "./lookups/definitions";
import { APIKEY_DEFINITION } from "./resources/apikey/definition";
import type * as apiKeyLifecycle from "./resources/apikey/lifecycle";
import type { ApiKeyInputs } from "./resources/apikey/types";
import {
  BRANCH_COMPUTE_TYPE,
  BRANCH_DEFINITION,
  BRANCH_MASKING_RULE_TYPE,
  BRANCH_RESTORE_TYPE,
} from "./resources/branch/definition";
import type * as branchLifecycle from "./resources/branch/lifecycle";
import type { BranchInputs } from "./resources/branch/types";
import { admit } from "./resources/compute/admission";
import { COMPUTE_DEFINITION } from "./resources/compute/definition";
import type * as computeLifecycle from "./resources/compute/lifecycle";
import type { ComputeInputs } from "./resources/compute/types";
import { DATABASE_DEFINITION } from "./resources/database/definition";
import type * as databaseLifecycle from "./resources/database/lifecycle";
import type { DatabaseInputs } from "./resources/database/types";
import { PROJECT_DEFAULT_COMPUTE_TYPE, PROJECT_DEFINITION } from "./resources/project/definition";
import type * as projectLifecycle from "./resources/project/lifecycle";
import type { ProjectInputs } from "./resources/project/types";
import {
  PROJECT_PERMISSION_DEFINITION,
  PROJECT_PERMISSION_NOUN,
} from "./resources/projectpermission/definition";
import type * as projectPermissionLifecycle from "./resources/projectpermission/lifecycle";
import type { ProjectPermissionInputs } from "./resources/projectpermission/types";
import { ROLE_DEFINITION } from "./resources/role/definition";
import type * as roleLifecycle from "./resources/role/lifecycle";
import type { RoleInputs } from "./resources/role/types";
import { SNAPSHOT_DEFINITION, SNAPSHOT_NOUN } from "./resources/snapshot/definition";
import type * as snapshotLifecycle from "./resources/snapshot/lifecycle";
import type { SnapshotInputs } from "./resources/snapshot/types";
import {
  SNAPSHOT_SCHEDULE_DEFINITION,
  SNAPSHOT_SCHEDULE_ITEM_TYPE,
  SNAPSHOT_SCHEDULE_NOUN,
} from "./resources/snapshotschedule/definition";
import type * as snapshotScheduleLifecycle from "./resources/snapshotschedule/lifecycle";
import type { SnapshotScheduleInputs } from "./resources/snapshotschedule/types";
import { VPC_ENDPOINT_DEFINITION, VPC_ENDPOINT_NOUN } from "./resources/vpcendpoint/definition";
import type * as vpcEndpointLifecycle from "./resources/vpcendpoint/lifecycle";
import type { VpcEndpointInputs } from "./resources/vpcendpoint/types";
import {
  PROJECT_VPC_ENDPOINT_DEFINITION,
  PROJECT_VPC_ENDPOINT_NOUN,
} from "./resources/projectvpcendpoint/definition";
import type * as projectVpcEndpointLifecycle from "./resources/projectvpcendpoint/lifecycle";
import type { ProjectVpcEndpointInputs } from "./resources/projectvpcendpoint/types";
import { SPENDING_LIMIT_DEFINITION, SPENDING_LIMIT_NOUN } from "./resources/spendinglimit/definition";
import type * as spendingLimitLifecycle from "./resources/spendinglimit/lifecycle";
import type { SpendingLimitInputs } from "./resources/spendinglimit/types";
import {
  NEON_AUTH_DEFINITION,
  NEON_AUTH_NOUN,
  NEON_AUTH_OAUTH_PROVIDER_TYPE,
} from "./resources/neonauth/definition";
import type * as neonAuthLifecycle from "./resources/neonauth/lifecycle";
import type { NeonAuthInputs } from "./resources/neonauth/types";
import { DATA_API_DEFINITION, DATA_API_NOUN, DATA_API_SETTINGS_TYPE } from "./resources/dataapi/definition";
import type * as dataApiLifecycle from "./resources/dataapi/lifecycle";
import type { DataApiInputs } from "./resources/dataapi/types";
import { PROJECT_JWKS_DEFINITION, PROJECT_JWKS_NOUN } from "./resources/projectjwks/definition";
import type * as projectJwksLifecycle from "./resources/projectjwks/lifecycle";
import type { ProjectJwksInputs } from "./resources/projectjwks/types";
import type { ObjectTypeDef } from "./resources/definition";
import type { ResourceKind, ResourceSteps } from "./resources/kit";

/**
 * A registry entry: the definition, the steps (loaded at the first step: a program's process only
 * makes classes, and the steps load the API client) and what the kit needs besides.
 */
export function entry<I extends object, O extends object = object>(
  steps: () => ResourceSteps<I, O>,
  rest: Omit<ResourceKind<I>, "steps">,
): ResourceKind<I> {
  let loaded: ResourceSteps<I, O> | undefined;
  return {
    ...rest,
    get steps() {
      return (loaded ??= steps());
    },
  };
}

export const compute = entry<ComputeInputs>(
  () => (require("./resources/compute/lifecycle") as typeof computeLifecycle).computeSteps,
  {
    definition: COMPUTE_DEFINITION,
    noun: "compute",
    adoptInput: "adoptExistingPrimary",
    releasedDynamic: {
      module: "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/compute/impl",
      label: "Compute",
    },
    classes: {
      // A branch holds one read_write compute: replacements delete first, also when forced
      // (`--replace`, `replaceOnChanges`), where the engine does not ask diff (docs/decisions/0005).
      deleteBeforeReplace: true,
      // During `up`, a fair share of the engine's parallel steps per project (compute/admission.ts).
      admit,
    },
  },
);

export const apiKey = entry<ApiKeyInputs>(
  () => (require("./resources/apikey/lifecycle") as typeof apiKeyLifecycle).apiKeySteps,
  {
    definition: APIKEY_DEFINITION,
    noun: "API key",
    releasedDynamic: {
      module: "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/apikey/impl",
      label: "API key",
    },
    // No deleteBeforeReplace: a rotation creates the new key before the old one is revoked.
  },
);

export const project = entry<ProjectInputs>(
  () => (require("./resources/project/lifecycle") as typeof projectLifecycle).projectSteps,
  {
    definition: PROJECT_DEFINITION,
    noun: "project",
    objectTypes: [PROJECT_DEFAULT_COMPUTE_TYPE],
    // Never replaced (diff refuses); a forced replacement creates first and its create takes the
    // project over, so the delete that follows leaves it: no deleteBeforeReplace.
  },
);

export const branch = entry<BranchInputs>(
  () => (require("./resources/branch/lifecycle") as typeof branchLifecycle).branchSteps,
  {
    definition: BRANCH_DEFINITION,
    noun: "branch",
    adoptInput: "adoptDefault",
    objectTypes: [BRANCH_COMPUTE_TYPE, BRANCH_MASKING_RULE_TYPE, BRANCH_RESTORE_TYPE],
    // Branch names are unique in a project: a replacement deletes the old branch first (a restore's
    // delete leaves the original to the restore, docs/decisions/0021).
    classes: { deleteBeforeReplace: true },
    targets: [
      { property: "projectId", kind: "project" },
      { property: "parentId", kind: "branch" },
    ],
  },
);

export const role = entry<RoleInputs>(
  () => (require("./resources/role/lifecycle") as typeof roleLifecycle).roleSteps,
  {
    definition: ROLE_DEFINITION,
    noun: "role",
    adoptInput: "adopt",
    // No deleteBeforeReplace class option: the diff says per change (a rename creates the new role
    // first, so its databases can move to it in the same update); the kit leaves in place an object
    // this run's replacement took over.
    unknownAtCreate: ["name"],
    targets: [
      { property: "projectId", kind: "project" },
      { property: "branchId", kind: "branch" },
    ],
  },
);

export const database = entry<DatabaseInputs>(
  () => (require("./resources/database/lifecycle") as typeof databaseLifecycle).databaseSteps,
  {
    definition: DATABASE_DEFINITION,
    noun: "database",
    adoptInput: "adopt",
    // Database names are unique in a branch: a replacement deletes the old database first.
    classes: { deleteBeforeReplace: true },
    unknownAtCreate: ["name"],
    targets: [
      { property: "projectId", kind: "project" },
      { property: "branchId", kind: "branch" },
    ],
  },
);

export const projectPermission = entry<ProjectPermissionInputs>(
  () =>
    (require("./resources/projectpermission/lifecycle") as typeof projectPermissionLifecycle)
      .projectPermissionSteps,
  {
    definition: PROJECT_PERMISSION_DEFINITION,
    noun: PROJECT_PERMISSION_NOUN,
    adoptInput: "importId",
    // A changed address or project is granted before the old grant is revoked: no deleteBeforeReplace.
    targets: [{ property: "projectId", kind: "project" }],
  },
);

export const snapshot = entry<SnapshotInputs>(
  () => (require("./resources/snapshot/lifecycle") as typeof snapshotLifecycle).snapshotSteps,
  {
    definition: SNAPSHOT_DEFINITION,
    noun: SNAPSHOT_NOUN,
    adoptInput: "importId",
    // The free plan holds one manual snapshot: a replacement deletes the old snapshot first (its
    // timestamp is judged at preview with a margin for that, as a Branch's parentTimestamp is).
    classes: { deleteBeforeReplace: true },
    targets: [
      { property: "projectId", kind: "project" },
      { property: "branchId", kind: "branch" },
    ],
  },
);

export const snapshotSchedule = entry<SnapshotScheduleInputs>(
  () =>
    (require("./resources/snapshotschedule/lifecycle") as typeof snapshotScheduleLifecycle)
      .snapshotScheduleSteps,
  {
    definition: SNAPSHOT_SCHEDULE_DEFINITION,
    noun: SNAPSHOT_SCHEDULE_NOUN,
    adoptInput: "importId",
    objectTypes: [SNAPSHOT_SCHEDULE_ITEM_TYPE],
    // A branch has one schedule: a forced replacement on the same branch clears it before setting it.
    classes: { deleteBeforeReplace: true },
    targets: [
      { property: "projectId", kind: "project" },
      { property: "branchId", kind: "branch" },
    ],
  },
);

export const vpcEndpoint = entry<VpcEndpointInputs>(
  () => (require("./resources/vpcendpoint/lifecycle") as typeof vpcEndpointLifecycle).vpcEndpointSteps,
  {
    definition: VPC_ENDPOINT_DEFINITION,
    noun: VPC_ENDPOINT_NOUN,
    adoptInput: "importId",
    // A removed endpoint cannot be added back: a replacement registers the new one before the old goes.
  },
);

export const projectVpcEndpoint = entry<ProjectVpcEndpointInputs>(
  () =>
    (require("./resources/projectvpcendpoint/lifecycle") as typeof projectVpcEndpointLifecycle)
      .projectVpcEndpointSteps,
  {
    definition: PROJECT_VPC_ENDPOINT_DEFINITION,
    noun: PROJECT_VPC_ENDPOINT_NOUN,
    adoptInput: "importId",
    // A new restriction is set before the old one is lifted: the project never opens meanwhile.
    targets: [{ property: "projectId", kind: "project" }],
  },
);

export const spendingLimit = entry<SpendingLimitInputs>(
  () => (require("./resources/spendinglimit/lifecycle") as typeof spendingLimitLifecycle).spendingLimitSteps,
  {
    definition: SPENDING_LIMIT_DEFINITION,
    noun: SPENDING_LIMIT_NOUN,
    adoptInput: "importId",
    // An organization has one: a forced replacement in the same organization removes it before setting it.
    classes: { deleteBeforeReplace: true },
  },
);

export const neonAuth = entry<NeonAuthInputs>(
  () => (require("./resources/neonauth/lifecycle") as typeof neonAuthLifecycle).neonAuthSteps,
  {
    definition: NEON_AUTH_DEFINITION,
    noun: NEON_AUTH_NOUN,
    adoptInput: "importId",
    objectTypes: [NEON_AUTH_OAUTH_PROVIDER_TYPE],
    // A branch has one Neon Auth: a replacement disables it before enabling it again.
    classes: { deleteBeforeReplace: true },
    targets: [
      { property: "projectId", kind: "project" },
      { property: "branchId", kind: "branch" },
    ],
  },
);

export const dataApi = entry<DataApiInputs>(
  () => (require("./resources/dataapi/lifecycle") as typeof dataApiLifecycle).dataApiSteps,
  {
    definition: DATA_API_DEFINITION,
    noun: DATA_API_NOUN,
    adoptInput: "importId",
    objectTypes: [DATA_API_SETTINGS_TYPE],
    // A database has one Data API: a replacement deletes it before creating it again.
    classes: { deleteBeforeReplace: true },
    targets: [
      { property: "projectId", kind: "project" },
      { property: "branchId", kind: "branch" },
    ],
  },
);

export const projectJwks = entry<ProjectJwksInputs>(
  () => (require("./resources/projectjwks/lifecycle") as typeof projectJwksLifecycle).projectJwksSteps,
  {
    definition: PROJECT_JWKS_DEFINITION,
    noun: PROJECT_JWKS_NOUN,
    adoptInput: "importId",
    // No deleteBeforeReplace: the diff says per change (a new URL or scope is added first).
    targets: [
      { property: "projectId", kind: "project" },
      { property: "branchId", kind: "branch" },
    ],
  },
);

/** The resources, in schema and docs order. */
export const RESOURCES: readonly ResourceKind[] = [
  compute,
  apiKey,
  project,
  branch,
  role,
  database,
  projectPermission,
  snapshot,
  snapshotSchedule,
  vpcEndpoint,
  projectVpcEndpoint,
  spendingLimit,
  neonAuth,
  dataApi,
  projectJwks,
];

export { LOOKUPS };

/** Every object type of the package: the lookups' and the resources' own. */
export const OBJECT_TYPES: readonly ObjectTypeDef[] = [
  ...LOOKUP_TYPES,
  ...RESOURCES.flatMap((r) => r.objectTypes ?? []),
];

/** The registry entry of a resource by its type name (`Compute`); throws naming the known ones. */
export function resourceKind(name: string): ResourceKind {
  const kind = RESOURCES.find((r) => r.definition.name === name);
  if (!kind) {
    throw new Error(
      `Failed to find resource ${name}: the package's resources are ` +
        `${RESOURCES.map((r) => r.definition.name).join(", ")}.`,
    );
  }
  return kind;
}
