/**
 * Snapshots and backup schedules (Beta in the OpenAPI document, tag `Snapshot`): a snapshot of a branch
 * (`POST …/branches/{branch_id}/snapshot`), the project's snapshots (list, rename, delete), a restore
 * into a new branch (`POST …/snapshots/{snapshot_id}/restore`), optionally finalized at once or later
 * (`POST …/branches/{branch_id}/finalize_restore`), and a branch's schedule of automatic snapshots
 * (`GET`/`PUT …/branches/{branch_id}/backup_schedule`).
 *
 * The emulator keeps no history of data: a snapshot holds the branch's data as it is when taken, also
 * when it names a `timestamp` or `lsn` inside the restore window (the window itself is judged as the
 * service judges `parent_timestamp`). With real Postgres the data is a copy of the branch's data
 * directory; a restore's branch starts from that copy.
 *
 * What the document leaves open, and the emulator's choice (a client must not lean on these):
 * - the actions of the operations: a snapshot, its rename and its delete start none (`operations: []`);
 *   a restore's branch is made by `create_branch`; a finalize reconfigures each moved compute
 *   (`apply_config`, which restarts it; an idle one is suspended again after);
 * - the name a finalize gives the original branch by default: `<name> (old)` (Neon's guide), made
 *   unique with a number when taken; a restore's branch without a name is named by its id;
 * - a restore's branch has no parent (the original stays deletable, as Neon's guide says of it); at the
 *   finalize it takes the original's name, computes and protection (Neon's guide), its place as default
 *   and its child branches;
 * - the refusals' statuses: 400 for bad input and for a time outside the window or a finalize of a
 *   branch that is not an unfinalized restore, 404 for an unknown snapshot or branch, 409 for a name
 *   taken, 422 for a limit (Neon's guide: 1 manual snapshot on the free plan, 100 on paid plans) or a
 *   branch not ready, 423 while the project's operations run (a snapshot, a restore, a finalize);
 * - a backup schedule is kept and answered; it takes no snapshots by itself.
 */
import { z } from "zod";
import { collection, resource } from "../collection";
import type { Ctx } from "../context";
import type { OpSpec } from "../engine";
import { badRequest, conflict, notFound, unprocessable } from "../errors";
import { branchId as newBranchId, iso, snapshotId as newSnapshotId } from "../ids";
import { newDatabase } from "../roles";
import { branchLimit, type Plan } from "../sizes";
import { RoleRecordSchema, type Branch, type Endpoint, type Project } from "../state";
import { parseBody, stringQuery } from "../validation";
import { applyConfig } from "./endpoints";

const idPattern = z.string().regex(/^[a-z0-9-]{1,60}$/, "must match ^[a-z0-9-]{1,60}$");

/** A snapshot as the API shows it (`Snapshot`). */
export const SnapshotSchema = z.object({
  id: idPattern,
  name: z.string(),
  lsn: z.string().optional(),
  timestamp: z.string().optional(),
  source_branch_id: idPattern.optional(),
  created_at: z.string(),
  expires_at: z.string().optional(),
  manual: z.boolean().optional(),
  full_size: z.number().int().optional(),
  diff_size: z.number().int().optional(),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** A snapshot as stored: what the API shows, and the branch's roles and databases when it was taken. */
export const SnapshotRecordSchema = z.object({
  snapshot: SnapshotSchema,
  /** The branch's roles (with their passwords) when it was taken: a restore's branch gets them. */
  roles: z.array(RoleRecordSchema),
  /** The branch's databases when it was taken (names and owners). */
  databases: z.array(z.object({ name: z.string(), owner_name: z.string() })),
  logical_size: z.number().int(),
});
export type SnapshotRecord = z.infer<typeof SnapshotRecordSchema>;

/** `BackupScheduleItem`. */
export const BackupScheduleItemSchema = z
  .object({
    frequency: z.enum(["hourly", "daily", "weekly", "monthly", "yearly"]),
    hour: z
      .number()
      .int("must be an integer")
      .min(0, "must be 0 to 23")
      .max(23, "must be 0 to 23")
      .optional(),
    day: z.number().int("must be an integer").min(1, "must be 1 to 31").max(31, "must be 1 to 31").optional(),
    month: z
      .number()
      .int("must be an integer")
      .min(1, "must be 1 to 12")
      .max(12, "must be 1 to 12")
      .optional(),
    retention_seconds: z.number().int("must be an integer").min(3600, "must be at least 3600").optional(),
  })
  .strict();

/** `BackupSchedule`: the body of the PUT and the answer of the GET. */
export const BackupScheduleBody = z.object({ schedule: z.array(BackupScheduleItemSchema) }).strict();
type BackupSchedule = z.infer<typeof BackupScheduleBody>;

/** `SnapshotUpdateRequest`. */
const SnapshotUpdateBody = z
  .object({
    snapshot: z.object({ name: z.string().min(1, "must not be empty").optional() }).strict(),
  })
  .strict();

/** The body of `restoreSnapshot` (optional). */
const RestoreBody = z
  .object({
    name: z.string().min(1, "must not be empty").max(256, "must be at most 256 characters").optional(),
    target_branch_id: idPattern.optional(),
    finalize_restore: z.boolean().optional(),
  })
  .strict();

/** The body of `finalizeRestoreBranch` (optional). */
const FinalizeBody = z
  .object({
    name: z.string().min(1, "must not be empty").max(256, "must be at most 256 characters").optional(),
  })
  .strict();

export const snapshots = collection({
  name: "snapshots",
  noun: "snapshot",
  scope: "project",
  schema: SnapshotRecordSchema,
  id: (r) => r.snapshot.id,
});

/** One record per branch that has a schedule (an empty schedule removes it). */
export const backupSchedules = collection({
  name: "backup_schedules",
  noun: "backup schedule",
  scope: "branch",
  schema: BackupScheduleBody,
  id: () => SCHEDULE_ID,
});
const SCHEDULE_ID = "backup_schedule";

/** Manual snapshots a project may hold (Neon's guide: 1 on the free plan, 100 on paid plans). */
export function snapshotLimit(plan: Plan): number {
  return plan === "free" ? 1 : 100;
}

/** The restore window's first moment for a branch: the project's history, not before the branch. */
function windowStart(ctx: Ctx, project: Project, branch: Branch): number {
  return Math.max(ctx.now() - project.history_retention_seconds * 1000, Date.parse(branch.created_at));
}

/** A branch of the project; 404 naming it otherwise. */
function branchOr404(ctx: Ctx, project: Project, id: string, what: string, role = "branch"): Branch {
  const b = ctx.store.branch(project.id, id);
  if (!b) throw notFound(`Failed to ${what}: ${role} ${id} not found in project ${project.id}`);
  return b;
}

/** Removes the project's snapshots whose `expires_at` has passed (the service deletes them then). */
function expire(ctx: Ctx, project: Project): void {
  const records = snapshots.in(ctx.store);
  for (const r of [...records.of(project.id)]) {
    if (r.snapshot.expires_at !== undefined && Date.parse(r.snapshot.expires_at) <= ctx.now()) {
      records.remove(project.id, r.snapshot.id);
      ctx.emu.realPg?.snapshotDeleted(r.snapshot.id);
    }
  }
}

/** A name no branch of the project has: `<name> (old)`, then `<name> (old 2)`, … */
function oldName(ctx: Ctx, project: Project, name: string): string {
  const taken = new Set(ctx.store.branchesOf(project.id).map((b) => b.name));
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${name} (old)` : `${name} (old ${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The checks of a finalize that replaces `target` with `restored`, before anything changes: the name
 * the original takes is free, neither branch is being created, no moved compute is in transition, and
 * the project runs no operation.
 */
function checkFinalize(
  ctx: Ctx,
  project: Project,
  restored: Branch | undefined,
  target: Branch,
  keepAs: string | undefined,
  what: string,
): void {
  if (
    keepAs !== undefined &&
    ctx.store.branchesOf(project.id).some((b) => b.name === keepAs && b.id !== restored?.id)
  ) {
    throw conflict(
      `Failed to ${what}: a branch named "${keepAs}" already exists in project ${project.id}; choose another name`,
    );
  }
  if (restored) ctx.ready(restored);
  ctx.ready(target);
  for (const ep of computesOf(ctx, project, target)) ctx.transition(ep, "move");
  ctx.lock(project);
}

function computesOf(ctx: Ctx, project: Project, branch: Branch): Endpoint[] {
  return ctx.store.endpointList(project.id).filter((e) => e.branch_id === branch.id);
}

/**
 * A finalize: the restored branch takes the original's name, protection, place as default, children
 * and computes (each restarted); the original is renamed. Returns the moved computes' operations.
 */
function finalize(
  ctx: Ctx,
  project: Project,
  restored: Branch,
  target: Branch,
  keepAs: string | undefined,
): { specs: OpSpec[]; moved: Endpoint[] } {
  const now = iso(ctx.now());
  const name = target.name;
  target.name = keepAs ?? oldName(ctx, project, name);
  restored.name = name;
  if (target.protected) {
    restored.protected = true;
    target.protected = false;
  }
  if (target.default) {
    restored.default = true;
    target.default = false;
    project.default_branch_id = restored.id;
  }
  // Its children too: Neon's guide says a restored branch's children cannot reset from their parent
  // for a while after the restore, so they hang under the branch that now holds its place.
  for (const child of ctx.store.branchesOf(project.id).filter((b) => b.parent_id === target.id)) {
    child.parent_id = restored.id;
    child.updated_at = now;
  }
  restored.restore_status = "finalized";
  restored.restored_as = target.id;
  target.updated_at = now;
  restored.updated_at = now;
  const moved = computesOf(ctx, project, target);
  const specs: OpSpec[] = [];
  for (const ep of moved) {
    ep.branch_id = restored.id;
    ep.updated_at = now;
    specs.push(...applyConfig(ep, true));
  }
  ctx.store.dirty = true;
  return { specs, moved };
}

export const snapshotResource = resource({
  name: "snapshots and backup schedules",
  collections: [snapshots, backupSchedules],
  routes(r) {
    r.post("/projects/:project_id/branches/:branch_id/snapshot", (ctx) => {
      const what = "create snapshot";
      const project = snapshots.at(ctx, what).project;
      expire(ctx, project);
      const branch = branchOr404(ctx, project, ctx.params().branch_id, what);
      // The document declares these as query parameters; a body is refused so that a client which
      // sends them there (and would lose them on the service) finds out.
      const body = ctx.req.body;
      if (body !== undefined && !(typeof body === "object" && body && Object.keys(body).length === 0)) {
        throw badRequest(
          `Failed to ${what}: the request takes no body; pass lsn, timestamp, name and expires_at as query parameters`,
        );
      }
      const q = ctx.query();
      const lsn = stringQuery(q.lsn, "lsn");
      const timestamp = stringQuery(q.timestamp, "timestamp");
      const name = stringQuery(q.name, "name");
      const expiresAt = stringQuery(q.expires_at, "expires_at");
      if (lsn !== undefined && timestamp !== undefined) {
        throw badRequest(`Failed to ${what}: give lsn or timestamp, not both`);
      }
      if (lsn !== undefined && !/^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/.test(lsn)) {
        throw badRequest(`Failed to ${what}: lsn "${lsn}" is not an LSN such as 16/B3733C50`);
      }
      let at = ctx.now();
      if (timestamp !== undefined) {
        at = Date.parse(timestamp);
        if (Number.isNaN(at)) {
          throw badRequest(
            `Failed to ${what}: timestamp "${timestamp}" is not an ISO 8601 time such as 2025-08-05T22:00:00Z`,
          );
        }
        const from = windowStart(ctx, project, branch);
        if (at > ctx.now() || at < from) {
          throw badRequest(
            `Failed to ${what}: timestamp ${timestamp} is outside the restore window of branch ${branch.id} ` +
              `(${iso(from)} to now; the project keeps ${project.history_retention_seconds} s of history)`,
          );
        }
      }
      if (expiresAt !== undefined) {
        const until = Date.parse(expiresAt);
        if (Number.isNaN(until)) {
          throw badRequest(
            `Failed to ${what}: expires_at "${expiresAt}" is not an ISO 8601 time such as 2025-08-05T22:00:00Z`,
          );
        }
        if (until <= ctx.now()) throw badRequest(`Failed to ${what}: expires_at must be in the future`);
      }
      const records = snapshots.in(ctx.store);
      const limit = snapshotLimit(ctx.store.plan(project));
      if (records.of(project.id).filter((s) => s.snapshot.manual !== false).length >= limit) {
        throw unprocessable(
          `Failed to ${what}: project ${project.id} already has ${limit} manual snapshot${limit === 1 ? "" : "s"}, ` +
            "the most its plan allows; delete a snapshot or upgrade the plan",
        );
      }
      ctx.ready(branch);
      ctx.lock(project);
      const now = ctx.now();
      const id = newSnapshotId(ctx.store.rngIds, (x) => records.get(project.id, x) !== undefined);
      const snapshot: Snapshot = {
        id,
        name: name ?? `${branch.name} ${iso(at)}`,
        ...(lsn !== undefined ? { lsn: lsn.toUpperCase() } : {}),
        timestamp: iso(at),
        source_branch_id: branch.id,
        created_at: iso(now),
        ...(expiresAt !== undefined ? { expires_at: iso(Date.parse(expiresAt)) } : {}),
        manual: true,
        full_size: branch.logical_size,
      };
      records.add(project.id, {
        snapshot,
        // A copy carries no password rotation: a reset's operations have ended (the project was not locked).
        roles: ctx.store.rolesOf(branch.id).map(({ password_rotation: _r, ...role }) => ({ ...role })),
        databases: ctx.store.databasesOf(branch.id).map((d) => ({ name: d.name, owner_name: d.owner_name })),
        logical_size: branch.logical_size,
      });
      // Its data: the branch's as it is now (the emulator keeps no history, whatever `timestamp` says).
      ctx.emu.realPg?.snapshotTaken(id, branch.id);
      return { body: { snapshot, operations: [] } };
    });

    r.get("/projects/:project_id/snapshots", (ctx) => {
      const scoped = snapshots.at(ctx, "list snapshots");
      expire(ctx, scoped.project);
      return { body: { snapshots: scoped.list().map((s) => s.snapshot) } };
    });

    r.patch("/projects/:project_id/snapshots/:snapshot_id", (ctx) => {
      const what = "update snapshot";
      const scoped = snapshots.at(ctx, what);
      expire(ctx, scoped.project);
      const record = scoped.one(ctx.params().snapshot_id);
      const patch = ctx.body(SnapshotUpdateBody, what).snapshot;
      const snapshot = { ...record.snapshot, ...(patch.name !== undefined ? { name: patch.name } : {}) };
      scoped.replace({ ...record, snapshot });
      return { body: { snapshot } };
    });

    r.delete("/projects/:project_id/snapshots/:snapshot_id", (ctx) => {
      const what = "delete snapshot";
      const scoped = snapshots.at(ctx, what);
      expire(ctx, scoped.project);
      const record = scoped.one(ctx.params().snapshot_id);
      scoped.remove(record.snapshot.id);
      ctx.emu.realPg?.snapshotDeleted(record.snapshot.id);
      return { status: 202, body: { operations: [] } };
    });

    r.post("/projects/:project_id/snapshots/:snapshot_id/restore", (ctx) => {
      const what = "restore snapshot";
      const scoped = snapshots.at(ctx, what);
      const project = scoped.project;
      const store = ctx.store;
      expire(ctx, project);
      const record = scoped.one(ctx.params().snapshot_id);
      const body = parseBody(RestoreBody, ctx.req.body, what);
      // The query's `name` is deprecated (its sunset has passed); the body's wins when both are given.
      const name = body.name ?? stringQuery(ctx.query().name, "name");
      const targetId = body.target_branch_id ?? record.snapshot.source_branch_id;
      let target: Branch | undefined;
      if (body.target_branch_id !== undefined) {
        target = branchOr404(ctx, project, body.target_branch_id, what, "target branch");
      } else if (targetId !== undefined) {
        target = store.branch(project.id, targetId);
      }
      const finalizeNow = body.finalize_restore === true;
      if (finalizeNow && !target) {
        throw notFound(
          `Failed to ${what}: the snapshot's branch ${targetId ?? "(none)"} is gone; pass target_branch_id to finalize the restore into another branch`,
        );
      }
      if (name !== undefined && store.branchesOf(project.id).some((b) => b.name === name)) {
        throw conflict(
          `Failed to ${what}: a branch named "${name}" already exists in project ${project.id}; choose another name`,
        );
      }
      const limit = branchLimit(store.plan(project));
      if (store.branchesOf(project.id).length >= limit) {
        throw unprocessable(
          `Failed to ${what}: project ${project.id} already has ${limit} branches, the most its plan allows; delete a branch or upgrade the plan`,
        );
      }
      if (finalizeNow) checkFinalize(ctx, project, undefined, target!, undefined, what);
      else ctx.lock(project);

      const nowMs = ctx.now();
      const now = iso(nowMs);
      const id = newBranchId(store.rngIds, (x) => x in store.state.branches);
      const branch: Branch = {
        id,
        project_id: project.id,
        name: name ?? id,
        current_state: "init",
        pending_state: "ready",
        state_changed_at: now,
        creation_source: "console",
        default: false,
        protected: false,
        cpu_used_sec: 0,
        active_time_seconds: 0,
        compute_time_seconds: 0,
        written_data_bytes: 0,
        data_transfer_bytes: 0,
        logical_size: record.logical_size,
        init_source: "parent-data",
        created_at: now,
        updated_at: now,
        restore_status: "restored",
        restored_from: record.snapshot.id,
        ...(target ? { restored_as: target.id } : {}),
      };
      store.state.branches[id] = branch;
      // The snapshot's roles and databases (its data holds them).
      store.state.roles[id] = record.roles.map((role) => ({
        ...role,
        branch_id: id,
        created_at: now,
        updated_at: now,
      }));
      store.state.databases[id] = record.databases.map((d) =>
        newDatabase(store, id, d.name, d.owner_name, now),
      );
      store.dirty = true;
      ctx.emu.realPg?.branchFromSnapshot(id, record.snapshot.id);
      const specs: OpSpec[] = [{ action: "create_branch", branch_id: id }];
      let endpoints: Endpoint[] = [];
      if (finalizeNow) {
        const done = finalize(ctx, project, branch, target!, undefined);
        specs.push(...done.specs);
        endpoints = done.moved;
      }
      return { body: { branch, endpoints, operations: ctx.operations(project.id, specs) } };
    });

    r.post("/projects/:project_id/branches/:branch_id/finalize_restore", (ctx) => {
      const what = "finalize restore";
      const project = snapshots.at(ctx, what).project;
      const restored = branchOr404(ctx, project, ctx.params().branch_id, what);
      const body = parseBody(FinalizeBody, ctx.req.body, what);
      if (restored.restore_status !== "restored") {
        throw badRequest(
          restored.restore_status === "finalized"
            ? `Failed to ${what}: the restore of branch ${restored.id} is finalized already`
            : `Failed to ${what}: branch ${restored.id} was not restored from a snapshot; only such a branch can be finalized`,
        );
      }
      if (restored.restored_as === undefined) {
        throw badRequest(
          `Failed to ${what}: branch ${restored.id} has no branch to replace (its snapshot's branch was gone when it was restored)`,
        );
      }
      const target = branchOr404(ctx, project, restored.restored_as, what, "branch to replace");
      checkFinalize(ctx, project, restored, target, body.name, what);
      const { specs } = finalize(ctx, project, restored, target, body.name);
      return { body: { operations: ctx.operations(project.id, specs) } };
    });

    r.get("/projects/:project_id/branches/:branch_id/backup_schedule", (ctx) => {
      const scoped = backupSchedules.at(ctx, "get backup schedule");
      return { body: scoped.get(SCHEDULE_ID) ?? { schedule: [] } };
    });

    r.put("/projects/:project_id/branches/:branch_id/backup_schedule", (ctx) => {
      const what = "update backup schedule";
      const scoped = backupSchedules.at(ctx, what);
      const body: BackupSchedule = ctx.body(BackupScheduleBody, what);
      if (body.schedule.length === 0) scoped.remove(SCHEDULE_ID);
      else if (scoped.get(SCHEDULE_ID)) scoped.replace(body);
      else scoped.add(body);
      return { body: {} };
    });
  },
});
