/** How a lookup's errors reach the program. */
import * as pulumi from "@pulumi/pulumi";
import { ApiError } from "../http/errors";

/**
 * An expected error of a lookup (an API answer, a wrong argument) as a `RunError`: the program fails
 * with its one-line message, without the stack trace and the error object Pulumi prints for an
 * unhandled exception. Anything else (a bug) keeps its trace.
 *
 * Its stack is its message alone. Pulumi's handler still runs `util.inspect` on the error, and on
 * Node.js 22 that loops over a source-mapped frame of the SDK (`node_modules/@pulumi/output.ts`) until
 * the string is too long: 17 s and 3.5 GB of the program's process before the one line is printed.
 */
export function asRunError(err: unknown): unknown {
  const expected =
    err instanceof ApiError ||
    err instanceof RangeError ||
    (err instanceof Error && err.constructor === Error && err.message.startsWith("Failed to "));
  if (!expected) return err;
  const run = new pulumi.RunError((err as Error).message);
  run.stack = `${run.name}: ${run.message}`;
  return run;
}
