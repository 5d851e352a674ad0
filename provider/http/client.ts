/**
 * The HTTP client every API call goes through: one axios instance per configured client, pacing,
 * and the retry loop. One attempt is sent in `send.ts`; what its answer (or failure) becomes, a
 * parsed body or an `ApiError`, is decided in `answer.ts`; a 423's wait for the project's lock is
 * in `lockwait.ts`. How the client paces its requests, and why:
 * docs/decisions/0014-requests-at-the-control-planes-pace.md.
 */
import { randomUUID } from "node:crypto";
import { parseBody, toApiError, toOutcome } from "./answer";
import { makeClock } from "./clock";
import { asksLockWait, untilLockFree } from "./lockwait";
import { NEON_RATE_LIMITS, RateLimiter } from "./ratelimit";
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  MIN_BACKOFF_MS,
  DEFAULT_RETRY_LIMITS,
  shouldRetry,
  type RetryReason,
} from "./retry";
import { attempt, noteServiceTime, type ClientCore } from "./send";
import type { HttpClient, HttpClientOptions, RequestSpec } from "./types";

export type { HttpClient, HttpClientOptions, LockWait, RequestSpec, RetryInfo } from "./types";

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

/** The longest a 429 holds the other requests of the client (its own call waits its full Retry-After). */
const MAX_CLIENT_PAUSE_MS = 60_000;

/** Creates a client. No request is sent until the first call. */
export function createHttpClient(opts: HttpClientOptions): HttpClient {
  // Loaded here, not at the top: this module is required lazily inside the provider process.
  const axios = require("axios") as typeof import("axios");
  const baseUrl = (opts.baseUrl || DEFAULT_BASE_URL).replace(/\/+$/, "");
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clock = makeClock({ now: opts.now, sleep: opts.sleep, random: opts.random });
  const pacing = opts.rateLimits === undefined ? NEON_RATE_LIMITS : opts.rateLimits;
  const core: ClientCore = {
    opts,
    clock,
    timeoutMs,
    deadlineMs: opts.retryDeadlineMs ?? DEFAULT_RETRY_DEADLINE_MS,
    limits: { ...DEFAULT_RETRY_LIMITS, ...opts.retryLimits },
    shapes: { ...DEFAULT_BACKOFF, ...opts.backoff },
    limiter: pacing ? new RateLimiter(pacing, clock) : undefined,
    secrets: [opts.apiKey],
    sent: 0,
    pausedUntil: 0,
    serviceSkewMs: 0,
    http: axios.create({
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
    }),
  };
  return {
    request: (spec) => request(core, spec),
    requestCount: () => core.sent,
    clock,
    serviceNow: () => clock.now() + core.serviceSkewMs,
  };
}

/**
 * One call: attempts until an answer is final, its reason's attempts run out, or the call's deadline
 * would pass; between attempts the backoff, a 429's Retry-After, or the wait for the project's lock.
 */
async function request<T>(core: ClientCore, spec: RequestSpec<T>): Promise<T> {
  const { clock, opts, deadlineMs, limits, timeoutMs, secrets } = core;
  const started = clock.now();
  // Failed attempts per retry reason: each reason's limit counts only its own.
  const failed: Partial<Record<RetryReason, number>> = {};
  const attemptsFor = (reason: RetryReason) => (failed[reason] ?? 0) + 1;
  const sending = { at: started };
  for (let n = 1; ; n++) {
    const requestId = randomUUID();
    const result = await attempt(
      core,
      spec as RequestSpec<unknown>,
      requestId,
      started + deadlineMs,
      sending,
    );
    noteServiceTime(core, result);
    // A Retry-After date is the service's time.
    const outcome = toOutcome(result, clock.now() + core.serviceSkewMs);
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
    // The project's lock: how long it is expected to be held, for a change's 423 (`asksLockWait`).
    const lock = asksLockWait(core, spec as RequestSpec<unknown>, decision, result, started)
      ? await opts.lockWait?.(spec.route, clock.now()).catch(() => undefined)
      : undefined;
    let delay =
      lock?.delayMs ?? backoffDelay(tries, decision.reason, clock.random, decision.retryAfterMs, core.shapes);
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
      core.limiter?.limited();
      core.pausedUntil = Math.max(core.pausedUntil, clock.now() + Math.min(delay, MAX_CLIENT_PAUSE_MS));
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
    if (lock && !lock.thenTry) await untilLockFree(core, spec, started, sending.at, tries, lock.operationId);
  }
}
