/**
 * The e2e tests' step budgets, on an injected clock: a budget that runs out kills what runs and
 * reports each command with how long it ran; one that does not run out reports nothing; the budget
 * comes from NEON_E2E_STEP_BUDGET_SECONDS. And the labels the CLI tracker gives commands.
 */
import { commandLabel } from "../../../scripts/lib/pulumi";
import { budgetMs, StepBudget, type BudgetDeps } from "../../support/budgets";

function fakeDeps(running: { label: string; startedAt: number }[]) {
  let now = 0;
  let timer: { fn: () => void; at: number } | undefined;
  const killed: number[] = [];
  const deps: BudgetDeps = {
    now: () => now,
    schedule: (fn, ms) => {
      timer = { fn, at: now + ms };
      return () => (timer = undefined);
    },
    running: () => running,
    killAll: () => killed.push(now),
  };
  const advance = (ms: number) => {
    now += ms;
    if (timer && now >= timer.at) {
      const t = timer;
      timer = undefined;
      t.fn();
    }
  };
  return { deps, advance, killed, pending: () => timer !== undefined };
}

describe("StepBudget", () => {
  it("runs out: kills what runs and names each command with how long it has run", () => {
    const f = fakeDeps([
      { label: "pulumi up --stack dev", startedAt: 100_000 },
      { label: "pulumi refresh --stack dev", startedAt: 880_000 },
    ]);
    const budget = new StepBudget(900_000, f.deps);
    budget.start();
    f.advance(899_999);
    expect(f.killed).toEqual([]);
    f.advance(1);
    expect(f.killed).toEqual([900_000]);
    const failure = budget.finish();
    expect(failure).toMatch(/ran out of its budget of 900 s \(NEON_E2E_STEP_BUDGET_SECONDS\)/);
    expect(failure).toMatch(
      /`pulumi up --stack dev` for 800 s, `pulumi refresh --stack dev` for 20 s; killed/,
    );
  });

  it("says so when no command was running", () => {
    const f = fakeDeps([]);
    const budget = new StepBudget(1000, f.deps);
    budget.start();
    f.advance(1000);
    expect(budget.finish()).toMatch(/no CLI command was running/);
  });

  it("a test inside its budget reports nothing, and the next test starts a fresh budget", () => {
    const f = fakeDeps([{ label: "pulumi up", startedAt: 0 }]);
    const budget = new StepBudget(1000, f.deps);
    budget.start();
    f.advance(999);
    expect(budget.finish()).toBeUndefined();
    expect(f.pending()).toBe(false);
    budget.start();
    f.advance(1000);
    expect(budget.finish()).toBeDefined();
    budget.start();
    expect(budget.finish()).toBeUndefined();
    expect(f.killed).toHaveLength(1);
  });
});

describe("budgetMs", () => {
  it("reads NEON_E2E_STEP_BUDGET_SECONDS, else the file's fallback", () => {
    expect(budgetMs({})).toBe(900_000);
    expect(budgetMs({}, 2400)).toBe(2_400_000);
    expect(budgetMs({ NEON_E2E_STEP_BUDGET_SECONDS: "1800" })).toBe(1_800_000);
  });

  it.each(["0", "-1", "soon"])("refuses %p, naming the variable", (value) => {
    expect(() => budgetMs({ NEON_E2E_STEP_BUDGET_SECONDS: value })).toThrow(
      /NEON_E2E_STEP_BUDGET_SECONDS is ".*"; set it to a number of seconds greater than 0/,
    );
  });
});

describe("commandLabel", () => {
  it("keeps the subcommand and the stack, drops the other flags", () => {
    expect(
      commandLabel(["up", "--yes", "--skip-preview", "--stack", "dev", "--exec-kind", "auto.local"]),
    ).toBe("pulumi up --stack dev");
    expect(commandLabel(["stack", "export", "--stack", "dev"])).toBe("pulumi stack export --stack dev");
    expect(commandLabel(["cancel", "--yes"])).toBe("pulumi cancel");
  });
});
