/** Accounts, organizations and projects (read-only in the emulator). */
import { forbidden, notFound } from "../errors";
import type { Ctx, Router } from "../server";
import type { Org } from "../state";
import { organization, projectDetails, projectListItem } from "../views";
import { intQuery } from "../validation";
import { materialize } from "../engine";

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
        projects_limit: user.plan === "free" ? 1 : 100,
        branches_limit: user.plan === "free" ? 10 : 5000,
        max_autoscaling_limit: user.plan === "free" ? 2 : 16,
        auth_accounts: [],
        plan: user.plan,
      },
    };
  });

  r.get("/users/me/organizations", (ctx) => ({ body: { organizations: orgsOf(ctx).map(organization) } }));

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
}
