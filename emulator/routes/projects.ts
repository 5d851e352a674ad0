/** Accounts, organizations and projects: read them; create, update and delete projects. */
import { ApiFault, badRequest, forbidden, notFound } from "../errors";
import { branchId, iso, projectId, proxyHostFor } from "../ids";
import type { Ctx, Router } from "../server";
import {
  DEFAULT_HISTORY_RETENTION_SECONDS,
  type Branch,
  type DefaultEndpointSettings,
  type Org,
  type Project,
} from "../state";
import { organization, projectDetails, projectListItem } from "../views";
import { branchLimit, type Plan } from "../sizes";
import { ProjectCreateBody, ProjectUpdateBody, intQuery, type ProjectCreate } from "../validation";
import { materialize, type OpSpec } from "../engine";
import { buildEndpoint, checkedSizes } from "./endpoints";
import {
  DEFAULT_DATABASE_NAME,
  connectionDetails,
  newDatabase,
  newRole,
  ownerRoleName,
  roleWithPassword,
} from "../roles";

/**
 * Regions where Postgres 19 is enabled. Neon's document says 19 "is rolling out and is accepted only in
 * regions where it is enabled" and names none: the emulator assumes the default region only.
 */
export const PG19_REGIONS: readonly string[] = ["aws-us-east-2"];

/** Regions a project can be created in (the service's, `<platform>-<region>`); the first is the default. */
export const REGIONS = [
  "aws-us-east-2",
  "aws-us-east-1",
  "aws-us-west-2",
  "aws-eu-central-1",
  "aws-eu-west-2",
  "aws-ap-southeast-1",
  "aws-ap-southeast-2",
  "aws-sa-east-1",
  "azure-eastus2",
  "azure-westus3",
  "azure-gwc",
];
const DEFAULT_PG_VERSION = 17;
const DEFAULT_BRANCH_NAME = "main";
/** Logical size of a new project's default branch (its empty databases), as the seed has it. */
const NEW_BRANCH_LOGICAL_SIZE = 30_000_000;

/** The organizations a key belongs to: a user's memberships, or the key's own organization. */
export function orgsOf(ctx: Ctx): Org[] {
  const { key, user } = ctx.principal;
  const orgs = ctx.store.state.orgs;
  if (key.kind === "organization") return key.org_id ? [orgs[key.org_id]] : [];
  if (key.kind === "project") {
    const org = ctx.store.project(key.project_id ?? "")?.org_id;
    return org ? [orgs[org]] : [];
  }
  return Object.values(orgs).filter((o) => o.members.some((m) => m.user_id === user?.id));
}

/**
 * Who owns a new project. Personal key: the user, or the organization `org_id` names (404 unknown,
 * 403 not a member). Organization key: its own organization (another one is refused as on the
 * organization routes). Project-scoped keys cannot create projects (product spec): 403.
 */
function newProjectOwner(
  ctx: Ctx,
  orgId: string | undefined,
  what: string,
): Pick<Project, "org_id" | "owner_id"> {
  const { key, user } = ctx.principal;
  const orgs = ctx.store.state.orgs;
  const org =
    orgId !== undefined && Object.prototype.hasOwnProperty.call(orgs, orgId) ? orgs[orgId] : undefined;
  if (orgId !== undefined && !org) throw notFound(`Failed to ${what}: organization ${orgId} not found`);
  if (key.kind === "organization") {
    if (org && org.id !== key.org_id) {
      throw forbidden(
        `Failed to ${what}: this organization API key belongs to ${key.org_id}, not to ${org.id}`,
      );
    }
    return { org_id: key.org_id, owner_id: key.created_by };
  }
  if (key.kind !== "personal" || !user) {
    throw forbidden(
      `Failed to ${what}: a project-scoped API key cannot create projects; use a personal or organization key`,
    );
  }
  if (!org) return { owner_id: user.id };
  if (!org.members.some((m) => m.user_id === user.id)) {
    throw forbidden(`Failed to ${what}: you are not a member of organization ${org.id}`);
  }
  return { org_id: org.id, owner_id: user.id };
}

/**
 * The projects an account or organization may hold by plan (Neon's plans page; Free was 1, then 10
 * and 20, in earlier years' answers). The `projectsLimit` option overrides both.
 */
const PROJECTS_LIMIT: Record<Plan, number> = { free: 100, launch: 100, scale: 1000 };

function projectsLimit(ctx: Ctx, plan: Plan): number {
  return ctx.settings.projectsLimit ?? PROJECTS_LIMIT[plan];
}

/**
 * Refuses a project beyond the owner's limit as the service does: 422 `PROJECTS_LIMIT_EXCEEDED`
 * `user projects limit of 1 exceeded, got 1` (a user's report of the service's answer). The personal
 * projects of a user count against the user's plan; an organization's against the organization's.
 */
function withinProjectsLimit(ctx: Ctx, owner: Pick<Project, "org_id" | "owner_id">): void {
  const { orgs, users, projects } = ctx.store.state;
  const plan = owner.org_id ? orgs[owner.org_id]?.plan : users[owner.owner_id]?.plan;
  const limit = projectsLimit(ctx, plan ?? "free");
  const held = Object.values(projects).filter((p) =>
    owner.org_id ? p.org_id === owner.org_id : !p.org_id && p.owner_id === owner.owner_id,
  ).length;
  if (held >= limit) {
    throw new ApiFault(
      422,
      "PROJECTS_LIMIT_EXCEEDED",
      `${owner.org_id ? "organization" : "user"} projects limit of ${limit} exceeded, got ${held}`,
    );
  }
}

/** The create request's settings for new computes, the deprecated top-level bounds folded in. */
function createDefaults(body: ProjectCreate): DefaultEndpointSettings | undefined {
  const { autoscaling_limit_min_cu: min, autoscaling_limit_max_cu: max, default_endpoint_settings: d } = body;
  if (min === undefined && max === undefined && d === undefined) return undefined;
  return {
    ...(min !== undefined ? { autoscaling_limit_min_cu: min } : {}),
    ...(max !== undefined ? { autoscaling_limit_max_cu: max } : {}),
    ...(d ?? {}),
  };
}

/** Checks the sizes in default endpoint settings as a compute's (a bound given alone stands for both). */
function checkDefaults(ctx: Ctx, p: Project, d: DefaultEndpointSettings | undefined, what: string): void {
  if (d?.autoscaling_limit_min_cu === undefined && d?.autoscaling_limit_max_cu === undefined) return;
  checkedSizes(
    ctx,
    p,
    `${what} (project.default_endpoint_settings)`,
    d.autoscaling_limit_min_cu,
    d.autoscaling_limit_max_cu,
    p.provisioner,
  );
}

export function projectRoutes(r: Router): void {
  r.get("/users/me", (ctx) => {
    const user = ctx.principal.user;
    if (!user) throw forbidden("Failed to get the current user: this needs a personal API key");
    return {
      body: {
        active_seconds_limit: 0,
        id: user.id,
        email: user.email,
        login: user.email.split("@")[0],
        name: user.name,
        last_name: user.last_name,
        image: user.image,
        projects_limit: projectsLimit(ctx, user.plan),
        branches_limit: branchLimit(user.plan),
        max_autoscaling_limit: user.plan === "free" ? 2 : 16,
        auth_accounts: [],
        plan: user.plan,
      },
    };
  });

  r.get("/users/me/organizations", (ctx) => ({ body: { organizations: orgsOf(ctx).map(organization) } }));

  // The regions new projects can be made in (`org_id` is taken and does not narrow them: every region is
  // the emulator's organizations').
  r.get("/regions", () => ({
    body: {
      regions: REGIONS.map((region_id, i) => ({
        region_id,
        name: region_id,
        default: i === 0,
        geo_lat: "",
        geo_long: "",
      })),
    },
  }));

  r.get("/organizations/:org_id", (ctx) => {
    const id = ctx.params().org_id;
    const org = orgsOf(ctx).find((o) => o.id === id);
    if (!org)
      throw notFound(
        `Failed to get organization: organization ${id} not found or not accessible with this API key`,
      );
    return { body: organization(org) };
  });

  r.get("/projects", (ctx) => {
    const q = ctx.query();
    const limit = intQuery(q.limit, "limit", 1, 400, 10);
    const search = typeof q.search === "string" ? q.search : undefined;
    const orgId = typeof q.org_id === "string" ? q.org_id : undefined;
    const cursor = typeof q.cursor === "string" ? q.cursor : undefined;
    const visible = Object.values(ctx.store.state.projects)
      .filter((p) => ctx.canSee(p))
      .filter((p) => orgId === undefined || p.org_id === orgId)
      .filter((p) => !search || p.id.includes(search) || p.name.includes(search))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .filter((p) => cursor === undefined || p.id > cursor)
      .slice(0, limit);
    const now = ctx.now();
    for (const p of visible) materialize(ctx.store, ctx.emu.settings.engine, p.id, now);
    const body: Record<string, unknown> = {
      projects: visible.map((p) => projectListItem(ctx.store, p)),
      applications: {},
      integrations: {},
    };
    // Keyset on the project id; `pagination` is present exactly when the page is full.
    if (visible.length === limit) body.pagination = { cursor: visible[visible.length - 1].id };
    return { body };
  });

  r.get("/projects/:project_id", (ctx) => {
    const p = ctx.project(ctx.params().project_id, "get project");
    return { body: { project: projectDetails(ctx.store, p, ctx.now()) } };
  });

  r.post("/projects", (ctx) => {
    const what = "create project";
    if (ctx.principal.key.kind === "project") {
      throw forbidden(
        `Failed to ${what}: a project-scoped API key cannot create projects; use a personal or organization key`,
      );
    }
    const body = ctx.body(ProjectCreateBody, what).project;
    const owner = newProjectOwner(ctx, body.org_id, what);
    const regionId = body.region_id ?? REGIONS[0];
    if (!REGIONS.includes(regionId)) {
      throw badRequest(
        `Failed to ${what}: project.region_id ${regionId} is not a region; use one of ${REGIONS.join(", ")}`,
      );
    }
    if (body.pg_version === 19 && !PG19_REGIONS.includes(regionId)) {
      throw badRequest(
        `Failed to ${what}: project.pg_version 19 is not available in region ${regionId} yet; use 14 to 18, or a region where 19 is enabled`,
      );
    }
    const databaseName = body.branch?.database_name ?? DEFAULT_DATABASE_NAME;
    const roleName = body.branch?.role_name ?? ownerRoleName(databaseName);
    if (Buffer.byteLength(roleName) > 63) {
      throw badRequest(
        `Failed to ${what}: the owner role name "${roleName}" made from project.branch.database_name is longer than 63 bytes; give project.branch.role_name`,
      );
    }
    const store = ctx.store;
    const taken = (x: string) =>
      x in store.state.projects || x in store.state.branches || x in store.state.endpoints;
    const pid = projectId(store.rngIds, taken);
    const nowMs = ctx.now();
    const now = iso(nowMs);
    const defaults = createDefaults(body);
    const p: Project = {
      id: pid,
      // Names are not unique; without one, the project is named by its id (ProjectCreateRequest).
      name: body.name ?? pid,
      ...(owner.org_id ? { org_id: owner.org_id } : {}),
      owner_id: owner.owner_id,
      region_id: regionId,
      platform_id: regionId.split("-")[0],
      pg_version: body.pg_version ?? DEFAULT_PG_VERSION,
      proxy_host: proxyHostFor(regionId),
      provisioner: body.provisioner ?? "k8s-neonvm",
      created_at: now,
      updated_at: now,
      default_branch_id: branchId(store.rngIds, taken),
      history_retention_seconds: body.history_retention_seconds ?? DEFAULT_HISTORY_RETENTION_SECONDS,
      store_passwords: body.store_passwords ?? true,
      settings: body.settings ?? {},
      ...(defaults ? { default_endpoint_settings: defaults } : {}),
    };
    checkDefaults(ctx, p, defaults, what);
    // The primary read_write compute of the default branch, from the default endpoint settings.
    const ep = buildEndpoint(
      ctx,
      p,
      {
        type: "read_write",
        branch_id: p.default_branch_id,
        autoscaling_limit_min_cu: defaults?.autoscaling_limit_min_cu,
        autoscaling_limit_max_cu: defaults?.autoscaling_limit_max_cu,
        provisioner: body.provisioner,
        suspend_timeout_seconds: defaults?.suspend_timeout_seconds,
        settings: {
          pg_settings: defaults?.pg_settings ?? {},
          ...(defaults?.pgbouncer_settings ? { pgbouncer_settings: defaults.pgbouncer_settings } : {}),
        },
      },
      `${what} (project.default_endpoint_settings)`,
    );
    // After the body's and the owner's checks (400, 404, 403): what the request asks must be possible first.
    withinProjectsLimit(ctx, owner);
    const branch: Branch = {
      id: p.default_branch_id,
      project_id: pid,
      name: body.branch?.name ?? DEFAULT_BRANCH_NAME,
      // Ready when create_timeline finishes (as a new branch is when create_branch does).
      current_state: "init",
      pending_state: "ready",
      state_changed_at: now,
      creation_source: "console",
      default: true,
      protected: false,
      cpu_used_sec: 0,
      active_time_seconds: 0,
      compute_time_seconds: 0,
      written_data_bytes: 0,
      data_transfer_bytes: 0,
      logical_size: NEW_BRANCH_LOGICAL_SIZE,
      init_source: "parent-data",
      created_at: now,
      updated_at: now,
    };
    store.state.projects[pid] = p;
    store.state.branches[branch.id] = branch;
    ep.pending_state = "active";
    store.addEndpoint(ep);
    const role = newRole(branch.id, roleName, now);
    const database = newDatabase(store, branch.id, databaseName, role.name, now);
    store.state.roles[branch.id] = [role];
    store.state.databases[branch.id] = [database];
    store.dirty = true;
    const operations = ctx.operations(pid, [
      { action: "create_timeline", branch_id: branch.id },
      { action: "start_compute", branch_id: branch.id, endpoint_id: ep.id },
    ]);
    return {
      status: 201,
      body: {
        project: projectDetails(store, p, nowMs),
        connection_uris: [connectionDetails(ep, role, database)],
        roles: [roleWithPassword(role)],
        databases: [database],
        operations,
        branch,
        endpoints: [ep],
      },
    };
  });

  r.patch("/projects/:project_id", (ctx) => {
    const what = "update project";
    const p = ctx.project(ctx.params().project_id, what);
    const u = ctx.body(ProjectUpdateBody, what).project;
    checkDefaults(ctx, p, u.default_endpoint_settings, what);
    if (p.settings.enable_logical_replication && u.settings?.enable_logical_replication === false) {
      throw badRequest(
        `Failed to ${what}: project.settings.enable_logical_replication cannot be turned off once it is on`,
      );
    }
    ctx.lock(p);
    const before = JSON.stringify(p);
    const specs: OpSpec[] = [];
    if (u.name !== undefined) p.name = u.name;
    // Settings given replace those of the same name; default endpoint settings replace the old ones whole.
    if (u.settings !== undefined) p.settings = { ...p.settings, ...u.settings };
    if (u.default_endpoint_settings !== undefined) p.default_endpoint_settings = u.default_endpoint_settings;
    if (
      u.history_retention_seconds !== undefined &&
      u.history_retention_seconds !== p.history_retention_seconds
    ) {
      // A new restore window is applied to storage.
      p.history_retention_seconds = u.history_retention_seconds;
      specs.push({ action: "apply_storage_config" });
    }
    if (JSON.stringify(p) !== before) {
      p.updated_at = iso(ctx.now());
      ctx.store.dirty = true;
    }
    const operations = ctx.operations(p.id, specs);
    return { body: { project: projectDetails(ctx.store, p, ctx.now()), operations } };
  });

  r.delete("/projects/:project_id", (ctx) => {
    const what = "delete project";
    const p = ctx.project(ctx.params().project_id, what);
    if (ctx.principal.key.kind === "project") {
      throw forbidden(`Failed to ${what}: a project-scoped API key cannot delete its project`);
    }
    const guarded = ctx.store.branchesOf(p.id).filter((b) => b.protected);
    if (guarded.length) {
      throw badRequest(
        `Failed to ${what}: project ${p.id} has protected branches (${guarded.map((b) => b.id).join(", ")}); ` +
          "a project cannot be deleted while it has one. Unprotect them first",
      );
    }
    ctx.lock(p);
    const project = projectDetails(ctx.store, p, ctx.now());
    // Every branch, compute, operation, role and database goes with it; no operation is returned.
    ctx.store.removeProject(p);
    return { body: { project } };
  });
}
