/**
 * The error of a wait on operations that did not end well.
 */
import type { FailReason } from "./step";

/** Everything an {@link OperationError} is built from. */
export interface OperationErrorInit {
  reason: FailReason;
  projectId: string;
  operationId: string;
  action?: string;
  status?: string;
  failuresCount?: number;
  /** The operation's own `error` text. */
  operationError?: string;
  elapsedMs: number;
  /** Operations of the wait still unfinished (deadline). */
  unfinished?: { id: string; action?: string; status?: string }[];
  /** The deadline, for the message. */
  deadlineMs?: number;
  /** The grace period, for the message. */
  failedGraceMs?: number;
  /** The last polling error, when polls failed before the deadline passed. */
  lastPollError?: string;
}

/**
 * A wait on operations failed: an operation ended in `error` or `cancelled`,
 * stayed `failed` past the grace period, does not exist, or the deadline
 * passed first.
 */
export class OperationError extends Error {
  readonly reason: FailReason;
  readonly projectId: string;
  readonly operationId: string;
  readonly action?: string;
  readonly status?: string;
  readonly failuresCount?: number;
  /** The operation's own `error` text. */
  readonly operationError?: string;
  readonly elapsedMs: number;
  /** What happened, without the advice: for a caller whose own advice fits better (a kept create). */
  readonly summary: string;

  constructor(init: OperationErrorInit) {
    const [summary, advice] = formatMessage(init);
    super(`${summary}. ${advice}`);
    this.summary = summary;
    this.name = "OperationError";
    this.reason = init.reason;
    this.projectId = init.projectId;
    this.operationId = init.operationId;
    this.action = init.action;
    this.status = init.status;
    this.failuresCount = init.failuresCount;
    this.operationError = init.operationError;
    this.elapsedMs = init.elapsedMs;
  }
}

/** The message in two parts: what happened (no final period) and what to do. */
function formatMessage(i: OperationErrorInit): [string, string] {
  const op = `operation ${i.operationId}${i.action ? ` (${i.action})` : ""} of project ${i.projectId}`;
  const facts = [
    `status ${i.status ?? "unknown"}`,
    `failures_count ${i.failuresCount ?? "unknown"}`,
    `after ${Math.round(i.elapsedMs / 100) / 10} s`,
  ].join(", ");
  const why = i.operationError ? `: ${i.operationError.trim().replace(/[.\s]+$/, "")}` : "";
  switch (i.reason) {
    case "error":
      return [
        `Failed to wait for ${op}: it ended in error${why} (${facts})`,
        "Check the project in the Neon console, fix the cause, then run the change again.",
      ];
    case "cancelled":
      return [
        `Failed to wait for ${op}: it was cancelled${why} (${facts})`,
        "Run the change again if it is still wanted.",
      ];
    case "failed_too_long": {
      const grace =
        i.failedGraceMs !== undefined ? ` for more than ${Math.round(i.failedGraceMs / 1000)} s` : "";
      return [
        `Failed to wait for ${op}: it stayed failed${grace} without being retried${why} (${facts})`,
        "Check the project in the Neon console; run the change again once the operation succeeds or is cancelled.",
      ];
    }
    case "not_found":
      return [`Failed to wait for ${op}: the operation does not exist (${facts})`, "Check the project id."];
    case "deadline": {
      const left = (i.unfinished ?? [])
        .map((u) => `${u.id} ${u.action ?? "?"}: ${u.status ?? "not seen yet"}`)
        .join(", ");
      const limit = i.deadlineMs !== undefined ? ` of ${Math.round(i.deadlineMs / 1000)} s` : "";
      const poll = i.lastPollError ? ` Last polling error: ${i.lastPollError.replace(/[.\s]+$/, "")}` : "";
      return [
        `Failed to wait for ${op}: the deadline${limit} passed before it finished (${facts}; unfinished: ${left || "none"})${poll ? `.${poll}` : ""}`,
        "The operations may still complete: run the change again later, or raise neon:operationTimeoutSeconds.",
      ];
    }
  }
}
