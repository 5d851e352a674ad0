/**
 * The operation waiter: a pure step over plain data (`step.ts`) and a driver
 * that owns the clock and shares polls per project (`waiter.ts`).
 */
export { OperationError, type OperationErrorInit } from "./errors";
export {
  OperationWaiter,
  DurationBook,
  DEFAULT_WAIT_DEADLINE_MS,
  DEFAULT_FAILED_GRACE_MS,
  type OperationSource,
  type PollErrorClass,
  type WaitedOperation,
  type WaitOptions,
  type WaitProgress,
  type WaiterConfig,
} from "./waiter";
export { isSucceeded, isTerminal } from "./status";
export {
  initialState,
  observe,
  decide,
  step,
  nextPollAt,
  windowInterval,
  durationWindow,
  windowOf,
  COMPUTE_ACTIONS,
  DEFAULT_SCHEDULE,
  MIN_DURATION_SAMPLES,
  SUCCESS_STATUSES,
  FAILURE_STATUSES,
  type Decision,
  type DurationWindow,
  type FailReason,
  type Observation,
  type OpHint,
  type OpTrack,
  type OpView,
  type ScheduleConfig,
  type WaitState,
} from "./step";
