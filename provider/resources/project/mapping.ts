/**
 * `Project`'s mapping to and from the API: the deterministic auto-name, the create and update bodies
 * (the default compute as `default_endpoint_settings`), and the outputs of a project with its default
 * branch, primary compute, owner role and database.
 */
import type { DefaultEndpointSettingsBody, Project, ProjectCreateBody } from "../../api";
import { derivedName, stateOf, type Bag } from "../kit";
import { PROJECT_DEFINITION } from "./definition";
import type { ProjectDefaultComputeInputs, ProjectInputs } from "./types";

/**
 * `<resource name>-<7 hex digits>` from the URN: project names are not unique in Neon, so only a name
 * no other resource of any stack derives lets a later run find a killed run's project again.
 */
export function autoName(urn: string): string {
  return derivedName(urn, [], "project", 200);
}

/** `project p ("name")`. */
export function describeProject(p: { id: string; name?: string }): string {
  return `project ${p.id}${p.name ? ` ("${p.name}")` : ""}`;
}

/** The default compute as the API's `default_endpoint_settings`. */
export function settingsBody(c: ProjectDefaultComputeInputs): DefaultEndpointSettingsBody {
  return {
    ...(c.minCu !== undefined ? { autoscaling_limit_min_cu: c.minCu } : {}),
    ...(c.maxCu !== undefined ? { autoscaling_limit_max_cu: c.maxCu } : {}),
    ...(c.suspendTimeoutSeconds !== undefined ? { suspend_timeout_seconds: c.suspendTimeoutSeconds } : {}),
  };
}

export function createBody(i: ProjectInputs, name: string): ProjectCreateBody {
  const branch = {
    ...(i.defaultBranchName ? { name: i.defaultBranchName } : {}),
    ...(i.roleName ? { role_name: i.roleName } : {}),
    ...(i.databaseName ? { database_name: i.databaseName } : {}),
  };
  return {
    name,
    ...(i.regionId ? { region_id: i.regionId } : {}),
    ...(i.pgVersion !== undefined ? { pg_version: i.pgVersion } : {}),
    ...(i.orgId ? { org_id: i.orgId } : {}),
    ...(i.historyRetentionSeconds !== undefined
      ? { history_retention_seconds: i.historyRetentionSeconds }
      : {}),
    ...(i.defaultCompute ? { default_endpoint_settings: settingsBody(i.defaultCompute) } : {}),
    ...(Object.keys(branch).length > 0 ? { branch } : {}),
  };
}

/** The default compute as the project holds it, with the keys the program declared. */
export function actualDefaultCompute(p: Project, declared: unknown): ProjectDefaultComputeInputs | undefined {
  const s = p.default_endpoint_settings;
  if (!s) return declared === undefined ? undefined : {};
  const all: Record<string, number | undefined> = {
    minCu: s.autoscaling_limit_min_cu,
    maxCu: s.autoscaling_limit_max_cu,
    suspendTimeoutSeconds: s.suspend_timeout_seconds,
  };
  const keys = declared && typeof declared === "object" ? Object.keys(declared) : Object.keys(all);
  return Object.fromEntries(keys.filter((k) => all[k] !== undefined).map((k) => [k, all[k]]));
}

/** What the project holds besides itself: its default branch, primary compute, role and database. */
export interface ProjectParts {
  defaultBranchId: string;
  defaultBranchName?: string;
  primaryComputeId?: string;
  host?: string;
  databaseName?: string;
  roleName?: string;
  /** A secret: the engine stores it encrypted. */
  connectionUri?: string;
}

/** The text of the `onDelete` output, shown by `pulumi preview --diff` of a delete. */
export function onDeleteText(p: { id: string; name?: string }): string {
  return (
    `deleting this resource deletes ${describeProject(p)} with every branch, compute, role and database ` +
    "in it (recoverable from the service for 7 days)"
  );
}

/** The resource's outputs: the inputs as given (for the next diff) and the project as it is. */
export function toOutputs(inputs: Bag, p: Project, parts: ProjectParts): Bag {
  const outs: Bag = {
    ...inputs,
    name: p.name,
    regionId: p.region_id,
    pgVersion: p.pg_version,
    orgId: p.org_id ?? inputs.orgId,
    historyRetentionSeconds: p.history_retention_seconds ?? inputs.historyRetentionSeconds,
    defaultCompute: actualDefaultCompute(p, inputs.defaultCompute) ?? inputs.defaultCompute,
    // Set at creation only: the program's value stands (the branch may be renamed by a Branch later).
    defaultBranchName: inputs.defaultBranchName ?? parts.defaultBranchName,
    databaseName: parts.databaseName ?? inputs.databaseName,
    roleName: parts.roleName ?? inputs.roleName,
    defaultBranchId: parts.defaultBranchId,
    primaryComputeId: parts.primaryComputeId,
    host: parts.host,
    // Every step's outputs pass here: a URI kept out of the state (passwordInState) is never stored.
    connectionUri: inputs.passwordInState === false ? undefined : parts.connectionUri,
    createdAt: p.created_at,
    onDelete: onDeleteText(p),
  };
  return stateOf(PROJECT_DEFINITION, inputs, outs);
}
