/**
 * API keys. Personal keys: `/api_keys` (the caller's own). Organization and
 * project-scoped keys: `/organizations/{org_id}/api_keys`. Tokens are random,
 * returned once on creation and stored only as sha256.
 */
import { ApiFault, Codes, forbidden, notFound } from "../errors";
import { newToken } from "../ids";
import type { Ctx, Router } from "../server";
import type { ApiKey, Org } from "../state";
import { keyListItem, keyRevoked } from "../views";
import { ApiKeyCreateBody, OrgApiKeyCreateBody } from "../validation";

function personalUser(ctx: Ctx, what: string) {
  const user = ctx.principal.user;
  if (ctx.principal.key.kind !== "personal" || !user) {
    throw forbidden(
      `Failed to ${what}: this needs a personal API key (this one is ${ctx.principal.key.kind}-scoped)`,
    );
  }
  return user;
}

function keyIdParam(raw: string, what: string): number {
  if (!/^\d{1,15}$/.test(raw)) {
    throw new ApiFault(400, Codes.badRequest, `Failed to ${what}: key_id must be an integer, got "${raw}"`);
  }
  return Number(raw);
}

function orgOr404(ctx: Ctx, orgId: string, what: string): Org {
  const org = Object.prototype.hasOwnProperty.call(ctx.store.state.orgs, orgId)
    ? ctx.store.state.orgs[orgId]
    : undefined;
  if (!org) throw notFound(`Failed to ${what}: organization ${orgId} not found`);
  return org;
}

/** Organization administrators: an admin's personal key, or an organization key of that organization. */
export function requireOrgAdmin(ctx: Ctx, org: Org, what: string): void {
  const { key, user } = ctx.principal;
  if (key.kind === "organization" && key.org_id === org.id) return;
  if (key.kind === "personal" && user && org.members.some((m) => m.user_id === user.id && m.role === "admin"))
    return;
  throw forbidden(`Failed to ${what}: only administrators of organization ${org.id} may do this`);
}

export function keyRoutes(r: Router): void {
  r.get("/api_keys", (ctx) => {
    const user = personalUser(ctx, "list API keys");
    const keys = Object.values(ctx.store.state.api_keys).filter(
      (k) => k.kind === "personal" && k.created_by === user.id && !k.revoked,
    );
    return { body: keys.map((k) => keyListItem(ctx.store, k)) };
  });

  r.post("/api_keys", (ctx) => {
    const what = "create API key";
    const user = personalUser(ctx, what);
    const { key_name } = ctx.body(ApiKeyCreateBody, what);
    const token = newToken();
    const k = ctx.store.addKey({ name: key_name, kind: "personal", created_by: user.id }, token);
    return { body: { id: k.id, key: token, name: k.name, created_at: k.created_at, created_by: user.id } };
  });

  r.delete("/api_keys/:key_id", (ctx) => {
    const what = "revoke API key";
    const user = personalUser(ctx, what);
    const id = keyIdParam(ctx.params().key_id, what);
    const k = ctx.store.state.api_keys[String(id)];
    // Only the owner may revoke a personal key; others' keys are reported as not found.
    if (!k || k.kind !== "personal" || k.created_by !== user.id) {
      throw notFound(`Failed to ${what}: personal API key ${id} not found`);
    }
    if (!k.revoked) ctx.store.revokeKey(k);
    return { body: keyRevoked(k) };
  });

  r.get("/organizations/:org_id/api_keys", (ctx) => {
    const what = "list organization API keys";
    const org = orgOr404(ctx, ctx.params().org_id, what);
    requireOrgAdmin(ctx, org, what);
    const keys = Object.values(ctx.store.state.api_keys).filter(
      (k) => k.kind !== "personal" && k.org_id === org.id && !k.revoked,
    );
    return { body: keys.map((k) => keyListItem(ctx.store, k)) };
  });

  r.post("/organizations/:org_id/api_keys", (ctx) => {
    const what = "create organization API key";
    const org = orgOr404(ctx, ctx.params().org_id, what);
    const user = personalUser(ctx, what);
    const body = ctx.body(OrgApiKeyCreateBody, what);
    const member = org.members.find((m) => m.user_id === user.id);
    if (!member) throw forbidden(`Failed to ${what}: you are not a member of organization ${org.id}`);
    let k: ApiKey;
    const token = newToken();
    if (body.project_id !== undefined) {
      // Project-scoped keys: any member, for a project of this organization.
      const p = ctx.store.project(body.project_id);
      if (!p || p.org_id !== org.id) {
        throw notFound(`Failed to ${what}: project ${body.project_id} not found in organization ${org.id}`);
      }
      k = ctx.store.addKey(
        { name: body.key_name, kind: "project", created_by: user.id, org_id: org.id, project_id: p.id },
        token,
      );
    } else {
      if (member.role !== "admin") {
        throw forbidden(
          `Failed to ${what}: only administrators of organization ${org.id} may create organization keys; ` +
            "members may create project-scoped keys (set project_id)",
        );
      }
      k = ctx.store.addKey(
        { name: body.key_name, kind: "organization", created_by: user.id, org_id: org.id },
        token,
      );
    }
    return {
      body: {
        id: k.id,
        key: token,
        name: k.name,
        created_at: k.created_at,
        created_by: user.id,
        ...(k.project_id ? { project_id: k.project_id } : {}),
      },
    };
  });

  r.delete("/organizations/:org_id/api_keys/:key_id", (ctx) => {
    const what = "revoke organization API key";
    const org = orgOr404(ctx, ctx.params().org_id, what);
    requireOrgAdmin(ctx, org, what);
    const id = keyIdParam(ctx.params().key_id, what);
    const k = ctx.store.state.api_keys[String(id)];
    if (!k || k.kind === "personal" || k.org_id !== org.id) {
      throw notFound(`Failed to ${what}: API key ${id} not found in organization ${org.id}`);
    }
    if (!k.revoked) ctx.store.revokeKey(k);
    return { body: keyRevoked(k) };
  });
}
