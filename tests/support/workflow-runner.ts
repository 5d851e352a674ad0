/**
 * Runs a GitHub Actions workflow's jobs here, as a runner would, so that a test exercises the file a
 * user copies rather than a re-typed copy of its commands: each job's `if:` evaluated, its steps in
 * order, every `run:` written to a script and run by the shell Actions uses (`shell: bash` is
 * `bash --noprofile --norc -eo pipefail`, no shell named is `bash -e`), in the step's or the job's
 * `working-directory`, with the workflow's, the job's and the step's `env:` and what earlier steps wrote to
 * `$GITHUB_ENV`; `${{ … }}` expressions over the `github`, `secrets`, `vars`, `env`, `steps` and `runner`
 * values the test gives; `$GITHUB_OUTPUT` read back as the step's outputs; `::add-mask::`, `::error::`,
 * `::warning::` and `::notice::` lines taken as the commands they are. A `uses:` step is what the test
 * says that action provides (an action this file is not told about fails the job). What this runner does
 * not do: `runs-on`, `concurrency`, `permissions`, `timeout-minutes`, `services`, matrices.
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { Evaluator, Lexer, Parser, data } from "@actions/expressions";
import { parse as parseYaml } from "yaml";
import { trackProcess } from "../../scripts/lib/pulumi";

/** A step as the workflow writes it. */
export interface WorkflowStep {
  id?: string;
  name?: string;
  if?: string | boolean;
  uses?: string;
  with?: Record<string, unknown>;
  run?: string;
  shell?: string;
  env?: Record<string, unknown>;
  "working-directory"?: string;
}

/** A job as the workflow writes it. */
export interface WorkflowJob {
  if?: string | boolean;
  env?: Record<string, unknown>;
  defaults?: { run?: { shell?: string; "working-directory"?: string } };
  steps: WorkflowStep[];
}

/** The parts of a workflow file this runner reads. */
export interface Workflow {
  env?: Record<string, unknown>;
  jobs: Record<string, WorkflowJob>;
}

/** Parses a workflow file (YAML anchors and aliases resolved, as Actions resolves them). */
export function loadWorkflow(file: string): Workflow {
  return parseYaml(fs.readFileSync(file, "utf8"), { maxAliasCount: -1 }) as Workflow;
}

/** The label of a step in results and errors: its name, else its `uses`, else its `run`'s first line. */
export function stepLabel(step: WorkflowStep): string {
  return step.name ?? step.uses ?? (step.run ?? "").split("\n")[0];
}

// ---- expressions -------------------------------------------------------------------------------------

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

/** What an expression can read, and the job's status for the status functions. */
export interface ExpressionContext {
  contexts: Record<string, Value>;
  /** Whether an earlier step of the job failed (`success()`, `failure()`). */
  failed?: boolean;
}

/** The value as `${{ }}` writes it into text. */
export function valueText(v: Value): string {
  if (v === null) return "";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** A function the evaluator is given (the status functions). */
type FunctionDefinition = ConstructorParameters<typeof Evaluator>[2] extends Map<string, infer F> | undefined
  ? F
  : never;

/** Truthiness as Actions defines it (false, 0, NaN, "" and null are false). */
function truthy(v: Value): boolean {
  return !(v === false || v === null || v === "" || v === 0 || (typeof v === "number" && isNaN(v)));
}

/**
 * Evaluates one expression (the text inside `${{ }}`, or an `if:`) with GitHub's own evaluator
 * (`@actions/expressions`); the status functions, which the runner answers, are given to it. A context
 * the test did not give, or a function Actions does not have, fails loudly.
 */
export function evaluate(text: string, ctx: ExpressionContext): Value {
  const status: FunctionDefinition[] = [
    ["success", !ctx.failed],
    ["failure", Boolean(ctx.failed)],
    ["always", true],
    ["cancelled", false],
  ].map(([name, result]) => ({
    name: String(name),
    minArgs: 0,
    maxArgs: 0,
    call: () => new data.BooleanData(Boolean(result)),
  }));
  const lexed = new Lexer(text).lex();
  const expr = new Parser(lexed.tokens, Object.keys(ctx.contexts), status).parse();
  const contexts = JSON.parse(JSON.stringify(ctx.contexts), data.reviver) as data.Dictionary;
  const functions = new Map(status.map((f) => [f.name.toLowerCase(), f]));
  const result = new Evaluator(expr, contexts, functions).evaluate();
  return JSON.parse(JSON.stringify(result, data.replacer) ?? "null") as Value;
}

/** Replaces every `${{ … }}` in `text` by its value. */
export function substitute(text: string, ctx: ExpressionContext): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => valueText(evaluate(expr, ctx)));
}

/**
 * An `if:` as Actions reads it: an expression with or without `${{ }}`; without a status function it
 * runs only while nothing failed (`success() && …`).
 */
export function condition(raw: string | boolean | undefined, ctx: ExpressionContext): boolean {
  if (raw === undefined) return !ctx.failed;
  const text = String(raw).trim();
  const whole = /^\$\{\{([\s\S]*)\}\}$/.exec(text);
  const expr = whole ? whole[1] : text;
  const statusFunction = /\b(success|failure|always|cancelled)\s*\(/i.test(expr);
  const result = truthy(evaluate(expr, ctx));
  return statusFunction ? result : !ctx.failed && result;
}

// ---- jobs --------------------------------------------------------------------------------------------

/** One step's run. */
export interface StepResult {
  label: string;
  id?: string;
  /** Not run: its `if:` was false, or an earlier step failed. */
  skipped: boolean;
  /** The shell's exit code (0 for an action's stand-in); null when a signal ended it. */
  code: number | null;
  /** What the step printed, stdout and stderr together, workflow commands left out. */
  out: string;
  outputs: Record<string, string>;
}

/** A workflow command a step printed (`::error::…`). */
export interface Annotation {
  level: "error" | "warning" | "notice";
  message: string;
}

/** One job's run. */
export interface JobResult {
  /** The job's `if:` was false: no step ran. */
  skipped: boolean;
  /** Every step ran or was skipped by its `if:`, and none failed. */
  succeeded: boolean;
  steps: StepResult[];
  annotations: Annotation[];
  /** The values `::add-mask::` registered. */
  masks: string[];
  /** The job's log: every step's output, as printed, with its label; no `::add-mask::` line. */
  log: string;
  /** `steps.<id>.outputs` of the steps that set any. */
  outputs: Record<string, Record<string, string>>;
  /** The step of a label; fails when the job has none such. */
  step(label: string): StepResult;
}

/** What an action stands in for, given the job's workspace and the step's `with:`. */
export type ActionStandIn = (step: {
  workspace: string;
  with: Record<string, unknown>;
}) => void | Promise<void>;

/** Everything a job run needs from the test. */
export interface RunOptions {
  workflow: Workflow;
  /** `github` (event_name, event, repository, token …), `secrets`, `vars`. */
  github: Record<string, Value>;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  /** The machine's environment the shell starts with (PATH, HOME …), below the workflow's `env:`. */
  machineEnv: Record<string, string>;
  /** The job's fresh workspace (`$GITHUB_WORKSPACE`) and its `$RUNNER_TEMP`: empty folders. */
  workspace: string;
  runnerTemp: string;
  /** The actions a `uses:` may name, by `owner/name` (no `@ref`). */
  actions: Record<string, ActionStandIn>;
  /**
   * Called before the step of that label runs (when it runs), with the outputs of the steps before it:
   * e.g. the migrations a deploy step would run.
   */
  before?: Record<string, (outputs: Record<string, Record<string, string>>) => void | Promise<void>>;
  /** Called with the step's shell as soon as it started (e.g. to kill it); the step waits for both. */
  started?: Record<string, (child: ChildProcess) => Promise<void>>;
}

/** Reads `$GITHUB_OUTPUT` / `$GITHUB_ENV`: `key=value` lines and `key<<DELIMITER` blocks. */
export function readCommandFile(file: string): Record<string, string> {
  const values: Record<string, string> = {};
  if (!fs.existsSync(file)) return values;
  const lines = fs.readFileSync(file, "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== block[2]; i++) body.push(lines[i]);
      if (i >= lines.length) throw new Error(`${file}: no closing ${block[2]} for ${block[1]}`);
      values[block[1]] = body.join("\n");
    } else if (line.includes("=")) {
      values[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    } else if (line.trim() !== "") {
      throw new Error(`${file}: a line that is neither key=value nor key<<DELIMITER: ${line}`);
    }
  }
  return values;
}

function shellCommand(shell: string | undefined): string[] {
  // The commands Actions runs for these shells on Linux (workflow syntax: jobs.<id>.steps[*].shell).
  if (shell === undefined) return ["bash", "-e"];
  if (shell === "bash") return ["bash", "--noprofile", "--norc", "-eo", "pipefail"];
  if (shell === "sh") return ["sh", "-e"];
  throw new Error(`the runner knows no shell "${shell}"`);
}

function envOf(raw: Record<string, unknown> | undefined, ctx: ExpressionContext): Record<string, string> {
  return Object.fromEntries(
    Object.entries(raw ?? {}).map(([k, v]) => [k, substitute(typeof v === "string" ? v : String(v), ctx)]),
  );
}

/** Runs one job of the workflow; resolves with what each step did (a failed step does not throw). */
export async function runJob(jobId: string, opts: RunOptions): Promise<JobResult> {
  const job = opts.workflow.jobs[jobId];
  if (!job) throw new Error(`the workflow has no job ${jobId}`);
  const runner: Value = { temp: opts.runnerTemp, os: "Linux", arch: "X64", name: "test-runner" };
  const base: Record<string, Value> = {
    github: { ...opts.github, workspace: opts.workspace },
    secrets: opts.secrets,
    vars: opts.vars,
    runner,
  };
  const workflowEnv = envOf(opts.workflow.env, { contexts: base });
  const jobCtx = (): ExpressionContext => ({ contexts: { ...base, env: workflowEnv } });
  const result: JobResult = {
    skipped: false,
    succeeded: true,
    steps: [],
    annotations: [],
    masks: [],
    log: "",
    outputs: {},
    step(label) {
      const found = this.steps.find((s) => s.label === label);
      if (!found) throw new Error(`job ${jobId} has no step "${label}"`);
      return found;
    },
  };
  if (!condition(job.if, jobCtx())) return { ...result, skipped: true };

  const jobEnv = { ...workflowEnv, ...envOf(job.env, jobCtx()) };
  const defaults = job.defaults?.run ?? {};
  const addedEnv: Record<string, string> = {};
  let failed = false;
  let index = 0;
  for (const step of job.steps) {
    index++;
    const label = stepLabel(step);
    const ctx = (): ExpressionContext => ({
      contexts: {
        ...base,
        env: { ...jobEnv, ...addedEnv },
        steps: Object.fromEntries(Object.entries(result.outputs).map(([id, o]) => [id, { outputs: o }])),
      },
      failed,
    });
    const record: StepResult = { label, id: step.id, skipped: false, code: 0, out: "", outputs: {} };
    result.steps.push(record);
    if (!condition(step.if, ctx())) {
      record.skipped = true;
      continue;
    }
    await opts.before?.[label]?.(result.outputs);
    if (step.uses) {
      const action = opts.actions[step.uses.split("@")[0]];
      if (!action) throw new Error(`job ${jobId}: no stand-in for the action ${step.uses}`);
      await action({ workspace: opts.workspace, with: step.with ?? {} });
      continue;
    }
    if (step.run === undefined) throw new Error(`job ${jobId}: step "${label}" has neither uses nor run`);
    const stepCtx = { ...ctx(), contexts: { ...ctx().contexts } };
    const env = { ...jobEnv, ...addedEnv, ...envOf(step.env, stepCtx) };
    stepCtx.contexts.env = env;
    const script = path.join(opts.runnerTemp, `step-${index}.sh`);
    fs.writeFileSync(script, substitute(step.run, stepCtx));
    const outputFile = path.join(opts.runnerTemp, `output-${index}`);
    const envFile = path.join(opts.runnerTemp, `env-${index}`);
    fs.writeFileSync(outputFile, "");
    fs.writeFileSync(envFile, "");
    const dir = step["working-directory"] ?? defaults["working-directory"];
    const cwd = dir === undefined ? opts.workspace : path.resolve(opts.workspace, substitute(dir, stepCtx));
    const [shell, ...args] = shellCommand(step.shell ?? defaults.shell);
    const child = spawn(shell, [...args, script], {
      cwd,
      env: {
        ...opts.machineEnv,
        ...env,
        CI: "true",
        GITHUB_ACTIONS: "true",
        GITHUB_WORKSPACE: opts.workspace,
        GITHUB_EVENT_NAME: valueText((opts.github.event_name as Value) ?? null),
        GITHUB_REPOSITORY: valueText((opts.github.repository as Value) ?? null),
        GITHUB_OUTPUT: outputFile,
        GITHUB_ENV: envFile,
        RUNNER_TEMP: opts.runnerTemp,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    trackProcess([`${jobId}:`, label.replace(/^-+/, "")], child);
    let out = "";
    child.stdout.on("data", (d) => (out += String(d)));
    child.stderr.on("data", (d) => (out += String(d)));
    const ended = new Promise<number | null>((resolve) => {
      child.once("close", (code) => resolve(code));
      child.once("error", () => resolve(-1));
    });
    const [code] = await Promise.all([ended, opts.started?.[label]?.(child)]);
    record.code = code;
    const lines: string[] = [];
    for (const line of out.split("\n")) {
      const command = /^::(add-mask|error|warning|notice)(?: [^:]*)?::(.*)$/.exec(line);
      if (command?.[1] === "add-mask") {
        result.masks.push(command[2]);
        continue;
      }
      if (command) result.annotations.push({ level: command[1] as Annotation["level"], message: command[2] });
      lines.push(line);
    }
    record.out = lines.join("\n");
    result.log += `--- ${jobId}: ${label} (exit ${code})\n${record.out}\n`;
    if (code !== 0) {
      failed = true;
      result.succeeded = false;
      continue;
    }
    record.outputs = readCommandFile(outputFile);
    if (step.id) result.outputs[step.id] = record.outputs;
    Object.assign(addedEnv, readCommandFile(envFile));
  }
  return result;
}
