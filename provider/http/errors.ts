/**
 * The one error type of the HTTP boundary. Whatever goes wrong under a call
 * (an HTTP status, a dropped connection, a timeout, a response that does not
 * match its schema) surfaces as an {@link ApiError}; a raw `AxiosError` never
 * escapes, because its `config` carries the `Authorization` header.
 */

/** What went wrong, coarse enough to branch on. */
export type ApiErrorKind =
  | "unauthorized" // 401
  | "forbidden" // 403: the key may not do this (e.g. a member's key creating an organization key)
  | "not_found" // 404
  | "conflict" // 409: the request contradicts the current state (e.g. a branch's read_write slot is taken)
  | "locked" // 423: another operation in progress, or a quota exhausted
  | "rate_limited" // 429
  | "invalid" // any other 4xx
  | "server" // 5xx
  | "network" // no HTTP answer: refused, reset, dropped
  | "timeout" // no answer within the request timeout
  | "invalid_response"; // a 2xx whose body does not match its schema

/** A plain, credential-free description of the low-level cause of an {@link ApiError}. */
export interface SanitizedCause {
  /** e.g. `AxiosError`, `ZodError`. */
  name: string;
  /** A system or library code such as `ECONNRESET`, `ETIMEDOUT`. */
  code?: string;
  /** The cause's message with every secret removed. */
  message: string;
}

/** Everything an {@link ApiError} is built from. */
export interface ApiErrorInit {
  kind: ApiErrorKind;
  method: string;
  /** Path relative to the base URL, without query string, e.g. `/projects/p-1/endpoints`. */
  path: string;
  /** The route template of the call, e.g. `GET /projects/{project_id}/endpoints`. */
  route?: string;
  /** Verb of the one-line message: `Failed to <verb> <thing>`. */
  verb: string;
  /** What the call acts on, e.g. `compute ep-1 in project p-1`. */
  thing: string;
  status?: number;
  code?: string;
  /** The API's own message (or the low-level reason when there was no answer). */
  apiMessage: string;
  requestId?: string;
  cause?: SanitizedCause;
  /** True when the request may have been processed although no answer arrived. */
  mayHaveReachedServer?: boolean;
  /** Requests sent for this call, retries included. */
  attempts?: number;
  /** True when retrying stopped because the retry deadline passed. */
  deadlineExceeded?: boolean;
  /** With `deadlineExceeded`: the retry deadline, for the message. */
  retryDeadlineMs?: number;
  /** Overrides the default remedy sentence for the kind. */
  remedy?: string;
}

const REMEDIES: Record<ApiErrorKind, string> = {
  unauthorized:
    "Check the API key (neon:apiKey or NEON_API_KEY): it is missing, mistyped or revoked, or it has no access to this project.",
  forbidden:
    "The API key is not allowed to do this; use a key with the needed rights (see the key types in the README).",
  not_found: "Check that the ids are right and that the API key has access to the project.",
  conflict:
    "The request conflicts with the current state of the resource; change the request or the resource.",
  locked:
    "Another operation is in progress on the project, or a quota of the account is exhausted; wait for running operations to finish, check the plan's limits, then retry.",
  rate_limited: "Too many requests were sent; lower the parallelism (pulumi up --parallel) or retry later.",
  invalid: "Fix the request as the message says.",
  server:
    "The Neon service failed to handle the request; retry later, and quote the request id if it persists.",
  network: "Check the network connection and the API URL (neon:apiUrl or NEON_API_URL).",
  timeout:
    "The service did not answer in time; retry later, or allow more time per request with neon:requestTimeoutSeconds (or NEON_REQUEST_TIMEOUT_SECONDS).",
  invalid_response:
    "The service answered with data this provider does not understand; the API may have changed. Upgrade the provider or report the request id.",
};

/**
 * An error from the Neon API or from the way to it. Its properties are plain
 * data and hold no credential, so it is safe to log, stringify or inspect.
 */
export class ApiError extends Error {
  /** Coarse category; branch on this, never on the message text. */
  readonly kind: ApiErrorKind;
  /** HTTP method of the failed call. */
  readonly method: string;
  /** Path of the failed call relative to the base URL. */
  readonly path: string;
  /** The route template of the failed call, e.g. `GET /projects/{project_id}/endpoints`. */
  readonly route?: string;
  /** HTTP status, when an answer arrived. */
  readonly status?: number;
  /** The API's error `code`, when it sent one. */
  readonly code?: string;
  /** The API's error message (without the context this class adds). */
  readonly apiMessage: string;
  /** `request_id` from the answer, or the `X-Request-ID` this client sent. */
  readonly requestId?: string;
  /**
   * True when the request may have reached the server although no answer
   * came back (a POST or PATCH cut off mid-flight). The caller must look for
   * its effect before sending it again.
   */
  readonly mayHaveReachedServer: boolean;
  /** Requests sent for this call, retries included. */
  readonly attempts: number;
  /** True when retrying stopped because the retry deadline passed. */
  readonly deadlineExceeded: boolean;
  /** A sanitized description of the low-level failure; never the `AxiosError` itself. */
  override readonly cause?: SanitizedCause;

  readonly #init: ApiErrorInit;

  constructor(init: ApiErrorInit) {
    super(formatMessage(init));
    this.#init = { ...init };
    this.name = "ApiError";
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.route = init.route;
    this.status = init.status;
    this.code = init.code || undefined;
    this.apiMessage = init.apiMessage;
    this.requestId = init.requestId;
    this.mayHaveReachedServer = init.mayHaveReachedServer ?? false;
    this.attempts = init.attempts ?? 1;
    this.deadlineExceeded = init.deadlineExceeded ?? false;
    this.cause = init.cause;
  }

  /**
   * The same error with another remedy sentence: how a resource gives its own advice while keeping
   * the status, code and request id (instead of wrapping the error in a plain `Error`).
   */
  withRemedy(remedy: string): ApiError {
    const copy = new ApiError({ ...this.#init, remedy });
    copy.stack = this.stack;
    return copy;
  }

  /** A plain object for logs and `JSON.stringify`. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      method: this.method,
      path: this.path,
      route: this.route,
      status: this.status,
      code: this.code,
      requestId: this.requestId,
      mayHaveReachedServer: this.mayHaveReachedServer,
      attempts: this.attempts,
      deadlineExceeded: this.deadlineExceeded,
      cause: this.cause,
    };
  }
}

/** True for a 404: the object (or what it belongs to, e.g. its branch) is not there. */
export const isNotFound = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.kind === "not_found";

/**
 * Thrown by a request's `parse` function when a body does not match its schema; the client turns
 * it into an `invalid_response` {@link ApiError} that lists the problems.
 */
export class ResponseShapeError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
    this.name = "ResponseShapeError";
  }
}

/** Maps an HTTP status to its {@link ApiErrorKind}. */
export function kindOfStatus(status: number): ApiErrorKind {
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 409) return "conflict";
  if (status === 423) return "locked";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "server";
  return "invalid";
}

/** `Failed to <verb> <thing>: <API message> (HTTP 423, code …, request id …). <remedy>` */
function formatMessage(init: ApiErrorInit): string {
  const facts: string[] = [];
  if (init.status !== undefined) facts.push(`HTTP ${init.status}`);
  else facts.push(init.kind === "timeout" ? "timed out" : "no answer");
  if (init.code) facts.push(`code ${init.code}`);
  if (init.requestId) facts.push(`request id ${init.requestId}`);
  if (init.attempts && init.attempts > 1) facts.push(`${init.attempts} attempts`);
  const reason = trimSentence(init.apiMessage || "no details");
  let remedy = init.remedy ?? REMEDIES[init.kind];
  if (init.mayHaveReachedServer) {
    remedy =
      `The request may have reached the service and taken effect; check before sending it again. ${remedy}`.trim();
  }
  if (init.deadlineExceeded) {
    const limit =
      init.retryDeadlineMs !== undefined ? ` of ${Math.round(init.retryDeadlineMs / 1000)} s` : "";
    remedy = `Gave up retrying: the retry deadline${limit} passed. ${remedy}`;
  }
  return `Failed to ${init.verb} ${init.thing}: ${reason} (${facts.join(", ")}). ${remedy}`;
}

function trimSentence(s: string): string {
  return s.trim().replace(/[.\s]+$/, "");
}

/**
 * Removes every occurrence of the given secrets, and anything that looks like
 * a bearer credential, from a string.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    // Short strings would redact unrelated text; real keys are long.
    if (s && s.length >= 8) out = out.split(s).join("[REDACTED]");
  }
  return out.replace(/(Bearer\s+)[^\s"',;]+/gi, "$1[REDACTED]");
}

/** A credential-free copy of an arbitrary thrown value, for {@link ApiError.cause}. */
export function sanitizeCause(err: unknown, secrets: readonly string[]): SanitizedCause {
  if (err && typeof err === "object") {
    const e = err as { name?: unknown; code?: unknown; message?: unknown };
    return {
      name: typeof e.name === "string" ? e.name : "Error",
      code: typeof e.code === "string" ? e.code : undefined,
      message: redact(typeof e.message === "string" ? e.message : String(err), secrets),
    };
  }
  return { name: "Error", message: redact(String(err), secrets) };
}
