/**
 * The HTTP client's public types: its options, one call's spec, the client, and what it reports
 * before each retry. The client itself is in `client.ts`.
 */
import type { AxiosAdapter } from "axios";
import type { Clock, Sleep } from "./clock";
import type { RateLimits } from "./ratelimit";
import type { BackoffShape, RetryLimits, RetryReason } from "./retry";
import type { Route } from "./route";

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

/** Options of `createHttpClient`. */
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
   * Method, path and template, from `route()`: the template names the call in retry info,
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
