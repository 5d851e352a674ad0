/**
 * The driver of the operation waiter. It owns the clock and the HTTP calls;
 * every decision is taken by the pure `step`.
 *
 * One poller per project per client: all waits on operations of one project
 * that are under way at the same time are served by ONE list call
 * (`GET /projects/{id}/operations?limit=N`), with a read by id only for an
 * operation missing from that page. Twenty resources waiting cost about what
 * one costs.
 */
import type { Clock } from "../http/clock";
import { OperationError } from "./errors";
import {
  COMPUTE_ACTIONS,
  DEFAULT_SCHEDULE,
  durationWindow,
  decide,
  initialState,
  step,
  windowOf,
  SUCCESS_STATUSES,
  type Decision,
  type DurationWindow,
  type Observation,
  type OpHint,
  type OpView,
  type ScheduleConfig,
  type WaitState,
} from "./step";

/** The operation as the waiter needs it (a subset of the API's `Operation`). */
export interface WaitedOperation extends OpView {
  project_id?: string;
  total_duration_ms?: number;
}

/** Where the waiter reads operations from; the API client provides it. */
export interface OperationSource<Op extends WaitedOperation = WaitedOperation> {
  /** The newest `limit` operations of the project. */
  listPage(projectId: string, limit: number): Promise<{ operations: Op[] }>;
  /** One operation by id; rejects with an error that `classifyError` calls `not_found` when it does not exist. */
  get(projectId: string, operationId: string): Promise<Op>;
}

/**
 * How a polling error affects a wait: `not_found` (the operation or project does not exist),
 * `fatal` (polling cannot succeed, e.g. 401: every wait of the project fails with this error) or
 * `transient` (keep waiting; the deadline ends it). The API layer supplies it, so the waiter knows
 * nothing of the HTTP error type.
 */
export type PollErrorClass = "not_found" | "fatal" | "transient";

/** A progress report, one per status change of an operation and periodically while it runs. */
export interface WaitProgress {
  operationId: string;
  action: string;
  status: string;
  /** Since the wait started. */
  elapsedMs: number;
}

/** Options of one wait. */
export interface WaitOptions {
  onProgress?: (p: WaitProgress) => void;
  /** Give up after this long; default 20 min. */
  deadlineMs?: number;
  /** How long an operation may stay `failed` (awaiting a retry by the control plane); default 3 min. */
  failedGraceMs?: number;
}

/** Settings of a waiter. */
export interface WaiterConfig<Op extends WaitedOperation> {
  listPage: OperationSource<Op>["listPage"];
  get: OperationSource<Op>["get"];
  /** Classifies an error thrown by `listPage` or `get`. */
  classifyError: (err: unknown) => PollErrorClass;
  clock: Clock;
  schedule?: Partial<ScheduleConfig>;
  /** Repeat a progress report for an unchanged operation this often; default 10 s. */
  progressEveryMs?: number;
  /** Use durations of finished operations to time polls; default true. */
  estimateDurations?: boolean;
}

/** Default deadline of a wait. */
export const DEFAULT_WAIT_DEADLINE_MS = 20 * 60_000;
/** Default grace period for an operation in `failed`. */
export const DEFAULT_FAILED_GRACE_MS = 3 * 60_000;

const MAX_SAMPLES = 32;
const MAX_REMEMBERED_IDS = 10_000;
const MAX_PAGE = 100;

interface Waiter<Op> {
  state: WaitState;
  nextAt: number;
  latest: Map<string, Op>;
  reported: Map<string, { status: string; at: number }>;
  opts: WaitOptions;
  deadlineMs: number;
  resolve: (ops: Op[]) => void;
  reject: (err: Error) => void;
}

/** Waits on operations, sharing polls per project. One per API client. */
export class OperationWaiter<Op extends WaitedOperation = WaitedOperation> {
  private readonly pollers = new Map<string, ProjectPoller<Op>>();
  private readonly durations = new DurationBook();
  readonly schedule: ScheduleConfig;

  constructor(private readonly cfg: WaiterConfig<Op>) {
    this.schedule = { ...DEFAULT_SCHEDULE, ...cfg.schedule };
  }

  /**
   * Resolves with the final view of every operation once all are `finished`
   * or `skipped`; rejects with an {@link OperationError} (or an `ApiError` when
   * polling itself is refused, e.g. 401). Pass the operations as the request
   * that started them answered (`{ id, action, status }`) rather than their ids
   * alone: the first poll is then timed by the action's expected duration.
   */
  wait(projectId: string, operations: ReadonlyArray<string | OpHint>, opts: WaitOptions = {}): Promise<Op[]> {
    if (operations.length === 0) return Promise.resolve([]);
    const hints = operations.filter((o): o is OpHint => typeof o !== "string");
    const operationIds = operations.map((o) => (typeof o === "string" ? o : o.id));
    let poller = this.pollers.get(projectId);
    if (!poller) {
      poller = new ProjectPoller(projectId, this.cfg, this.schedule, this.durations, () => {
        this.pollers.delete(projectId);
      });
      this.pollers.set(projectId, poller);
    }
    return poller.add(operationIds, hints, opts);
  }

  /**
   * Learns from operations read elsewhere (a 423's reading of the project's operations): a wait that
   * starts after it times its first poll from them instead of reading a page of history first.
   */
  learn(ops: Iterable<Op>): void {
    if (this.cfg.estimateDurations === false) return;
    for (const op of ops) this.durations.record(op);
  }

  /** Expected finish windows per action learned so far (for diagnostics and benchmarks). */
  windows(): Record<string, DurationWindow> {
    return this.cfg.estimateDurations === false ? {} : this.durations.windows();
  }
}

/** Recent `total_duration_ms` of finished operations, per action. */
export class DurationBook {
  private readonly samples = new Map<string, number[]>();
  private readonly seen = new Set<string>();
  private cache?: Record<string, DurationWindow>;

  /** Records a finished operation once. */
  record(op: WaitedOperation): void {
    if (op.status !== "finished" || typeof op.total_duration_ms !== "number" || op.total_duration_ms <= 0)
      return;
    // A retried operation's duration includes its failed attempts: not typical of the action.
    if (op.failures_count > 0) return;
    if (this.seen.has(op.id)) return;
    if (this.seen.size >= MAX_REMEMBERED_IDS) this.seen.clear();
    this.seen.add(op.id);
    this.push(op.action, op.total_duration_ms);
    if (op.endpoint_id) this.push(COMPUTE_ACTIONS, op.total_duration_ms);
    this.cache = undefined;
  }

  private push(key: string, ms: number): void {
    const xs = this.samples.get(key) ?? [];
    xs.push(ms);
    if (xs.length > MAX_SAMPLES) xs.shift();
    this.samples.set(key, xs);
  }

  /** Current windows per action. */
  windows(): Record<string, DurationWindow> {
    if (this.cache) return this.cache;
    const out: Record<string, DurationWindow> = {};
    for (const [action, xs] of this.samples) {
      const w = durationWindow(xs);
      if (w) out[action] = w;
    }
    return (this.cache = out);
  }
}

class ProjectPoller<Op extends WaitedOperation> {
  private readonly waiters = new Set<Waiter<Op>>();
  private running = false;
  private wake?: () => void;
  private pollFailures = 0;
  private lastPollError?: string;

  constructor(
    private readonly projectId: string,
    private readonly cfg: WaiterConfig<Op>,
    private readonly schedule: ScheduleConfig,
    private readonly durations: DurationBook,
    private readonly onIdle: () => void,
  ) {}

  add(ids: readonly string[], hints: readonly OpHint[], opts: WaitOptions): Promise<Op[]> {
    const now = this.cfg.clock.now();
    const deadlineMs = opts.deadlineMs ?? DEFAULT_WAIT_DEADLINE_MS;
    const state = initialState(
      this.projectId,
      ids,
      now,
      { deadlineMs, failedGraceMs: opts.failedGraceMs ?? DEFAULT_FAILED_GRACE_MS },
      hints,
    );
    const first = decide(state, now, this.windows(), this.schedule);
    return new Promise<Op[]>((resolve, reject) => {
      const w: Waiter<Op> = {
        state,
        nextAt: first.type === "poll" ? now + first.afterMs : now,
        latest: new Map(),
        reported: new Map(),
        opts,
        deadlineMs,
        resolve,
        reject,
      };
      this.waiters.add(w);
      if (this.running) this.wake?.();
      else void this.loop();
    });
  }

  private async loop(): Promise<void> {
    this.running = true;
    try {
      while (this.waiters.size > 0) {
        const now = this.cfg.clock.now();
        const next = Math.min(...[...this.waiters].map((w) => w.nextAt));
        if (next > now) {
          await this.sleep(next - now);
          continue;
        }
        await this.pollOnce();
      }
    } catch (err) {
      // A bug in this loop must not leave waits hanging forever.
      for (const w of this.waiters) w.reject(err as Error);
      this.waiters.clear();
    } finally {
      this.running = false;
      this.onIdle();
    }
  }

  /** Sleeps until `ms` pass or a new wait arrives (it may want an earlier poll). */
  private async sleep(ms: number): Promise<void> {
    const ctrl = new AbortController();
    const woken = new Promise<void>((resolve) => {
      this.wake = () => {
        ctrl.abort();
        resolve();
      };
    });
    await Promise.race([this.cfg.clock.sleep(ms, ctrl.signal), woken]);
    this.wake = undefined;
  }

  private async pollOnce(): Promise<void> {
    const wanted = new Set<string>();
    for (const w of this.waiters) {
      for (const id of w.state.ids) {
        const s = w.state.ops[id].status;
        if (!(s !== undefined && SUCCESS_STATUSES.has(s))) wanted.add(id);
      }
    }
    const observations: Observation[] = [];
    const found = new Map<string, Op>();
    try {
      // Without an estimate for an awaited action, one longer page of history usually holds enough
      // finished operations of it to time the next polls: it costs no more requests than a short one.
      const windows = this.windows();
      const unknown = [...this.waiters].some((w) =>
        w.state.ids.some((id) => windowOf(w.state.ops[id], windows) === undefined),
      );
      const limit = unknown ? MAX_PAGE : Math.min(MAX_PAGE, Math.max(20, wanted.size * 2));
      const page = await this.cfg.listPage(this.projectId, limit);
      for (const op of page.operations) {
        if (this.cfg.estimateDurations !== false) this.durations.record(op);
        if (wanted.has(op.id)) found.set(op.id, op);
      }
      const missing = [...wanted].filter((id) => !found.has(id));
      await Promise.all(
        missing.map(async (id) => {
          try {
            const op = await this.cfg.get(this.projectId, id);
            if (this.cfg.estimateDurations !== false) this.durations.record(op);
            found.set(id, op);
          } catch (err) {
            if (this.cfg.classifyError(err) === "not_found") observations.push({ id, notFound: true });
            else throw err;
          }
        }),
      );
      this.pollFailures = 0;
      this.lastPollError = undefined;
    } catch (err) {
      if (this.cfg.classifyError(err) !== "transient") {
        for (const w of this.waiters) w.reject(err as Error);
        this.waiters.clear();
        return;
      }
      // Transient (the HTTP layer already retried what it safely could): keep
      // waiting, back off, and let each wait's deadline end it.
      this.pollFailures++;
      this.lastPollError = (err as Error).message;
      const now = this.cfg.clock.now();
      const delay = Math.min(this.schedule.maxIntervalMs, 250 * 2 ** Math.min(this.pollFailures, 8));
      for (const w of [...this.waiters]) {
        if (now >= w.state.deadlineAt)
          this.finish(w, { type: "fail", reason: "deadline", operationId: w.state.ids[0] }, now);
        else w.nextAt = Math.min(now + delay, w.state.deadlineAt);
      }
      return;
    }
    for (const op of found.values()) observations.push({ id: op.id, op });
    const now = this.cfg.clock.now();
    const windows = this.windows();
    for (const w of [...this.waiters]) {
      for (const id of w.state.ids) {
        const op = found.get(id);
        if (op) w.latest.set(id, op);
      }
      const r = step(w.state, { now, observations, windows, config: this.schedule });
      w.state = r.state;
      this.report(w, now);
      if (r.decision.type === "poll") w.nextAt = now + r.decision.afterMs;
      else this.finish(w, r.decision, now);
    }
  }

  private windows(): Record<string, DurationWindow> {
    return this.cfg.estimateDurations === false ? {} : this.durations.windows();
  }

  private report(w: Waiter<Op>, now: number): void {
    const cb = w.opts.onProgress;
    if (!cb) return;
    const every = this.cfg.progressEveryMs ?? 10_000;
    for (const id of w.state.ids) {
      const t = w.state.ops[id];
      if (t.status === undefined) continue;
      const last = w.reported.get(id);
      if (last && last.status === t.status && now - last.at < every) continue;
      w.reported.set(id, { status: t.status, at: now });
      try {
        cb({
          operationId: id,
          action: t.action ?? "operation",
          status: t.status,
          elapsedMs: now - w.state.startedAt,
        });
      } catch {
        // A failing progress printer must not break the wait.
      }
    }
  }

  private finish(w: Waiter<Op>, d: Exclude<Decision, { type: "poll" }>, now: number): void {
    this.waiters.delete(w);
    if (d.type === "done") {
      w.resolve(w.state.ids.map((id) => w.latest.get(id)!));
      return;
    }
    const t = w.state.ops[d.operationId];
    const unfinished = w.state.ids
      .map((id) => w.state.ops[id])
      .filter((o) => !(o.status !== undefined && SUCCESS_STATUSES.has(o.status)))
      .map((o) => ({ id: o.id, action: o.action, status: o.status }));
    w.reject(
      new OperationError({
        reason: d.reason,
        projectId: this.projectId,
        operationId: d.operationId,
        action: t.action,
        status: t.status,
        failuresCount: t.failuresCount,
        operationError: t.error,
        elapsedMs: now - w.state.startedAt,
        unfinished,
        deadlineMs: w.deadlineMs,
        failedGraceMs: w.state.failedGraceMs,
        lastPollError: d.reason === "deadline" ? this.lastPollError : undefined,
      }),
    );
  }
}
