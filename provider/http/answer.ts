/**
 * What one attempt of a request produced, and what the client makes of it: the parsed body of a
 * success, the input of the retry decision, or the {@link ApiError} the call fails with. Pure:
 * these functions see plain data, never the network or the clock.
 */
import {
  ApiError,
  kindOfStatus,
  redact,
  ResponseShapeError,
  sanitizeCause,
  type ApiErrorKind,
} from "./errors";
import { parseRetryAfter, type AttemptOutcome } from "./retry";
import type { RequestSpec } from "./types";

/** The parts of an HTTP answer read here; an `AxiosResponse` has them. */
export interface Answer {
  status: number;
  statusText?: string;
  /** The body, parsed from JSON when it was JSON, else as sent (`""` when empty). */
  data: unknown;
  /** Header values by lower-case name. */
  headers?: unknown;
}

/** One attempt: an answer with any status, or none (the cause already stripped of credentials). */
export type AttemptResult =
  | { type: "response"; res: Answer }
  | { type: "network"; timedOut: boolean; phase: "connect" | "sent"; cause: NonNullable<ApiError["cause"]> };

/** Facts about the call that the answer alone does not hold. */
export interface AttemptContext {
  /** The `X-Request-ID` this attempt sent; used when the answer names none. */
  requestId: string;
  /** Requests sent for this call so far, this one included. */
  attempts: number;
  /** Strings no message may contain (the API key). */
  secrets: readonly string[];
}

/**
 * The value of a 2xx answer: its body (`undefined` for a 204 or an empty body) run through the
 * call's `parse`. Throws an `invalid_response` {@link ApiError} naming the route and the problems
 * when `parse` throws, with every secret removed from its message and cause.
 */
export function parseBody<T>(spec: RequestSpec<T>, res: Answer, ctx: AttemptContext): T {
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
        ctx.secrets,
      ),
      requestId: headerOf(res, "x-request-id") ?? ctx.requestId,
      attempts: ctx.attempts,
      cause: sanitizeCause(err, ctx.secrets),
    });
  }
}

/**
 * The error a call fails with after its last attempt. An answer gives the kind of its status and
 * the API's `code`, message and `request_id` (falling back to the status text and the request id
 * sent); no answer gives `timeout` or `network`. `mayHaveReachedServer` is kept only for methods
 * that change something: a GET that got no answer changed nothing.
 */
export function toApiError(
  spec: RequestSpec<unknown>,
  result: AttemptResult,
  ctx: AttemptContext & {
    /** The per-request timeout, for the message of a timeout. */
    timeoutMs: number;
    /** The call's retry deadline, for the message when it passed. */
    retryDeadlineMs: number;
    /** From the retry decision: the request may have been processed although it failed. */
    mayHaveReachedServer?: boolean;
    /** Retrying stopped because the next attempt would pass the retry deadline. */
    deadlineExceeded?: boolean;
  },
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
      apiMessage: redact(body.message || result.res.statusText || `HTTP ${result.res.status}`, ctx.secrets),
      requestId: body.requestId ?? headerOf(result.res, "x-request-id") ?? ctx.requestId,
    };
  } else {
    kind = result.timedOut ? "timeout" : "network";
    init = {
      apiMessage: result.timedOut
        ? `no answer within ${ctx.timeoutMs} ms`
        : `the connection failed (${result.cause.code ?? result.cause.message})`,
      requestId: ctx.requestId,
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
    attempts: ctx.attempts,
    mayHaveReachedServer: ctx.mayHaveReachedServer === true && spec.route.method !== "GET",
    deadlineExceeded: ctx.deadlineExceeded,
    retryDeadlineMs: ctx.retryDeadlineMs,
  });
}

/** Reduces an attempt to what the retry decision needs; `now` dates an HTTP-date `Retry-After`. */
export function toOutcome(result: AttemptResult, now: number): AttemptOutcome {
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

export function headerOf(res: Answer, name: string): string | undefined {
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
