/**
 * The step budgets under the real CLI: a `pulumi up` whose program never finishes is killed when
 * its test's budget runs out — the CLI, its language host and everything below them — and the
 * failure names the command and how long it ran. (Budgets of the other e2e files are minutes; this
 * one is a few seconds, on a program that would otherwise run forever.)
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { createTempStack, runningCommands, type TempStack } from "../../scripts/lib/pulumi";
import { descendants, killAll, StepBudget, useStepBudgets } from "../support/budgets";

useStepBudgets();

let temp: TempStack;
let programDir: string;

beforeAll(async () => {
  programDir = fs.mkdtempSync(path.join(os.tmpdir(), "neon-hanging-program-"));
  fs.writeFileSync(
    path.join(programDir, "Pulumi.yaml"),
    "name: hanging\nruntime: nodejs\ndescription: a program that never finishes\n",
  );
  fs.writeFileSync(
    path.join(programDir, "index.js"),
    "module.exports = new Promise(() => setInterval(() => {}, 1000));\n",
  );
  fs.writeFileSync(path.join(programDir, "package.json"), '{ "name": "hanging", "main": "index.js" }\n');
  temp = await createTempStack({ programDir });
});

afterAll(async () => {
  await temp?.dispose();
  fs.rmSync(programDir, { recursive: true, force: true });
});

test("a budget that runs out kills the running CLI and names it", async () => {
  const budget = new StepBudget(3000, {
    now: () => Date.now(),
    schedule: (fn, ms) => {
      const t = setTimeout(fn, ms);
      return () => clearTimeout(t);
    },
    running: runningCommands,
    killAll: () => killAll(descendants()),
  });
  budget.start();
  const outcome = await temp.stack.up().then(
    () => "finished",
    (err: unknown) => String(err),
  );
  const failure = budget.finish();
  expect(outcome).not.toBe("finished");
  expect(failure).toMatch(
    /ran out of its budget of 3 s .*still running: `pulumi up --stack dev` for \d+ s; killed/,
  );
  // Nothing of that run is left: no CLI process below this one, nothing recorded as running.
  expect(runningCommands()).toEqual([]);
  expect(descendants().length).toBe(0);
  // The killed run left its lock: the stack is usable again after `pulumi cancel`.
  await temp.stack.cancel();
});
