/**
 * The classes of operation statuses, defined once (control API spec, "States and transitions",
 * and the API's `OperationStatus` enum):
 * - `finished`, `skipped`: success.
 * - `error`, `cancelled`: failure, for good.
 * - `failed`: NOT terminal; the control plane may retry the operation.
 * - `scheduling`, `running`, `cancelling` and anything unknown: in progress.
 */

/** Statuses that complete an operation successfully. */
export const SUCCESS_STATUSES: ReadonlySet<string> = new Set(["finished", "skipped"]);
/** Statuses that end an operation unsuccessfully for good. */
export const FAILURE_STATUSES: ReadonlySet<string> = new Set(["error", "cancelled"]);
/** A status the control plane may still retry out of. */
export const RETRYABLE_FAILED_STATUS = "failed";

/** True when the operation completed successfully. */
export function isSucceeded(status: string): boolean {
  return SUCCESS_STATUSES.has(status);
}

/** True when the operation will not change again (success or failure for good). */
export function isTerminal(status: string): boolean {
  return SUCCESS_STATUSES.has(status) || FAILURE_STATUSES.has(status);
}
