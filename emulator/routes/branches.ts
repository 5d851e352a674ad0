/** Branches: list, get, create (optionally with computes), update, restore (reset to a parent), delete. */
import { badRequest, conflict, notFound, unprocessable } from "../errors";
import { branchId } from "../ids";
import { branchLimit } from "../sizes";
import { iso } from "../store";
import type { OpSpec } from "../engine";
import type { Ctx } from "../context";
import type { Router } from "../server";
import type { Branch, Database, Endpoint, Operation, Project } from "../state";
import { branchAnnotation } from "../views";
import {
  BranchCreateBody,
  BranchRestoreBody,
  BranchUpdateBody,
  enumQuery,
  idQuery,
  intQuery,
  stringQuery,
} from "../validation";
import type { z } from "zod";
import { buildEndpoint } from "./endpoints";
import { connectionDetails, inheritRolesAndDatabases, roleWithPassword } from "../roles";

export function branchRoutes(r: Router): void {
  r.get("/projects/:project_id/branches", (ctx) => {
    const p = ctx.project(ctx.params().project_id, "list branches");
    const q = ctx.query();
    const search = stringQuery(q.search, "search");
    const sortBy = enumQuery(q.sort_by, "sort_by", ["name", "created_at", "updated_at"], "updated_at");
    const sortOrder = enumQuery(q.sort_order, "sort_order", ["asc", "desc"], "desc");
    const limit = q.limit === undefined ? undefined : intQuery(q.limit, "limit", 1, 10_000, 10_000);
    const after = q.cursor === undefined ? undefined : parseBranchCursor(q.cursor, sortBy, sortOrder);
    // Sorted by the key, then by id: every branch has one place, so pages never skip or repeat.
    const key = (b: Branch) => `${b[sortBy]}\u0000${b.id}`;
    const sign = sortOrder === "asc" ? 1 : -1;
    const matching = ctx.store
      .branchesOf(p.id)
      .filter((b) => !search || b.name.includes(search) || b.id.includes(search))
      .sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
      .filter((b) => after === undefined || sign * (key(b) < after ? -1 : key(b) > after ? 1 : 0) > 0);
    const size = limit === undefined ? matching.length : Math.min(limit, ctx.settings.branchPageCap);
    const branches = matching.slice(0, size);
    // The annotations of the listed branches that have one, keyed by branch id.
    const annotations = Object.fromEntries(
      branches
        .filter((b) => ctx.store.state.annotations[b.id])
        .map((b) => [b.id, branchAnnotation(b, ctx.store.state.annotations[b.id])]),
    );
    const last = branches[branches.length - 1];
    const more = matching.length > branches.length && last !== undefined;
    return {
      body: {
        branches,
        annotations,
        // `next` only while branches remain: the opaque cursor names the last branch of this page.
        ...(limit !== undefined
          ? {
              pagination: {
                ...(more ? { next: formatBranchCursor(key(last), sortBy, sortOrder) } : {}),
                sort_by: sortBy,
                sort_order: sortOrder,
              },
            }
          : {}),
      },
    };
  });

  r.get("/projects/:project_id/branches/:branch_id", (ctx) => {
    const { project_id, branch_id } = ctx.params();
    const p = ctx.project(project_id, "get branch");
    const b = ctx.store.branch(p.id, branch_id);
    if (!b) throw notFound(`Failed to get branch: branch ${branch_id} not found in project ${p.id}`);
    return { body: { branch: b, annotation: branchAnnotation(b, ctx.store.state.annotations[b.id]) } };
  });

  r.post("/projects/:project_id/branches", (ctx) => {
    const what = "create branch";
    const p = ctx.project(ctx.params().project_id, what);
    return { status: 201, body: createBranch(ctx, p, ctx.body(BranchCreateBody, what), what) };
  });

  r.get("/projects/:project_id/branches/:branch_id/schema", async (ctx) => {
    const what = "get schema";
    const { project_id, branch_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const q = ctx.query();
    const b = ctx.store.branch(p.id, branch_id);
    if (!b) throw notFound(`Failed to ${what}: branch ${branch_id} not found in project ${p.id}`);
    const dbName = stringQuery(q.db_name, "db_name", true);
    const format = enumQuery(q.format, "format", ["sql", "json"], "sql");
    // The document: "The `lsn` and `timestamp` values cannot be specified at the same time."
    if (stringQuery(q.lsn, "lsn") !== undefined && stringQuery(q.timestamp, "timestamp") !== undefined) {
      throw badRequest(`Failed to ${what}: give lsn or timestamp, not both`);
    }
    if (!ctx.store.databasesOf(b.id).some((d) => d.name === dbName))
      throw notFound(`Failed to ${what}: database "${dbName}" not found on branch ${b.id}`);
    // As compare_schema, the schema as it is now: the emulator keeps no history of it. In memory,
    // databases hold no schema.
    if (format === "json") {
      const tables = ctx.emu.realPg ? await ctx.emu.realPg.tablesOf(b.id, dbName) : [];
      return { body: { json: { tables } } };
    }
    return { body: { sql: ctx.emu.realPg ? await ctx.emu.realPg.schemaOf(b.id, dbName) : "" } };
  });

  r.get("/projects/:project_id/branches/:branch_id/compare_schema", async (ctx) => {
    const what = "compare schema";
    const { project_id, branch_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const store = ctx.store;
    const q = ctx.query();
    const b = store.branch(p.id, branch_id);
    if (!b) throw notFound(`Failed to ${what}: branch ${branch_id} not found in project ${p.id}`);
    const dbName = stringQuery(q.db_name, "db_name", true);
    const baseId = idQuery(q.base_branch_id, "base_branch_id") ?? b.parent_id;
    if (baseId === undefined) {
      throw badRequest(
        `Failed to ${what}: branch ${b.id} has no parent to compare with; pass base_branch_id`,
      );
    }
    const base = store.branch(p.id, baseId);
    if (!base) throw notFound(`Failed to ${what}: base branch ${baseId} not found in project ${p.id}`);
    for (const x of [b, base]) {
      if (!store.databasesOf(x.id).some((d) => d.name === dbName))
        throw notFound(`Failed to ${what}: database "${dbName}" not found on branch ${x.id}`);
    }
    // In memory, databases hold no schema: every comparison is empty.
    const diff = ctx.emu.realPg ? await ctx.emu.realPg.schemaDiff(b.id, base.id, dbName) : "";
    return { body: { diff } };
  });

  r.patch("/projects/:project_id/branches/:branch_id", (ctx) => {
    const what = "update branch";
    const { project_id, branch_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const store = ctx.store;
    const b = store.branch(p.id, branch_id);
    if (!b) throw notFound(`Failed to ${what}: branch ${branch_id} not found in project ${p.id}`);
    const patch = ctx.body(BranchUpdateBody, what).branch;
    if (
      patch.name !== undefined &&
      patch.name !== b.name &&
      store.branchesOf(p.id).some((x) => x.name === patch.name)
    ) {
      throw conflict(
        `Failed to ${what}: a branch named "${patch.name}" already exists in project ${p.id}; choose another name`,
      );
    }
    const willProtect = patch.protected ?? b.protected;
    const expiry = patch.expires_at === undefined ? b.expires_at : patch.expires_at;
    if (expiry !== undefined && expiry !== null) {
      const isParent = store.branchesOf(p.id).some((x) => x.parent_id === b.id);
      expiryRule(what, expiry, patch.expires_at === undefined ? Date.parse(expiry) - 1 : ctx.now(), {
        protected: willProtect,
        default: b.default,
        parent: isParent,
      });
    }
    // A branch update changes metadata only: no operation, no lock.
    if (patch.name !== undefined) b.name = patch.name;
    if (patch.protected !== undefined) b.protected = patch.protected;
    if (patch.expires_at === null) delete b.expires_at;
    else if (patch.expires_at !== undefined) b.expires_at = iso(Date.parse(patch.expires_at));
    b.updated_at = iso(ctx.now());
    store.dirty = true;
    return { body: { branch: b, operations: [] } };
  });

  r.post("/projects/:project_id/branches/:branch_id/restore", (ctx) => {
    const what = "restore branch";
    const { project_id, branch_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const store = ctx.store;
    const b = store.branch(p.id, branch_id);
    if (!b) throw notFound(`Failed to ${what}: branch ${branch_id} not found in project ${p.id}`);
    const body = ctx.body(BranchRestoreBody, what);
    const source = store.branch(p.id, body.source_branch_id);
    if (!source)
      throw notFound(
        `Failed to ${what}: source branch ${body.source_branch_id} not found in project ${p.id}`,
      );
    if (b.protected) throw badRequest(`Failed to ${what}: ${b.id} is protected and cannot be restored`);
    const self = source.id === b.id;
    if (self && body.source_lsn === undefined && body.source_timestamp === undefined) {
      throw badRequest(
        `Failed to ${what}: restoring ${b.id} from its own history needs source_lsn or source_timestamp`,
      );
    }
    const hasChildren = store.branchesOf(p.id).some((x) => x.parent_id === b.id);
    if ((self || hasChildren) && !body.preserve_under_name) {
      throw badRequest(
        `Failed to ${what}: preserve_under_name is required when ${self ? "restoring a branch from its own history" : `${b.id} has child branches`}`,
      );
    }
    const keepAs = body.preserve_under_name || undefined;
    if (keepAs !== undefined) {
      if (store.branchesOf(p.id).some((x) => x.name === keepAs)) {
        throw conflict(
          `Failed to ${what}: a branch named "${keepAs}" already exists in project ${p.id}; choose another preserve_under_name`,
        );
      }
      const limit = branchLimit(store.plan(p));
      if (store.branchesOf(p.id).length >= limit) {
        throw unprocessable(
          `Failed to ${what}: project ${p.id} already has ${limit} branches, the most its plan allows, and preserve_under_name needs one more`,
        );
      }
    }
    ctx.ready(b);
    ctx.lock(p);
    const specs: OpSpec[] = [];
    if (keepAs !== undefined) {
      // The branch's state before the restore, as a new branch under the given name: it takes the
      // branch's children (they were made from that state) and copies of its roles and databases.
      const nowMs = ctx.now();
      const now = iso(nowMs);
      const id = branchId(store.rngIds, (x) => x in store.state.branches);
      store.state.branches[id] = {
        ...b,
        id,
        name: keepAs,
        parent_id: b.parent_id,
        current_state: "init",
        pending_state: "ready",
        state_changed_at: now,
        default: false,
        protected: false,
        expires_at: undefined,
        created_at: now,
        updated_at: now,
      };
      inheritRolesAndDatabases(store, b.id, id, nowMs, false);
      ctx.emu.realPg?.branchCreated(id, b.id);
      for (const child of store.branchesOf(p.id).filter((x) => x.parent_id === b.id)) child.parent_id = id;
      specs.push({ action: "create_branch", branch_id: id });
    }
    b.logical_size = source.logical_size;
    b.current_state = "resetting";
    b.pending_state = "ready";
    b.updated_at = iso(ctx.now());
    store.dirty = true;
    specs.push({ action: "create_branch", branch_id: b.id });
    ctx.emu.realPg?.branchRestored(b.id, source.id);
    // Its computes restart on the restored data.
    for (const ep of store
      .endpointList(p.id)
      .filter((e) => e.branch_id === b.id && e.current_state === "active")) {
      specs.push({ action: "suspend_compute", branch_id: b.id, endpoint_id: ep.id });
      specs.push({ action: "start_compute", branch_id: b.id, endpoint_id: ep.id });
    }
    return { body: { branch: b, operations: ctx.operations(p.id, specs) } };
  });

  r.delete("/projects/:project_id/branches/:branch_id", (ctx) => {
    const what = "delete branch";
    const { project_id, branch_id } = ctx.params();
    const p = ctx.project(project_id, what);
    const store = ctx.store;
    const b = store.branch(p.id, branch_id);
    // Like endpoints, a branch that does not exist (or is gone already) answers 204.
    if (!b) return { status: 204 };
    if (b.default)
      throw badRequest(`Failed to ${what}: ${b.id} is the project's default branch and cannot be deleted`);
    if (b.protected) throw badRequest(`Failed to ${what}: ${b.id} is protected and cannot be deleted`);
    const child = store.branchesOf(p.id).find((x) => x.parent_id === b.id);
    if (child)
      throw conflict(`Failed to ${what}: ${b.id} has child branch ${child.id}; delete the children first`);
    ctx.lock(p);
    const specs: OpSpec[] = [];
    for (const ep of [...store.endpointList(p.id)].filter((e) => e.branch_id === b.id)) {
      if (ep.current_state === "active")
        specs.push({ action: "suspend_compute", branch_id: b.id, endpoint_id: ep.id });
      store.removeEndpoint(ep);
    }
    specs.push({ action: "delete_timeline", branch_id: b.id });
    store.removeBranch(b);
    b.updated_at = iso(ctx.now());
    return { body: { branch: b, operations: ctx.operations(p.id, specs) } };
  });
}

/** A branch create's body (`BranchCreateRequest` with `annotation_value`). */
export type BranchCreate = z.infer<typeof BranchCreateBody>;

/** What a branch create answers (`CreatedBranch`). */
export interface CreatedBranch {
  branch: Branch;
  endpoints: Endpoint[];
  operations: Operation[];
  roles: unknown[];
  databases: Database[];
  connection_uris?: unknown[];
}

/**
 * Creates a branch (and its computes) as `POST /projects/{project_id}/branches` does, with its checks,
 * operations, inherited roles and databases, and its data (a copy of the parent's); the anonymized
 * branch's create makes its branch here too.
 */
export function createBranch(ctx: Ctx, p: Project, body: BranchCreate, what: string): CreatedBranch {
  const store = ctx.store;
  const parentId = body.branch?.parent_id ?? p.default_branch_id;
  if (!store.branch(p.id, parentId))
    throw notFound(`Failed to ${what}: parent branch ${parentId} not found in project ${p.id}`);
  const limit = branchLimit(store.plan(p));
  if (store.branchesOf(p.id).length >= limit) {
    throw unprocessable(
      `Failed to ${what}: project ${p.id} already has ${limit} branches, the most its plan allows; delete a branch or upgrade the plan`,
    );
  }
  const id = branchId(store.rngIds, (x) => x in store.state.branches);
  const name = body.branch?.name ?? id;
  if (store.branchesOf(p.id).some((b) => b.name === name)) {
    throw conflict(
      `Failed to ${what}: a branch named "${name}" already exists in project ${p.id}; choose another name`,
    );
  }
  if (body.branch?.expires_at !== undefined) {
    expiryRule(what, body.branch.expires_at, ctx.now(), { protected: body.branch.protected === true });
  }
  const endpointOpts = body.endpoints ?? [];
  if (endpointOpts.filter((e) => e.type === "read_write").length > 1) {
    throw badRequest(
      `Failed to ${what}: endpoints lists more than one read_write endpoint; a branch has at most one`,
    );
  }
  // A schema-only branch is a new root branch (the parent's schema, none of its data) and needs
  // exactly one read_write compute (API facts §267).
  const schemaOnly = body.branch?.init_source === "schema-only";
  if (schemaOnly && (endpointOpts.length !== 1 || endpointOpts[0].type !== "read_write")) {
    throw badRequest(
      `Failed to ${what}: a schema-only branch (init_source "schema-only") needs exactly one read_write endpoint in endpoints`,
    );
  }
  // A point-in-time parent: its state at a time inside the project's history retention, and not
  // before the parent existed (API facts §285).
  const pointInTime = body.branch?.parent_timestamp;
  if (pointInTime !== undefined) {
    const at = Date.parse(pointInTime);
    const nowAt = ctx.now();
    const parentMade = Date.parse(store.branch(p.id, parentId)!.created_at);
    const from = Math.max(nowAt - p.history_retention_seconds * 1000, parentMade);
    if (at > nowAt || at < from) {
      throw badRequest(
        `Failed to ${what}: parent_timestamp ${pointInTime} is outside the history of branch ${parentId} ` +
          `that can be restored (${iso(from)} to now; the project keeps ${p.history_retention_seconds} s of history)`,
      );
    }
  }
  const endpoints: Endpoint[] = endpointOpts.map((e, i) =>
    buildEndpoint(ctx, p, { ...e, branch_id: id }, `${what} (endpoints.${i})`),
  );
  // A child of a branch still being created: 422 before the project's lock.
  ctx.ready(store.branch(p.id, parentId)!);
  ctx.lock(p);
  // One clock reading for the branch and the roles and databases it inherits (their created_at).
  const nowMs = ctx.now();
  const now = iso(nowMs);
  const branch: Branch = {
    id,
    project_id: p.id,
    ...(schemaOnly ? {} : { parent_id: parentId }),
    ...(pointInTime !== undefined ? { parent_timestamp: iso(Date.parse(pointInTime)) } : {}),
    ...(body.branch?.parent_lsn !== undefined ? { parent_lsn: body.branch.parent_lsn } : {}),
    name,
    current_state: "init",
    pending_state: "ready",
    state_changed_at: now,
    creation_source: "console",
    default: false,
    protected: body.branch?.protected ?? false,
    cpu_used_sec: 0,
    active_time_seconds: 0,
    compute_time_seconds: 0,
    written_data_bytes: 0,
    data_transfer_bytes: 0,
    logical_size: store.state.branches[parentId].logical_size,
    init_source: body.branch?.init_source ?? "parent-data",
    ...(body.branch?.expires_at ? { expires_at: iso(Date.parse(body.branch.expires_at)) } : {}),
    created_at: now,
    updated_at: now,
  };
  store.state.branches[id] = branch;
  if (body.annotation_value && Object.keys(body.annotation_value).length > 0) {
    store.state.annotations[id] = { ...body.annotation_value };
  }
  store.dirty = true;
  const specs: OpSpec[] = [{ action: "create_branch", branch_id: id }];
  for (const ep of endpoints) {
    ep.pending_state = "active";
    store.addEndpoint(ep);
    specs.push({ action: "start_compute", branch_id: id, endpoint_id: ep.id });
  }
  const operations = ctx.operations(p.id, specs);
  // The parent's roles and databases, by name; a protected parent's children get new passwords.
  const parent = store.branch(p.id, parentId)!;
  const { roles, databases } = inheritRolesAndDatabases(store, parent.id, id, nowMs, parent.protected);
  // Its data: the parent's as it is now (a schema-only branch: the parent's schema, no rows).
  if (schemaOnly) ctx.emu.realPg?.branchCreatedSchemaOnly(id, parent.id);
  else ctx.emu.realPg?.branchCreated(id, parent.id);
  // A connection URI when there is exactly one way to connect: one role (that may log in), one
  // database, a read_write compute.
  const rw = endpoints.find((e) => e.type === "read_write");
  const uris =
    rw && roles.length === 1 && !roles[0].no_login && databases.length === 1
      ? { connection_uris: [connectionDetails(rw, roles[0], databases[0])] }
      : {};
  return { branch, endpoints, operations, roles: roles.map(roleWithPassword), databases, ...uris };
}

/** Neon's expiration rules: RFC 3339, in the future, at most 30 days ahead; not on a protected, default or parent branch. */
function expiryRule(
  what: string,
  expiresAt: string,
  now: number,
  branch: { protected?: boolean; default?: boolean; parent?: boolean },
): void {
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at))
    throw badRequest(`Failed to ${what}: expires_at "${expiresAt}" is not an RFC 3339 timestamp`);
  if (at <= now) throw badRequest(`Failed to ${what}: expires_at must be in the future`);
  if (at > now + 30 * 24 * 3600 * 1000)
    throw badRequest(`Failed to ${what}: expires_at must be at most 30 days ahead`);
  const why = branch.protected
    ? "a protected"
    : branch.default
      ? "the default"
      : branch.parent
        ? "a parent"
        : undefined;
  if (why) throw badRequest(`Failed to ${what}: expiration is not allowed on ${why} branch`);
}

/** The opaque cursor of the branch listing: where the page ended, and the order it was read in. */
function formatBranchCursor(key: string, sortBy: string, sortOrder: string): string {
  return Buffer.from(JSON.stringify({ key, sortBy, sortOrder })).toString("base64url");
}

function parseBranchCursor(raw: unknown, sortBy: string, sortOrder: string): string {
  let c: { key?: unknown; sortBy?: unknown; sortOrder?: unknown } | undefined;
  try {
    c = typeof raw === "string" ? JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) : undefined;
  } catch {
    c = undefined;
  }
  if (!c || typeof c.key !== "string" || c.sortBy !== sortBy || c.sortOrder !== sortOrder) {
    throw badRequest(
      `Invalid query parameter cursor=${String(raw)}: pass the pagination.next of the previous page unchanged, with the same sort_by and sort_order`,
    );
  }
  return c.key;
}
