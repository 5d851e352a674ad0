/**
 * What a CLI run that a lookup failed must print: its error once, in one line. A failed lookup used to
 * print its error with a stack trace and be followed by `PromiseRejectionHandledWarning` lines (one per
 * promise Pulumi builds from a rejected `Output`); issue 53 made it one line (provider/lookups/errors.ts).
 */

/** A stack frame of a JavaScript file, as Node.js prints an error's trace. */
const FRAME = /^\s+at .*\.[jt]s:\d+/m;

/** Node.js's report of a rejected promise handled after it was reported unhandled. */
const HANDLED_LATE = /PromiseRejectionHandledWarning/;

/** How many times `pattern` matches in `text`. */
export function occurrences(text: string, pattern: RegExp): number {
  const flags = pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`;
  return [...text.matchAll(new RegExp(pattern.source, flags))].length;
}

/** Fails, showing what the CLI printed, unless `holds`. */
function demand(holds: boolean, what: string, out: string): void {
  if (!holds) throw new Error(`Expected ${what}; the CLI printed:\n${out}`);
}

/** Fails unless `out` holds no stack trace and no `PromiseRejectionHandledWarning`. */
export function expectNoTraceNorLateRejection(out: string): void {
  demand(!FRAME.test(out), "no stack trace", out);
  demand(!HANDLED_LATE.test(out), "no PromiseRejectionHandledWarning", out);
}

/** The diagnostics section of what the CLI printed, and the progress lines above it. */
function sections(out: string): { progress: string; diagnostics: string } {
  const at = out.lastIndexOf("\nDiagnostics:\n");
  demand(at >= 0, "a diagnostics section", out);
  return { progress: out.slice(0, at), diagnostics: out.slice(at) };
}

/**
 * Fails unless `message` is said once in the diagnostics section of `out`, on a line of its `severity`
 * (and at most once in the progress lines above it, where the CLI shows each diagnostic as it comes).
 */
function saidOnce(out: string, severity: "error" | "warning", message: RegExp): void {
  const { progress, diagnostics } = sections(out);
  demand(occurrences(diagnostics, message) === 1, `${message} once in the diagnostics`, out);
  const line = new RegExp(`^ +${severity}: .*(${message.source})`, message.flags.replace("g", ""));
  demand(
    diagnostics.split("\n").some((l) => line.test(l)),
    `${message} on a ${severity} line of the diagnostics`,
    out,
  );
  demand(occurrences(progress, message) <= 1, `${message} at most once in the progress lines`, out);
}

/**
 * Fails unless the run (`code`, `out`: everything the CLI printed, as {@link cliRun} returns it) exited
 * non-zero with the error `message` said once, with no stack trace and no `PromiseRejectionHandledWarning`
 * anywhere.
 */
export function expectOneLineFailure(run: { code: number; out: string }, message: RegExp): void {
  demand(run.code !== 0, "a non-zero exit code", run.out);
  saidOnce(run.out, "error", message);
  expectNoTraceNorLateRejection(run.out);
}

/**
 * Fails unless the run exited 0 with each of `warnings` said once, with no error, no stack trace and no
 * `PromiseRejectionHandledWarning`.
 */
export function expectPassWithWarnings(run: { code: number; out: string }, warnings: RegExp[]): void {
  demand(run.code === 0, "exit code 0", run.out);
  for (const w of warnings) saidOnce(run.out, "warning", w);
  demand(!/^ +error: /m.test(sections(run.out).diagnostics), "no error", run.out);
  expectNoTraceNorLateRejection(run.out);
}
