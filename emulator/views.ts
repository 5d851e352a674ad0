/** API shapes built from stored records (for records not stored in their API shape). */
import type { Store } from "./store";
import type { ApiKey, Branch, Org, Project } from "./state";
import { branchLimit } from "./sizes";

export function projectListItem(store: Store, p: Project): Record<string, unknown> {
  const free = store.plan(p) === "free";
  const lastActive = store
    .endpointList(p.id)
    .map((e) => e.last_active)
    .filter((x): x is string => !!x)
    .sort()
    .pop();
  return {
    id: p.id,
    platform_id: p.platform_id,
    region_id: p.region_id,
    name: p.name,
    provisioner: p.provisioner,
    pg_version: p.pg_version,
    proxy_host: p.proxy_host,
    branch_logical_size_limit: free ? 512 : 0,
    branch_logical_size_limit_bytes: free ? 536_870_912 : 0,
    store_passwords: p.store_passwords,
    // In the product spec's project list (not in the OpenAPI ProjectListItem); admin locks are not emulated.
    locked: false,
    active_time: 0,
    cpu_used_sec: 0,
    creation_source: "console",
    created_at: p.created_at,
    updated_at: p.updated_at,
    owner_id: p.owner_id,
    ...(p.org_id ? { org_id: p.org_id, org_name: store.state.orgs[p.org_id].name } : {}),
    ...(lastActive ? { compute_last_active_at: lastActive } : {}),
    history_retention_seconds: p.history_retention_seconds,
    settings: p.settings,
    ...(p.default_endpoint_settings ? { default_endpoint_settings: p.default_endpoint_settings } : {}),
  };
}

export function projectDetails(store: Store, p: Project, nowMs: number): Record<string, unknown> {
  const plan = store.plan(p);
  const owner = store.state.users[p.owner_id];
  const now = new Date(nowMs);
  const periodStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const periodEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const {
    org_name: _orgName,
    active_time: _activeTime,
    locked: _locked,
    ...item
  } = projectListItem(store, p);
  return {
    ...item,
    consumption_period_start: periodStart.toISOString(),
    consumption_period_end: periodEnd.toISOString(),
    active_time_seconds: 0,
    compute_time_seconds: 0,
    written_data_bytes: 0,
    data_transfer_bytes: 0,
    data_storage_bytes_hour: 0,
    owner: {
      email: owner.email,
      name: `${owner.name} ${owner.last_name}`,
      branches_limit: branchLimit(plan),
      subscription_type: plan === "free" ? "free_v3" : plan,
    },
  };
}

export function organization(o: Org): Record<string, unknown> {
  return {
    id: o.id,
    name: o.name,
    handle: o.handle,
    plan: o.plan,
    created_at: o.created_at,
    updated_at: o.updated_at,
    managed_by: "console",
    require_mfa: false,
  };
}

export function branchAnnotation(b: Branch, value: Record<string, string> = {}): Record<string, unknown> {
  return { object: { type: "console/branch", id: b.id }, value };
}

/** A key as listed (no token; `created_by` is the creator object). */
export function keyListItem(store: Store, k: ApiKey): Record<string, unknown> {
  const u = store.state.users[k.created_by];
  return {
    id: k.id,
    name: k.name,
    created_at: k.created_at,
    created_by: { id: k.created_by, name: u ? `${u.name} ${u.last_name}` : "", image: u?.image ?? "" },
    last_used_at: k.last_used_at,
    last_used_from_addr: k.last_used_from_addr,
    ...(k.project_id ? { project_id: k.project_id } : {}),
  };
}

/** A key as returned on revoke (`created_by` is the creator's id). */
export function keyRevoked(k: ApiKey): Record<string, unknown> {
  return {
    id: k.id,
    name: k.name,
    created_at: k.created_at,
    created_by: k.created_by,
    last_used_at: k.last_used_at,
    last_used_from_addr: k.last_used_from_addr,
    revoked: k.revoked,
    ...(k.project_id ? { project_id: k.project_id } : {}),
  };
}
