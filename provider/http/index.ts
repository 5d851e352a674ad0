/**
 * The HTTP layer: client factory, route templates, the {@link ApiError} boundary, the pure
 * retry policy and backoff, and the clock seam.
 */
export {
  ApiError,
  isNotFound,
  ResponseShapeError,
  type ApiErrorKind,
  type ApiErrorInit,
  type SanitizedCause,
} from "./errors";
export type { Clock, Sleep } from "./clock";
export { nextSendAt, RateLimiter, NEON_RATE_LIMITS, type RateLimits, type SendHistory } from "./ratelimit";
export {
  shouldRetry,
  backoffDelay,
  parseRetryAfter,
  DEFAULT_BACKOFF,
  DEFAULT_RETRY_LIMITS,
  MIN_BACKOFF_MS,
  type AttemptOutcome,
  type BackoffShape,
  type HttpMethod,
  type RetryDecision,
  type RetryLimits,
  type RetryReason,
} from "./retry";
export {
  parseBody,
  toApiError,
  toOutcome,
  type Answer,
  type AttemptContext,
  type AttemptResult,
} from "./answer";
export { route, type Route, type RouteParams, type RouteTemplate } from "./route";
export {
  createHttpClient,
  DEFAULT_BASE_URL,
  DEFAULT_RETRY_DEADLINE_MS,
  DEFAULT_TIMEOUT_MS,
  PACKAGE_NAME,
  PACKAGE_VERSION,
  USER_AGENT,
  type HttpClient,
  type HttpClientOptions,
  type LockWait,
  type RequestSpec,
  type RetryInfo,
} from "./client";
