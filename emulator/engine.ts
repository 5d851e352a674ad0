/**
 * The operation engine. Operations carry no timers: each one's status is a pure
 * function of the emulator clock, its duration and its fault, and a project's
 * operations run one at a time in creation order (operation i starts when
 * operation i-1 ends). {@link materialize} brings a project up to "now": it
 * settles every operation whose end has passed, applies its effect to the
 * compute or branch in order, and starts the background operations that are due
 * (scale to zero, optional availability checks).
 */
import { iso, type Store } from "./store";
import {
  TERMINAL_STATUSES,
  type Endpoint,
  type OpFault,
  type OperationAction,
  type OperationRecord,
  type OperationStatus,
} from "./state";

/** Timing and fault settings the engine reads (the server keeps them current). */
export interface EngineConfig {
  opMs: number;
  opDurations: Partial<Record<string, number>>;
  opJitter: number;
  opFailRate: number;
  opErrorRate: number;
  opCancelRate: number;
  checkAvailability: boolean;
  /** Emulator-time interval between background availability checks of a project. */
  checkIntervalMs: number;
}

/** Scale-to-zero period used when `suspend_timeout_seconds` is 0. */
export const DEFAULT_SUSPEND_TIMEOUT_SECONDS = 300;

export interface OpSpec {
  action: OperationAction;
  branch_id?: string;
  endpoint_id?: string;
  restart?: boolean;
}

/** Where an operation stands at a given time. */
export interface OpPhase {
  status: OperationStatus;
  /** When the current status began (ms). */
  since: number;
  failures_count: number;
  retry_at?: number;
  error?: string;
}

/** When an operation that starts at `start` ends, by its fault. */
export function endOf(rec: OperationRecord, start: number): number {
  const d = rec.sim.duration_ms;
  // A failed-then-retried operation: runs, is `failed` for as long again, then runs once more.
  return rec.sim.fault === "failed" ? start + 3 * d : start + d;
}

/**
 * The status of an operation at `now`, given the time it starts. Pure.
 *
 * - none:      scheduling → running → finished
 * - failed:    scheduling → running → failed (failures_count 1) → running (retry_at set) → finished
 * - error:     scheduling → running → error (with an `error` text)
 * - cancelled: scheduling → running → cancelling (second half) → cancelled
 */
export function phaseAt(rec: OperationRecord, start: number, now: number): OpPhase {
  const created = rec.sim.created_us / 1000;
  if (now < start) return { status: "scheduling", since: created, failures_count: 0 };
  const d = rec.sim.duration_ms;
  switch (rec.sim.fault) {
    case "none":
      return now < start + d
        ? { status: "running", since: start, failures_count: 0 }
        : { status: "finished", since: start + d, failures_count: 0 };
    case "failed": {
      const failAt = start + d;
      const retryAt = start + 2 * d;
      if (now < failAt) return { status: "running", since: start, failures_count: 0 };
      if (now < retryAt)
        return {
          status: "failed",
          since: failAt,
          failures_count: 1,
          error: `emulated transient failure of ${rec.op.action}; it will be retried`,
        };
      if (now < retryAt + d)
        return { status: "running", since: retryAt, failures_count: 1, retry_at: retryAt };
      return { status: "finished", since: retryAt + d, failures_count: 1, retry_at: retryAt };
    }
    case "error":
      return now < start + d
        ? { status: "running", since: start, failures_count: 0 }
        : {
            status: "error",
            since: start + d,
            failures_count: 0,
            error: `emulated error: ${rec.op.action} failed`,
          };
    case "cancelled": {
      const half = start + Math.floor(d / 2);
      if (now < half) return { status: "running", since: start, failures_count: 0 };
      if (now < start + d) return { status: "cancelling", since: half, failures_count: 0 };
      return { status: "cancelled", since: start + d, failures_count: 0 };
    }
  }
}

function setPhase(rec: OperationRecord, phase: OpPhase, start: number, now: number): boolean {
  const op = rec.op;
  const total =
    phase.status === "scheduling" ? 0 : Math.max(0, Math.round(Math.min(now, endOf(rec, start)) - start));
  const changed = op.status !== phase.status;
  op.status = phase.status;
  op.updated_at = iso(phase.since);
  op.failures_count = phase.failures_count;
  op.total_duration_ms = total;
  if (phase.retry_at !== undefined) op.retry_at = iso(phase.retry_at);
  if (phase.error !== undefined) op.error = phase.error;
  else delete op.error;
  return changed;
}

/** Creates operations for one request, appended to the project's queue. */
export function createOperations(
  store: Store,
  cfg: EngineConfig,
  projectId: string,
  specs: OpSpec[],
  fault?: OpFault,
  atMs = store.now(),
): OperationRecord[] {
  const at = iso(atMs);
  return specs.map((spec) => {
    const rec: OperationRecord = {
      op: {
        id: store.rngIds.uuid(),
        project_id: projectId,
        ...(spec.branch_id ? { branch_id: spec.branch_id } : {}),
        ...(spec.endpoint_id ? { endpoint_id: spec.endpoint_id } : {}),
        action: spec.action,
        status: "scheduling",
        failures_count: 0,
        created_at: at,
        updated_at: at,
        total_duration_ms: 0,
      },
      sim: {
        created_us: store.nextCreatedUs(atMs),
        duration_ms: duration(store, cfg, spec.action),
        fault: fault ?? rollFault(store, cfg),
        ...(spec.restart ? { restart: true } : {}),
      },
    };
    store.addOperation(rec);
    return rec;
  });
}

/**
 * How long the seeded history's operations took: as long as this emulator's own operations of the
 * same action (without jitter), so that the history tells a client what to expect.
 */
export function seededDurations(cfg: Pick<EngineConfig, "opMs" | "opDurations">): (action: string) => number {
  return (action) => Math.max(0, Math.round(cfg.opDurations[action] ?? cfg.opMs));
}

function duration(store: Store, cfg: EngineConfig, action: string): number {
  const base = cfg.opDurations[action] ?? cfg.opMs;
  if (!cfg.opJitter) return Math.max(0, Math.round(base));
  return Math.max(0, Math.round(base * (1 + cfg.opJitter * (2 * store.rngJitter.next() - 1))));
}

function rollFault(store: Store, cfg: EngineConfig): OpFault {
  if (!cfg.opFailRate && !cfg.opErrorRate && !cfg.opCancelRate) return "none";
  const r = store.rngFaults.next();
  if (r < cfg.opFailRate) return "failed";
  if (r < cfg.opFailRate + cfg.opErrorRate) return "error";
  if (r < cfg.opFailRate + cfg.opErrorRate + cfg.opCancelRate) return "cancelled";
  return "none";
}

/** True while the project has an operation that is not terminal (mutations then get 423). */
export function hasPending(store: Store, projectId: string): boolean {
  return store.sim(projectId).pending < store.opsOf(projectId).length;
}

/**
 * Deletes the project's branches whose `expires_at` has passed, with their computes, roles and
 * databases, as the service does at a branch's expiry (the API answers 404 for them from then on;
 * the service's 7-day soft delete is not visible through it). A branch with children is kept.
 */
function expireBranches(store: Store, projectId: string, now: number): void {
  const branches = store.branchesOf(projectId);
  for (const b of branches) {
    if (!b.expires_at || Date.parse(b.expires_at) > now || b.default || b.protected) continue;
    if (branches.some((x) => x.parent_id === b.id && store.branch(projectId, x.id))) continue;
    for (const ep of [...store.endpointList(projectId)].filter((e) => e.branch_id === b.id)) {
      store.removeEndpoint(ep);
    }
    store.removeBranch(b);
  }
}

/** Brings a project's operations, computes and branches up to `now`. */
export function materialize(store: Store, cfg: EngineConfig, projectId: string, now = store.now()): void {
  expireBranches(store, projectId, now);
  const ops = store.opsOf(projectId);
  const sim = store.sim(projectId);
  for (;;) {
    while (sim.pending < ops.length) {
      const rec = ops[sim.pending];
      const start = Math.max(rec.sim.created_us / 1000, sim.last_end_ms);
      const end = endOf(rec, start);
      if (end > now) {
        if (setPhase(rec, phaseAt(rec, start, now), start, now)) store.dirty = true;
        return;
      }
      setPhase(rec, phaseAt(rec, start, end), start, end);
      sim.last_end_ms = end;
      sim.pending++;
      applyEffect(store, rec, end);
      store.dirty = true;
    }
    if (!startBackgroundOperation(store, cfg, projectId, now)) return;
  }
}

/** Applies what a settled operation did, at the time it ended. */
function applyEffect(store: Store, rec: OperationRecord, endMs: number): void {
  const op = rec.op;
  const ok = op.status === "finished";
  const at = iso(endMs);
  if (op.endpoint_id) {
    const ep = store.endpoint(op.project_id, op.endpoint_id);
    if (!ep) return; // deleted meanwhile: nothing to apply
    if (ok) {
      if (op.action === "start_compute") {
        ep.current_state = "active";
        ep.started_at = at;
        ep.last_active = at;
        ep.updated_at = at;
      } else if (op.action === "suspend_compute") {
        ep.current_state = "idle";
        ep.suspended_at = at;
        ep.updated_at = at;
      } else if (op.action === "apply_config" && (rec.sim.restart || ep.current_state !== "active")) {
        // A restart starts the compute again; a compute that is not active is woken briefly for
        // the change (then suspended by the operation that follows), so it has started too.
        ep.started_at = at;
        ep.last_active = at;
        ep.updated_at = at;
      }
    }
    if (!endpointHasPending(store, ep)) {
      delete ep.pending_state;
      ep.updated_at = at;
    }
  } else if ((op.action === "create_branch" || op.action === "create_timeline") && op.branch_id) {
    // create_branch readies a new branch; create_timeline, a new project's default branch.
    const br = store.branch(op.project_id, op.branch_id);
    if (br) {
      br.current_state = ok ? "ready" : br.current_state;
      delete br.pending_state;
      br.state_changed_at = at;
      br.updated_at = at;
    }
  }
}

function endpointHasPending(store: Store, ep: Endpoint): boolean {
  const ops = store.opsOf(ep.project_id);
  for (let i = store.sim(ep.project_id).pending; i < ops.length; i++) {
    if (ops[i].op.endpoint_id === ep.id && !TERMINAL_STATUSES.has(ops[i].op.status)) return true;
  }
  return false;
}

/** Scale-to-zero period of a compute in ms, or undefined when it never suspends. */
export function suspendAfterMs(ep: Endpoint): number | undefined {
  const s = ep.suspend_timeout_seconds;
  if (s < 0) return undefined;
  return (s === 0 ? DEFAULT_SUSPEND_TIMEOUT_SECONDS : s) * 1000;
}

/**
 * Starts the next background operation that is due by `now`, backdated to the
 * moment it became due: a `suspend_compute` for an active compute idle past its
 * timeout, else a `check_availability`. Returns false when nothing is due.
 */
function startBackgroundOperation(store: Store, cfg: EngineConfig, projectId: string, now: number): boolean {
  const sim = store.sim(projectId);
  const endpoints = store.endpointList(projectId);
  let due: Endpoint | undefined;
  let dueAt = Infinity;
  for (const ep of endpoints) {
    if (ep.current_state !== "active" || ep.pending_state || ep.disabled) continue;
    const after = suspendAfterMs(ep);
    if (after === undefined) continue;
    const at = Math.max(
      Date.parse(ep.last_active ?? ep.started_at ?? ep.updated_at) + after,
      sim.last_end_ms,
    );
    if (at <= now && at < dueAt) {
      due = ep;
      dueAt = at;
    }
  }
  if (due) {
    createOperations(
      store,
      cfg,
      projectId,
      [{ action: "suspend_compute", branch_id: due.branch_id, endpoint_id: due.id }],
      "none",
      dueAt,
    );
    due.pending_state = "idle";
    return true;
  }
  if (!cfg.checkAvailability || endpoints.length === 0) return false;
  if (sim.next_check_ms === undefined) {
    sim.next_check_ms = now + cfg.checkIntervalMs;
    return false;
  }
  if (sim.next_check_ms > now) return false;
  const at = Math.max(sim.next_check_ms, sim.last_end_ms);
  const target = endpoints[store.opsOf(projectId).length % endpoints.length];
  createOperations(
    store,
    cfg,
    projectId,
    [{ action: "check_availability", branch_id: target.branch_id }],
    "none",
    at,
  );
  // Missed checks (after a long clock advance) are skipped rather than replayed.
  sim.next_check_ms = Math.max(at + cfg.checkIntervalMs, now - cfg.checkIntervalMs + 1);
  return true;
}
