/**
 * The HTTP client every API call goes through: one axios instance per
 * configured client, the retry loop, and the translation of every failure
 * into an {@link ApiError}.
 */
import { randomUUID } from "node:crypto";
import type { AxiosAdapter, AxiosInstance, AxiosResponse } from "axios";
import { ApiError, kindOfStatus, redact, sanitizeCause, type ApiErrorKind } from "./errors";
import { makeClock, type Clock, type Sleep } from "./clock";
import { NEON_RATE_LIMITS, RateLimiter, type RateLimits } from "./ratelimit";
import type { Route } from "./route";
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  DEFAULT_RETRY_LIMITS,
  parseRetryAfter,
  shouldRetry,
  type AttemptOutcome,
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
  /** Attempts made so far. */
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
  /** Validates and converts a 2xx body; throw {@link ResponseShapeError} to report a mismatch. */
  parse: (data: unknown, status: number) => T;
}

/** Thrown by a `parse` function when a body does not match its schema. */
export class ResponseShapeError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
    this.name = "ResponseShapeError";
  }
}

/** A configured client. The API key lives only in the axios instance's headers. */
export interface HttpClient {
  request<T>(spec: RequestSpec<T>): Promise<T>;
  /** HTTP requests sent so far, retries included. */
  requestCount(): number;
  /** The configured base URL. */
  readonly baseUrl: string;
  /** The injected (or real) clock, shared with the operation waiter. */
  readonly clock: Clock;
}

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

  async function attempt(spec: RequestSpec<unknown>, requestId: string): Promise<AttemptResult> {
    if (limiter) await limiter.acquire(spec.route.template);
    sent++;
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

  async function request<T>(spec: RequestSpec<T>): Promise<T> {
    const started = clock.now();
    for (let n = 1; ; n++) {
      const requestId = randomUUID();
      const result = await attempt(spec as RequestSpec<unknown>, requestId);
      const outcome = toOutcome(result, clock.now());
      if (result.type === "response" && result.res.status < 400) {
        return parseBody(spec, result.res, requestId, n);
      }
      const decision = shouldRetry(spec.route.method, outcome, n, limits);
      if (!decision.retry) {
        throw toApiError(spec, result, requestId, n, { mayHaveReachedServer: decision.mayHaveReachedServer });
      }
      const delay = backoffDelay(n, decision.reason, clock.random, decision.retryAfterMs, shapes);
      if (clock.now() + delay - started > deadlineMs) {
        throw toApiError(spec, result, requestId, n, {
          deadlineExceeded: true,
          mayHaveReachedServer: outcome.type === "network" && outcome.phase === "sent",
        });
      }
      opts.onRetry?.({
        method: spec.route.method,
        path: spec.route.path,
        attempt: n,
        reason: decision.reason,
        delayMs: delay,
        status: result.type === "response" ? result.res.status : undefined,
        timedOut: result.type === "network" ? result.timedOut : undefined,
        maxAttempts: limits[decision.reason],
        timeoutMs,
        route: spec.route.template,
        requestId,
      });
      await clock.sleep(delay);
    }
  }

  function parseBody<T>(spec: RequestSpec<T>, res: AxiosResponse, requestId: string, attempts: number): T {
    try {
      return spec.parse(res.status === 204 || res.data === "" ? undefined : res.data, res.status);
    } catch (err) {
      const problems =
        err instanceof ResponseShapeError ? err.problems.join("; ") : String((err as Error).message);
      throw new ApiError({
        kind: "invalid_response",
        method: spec.route.method,
        path: spec.route.path,
        route: spec.route.template,
        verb: spec.verb,
        thing: spec.thing,
        status: res.status,
        apiMessage: redact(
          `the answer to ${spec.route.template} does not match the expected schema: ${problems}`,
          secrets,
        ),
        requestId: headerOf(res, "x-request-id") ?? requestId,
        attempts,
        cause: sanitizeCause(err, secrets),
      });
    }
  }

  function toApiError(
    spec: RequestSpec<unknown>,
    result: AttemptResult,
    requestId: string,
    attempts: number,
    extra: { mayHaveReachedServer?: boolean; deadlineExceeded?: boolean },
  ): ApiError {
    let kind: ApiErrorKind;
    let init: {
      status?: number;
      code?: string;
      apiMessage: string;
      requestId?: string;
      cause?: ApiError["cause"];
    };
    if (result.type === "response") {
      const body = errorBody(result.res.data);
      kind = kindOfStatus(result.res.status);
      init = {
        status: result.res.status,
        code: body.code,
        apiMessage: redact(body.message || result.res.statusText || `HTTP ${result.res.status}`, secrets),
        requestId: body.requestId ?? headerOf(result.res, "x-request-id") ?? requestId,
      };
    } else {
      kind = result.timedOut ? "timeout" : "network";
      init = {
        apiMessage: result.timedOut
          ? `no answer within ${timeoutMs} ms`
          : `the connection failed (${result.cause.code ?? result.cause.message})`,
        requestId,
        cause: result.cause,
      };
    }
    return new ApiError({
      kind,
      method: spec.route.method,
      path: spec.route.path,
      route: spec.route.template,
      verb: spec.verb,
      thing: spec.thing,
      ...init,
      attempts,
      // Only a change can have taken effect: a GET that got no answer changed nothing.
      mayHaveReachedServer: extra.mayHaveReachedServer === true && spec.route.method !== "GET",
      deadlineExceeded: extra.deadlineExceeded,
      retryDeadlineMs: deadlineMs,
    });
  }

  return {
    request,
    requestCount: () => sent,
    baseUrl,
    clock,
  };
}

type AttemptResult =
  | { type: "response"; res: AxiosResponse }
  | { type: "network"; timedOut: boolean; phase: "connect" | "sent"; cause: NonNullable<ApiError["cause"]> };

function toOutcome(result: AttemptResult, now: number): AttemptOutcome {
  if (result.type === "network") return { type: "network", phase: result.phase, timedOut: result.timedOut };
  const status = result.res.status;
  return {
    type: "response",
    status,
    retryAfterMs: parseRetryAfter(headerOf(result.res, "retry-after"), now),
    // The service's only signal for a branch still being created (Neon's own test client retries it).
    notReady: status === 422 && /not ready/i.test(errorBody(result.res.data).message ?? ""),
  };
}

function headerOf(res: AxiosResponse, name: string): string | undefined {
  const v = (res.headers as Record<string, unknown> | undefined)?.[name];
  return typeof v === "string" ? v : undefined;
}

/** Reads the API's error body `{code, message, request_id}`; tolerates anything else. */
function errorBody(data: unknown): { code?: string; message?: string; requestId?: string } {
  if (data && typeof data === "object") {
    const d = data as Record<string, unknown>;
    return {
      code: typeof d.code === "string" && d.code !== "" ? d.code : undefined,
      message: typeof d.message === "string" ? d.message : undefined,
      requestId: typeof d.request_id === "string" ? d.request_id : undefined,
    };
  }
  if (typeof data === "string" && data.trim() !== "") return { message: data.trim().slice(0, 500) };
  return {};
}
