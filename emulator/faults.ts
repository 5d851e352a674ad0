/**
 * Fault injection: server-wide through {@link FaultOptions} (options, `setFaults`,
 * `PUT /_emulator/faults`) and per request through the `X-Emulator-Fault` header.
 */
import { z } from "zod";
import { ApiFault, Codes, badRequest } from "./errors";
import type { Rng } from "./rng";
import type { OpFault } from "./state";

/** Server-wide faults. Rates are probabilities 0..1 rolled per API request (seeded). */
export interface FaultOptions {
  latencyMs?: number;
  rate423?: number;
  rate429?: number;
  rate500?: number;
  rate503?: number;
  /** Seconds sent in `Retry-After` with an injected 429; default 1. */
  retryAfterSeconds?: number;
  /** POST/PATCH/DELETE: apply the change, then destroy the socket without a response. */
  dropAfterCommitRate?: number;
  /** POST/PATCH/DELETE: apply the change, then answer 502 Bad Gateway (a gateway lost the answer). */
  errorAfterCommitRate?: number;
  /** An operation goes `failed` (failures_count 1), is retried and finishes. */
  opFailRate?: number;
  /** An operation ends `error` (with an `error` text). */
  opErrorRate?: number;
  /** An operation ends `cancelled`. */
  opCancelRate?: number;
  /**
   * Every 412 answer carries other words than the emulator's (which follow one user's report, not the
   * document): for tests that a client keys on status, route and reads, never on a message.
   */
  rewordPreconditions?: boolean;
}

const rate = z.number().min(0).max(1).optional();
/** Validates a FaultOptions body (admin route) or option object. */
export const FaultOptionsSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    rate423: rate,
    rate429: rate,
    rate500: rate,
    rate503: rate,
    retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
    dropAfterCommitRate: rate,
    errorAfterCommitRate: rate,
    opFailRate: rate,
    opErrorRate: rate,
    opCancelRate: rate,
    rewordPreconditions: z.boolean().optional(),
  })
  .strict();

/** What one request's `X-Emulator-Fault` header asks for. */
export interface RequestFault {
  status?: 423 | 429 | 500 | 503;
  retryAfter?: number;
  latencyMs?: number;
  dropAfterCommit?: boolean;
  errorAfterCommit?: boolean;
  op?: OpFault;
}

const STATUSES = new Set([423, 429, 500, 503]);
const OP_FAULTS = new Set(["failed", "error", "cancelled", "none"]);

/**
 * Parses `X-Emulator-Fault`: comma-separated directives, each `name[=value][;param=value]`:
 * `status=423`, `status=429;retry-after=2`, `status=500`, `status=503`, `latency=200`,
 * `drop-after-commit`, `error-after-commit`, `op=failed|error|cancelled`. A malformed header is a 400 naming it.
 */
export function parseFaultHeader(header: string | string[] | undefined): RequestFault | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join(",") : header;
  const fault: RequestFault = {};
  for (const directive of text
    .split(",")
    .map((d) => d.trim())
    .filter(Boolean)) {
    const [head, ...params] = directive.split(";").map((p) => p.trim());
    const [name, value] = head.split("=").map((p) => p.trim());
    const bad = (why: string) =>
      badRequest(`Failed to parse header X-Emulator-Fault: directive "${directive}" ${why}. ` + FAULT_HELP);
    switch (name) {
      case "status": {
        const n = Number(value);
        if (!STATUSES.has(n)) throw bad("needs a status of 423, 429, 500 or 503");
        fault.status = n as RequestFault["status"];
        for (const p of params) {
          const [k, v] = p.split("=").map((x) => x.trim());
          if (k !== "retry-after" || !/^\d+$/.test(v ?? "")) throw bad(`has an unknown parameter "${p}"`);
          fault.retryAfter = Number(v);
        }
        break;
      }
      case "latency": {
        if (!/^\d+$/.test(value ?? "") || Number(value) > 60_000)
          throw bad("needs milliseconds from 0 to 60000");
        fault.latencyMs = Number(value);
        break;
      }
      case "drop-after-commit":
        fault.dropAfterCommit = true;
        break;
      case "error-after-commit":
        fault.errorAfterCommit = true;
        break;
      case "op":
        if (!OP_FAULTS.has(value)) throw bad("needs one of failed, error, cancelled, none");
        fault.op = value as OpFault;
        break;
      default:
        throw bad("is unknown");
    }
  }
  return fault;
}

const FAULT_HELP =
  "Known directives: status=423|429|500|503 (429 takes ;retry-after=<s>), latency=<ms>, drop-after-commit, error-after-commit, op=failed|error|cancelled";

/** The error response a status fault produces. */
export function statusFault(status: number, retryAfterSeconds: number, source: string): ApiFault {
  switch (status) {
    case 423:
      return new ApiFault(
        423,
        Codes.locked,
        `Injected fault (${source}): the project is locked by another operation in progress; retry later`,
      );
    case 429:
      return new ApiFault(
        429,
        Codes.tooMany,
        `Injected fault (${source}): too many requests; retry after ${retryAfterSeconds} s`,
        {
          "retry-after": String(retryAfterSeconds),
        },
      );
    case 500:
      return new ApiFault(500, Codes.internal, `Injected fault (${source}): internal server error`);
    default:
      return new ApiFault(
        503,
        Codes.unavailable,
        `Injected fault (${source}): service unavailable; retry later`,
      );
  }
}

/** Rolls the server-wide status fault for one request, if any (seeded). */
export function rollStatusFault(f: FaultOptions, rng: Rng): number | undefined {
  const { rate423 = 0, rate429 = 0, rate500 = 0, rate503 = 0 } = f;
  if (!rate423 && !rate429 && !rate500 && !rate503) return undefined;
  const r = rng.next();
  if (r < rate423) return 423;
  if (r < rate423 + rate429) return 429;
  if (r < rate423 + rate429 + rate500) return 500;
  if (r < rate423 + rate429 + rate500 + rate503) return 503;
  return undefined;
}

/**
 * A hold on one route's answers (`EmulatorHandle.holdAnswers`): the server carries out each request
 * of the route, then keeps its answer back until `release()` — the moment between "the service has
 * the change" and "the client knows", where a killed client loses the answer.
 */
export class AnswerHold {
  /** Requests of the route carried out and held so far. */
  held = 0;
  private released = false;
  private readonly waiting: Array<() => void> = [];
  private notify: Array<() => void> = [];

  constructor(readonly route: string) {}

  /** Resolves once `count` requests of the route have been carried out (their answers held). */
  received(count = 1): Promise<void> {
    if (this.held >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => (this.held >= count ? resolve() : this.notify.push(check));
      this.notify.push(check);
    });
  }

  /** Lets every held answer (and every later one) go. */
  release(): void {
    this.released = true;
    for (const go of this.waiting.splice(0)) go();
  }

  /** Called by the server after carrying out a request of the route; resolves when it may answer. */
  hold(): Promise<void> {
    this.held++;
    for (const check of this.notify.splice(0)) check();
    if (this.released) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}
