/**
 * One attempt of a call: held by a 429's pause and the rate limiter, then sent through the client's
 * axios instance, its failure reduced to plain facts. And what every call of one client shares.
 */
import type { AxiosInstance } from "axios";
import { headerOf, type AttemptResult } from "./answer";
import type { Clock } from "./clock";
import { sanitizeCause } from "./errors";
import type { RateLimiter } from "./ratelimit";
import type { BackoffShape, RetryLimits, RetryReason } from "./retry";
import type { HttpClientOptions, RequestSpec } from "./types";

/** What the calls of one client share: its settings, its axios instance, and its pace so far. */
export interface ClientCore {
  readonly opts: HttpClientOptions;
  readonly http: AxiosInstance;
  readonly clock: Clock;
  readonly timeoutMs: number;
  readonly deadlineMs: number;
  readonly limits: RetryLimits;
  readonly shapes: Record<RetryReason, BackoffShape>;
  readonly limiter?: RateLimiter;
  /** Only for scrubbing text that might echo the key back; never stored on anything returned. */
  readonly secrets: string[];
  /** HTTP requests sent so far, retries included. */
  sent: number;
  /**
   * Until when a 429's Retry-After holds every request of this client, not only the call that met
   * it: the budget is the account's.
   */
  pausedUntil: number;
  /**
   * The service's clock minus this one, from the latest answer's Date header; under 2 s (the
   * header's rounding and the answer's travel) it counts as none.
   */
  serviceSkewMs: number;
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

/** Sends one attempt of `spec`; `sending.at` is set to when it left. */
export async function attempt(
  core: ClientCore,
  spec: RequestSpec<unknown>,
  requestId: string,
  endBy: number,
  sending: { at: number },
): Promise<AttemptResult> {
  const { clock, limiter } = core;
  // Held by a 429, but never past this call's own deadline: then it tries, and meets its own answer.
  const pause = Math.min(core.pausedUntil, endBy) - clock.now();
  if (pause > 0) await clock.sleep(pause);
  if (limiter) await limiter.acquire(spec.route.template, endBy);
  core.sent++;
  sending.at = clock.now();
  try {
    const res = await core.http.request({
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
      cause: sanitizeCause(err, core.secrets),
    };
  }
}

/** Keeps the service's clock from an answer's Date header ({@link ClientCore.serviceSkewMs}). */
export function noteServiceTime(core: ClientCore, result: AttemptResult): void {
  if (result.type !== "response") return;
  const date = Date.parse(headerOf(result.res, "date") ?? "");
  if (!Number.isFinite(date)) return;
  const skew = date - core.clock.now();
  core.serviceSkewMs = Math.abs(skew) < 2000 ? 0 : skew;
}
