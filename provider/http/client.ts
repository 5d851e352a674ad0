/**
 * The HTTP client every API call goes through: one axios instance per
 * configured client, pacing, and the retry loop. What each attempt's answer
 * (or failure) becomes, a parsed body or an `ApiError`, is decided in
 * `answer.ts`.
 */
import { randomUUID } from "node:crypto";
import type { AxiosAdapter, AxiosInstance } from "axios";
import { headerOf, parseBody, toApiError, toOutcome, type AttemptResult } from "./answer";
import { sanitizeCause } from "./errors";
import { makeClock, type Clock, type Sleep } from "./clock";
import { NEON_RATE_LIMITS, RateLimiter, type RateLimits } from "./ratelimit";
import type { Route } from "./route";
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  MIN_BACKOFF_MS,
  DEFAULT_RETRY_LIMITS,
  shouldRetry,
  type BackoffShape,
  type RetryLimits,
  type RetryReason,
} from "./retry";

/** Package name and version sent in `User-Agent`; a unit test keeps them equal to package.json. */
export const PACKAGE_NAME = "@neon-labs-unofficial/pulumi-neon-compute";
/** See {@link PACKAGE_NAME}. */
export const PACKAGE_VERSION = "0.1.0";
/** The `User-Agent` of every request. */
export const USER_AGENT = `${PACKAGE_NAME}/${PACKAGE_VERSION} (node ${process.version})`;

/** The public Neon API. */
export const DEFAULT_BASE_URL = "https://console.neon.tech/api/v2";
/** Per-request timeout. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * How long one call keeps retrying. Long, because the real service also
 * answers 423 while an account quota is exhausted, and a project lock can be
 * held for minutes by a slow operation.
 */
export const DEFAULT_RETRY_DEADLINE_MS = 10 * 60_000;

/** Reported before each retry (for logs and benchmarks). Holds no credential. */
export interface RetryInfo {
  method: string;
  path: string;
  /** Attempts that failed for this `reason` so far (the call's other failures are not counted). */
  attempt: number;
  reason: RetryReason;
  delayMs: number;
  status?: number;
  /** For a retry after no answer: true when the request timed out (else the connection failed). */
  timedOut?: boolean;
  /** The attempt limit of this reason (Infinity for 423: the retry deadline bounds it). */
  maxAttempts?: number;
  /** The per-request timeout. */
  timeoutMs?: number;
  /** The route template, e.g. `GET /projects/{project_id}/endpoints`. */
  route: string;
  requestId?: string;
  /** For a 423 whose wait came from the project's operations: what holds the lock (see `lockWait`). */
  holder?: string;
  /** How long this call has been retrying so far (ms). */
  waitedMs?: number;
  /**
   * A wait after a look at the project's operations found one still pending (no request was
   * refused): the change is looked for again, not tried, at its end. Not set when the wait ends in
   * a try (`LockWait.thenTry`).
   */
  look?: true;
}

/** A wait until a project's lock is expected to be free, and what holds it (for progress lines). */
export interface LockWait {
  delayMs: number;
  holder?: string;
  /**
   * The operation holding the lock, as the reading names it (none while the lock is free). Looks that
   * see it change see the lock pass between others: the project is not stuck (`untilLockFree`).
   */
  operationId?: string;
  /**
   * After this wait the change is tried at once, without a look first (the lock was seen free, left
   * a moment to the branch whose change just ended: a look would come too soon after this one).
   */
  thenTry?: true;
}

/** Options of {@link createHttpClient}. */
export interface HttpClientOptions {
  apiKey: string;
  baseUrl?: string;
  timeoutMs?: number;
  retryDeadlineMs?: number;
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
  onRetry?: (info: RetryInfo) => void;
  /**
   * Pace requests under these limits (default: Neon's documented 700/min per account, 40/s per
   * route, 10/s for organization key creation); `false` sends without pacing.
   */
  rateLimits?: RateLimits | false;
  retryLimits?: Partial<RetryLimits>;
  backoff?: Partial<Record<RetryReason, BackoffShape>>;
  /**
   * Extra headers sent with every request (tests use it for the emulator's
   * `X-Emulator-Fault`). They cannot replace the headers this client sets.
   */
  headers?: Record<string, string>;
  /** Replaces axios' transport (unit tests answer or fail requests without a network). */
  adapter?: AxiosAdapter;
  /**
   * For a 423: how long to wait for the project's lock to be free (from what runs on it), instead of
   * the exponential backoff; undefined (or a failure) falls back to the backoff. Asked again when
   * that wait ends, before the change is sent: while the project still runs something, the change
   * waits again instead of meeting another 423. `since` (the client's clock): the answer must come
   * from a reading begun at or after it — when the 423 arrived, or when the wait ended: an older
   * reading may show the lock free. May send requests of its own through this client (reads,
   * which are never locked).
   */
  lockWait?: (route: Route, since: number) => Promise<LockWait | undefined>;
}

/** One call: what to send, how to read the answer, and how to name it in errors. */
export interface RequestSpec<T> {
  /**
   * Method, path and template, from {@link route}: the template names the call in retry info,
   * rate limits and errors.
   */
  route: Route;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** `Failed to <verb> <thing>` in error messages. */
  verb: string;
  thing: string;
  /** Validates and converts a 2xx body; throw a `ResponseShapeError` to report a mismatch. */
  parse: (data: unknown, status: number) => T;
}

/** A configured client. The API key lives only in the axios instance's headers. */
export interface HttpClient {
  request<T>(spec: RequestSpec<T>): Promise<T>;
  /** HTTP requests sent so far, retries included. */
  requestCount(): number;
  /** The injected (or real) clock, shared with the operation waiter. */
  readonly clock: Clock;
  /**
   * The service's time: the clock corrected by the `Date` header of the latest answer (to the
   * second), so that a time the service judges ("in the future") is judged on its clock, not this
   * machine's. The clock itself until an answer has come.
   */
  serviceNow(): number;
}

/** The longest a 429 holds the other requests of the client (its own call waits its full Retry-After). */
const MAX_CLIENT_PAUSE_MS = 60_000;
/**
 * While looks at a project's operations keep finding the same operation pending, the change is still
 * sent this often: a reading can show an operation pending that holds no lock any more (a `failed` one
 * nobody retries).
 */
const LOOK_TRY_EVERY_MS = 60_000;
/**
 * While the looks see the lock pass from one operation to the next (other pipelines' changes), a try
 * would only meet another 423: the change is sent when a look finds the project free, and at the
 * latest this often all the same (a reading wrong in some way no look can tell).
 */
const LOOK_TRY_MOVING_MS = 180_000;

/** Node error codes for a connection that was never established: the server never saw the request. */
const NEVER_CONNECTED = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ERR_INVALID_URL",
]);
const TIMEOUT_CODES = new Set(["ETIMEDOUT", "ECONNABORTED"]);

/** Creates a client. No request is sent until the first call. */
export function createHttpClient(opts: HttpClientOptions): HttpClient {
  // Loaded here, not at the top: this module is required lazily inside the provider process.
  const axios = require("axios") as typeof import("axios");
  const baseUrl = (opts.baseUrl || DEFAULT_BASE_URL).replace(/\/+$/, "");
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadlineMs = opts.retryDeadlineMs ?? DEFAULT_RETRY_DEADLINE_MS;
  const clock = makeClock({ now: opts.now, sleep: opts.sleep, random: opts.random });
  const limits: RetryLimits = { ...DEFAULT_RETRY_LIMITS, ...opts.retryLimits };
  const shapes = { ...DEFAULT_BACKOFF, ...opts.backoff };
  const pacing = opts.rateLimits === undefined ? NEON_RATE_LIMITS : opts.rateLimits;
  const limiter = pacing ? new RateLimiter(pacing, clock) : undefined;
  // Only for scrubbing text that might echo the key back; never stored on anything returned.
  const secrets = [opts.apiKey];
  let sent = 0;

  const http: AxiosInstance = axios.create({
    baseURL: baseUrl,
    timeout: timeoutMs,
    headers: {
      ...opts.headers,
      Authorization: `Bearer ${opts.apiKey}`,
      Accept: "application/json",
      "Content-Type": "application/json",
      "User-Agent": USER_AGENT,
    },
    // Every status is an answer to classify here; axios throws only when there is no answer.
    validateStatus: () => true,
    transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: true },
    maxRedirects: 0,
    ...(opts.adapter ? { adapter: opts.adapter } : {}),
  });

  // A 429's Retry-After holds every request of this client, not only the call that met it: the
  // budget is the account's.
  let pausedUntil = 0;

  async function attempt(
    spec: RequestSpec<unknown>,
    requestId: string,
    endBy: number,
    sending: { at: number },
  ): Promise<AttemptResult> {
    // Held by a 429, but never past this call's own deadline: then it tries, and meets its own answer.
    const pause = Math.min(pausedUntil, endBy) - clock.now();
    if (pause > 0) await clock.sleep(pause);
    if (limiter) await limiter.acquire(spec.route.template, endBy);
    sent++;
    sending.at = clock.now();
    try {
      const res = await http.request({
        method: spec.route.method,
        url: spec.route.path,
        params: spec.query,
        data: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        headers: { "X-Request-ID": requestId },
      });
      return { type: "response", res };
    } catch (err) {
      // Reduce the AxiosError to plain facts here; the object itself goes no further.
      const code = (err as { code?: unknown }).code;
      const c = typeof code === "string" ? code : undefined;
      return {
        type: "network",
        timedOut: c !== undefined && TIMEOUT_CODES.has(c),
        phase: c !== undefined && NEVER_CONNECTED.has(c) ? "connect" : "sent",
        cause: sanitizeCause(err, secrets),
      };
    }
  }

  // The service's clock minus this one, from the latest answer's Date header; under 2 s (the
  // header's rounding and the answer's travel) it counts as none.
  let serviceSkewMs = 0;
  function noteServiceTime(result: AttemptResult): void {
    if (result.type !== "response") return;
    const date = Date.parse(headerOf(result.res, "date") ?? "");
    if (!Number.isFinite(date)) return;
    const skew = date - clock.now();
    serviceSkewMs = Math.abs(skew) < 2000 ? 0 : skew;
  }

  async function request<T>(spec: RequestSpec<T>): Promise<T> {
    const started = clock.now();
    // Failed attempts per retry reason: each reason's limit counts only its own.
    const failed: Partial<Record<RetryReason, number>> = {};
    const attemptsFor = (reason: RetryReason) => (failed[reason] ?? 0) + 1;
    const sending = { at: started };
    for (let n = 1; ; n++) {
      const requestId = randomUUID();
      const result = await attempt(spec as RequestSpec<unknown>, requestId, started + deadlineMs, sending);
      noteServiceTime(result);
      // A Retry-After date is the service's time.
      const outcome = toOutcome(result, clock.now() + serviceSkewMs);
      const ctx = { requestId, attempts: n, secrets, timeoutMs, retryDeadlineMs: deadlineMs };
      if (result.type === "response" && result.res.status < 400) {
        return parseBody(spec, result.res, ctx);
      }
      const decision = shouldRetry(spec.route.method, outcome, attemptsFor, limits);
      if (!decision.retry) {
        throw toApiError(spec, result, { ...ctx, mayHaveReachedServer: decision.mayHaveReachedServer });
      }
      const tries = attemptsFor(decision.reason);
      failed[decision.reason] = tries;
      // The project's lock (a change's 423; never a read's, which the lock does not hold: that
      // reading would ask for a reading of its own; a Retry-After, were the retry policy to take one
      // from a 423, would come first). Not read when the call's time is up: the 423 is its answer then.
      const lock =
        decision.reason === "locked" &&
        started + deadlineMs - clock.now() > MIN_BACKOFF_MS &&
        decision.retryAfterMs === undefined &&
        spec.route.method !== "GET" &&
        result.type === "response" &&
        result.res.status === 423 &&
        opts.lockWait
          ? await opts.lockWait(spec.route, clock.now()).catch(() => undefined)
          : undefined;
      let delay =
        lock?.delayMs ?? backoffDelay(tries, decision.reason, clock.random, decision.retryAfterMs, shapes);
      // A lock wait that would end past the deadline is cut to a last try at it.
      if (lock) delay = Math.max(MIN_BACKOFF_MS, Math.min(delay, started + deadlineMs - clock.now() - 1));
      if (clock.now() + delay - started > deadlineMs) {
        throw toApiError(spec, result, {
          ...ctx,
          deadlineExceeded: true,
          mayHaveReachedServer: outcome.type === "network" && outcome.phase === "sent",
        });
      }
      // The account's budget: every request of this client waits with this one (at most a minute).
      if (decision.reason === "rate_limited") {
        limiter?.limited();
        pausedUntil = Math.max(pausedUntil, clock.now() + Math.min(delay, MAX_CLIENT_PAUSE_MS));
      }
      opts.onRetry?.({
        method: spec.route.method,
        path: spec.route.path,
        attempt: tries,
        reason: decision.reason,
        delayMs: delay,
        status: result.type === "response" ? result.res.status : undefined,
        timedOut: result.type === "network" ? result.timedOut : undefined,
        maxAttempts: limits[decision.reason],
        timeoutMs,
        route: spec.route.template,
        requestId,
        holder: lock?.holder,
        waitedMs: clock.now() - started,
      });
      await clock.sleep(delay);
      // Look before trying again: while the project still runs something, wait for its expected end
      // again. A look is one read; a try into the lock is one 423 for every waiter but the first.
      if (lock && !lock.thenTry) await untilLockFree(spec, started, sending.at, tries, lock.operationId);
    }
  }

  /**
   * After a wait for a project's lock: waits again while a fresh reading of the project's operations
   * still shows one pending, until it shows none (or cannot tell), too little of the call's time is
   * left for another wait, or a look names as the lock's holder an operation first named
   * {@link LOOK_TRY_EVERY_MS} before, since the change was last sent (an operation the reading shows
   * pending forever — a `failed` one nobody retries — must not hold the change until its deadline,
   * even while others run between; a lock passing from one new operation to the next, other
   * pipelines' changes, would only answer another 423, so that is tried at {@link LOOK_TRY_MOVING_MS})
   * — then the change is tried. Each wait is reported like the 423's.
   */
  async function untilLockFree(
    spec: RequestSpec<unknown>,
    started: number,
    sentAt: number,
    tries: number,
    holding: string | undefined,
  ) {
    const left = () => started + deadlineMs - clock.now();
    // When each operation the looks named as holding the lock was first named since the last try:
    // one named again a minute later holds it (or stays pending) whatever ran in between.
    const named = new Map<string, number>();
    if (holding !== undefined) named.set(holding, sentAt);
    const stuck = () => {
      const since = holding === undefined ? undefined : named.get(holding);
      return (
        (since !== undefined && clock.now() - since >= LOOK_TRY_EVERY_MS) ||
        clock.now() - sentAt >= LOOK_TRY_MOVING_MS
      );
    };
    while (left() > MIN_BACKOFF_MS && !stuck()) {
      const lock = await opts.lockWait?.(spec.route, clock.now()).catch(() => undefined);
      // The look is a read of this client: a 429's pause or its own retries may have taken a while.
      if (!lock || left() <= MIN_BACKOFF_MS) return;
      // A look that names no operation (the lock is free, left to its last holder a moment) counts
      // as neither stuck nor moving.
      holding = lock.operationId;
      if (holding !== undefined && !named.has(holding)) named.set(holding, clock.now());
      const delay = Math.max(MIN_BACKOFF_MS, Math.min(lock.delayMs, left() - 1));
      opts.onRetry?.({
        method: spec.route.method,
        path: spec.route.path,
        attempt: tries,
        reason: "locked",
        delayMs: delay,
        maxAttempts: limits.locked,
        timeoutMs,
        route: spec.route.template,
        holder: lock.holder,
        waitedMs: clock.now() - started,
        ...(lock.thenTry ? {} : { look: true as const }),
      });
      await clock.sleep(delay);
      if (lock.thenTry) return;
    }
  }

  return {
    request,
    requestCount: () => sent,
    clock,
    serviceNow: () => clock.now() + serviceSkewMs,
  };
}
