/**
 * Mapping between `Compute` inputs/outputs and the API's endpoint shapes. Pure.
 */
import type { Endpoint, EndpointCreateBody, EndpointUpdateBody, Operation } from "../../api";
import { stripUndefined } from "../runtime";
import { givenInputNames, type Bag, type Checked, type Stated } from "../kit";
import { COMPUTE_DEFINITION } from "./definition";
import { propertyChanged, sameValue } from "./diff";
import type { ComputeInputs, ComputeOutputs } from "./types";
import { deriveSizing } from "./sizing";

/** The POST body that creates the compute `i` describes. */
export function createBody(i: ComputeInputs): EndpointCreateBody {
  return stripUndefined({
    branch_id: i.branchId,
    type: i.type ?? "read_write",
    region_id: i.regionId,
    autoscaling_limit_min_cu: i.minCu,
    autoscaling_limit_max_cu: i.maxCu,
    suspend_timeout_seconds: i.suspendTimeoutSeconds,
    settings: i.pgSettings ? { pg_settings: i.pgSettings } : undefined,
    disabled: i.disabled,
    name: i.name,
    provisioner: i.provisioner,
  });
}

/** The PATCH body for the properties that changed, nothing more. */
export function updateBody(olds: Stated<ComputeOutputs>, i: Checked<ComputeInputs>): EndpointUpdateBody {
  const changed = (k: string) => propertyChanged(k, olds, i);
  const body: EndpointUpdateBody = {};
  if (changed("branchId")) body.branch_id = i.branchId;
  if (changed("minCu") || changed("maxCu")) {
    body.autoscaling_limit_min_cu = i.minCu;
    body.autoscaling_limit_max_cu = i.maxCu;
  }
  if (changed("suspendTimeoutSeconds")) body.suspend_timeout_seconds = i.suspendTimeoutSeconds ?? 0;
  // The whole map is sent: a key left out of it is removed from the compute.
  if (changed("pgSettings")) body.settings = { pg_settings: i.pgSettings ?? {} };
  if (changed("disabled")) body.disabled = i.disabled ?? false;
  if (changed("name")) body.name = i.name;
  if (changed("provisioner")) body.provisioner = i.provisioner;
  return stripUndefined(body);
}

/**
 * Outputs: the inputs the user gave, overlaid with what the API reports, plus derived sizing.
 * `asked` is set right after this provider wrote the compute: a suspend timeout of 0 ("the platform
 * default") then stays 0 whatever value the API echoes for that default. A refresh reports the
 * API's value, so a change made outside Pulumi shows up.
 */
export function toOutputs(inputs: Bag, ep: Endpoint, asked = true): Bag {
  const sizing = deriveSizing(ep.autoscaling_limit_min_cu, ep.autoscaling_limit_max_cu);
  return stripUndefined({
    ...inputs,
    projectId: ep.project_id,
    branchId: ep.branch_id,
    type: ep.type,
    minCu: ep.autoscaling_limit_min_cu,
    maxCu: ep.autoscaling_limit_max_cu,
    regionId: ep.region_id,
    // 0 asks for the platform default; the API may echo the default's value instead.
    suspendTimeoutSeconds: asked && inputs.suspendTimeoutSeconds === 0 ? 0 : ep.suspend_timeout_seconds,
    pgSettings: { ...(ep.settings?.pg_settings ?? {}) },
    // Retired settings (definition.ts): never sent, never read; the value given stays.
    poolerEnabled: inputs.poolerEnabled,
    poolerMode: inputs.poolerMode,
    disabled: ep.disabled,
    name: ep.name ?? (inputs.name as string | undefined),
    provisioner: ep.provisioner,
    endpointId: ep.id,
    host: ep.host,
    proxyHost: ep.proxy_host,
    currentState: ep.current_state,
    pendingState: ep.pending_state,
    creationSource: ep.creation_source,
    createdAt: ep.created_at,
    updatedAt: ep.updated_at,
    lastActive: ep.last_active,
    startedAt: ep.started_at,
    suspendedAt: ep.suspended_at,
    computeReleaseVersion: ep.compute_release_version,
    ramGb: sizing.ramGb,
    lfcGb: sizing.lfcGb,
    maxConnections: sizing.maxConnections,
    tempDiskGiB: sizing.tempDiskGiB,
    // Which inputs the program gave, so that a refresh reports back only those as inputs: a value the
    // platform chose (name, region, provisioner…) is not something the program asked for.
    __inputNames: asked ? givenInputNames(COMPUTE_DEFINITION, inputs) : inputs.__inputNames,
  });
}

/** True when every field of a PATCH body already reads back from the compute. */
export function patchApplied(body: EndpointUpdateBody, ep: Endpoint): boolean {
  const actual: Bag = {
    branch_id: ep.branch_id,
    autoscaling_limit_min_cu: ep.autoscaling_limit_min_cu,
    autoscaling_limit_max_cu: ep.autoscaling_limit_max_cu,
    suspend_timeout_seconds: ep.suspend_timeout_seconds,
    settings: { pg_settings: ep.settings?.pg_settings ?? {} },
    disabled: ep.disabled,
    name: ep.name,
    provisioner: ep.provisioner,
  };
  return Object.entries(body).every(([k, v]) => sameValue(v, actual[k]));
}

/** `compute ep-… on branch br-…`, for messages. */
export function describe(ep: { id: string; branch_id?: string }): string {
  return ep.branch_id ? `compute ${ep.id} on branch ${ep.branch_id}` : `compute ${ep.id}`;
}

/** Splits a resource id: `projectId/endpointId` (import) or `endpointId` with the project from state. */
export function parseId(
  id: string,
  props?: Stated<ComputeOutputs>,
): { projectId: string; endpointId: string } {
  const slash = id.indexOf("/");
  if (slash > 0) return { projectId: id.slice(0, slash), endpointId: id.slice(slash + 1) };
  const projectId = props?.projectId;
  if (typeof projectId !== "string") {
    throw new Error(
      `Failed to read compute ${id}: the id has no project; use the form <projectId>/<endpointId>.`,
    );
  }
  return { projectId, endpointId: id };
}

/**
 * The compute as it stands once every operation its change started has finished, from the answer to
 * that change: it has reached its `pending_state`, its last update is the last operation's end, and a
 * finished `start_compute` is when it started. Saves reading it back after each create and update;
 * other timestamps (a restart's `started_at`) show from the next read or refresh on.
 */
export function settledEndpoint(ep: Endpoint, operations: readonly Operation[]): Endpoint {
  if (operations.length === 0) return ep;
  const latest = (xs: string[]) => xs.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  const { pending_state, ...rest } = ep;
  // A start that finished leaves the compute active even when the answer named no pending state.
  const starts = operations
    .filter((o) => o.action === "start_compute" && o.status === "finished")
    .map((o) => o.updated_at);
  const settled: Endpoint = {
    ...rest,
    current_state: pending_state ?? (starts.length > 0 ? "active" : ep.current_state),
    updated_at: latest([ep.updated_at, ...operations.map((o) => o.updated_at)]),
  };
  if (starts.length > 0) settled.started_at = settled.last_active = latest(starts);
  return settled;
}
