/** How a lookup's errors reach the program. */
import * as pulumi from "@pulumi/pulumi";
import { ApiError, isNotFound } from "../http/errors";

/**
 * An expected error of a lookup (an API answer, a wrong argument) as a `RunError`: the program fails
 * with its one-line message, without the stack trace and the error object Pulumi prints for an
 * unhandled exception. Anything else (a bug) keeps its trace.
 *
 * Its stack is its message alone, and it has no `cause`. Pulumi's handler still runs `util.inspect` on
 * the error (and on its cause), and on Node.js 22 that loops over a source-mapped frame of the SDK
 * (`node_modules/@pulumi/output.ts`) until the string is too long: 17 s and 3.5 GB of the program's
 * process before the one line is printed.
 */
export function asRunError(err: unknown): unknown {
  if (pulumi.RunError.isInstance(err)) return err;
  const expected =
    err instanceof ApiError ||
    err instanceof RangeError ||
    (err instanceof Error && err.constructor === Error && err.message.startsWith("Failed to "));
  if (!expected) return err;
  const run = new pulumi.RunError((err as Error).message);
  run.stack = `${run.name}: ${run.message}`;
  return run;
}

/** True when `err`, or an error it was made from (its `cause`), is the service's 404. */
export function notFoundIn(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (isNotFound(e)) return true;
  }
  return false;
}

/**
 * Fails the program with a lookup's error, once. The lookup's `Output` is not rejected: Pulumi builds
 * several promises from an `Output`'s value (whether it is known, secret, its dependencies), and when
 * that value rejects, each is reported unhandled at once and handled later (by the stack's outputs, by a
 * dependent resource), which Node.js reports as a `PromiseRejectionHandledWarning` each. One promise,
 * rejected here and never handled, reaches Pulumi's handler instead: it prints the error (a
 * {@link asRunError}: its message alone) and the program exits non-zero.
 */
export function failProgram(err: unknown): void {
  void Promise.reject(asRunError(err));
}

/**
 * What a failed lookup's `Output` holds: nothing, ever. What depends on it is not registered (as with
 * a rejected `Output`), and the run ends failed by {@link failProgram}'s error.
 */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}

/**
 * What a failed `…Output` lookup does in the program, besides failing it; the defaults are Pulumi's
 * (a test passes its own).
 * @internal
 */
export interface LookupSeams {
  /** True during `pulumi preview`. */
  isDryRun(): boolean;
  /** Shows a warning on the stack. */
  warn(message: string): void;
  /** Fails the program with the error, made one line ({@link asRunError}) (once: {@link failProgram}). */
  fail(err: unknown): void;
}

/**
 * The seams of a program run by Pulumi.
 * @internal
 */
export const PROGRAM: LookupSeams = {
  isDryRun: () => pulumi.runtime.isDryRun(),
  warn: (message) => void pulumi.log.warn(message),
  fail: failProgram,
};
