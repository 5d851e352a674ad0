/**
 * Step budgets for the end-to-end tests, instead of timeouts that encode how fast an idle machine is.
 *
 * Each test gets a budget (`NEON_E2E_STEP_BUDGET_SECONDS`, default 900 s: many times what a test
 * takes idle — the longest takes about 100 s beside four CPU-bound processes on 2 cores). When it runs
 * out, every CLI command still running is killed (the whole process tree below the test runner), and
 * the test fails naming what was running and for how long — not "Exceeded timeout of 240000 ms".
 * Jest's own timeout is set above the budget, so it only fires if the kill itself hangs.
 */
import { execFileSync } from "child_process";
import { runningCommands, type RunningCommand } from "../../scripts/lib/pulumi";

/** The per-test budget from the environment, in milliseconds. */
export function budgetMs(env: NodeJS.ProcessEnv = process.env, fallbackSeconds = 900): number {
  const raw = env.NEON_E2E_STEP_BUDGET_SECONDS;
  const seconds = raw === undefined || raw === "" ? fallbackSeconds : Number(raw);
  if (!(seconds > 0)) {
    throw new Error(`NEON_E2E_STEP_BUDGET_SECONDS is "${raw}"; set it to a number of seconds greater than 0`);
  }
  return seconds * 1000;
}

/** What one test's budget needs from the world; injected in unit tests. */
export interface BudgetDeps {
  now(): number;
  /** Calls `fn` after `ms`; returns a function that cancels it. */
  schedule(fn: () => void, ms: number): () => void;
  running(): RunningCommand[];
  /** Kills every command the test started. */
  killAll(): void;
}

/** One test's budget: {@link StepBudget.start} before it, {@link StepBudget.finish} after it. */
export class StepBudget {
  private cancel: (() => void) | undefined;
  private expired: string | undefined;

  constructor(
    private readonly ms: number,
    private readonly deps: BudgetDeps,
  ) {}

  start(): void {
    this.expired = undefined;
    this.cancel = this.deps.schedule(() => this.expire(), this.ms);
  }

  /** Stops the clock; returns the failure to report when the budget ran out during the test. */
  finish(): string | undefined {
    this.cancel?.();
    this.cancel = undefined;
    return this.expired;
  }

  private expire(): void {
    const now = this.deps.now();
    const list = this.deps.running();
    const what =
      list.length === 0
        ? "no CLI command was running (the test itself was waiting)"
        : `still running: ${list.map((c) => `\`${c.label}\` for ${Math.round((now - c.startedAt) / 1000)} s`).join(", ")}; killed`;
    this.expired =
      `The test ran out of its budget of ${Math.round(this.ms / 1000)} s (NEON_E2E_STEP_BUDGET_SECONDS): ${what}. ` +
      "Idle, it takes a small fraction of that: look at what was still running.";
    this.deps.killAll();
  }
}

/**
 * Every live process below this one (the CLIs a test started, their language hosts and plugins),
 * leaving out the `ps` that lists them and processes that already exited (zombies).
 */
export function descendants(pid: number = process.pid): number[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid=,stat=,comm="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter(([, , stat, comm]) => !stat.startsWith("Z") && comm !== "ps")
    .map(([p, pp]) => [Number(p), Number(pp)]);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [p, pp] of rows) {
      if (pp === parent) {
        found.push(p);
        queue.push(p);
      }
    }
  }
  return found;
}

/** SIGKILLs the given processes, ignoring those already gone. */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/**
 * Gives every test of the calling file a step budget (see the module comment); call once at the top
 * of an e2e file. `fallbackSeconds` is the file's budget when the environment sets none.
 */
export function useStepBudgets(fallbackSeconds = 900): void {
  const ms = budgetMs(process.env, fallbackSeconds);
  // Above the budget: jest's timeout only catches a kill that did not end the test.
  jest.setTimeout(ms + 120_000);
  const budget = new StepBudget(ms, {
    now: () => Date.now(),
    schedule: (fn, after) => {
      const t = setTimeout(fn, after);
      return () => clearTimeout(t);
    },
    running: runningCommands,
    killAll: () => killAll(descendants()),
  });
  beforeEach(() => budget.start());
  afterEach(() => {
    const failure = budget.finish();
    if (failure) throw new Error(failure);
  });
}
