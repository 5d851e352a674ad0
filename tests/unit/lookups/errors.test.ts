/**
 * asRunError (provider/lookups/errors.ts): a lookup's expected failure reaches the program as a
 * RunError whose stack is its message alone (Pulumi's handler inspects it, and Node.js 22's inspect
 * loops for seconds on the SDK's source-mapped frames), with no `cause` for that handler to inspect;
 * a bug keeps its error and its trace. notFoundIn: a 404 is told by the ApiError's kind, also as the
 * cause of a lookup's own explanation, never by words.
 */
import * as util from "util";
import * as pulumi from "@pulumi/pulumi";
import { ApiError } from "../../../provider/api";
import { asRunError, notFoundIn } from "../../../provider/lookups/errors";

const notFound = () =>
  new ApiError({
    kind: "not_found",
    method: "GET",
    path: "/projects/p/branches/b/compare_schema",
    verb: "compare",
    thing: "schema",
    apiMessage: 'database "nope" not found',
    mayHaveReachedServer: true,
  });

test.each([
  ["an API answer", notFound()],
  [
    "a wrong argument",
    new RangeError("Failed to run getOperations: limit must be a positive whole number, got 0."),
  ],
  ["a refusal of the lookup's own", new Error("Failed to run a Neon lookup: no API key is set.")],
])("%s becomes a RunError with no frames in its stack", (_, err) => {
  const run = asRunError(err) as Error;
  expect(pulumi.RunError.isInstance(run)).toBe(true);
  expect(run.message).toBe(err.message);
  expect(run.stack).toBe(`${run.name}: ${err.message}`);
  // What Pulumi's handler prints of it: the message, no frame.
  expect(util.inspect(run, { colors: true })).not.toMatch(/\n\s+at /);
});

test("a bug keeps its own error and trace", () => {
  const bug = new TypeError("cannot read properties of undefined");
  expect(asRunError(bug)).toBe(bug);
  expect((asRunError(bug) as Error).stack).toMatch(/\n\s+at /);
});

test("a RunError already made is kept, and none carries a cause", () => {
  const run = asRunError(notFound()) as Error;
  expect(asRunError(run)).toBe(run);
  expect(run.cause).toBeUndefined();
});

test("notFoundIn: the service's 404, itself or as the cause of an explanation; nothing else", () => {
  expect(notFoundIn(notFound())).toBe(true);
  expect(notFoundIn(new Error("Failed to compare: the branch has no database", { cause: notFound() }))).toBe(
    true,
  );
  expect(notFoundIn(new Error("Failed to compare: not found"))).toBe(false);
  expect(
    notFoundIn(new RangeError("Failed to run getOperations: limit must be a positive whole number")),
  ).toBe(false);
  expect(notFoundIn(undefined)).toBe(false);
});
