/** Compute endpoints: list, get, create, update, delete, start, suspend, restart. */
import { badRequest, conflict, notFound } from "../errors";
import { endpointId } from "../ids";
import { iso } from "../store";
import { sizeProblem } from "../sizes";
import type { OpSpec } from "../engine";
import type { Ctx, Router } from "../server";
import type { Endpoint, Project } from "../state";
import { EndpointCreateBody, EndpointUpdateBody, type EndpointCreate } from "../validation";

/** Size of a compute created without sizes. */
export const DEFAULT_CU = 0.25;

/** Resolves and checks size bounds, a missing bound taking the other one's value (fixed size). */
export function checkedSizes(
  ctx: Ctx,
  project: Project,
  what: string,
  min: number | undefined,
  max: number | undefined,
  provisioner: string,
): { min: number; max: number } {
  const lo = min ?? max ?? DEFAULT_CU;
  const hi = max ?? min ?? DEFAULT_CU;
  const problem = sizeProblem(lo, hi, ctx.store.plan(project));
  if (problem) throw badRequest(`Failed to ${what}: ${problem}`);
  if (lo !== hi && provisioner === "k8s-pod") {
    throw badRequest(
      `Failed to ${what}: autoscaling (min ${lo} ≠ max ${hi}) needs provisioner k8s-neonvm, not k8s-pod`,
    );
  }
  return { min: lo, max: hi };
}

/** The read_write endpoint of a branch, if any. */
export function readWriteOf(
  ctx: Ctx,
  projectId: string,
  branchId: string,
  except?: string,
): Endpoint | undefined {
  return ctx.store
    .endpointList(projectId)
    .find((e) => e.branch_id === branchId && e.type === "read_write" && e.id !== except);
}

export function rwConflict(what: string, branchId: string, existing: Endpoint) {
  return conflict(
    `Failed to ${what}: branch ${branchId} already has a read_write endpoint ${existing.id}. ` +
      "A branch has at most one read_write compute; use type read_only or another branch",
  );
}

/** Builds a new endpoint record (not yet stored). */
export function buildEndpoint(
  ctx: Ctx,
  project: Project,
  e: Omit<EndpointCreate, "branch_id"> & { branch_id: string },
  what: string,
): Endpoint {
  const provisioner = e.provisioner ?? "k8s-neonvm";
  const { min, max } = checkedSizes(
    ctx,
    project,
    what,
    e.autoscaling_limit_min_cu,
    e.autoscaling_limit_max_cu,
    provisioner,
  );
  const store = ctx.store;
  const id = endpointId(store.rngIds, (x) => x in store.state.endpoints);
  const now = iso(ctx.now());
  const host = ctx.emu.realPg?.hostFor() ?? `${id}.${project.proxy_host}`;
  return {
    host,
    id,
    ...(e.name ? { name: e.name } : {}),
    project_id: project.id,
    branch_id: e.branch_id,
    autoscaling_limit_min_cu: min,
    autoscaling_limit_max_cu: max,
    region_id: project.region_id,
    type: e.type,
    current_state: "init",
    settings: { pg_settings: {}, ...(e.settings ?? {}) },
    pooler_enabled: e.pooler_enabled ?? false,
    pooler_mode: "transaction",
    disabled: e.disabled ?? false,
    passwordless_access: e.passwordless_access ?? true,
    creation_source: "api",
    created_at: now,
    updated_at: now,
    proxy_host: project.proxy_host,
    suspend_timeout_seconds: e.suspend_timeout_seconds ?? 0,
    provisioner,
  };
}

/**
 * The operations of a configuration change on a compute, and its pending state: `apply_config`; an
 * idle (or disabled) compute is briefly woken for it and suspended again (the API's own example), so
 * `suspend_compute` follows. `restart`: a size or branch change restarts an active compute inside
 * `apply_config`.
 */
export function applyConfig(ep: Endpoint, restart = false): OpSpec[] {
  const base = { branch_id: ep.branch_id, endpoint_id: ep.id };
  const specs: OpSpec[] = [{ action: "apply_config", ...base, restart }];
  if (ep.current_state !== "active" || ep.disabled) {
    specs.push({ action: "suspend_compute", ...base });
    ep.pending_state = "idle";
  } else {
    ep.pending_state = "active";
  }
  return specs;
}

/**
 * A change to a branch's roles or databases: a configuration change on every compute of the branch
 * (the service drops their connections and wakes an idle one briefly). None without a compute.
 */
export function applyConfigToBranch(ctx: Ctx, projectId: string, branchId: string): OpSpec[] {
  return ctx.store
    .endpointList(projectId)
    .filter((e) => e.branch_id === branchId)
    .flatMap((e) => applyConfig(e));
}

function endpointOr404(ctx: Ctx, project: Project, id: string, what: string): Endpoint {
  const ep = ctx.store.endpoint(project.id, id);
  if (!ep) throw notFound(`Failed to ${what}: endpoint ${id} not found in project ${project.id}`);
  return ep;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function endpointRoutes(r: Router): void {
  r.get("/projects/:project_id/endpoints", (ctx) => {
    const p = ctx.project(ctx.params().project_id, "list endpoints");
    return { body: { endpoints: ctx.store.endpointList(p.id) } };
  });

  r.get("/projects/:project_id/branches/:branch_id/endpoints", (ctx) => {
    const { project_id, branch_id } = ctx.params();
    const p = ctx.project(project_id, "list branch endpoints");
    if (!ctx.store.branch(p.id, branch_id)) {
      throw notFound(`Failed to list branch endpoints: branch ${branch_id} not found in project ${p.id}`);
    }
    return { body: { endpoints: ctx.store.endpointList(p.id).filter((e) => e.branch_id === branch_id) } };
  });

  r.get("/projects/:project_id/endpoints/:endpoint_id", (ctx) => {
    const { project_id, endpoint_id } = ctx.params();
    const p = ctx.project(project_id, "get endpoint");
    return { body: { endpoint: endpointOr404(ctx, p, endpoint_id, "get endpoint") } };
  });

  r.post("/projects/:project_id/endpoints", (ctx) => {
    const what = "create endpoint";
    const p = ctx.project(ctx.params().project_id, what);
    const e = ctx.body(EndpointCreateBody, what).endpoint;
    if (!ctx.store.branch(p.id, e.branch_id))
      throw notFound(`Failed to ${what}: branch ${e.branch_id} not found in project ${p.id}`);
    if (e.region_id !== undefined && e.region_id !== p.region_id) {
      throw badRequest(
        `Failed to ${what}: endpoint.region_id ${e.region_id} differs from the project's region ${p.region_id}; omit it or use ${p.region_id}`,
      );
    }
    const ep = buildEndpoint(ctx, p, e, what);
    // A branch still being created: 422 before the project's lock (its create_branch runs).
    ctx.ready(ctx.store.branch(p.id, e.branch_id)!);
    ctx.lock(p);
    if (e.type === "read_write") {
      const existing = readWriteOf(ctx, p.id, e.branch_id);
      if (existing) throw rwConflict(what, e.branch_id, existing);
    }
    ctx.store.addEndpoint(ep);
    let operations: ReturnType<Ctx["operations"]> = [];
    if (ep.disabled) {
      ep.current_state = "idle";
    } else {
      ep.pending_state = "active";
      operations = ctx.operations(p.id, [
        { action: "start_compute", branch_id: ep.branch_id, endpoint_id: ep.id },
      ]);
    }
    return { status: 201, body: { endpoint: ep, operations } };
  });

  r.patch("/projects/:project_id/endpoints/:endpoint_id", (ctx) => {
    const what = "update endpoint";
    const { project_id, endpoint_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const ep = endpointOr404(ctx, p, endpoint_id, what);
    const raw = (ctx.req.body as { endpoint?: Record<string, unknown> } | undefined)?.endpoint;
    for (const field of ["type", "region_id"] as const) {
      if (raw && typeof raw === "object" && field in raw) {
        throw badRequest(
          `Failed to ${what}: endpoint.${field} cannot be changed; create a new endpoint instead`,
        );
      }
    }
    const u = ctx.body(EndpointUpdateBody, what).endpoint;
    const provisioner = u.provisioner ?? ep.provisioner;
    const sizes = checkedSizes(
      ctx,
      p,
      what,
      u.autoscaling_limit_min_cu ?? ep.autoscaling_limit_min_cu,
      u.autoscaling_limit_max_cu ?? ep.autoscaling_limit_max_cu,
      provisioner,
    );
    if (u.branch_id !== undefined && u.branch_id !== ep.branch_id && !ctx.store.branch(p.id, u.branch_id)) {
      throw notFound(`Failed to ${what}: branch ${u.branch_id} not found in project ${p.id}`);
    }
    ctx.transition(ep, "update");
    if (u.branch_id !== undefined && u.branch_id !== ep.branch_id)
      ctx.ready(ctx.store.branch(p.id, u.branch_id)!);
    ctx.lock(p);
    const branchChanged = u.branch_id !== undefined && u.branch_id !== ep.branch_id;
    if (branchChanged && ep.type === "read_write") {
      const existing = readWriteOf(ctx, p.id, u.branch_id!, ep.id);
      if (existing) throw rwConflict(`move endpoint ${ep.id}`, u.branch_id!, existing);
    }
    const next: Partial<Endpoint> = {
      autoscaling_limit_min_cu: sizes.min,
      autoscaling_limit_max_cu: sizes.max,
      provisioner,
      ...(u.branch_id !== undefined ? { branch_id: u.branch_id } : {}),
      ...(u.settings !== undefined ? { settings: { pg_settings: {}, ...u.settings } } : {}),
      ...(u.pooler_enabled !== undefined ? { pooler_enabled: u.pooler_enabled } : {}),
      ...(u.disabled !== undefined ? { disabled: u.disabled } : {}),
      ...(u.passwordless_access !== undefined ? { passwordless_access: u.passwordless_access } : {}),
      ...(u.suspend_timeout_seconds !== undefined
        ? { suspend_timeout_seconds: u.suspend_timeout_seconds }
        : {}),
      ...(u.name !== undefined ? { name: u.name } : {}),
    };
    const changed = (Object.keys(next) as (keyof Endpoint)[]).filter((k) => !same(ep[k], next[k]));
    if (changed.length === 0) return { body: { endpoint: ep, operations: [] } };
    const restart = changed.some(
      (k) => k === "autoscaling_limit_min_cu" || k === "autoscaling_limit_max_cu" || k === "branch_id",
    );
    Object.assign(ep, next);
    ep.updated_at = iso(ctx.now());
    return { body: { endpoint: ep, operations: ctx.operations(p.id, applyConfig(ep, restart)) } };
  });

  r.delete("/projects/:project_id/endpoints/:endpoint_id", (ctx) => {
    const what = "delete endpoint";
    const { project_id, endpoint_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const ep = ctx.store.endpoint(p.id, endpoint_id);
    // The API answers 204 for an endpoint that does not exist or was already deleted.
    if (!ep) return { status: 204 };
    ctx.transition(ep, "delete");
    ctx.lock(p);
    const specs: OpSpec[] =
      ep.current_state === "active"
        ? [{ action: "suspend_compute", branch_id: ep.branch_id, endpoint_id: ep.id }]
        : [];
    if (specs.length) ep.pending_state = "idle";
    ep.updated_at = iso(ctx.now());
    ctx.store.removeEndpoint(ep);
    return { body: { endpoint: ep, operations: ctx.operations(p.id, specs) } };
  });

  r.post("/projects/:project_id/endpoints/:endpoint_id/start", (ctx) => {
    const what = "start endpoint";
    const { project_id, endpoint_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const ep = endpointOr404(ctx, p, endpoint_id, what);
    ctx.transition(ep, "start");
    ctx.lock(p);
    if (ep.disabled)
      throw conflict(
        `Failed to ${what}: endpoint ${ep.id} is disabled; enable it with PATCH {"endpoint":{"disabled":false}} first`,
      );
    if (ep.current_state === "active") return { body: { endpoint: ep, operations: [] } };
    ep.pending_state = "active";
    const operations = ctx.operations(p.id, [
      { action: "start_compute", branch_id: ep.branch_id, endpoint_id: ep.id },
    ]);
    return { body: { endpoint: ep, operations } };
  });

  r.post("/projects/:project_id/endpoints/:endpoint_id/suspend", (ctx) => {
    const what = "suspend endpoint";
    const { project_id, endpoint_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const ep = endpointOr404(ctx, p, endpoint_id, what);
    ctx.transition(ep, "suspend");
    ctx.lock(p);
    if (ep.current_state !== "active") return { body: { endpoint: ep, operations: [] } };
    ep.pending_state = "idle";
    const operations = ctx.operations(p.id, [
      { action: "suspend_compute", branch_id: ep.branch_id, endpoint_id: ep.id },
    ]);
    return { body: { endpoint: ep, operations } };
  });

  r.post("/projects/:project_id/endpoints/:endpoint_id/restart", (ctx) => {
    const what = "restart endpoint";
    const { project_id, endpoint_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const ep = endpointOr404(ctx, p, endpoint_id, what);
    ctx.transition(ep, "restart");
    ctx.lock(p);
    if (ep.current_state !== "active") {
      throw conflict(
        `Failed to ${what}: endpoint ${ep.id} is ${ep.current_state}; restart works only on an active compute. Start it with POST /projects/${p.id}/endpoints/${ep.id}/start`,
      );
    }
    ep.pending_state = "active";
    const base = { branch_id: ep.branch_id, endpoint_id: ep.id };
    const operations = ctx.operations(p.id, [
      { action: "suspend_compute", ...base },
      { action: "start_compute", ...base },
    ]);
    return { body: { endpoint: ep, operations } };
  });
}
