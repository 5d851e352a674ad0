/**
 * Helpers of the end-to-end tests: the plugin's launcher on PATH, the CLI run directly (for
 * `pulumi import`, which the Automation API of this version cannot print code for), waits beside a CLI
 * running in the background, and the engine events that show a resource's steps.
 */
import { execFile, spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import * as YAML from "yaml";
import { commandLabel, ensurePulumi, repoRoot, trackProcess, type TempStack } from "../../scripts/lib/pulumi";
import { descendants, killAll } from "../support/budgets";

/** `bin/` of this checkout, where `pulumi-resource-neoncompute` is. */
export const pluginBin = path.join(repoRoot, "bin");

/** PATH with the plugin's launcher and the CLI (incl. `pulumi-language-yaml` and `pulumi-language-go`) first. */
export function pluginPath(): string {
  return [pluginBin, ensurePulumi(), process.env.PATH ?? ""].join(path.delimiter);
}

/**
 * Runs the CLI in the stack's folder; resolves with its exit code and stdout and stderr together.
 * Asynchronous: the emulator answers from this same process.
 */
export function cliRun(temp: TempStack, args: string[]): Promise<{ code: number; out: string }> {
  const full = [...args, "--stack", temp.stack.name];
  return new Promise((resolve) => {
    const child = execFile(
      path.join(ensurePulumi(), "pulumi"),
      full,
      { cwd: temp.workDir, env: { ...process.env, ...temp.env }, encoding: "utf8", maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
        resolve({ code, out: `${stdout}${stderr}` });
      },
    );
    trackProcess(full, child);
  });
}

/** {@link cliRun} that must succeed: resolves with what it printed, else fails with it. */
export async function cli(temp: TempStack, args: string[]): Promise<string> {
  const r = await cliRun(temp, args);
  if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed with exit code ${r.code}\n${r.out}`);
  return r.out;
}

/** How much of each of a background CLI's streams a failure shows: the end, where its error is. */
const OUTPUT_TAIL = 4000;

/** A CLI started in the background (to be killed mid-run): whether and how it ended, what it printed. */
export interface WatchedCli {
  /** Resolves once the process is gone (exited, killed, or never started) and its output read. */
  readonly exited: Promise<void>;
  /** "`pulumi up --stack dev` exited with code 1." and the last of its stdout and stderr. */
  report(): string;
}

/**
 * Records how `child` ends and the last of its output; call it right after `spawn`, before the CLI can
 * have printed anything, so that a failure shows all of the output's end.
 */
export function watchCli(child: ChildProcess, args: readonly string[]): WatchedCli {
  let stdout = "";
  let stderr = "";
  let ending = "is still running";
  child.stdout?.on("data", (d) => (stdout = (stdout + String(d)).slice(-OUTPUT_TAIL)));
  child.stderr?.on("data", (d) => (stderr = (stderr + String(d)).slice(-OUTPUT_TAIL)));
  const exited = new Promise<void>((resolve) => {
    // "close", not "exit": the last lines (a failed run's error) can still be in the pipes at "exit".
    child.once("close", (code, signal) => {
      ending = signal ? `was ended by ${signal}` : `exited with code ${code}`;
      resolve();
    });
    child.once("error", (err) => {
      ending = `could not be run: ${err.message}`;
      resolve();
    });
  });
  const tail = (s: string) => (s.length >= OUTPUT_TAIL ? `…${s}` : s || "(nothing)");
  return {
    exited,
    report: () =>
      `\`${commandLabel(args)}\` ${ending}.\n` +
      `--- its stdout (at most the last ${OUTPUT_TAIL} characters) ---\n${tail(stdout)}\n` +
      `--- its stderr (at most the last ${OUTPUT_TAIL} characters) ---\n${tail(stderr)}`,
  };
}

/** How often {@link waitWhileRunning} checks: the states the tests wait for last a few hundred ms. */
const POLL_MS = 20;

const GONE = Symbol("the CLI ended");

/**
 * Waits for `event` — a promise, or a check polled until it returns something — while `cli` runs.
 * If the CLI exits first the event may never come (a failed run creates nothing to wait for), so the
 * wait ends there and fails with how the CLI ended and what it printed, instead of spinning until the
 * test's step budget runs out; a wait that fails otherwise shows that output too.
 */
export async function waitWhileRunning<T>(
  cli: WatchedCli,
  event: Promise<T> | (() => Promise<T | undefined>),
  what: string,
): Promise<T> {
  let over = false;
  const poll = async (check: () => Promise<T | undefined>): Promise<T> => {
    for (;;) {
      const value = await check();
      if (value !== undefined || over) return value as T;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  };
  try {
    const first = await Promise.race([
      typeof event === "function" ? poll(event) : event,
      cli.exited.then(() => GONE),
    ]);
    if (first === GONE) throw new Error("the CLI ended first");
    return first as T;
  } catch (err) {
    throw new Error(
      `Waiting for ${what}: ${err instanceof Error ? err.message : String(err)}. ${cli.report()}`,
    );
  } finally {
    over = true;
  }
}

/**
 * Kills the background CLI (its whole process tree) once the emulator has carried out the request a
 * hold keeps the answer of, then lets the hold go: "killed right after its create reached the service".
 * A run that ends before sending the request leaves nothing to kill, and fails with its output.
 */
export async function killWhenHeld(
  child: ChildProcess,
  cli: WatchedCli,
  hold: { received(): Promise<unknown>; release(): void },
  what: string,
): Promise<void> {
  try {
    await waitWhileRunning(cli, hold.received(), what);
    killAll([child.pid as number, ...descendants(child.pid as number)]);
    await cli.exited;
  } finally {
    hold.release();
  }
}

/**
 * Starts `pulumi up` and SIGKILLs its whole process tree (as a CI runner's cancel does) once `hold` got
 * the request it waits for, carried out with its answer held back; then lets the answer go.
 */
export async function upKilledWhenHeld(
  temp: TempStack,
  hold: { received(): Promise<unknown>; release(): void },
  what: string,
  capture: (s: string) => void,
): Promise<void> {
  const bin = temp.env.PATH.split(path.delimiter)[0];
  const args = ["up", "--yes", "--non-interactive", "--stack", temp.stack.name];
  const child = spawn(path.join(bin, "pulumi"), args, {
    cwd: temp.workDir,
    env: { ...process.env, ...temp.env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group; the kill takes the plugins' groups too.
    detached: true,
  });
  trackProcess(args, child);
  child.stdout.on("data", (d) => capture(String(d)));
  child.stderr.on("data", (d) => capture(String(d)));
  await killWhenHeld(child, watchCli(child, args), hold, what);
}

/** Adds the resources of a YAML file (code `pulumi import --out` generated) to the stack's program. */
export function addResources(temp: TempStack, generated: string): Record<string, unknown> {
  const file = path.join(temp.workDir, "Pulumi.yaml");
  const program = YAML.parse(fs.readFileSync(file, "utf8")) as { resources: Record<string, unknown> };
  const added = (YAML.parse(generated) as { resources: Record<string, unknown> }).resources;
  Object.assign(program.resources, added);
  fs.writeFileSync(file, YAML.stringify(program));
  return added;
}

/** The engine's operations on one resource (by name), in the order they finished. */
export function stepsOf(events: EngineEvent[], name: string): string[] {
  return events
    .map((e) => e.resOutputsEvent?.metadata)
    .filter((m) => m?.urn.endsWith(`::${name}`))
    .map((m) => m!.op);
}

/** The diagnostics (info and warnings) the provider attributed to one resource. */
export function diagnosticsOf(events: EngineEvent[], name: string): string[] {
  return events
    .map((e) => e.diagnosticEvent)
    .filter((d) => d?.urn?.endsWith(`::${name}`))
    .map((d) => d!.message);
}

/** `pulumi stack export` as a user runs it (secrets encrypted) and every state file of the backend. */
export async function persisted(temp: TempStack): Promise<string> {
  const exported = await cli(temp, ["stack", "export"]);
  const files = fs
    .readdirSync(temp.backendDir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .map((f) => fs.readFileSync(path.join(temp.backendDir, f), "utf8"));
  return [exported, ...files].join("\n");
}

/** The stack's outputs as plain values. */
export async function stackOutputs(temp: TempStack): Promise<Record<string, unknown>> {
  return Object.fromEntries(Object.entries(await temp.stack.outputs()).map(([k, v]) => [k, v.value]));
}

/** The kinds of change of a preview's or update's summary that happened (`same` and zeros left out). */
export function changedCounts(
  summary: Record<string, number | undefined>,
): Record<string, number | undefined> {
  return Object.fromEntries(Object.entries(summary).filter(([k, n]) => k !== "same" && (n ?? 0) > 0));
}
