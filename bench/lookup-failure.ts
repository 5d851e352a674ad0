/**
 * `npm run bench:lookup-failure`: how long a `pulumi up` takes to fail on a lookup the service answers
 * 404, beside the same `up` succeeding (issue 53; before it, on Node.js 20, 75 s against 9 s at load 7).
 *
 * The program has the shape of examples/connect — a branch with its compute, a role, a database it owns,
 * their connection string, and the schema diff read after it — but the connection string's
 * `databaseName` comes from config: the database's name, `app` (the `up` succeeds, changing nothing), or
 * `ap` (the typo: the `up` fails). Through both faces: TypeScript (bench/programs/lookup-failure: at the
 * preview the connection string is unknown, with a warning, and the update fails) and YAML through the
 * plugin (bench/programs/lookup-failure-yaml: an invoke cannot answer an unknown, so the preview fails).
 * Each face has its own stack, made by a first `up` that is not counted; then the good and the mistyped
 * `up` alternate on it, BENCH_RUNS times each (default 5), so that both meet the same load; medians.
 *
 * `pulumi up --yes` is the CLI as a user or a CI job runs it (its preview, then the update). Besides the
 * times it counts, in what each failed `up` printed, the error lines with the service's message (expect
 * 2: the CLI shows a diagnostic in its progress lines and again in its diagnostics section) and the
 * `PromiseRejectionHandledWarning`s (expect 0).
 *
 * The same stack then previews a schema diff of a database neither the branch nor its parent has
 * (`schemaDatabase: nodb`; both faces fail at the preview) beside the same preview succeeding: the case
 * where, before issue 53, a failed lookup was followed by `PromiseRejectionHandledWarning` lines.
 *
 * Keys: `<face>_ok_ms`, `<face>_typo_ms`, `<face>_typo_ratio` (typo ÷ ok), `<face>_typo_error_lines`,
 * `<face>_typo_handled_late`; `<face>_preview_ok_ms`, `<face>_schema404_ms`, `<face>_schema404_ratio`,
 * `<face>_schema404_error_lines`, `<face>_schema404_handled_late`. Options (env): BENCH_RUNS (5), BENCH_FACES (`ts,yaml`), BENCH_SHOW (1: print what
 * each failed `up` printed).
 */
import { execFile } from "child_process";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../emulator";
import { createTempStack, ensurePulumi, repoRoot, type TempStack } from "../scripts/lib/pulumi";

const runs = Number(process.env.BENCH_RUNS ?? 5);
const faces = (process.env.BENCH_FACES ?? "ts,yaml").split(",").map((f) => f.trim());

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s1 = (ms: number) => (ms / 1000).toFixed(1);
const loadavg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

/** `pulumi <command>` of the stack: its wall time, exit code and everything it printed. */
function pulumi(temp: TempStack, command: string[]): Promise<{ ms: number; code: number; out: string }> {
  const args = [...command, "--non-interactive", "--color", "never", "--stack", temp.stack.name];
  const t0 = performance.now();
  return new Promise((resolve) => {
    execFile(
      path.join(ensurePulumi(), "pulumi"),
      args,
      { cwd: temp.workDir, env: { ...process.env, ...temp.env }, encoding: "utf8", maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
        resolve({ ms: performance.now() - t0, code, out: `${stdout}${stderr}` });
      },
    );
  });
}

async function main(): Promise<void> {
  console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}`);
  console.log(`load average at start: ${loadavg()}`);
  const emulator = await startEmulator({ opMs: 50, seed: 53 });
  const { projectId } = emulator.seed;
  const [database, typo] = ["app", "ap"];
  const PATH = [path.join(repoRoot, "bin"), ensurePulumi(), process.env.PATH].join(path.delimiter);
  const programs: Record<
    string,
    { dir: string; config: Record<string, { value: string; secret?: boolean }> }
  > = {
    ts: {
      dir: path.join(__dirname, "programs/lookup-failure"),
      config: {
        "neon:apiUrl": { value: emulator.url },
        "neon:apiKey": { value: emulator.apiKey, secret: true },
      },
    },
    yaml: {
      dir: path.join(__dirname, "programs/lookup-failure-yaml"),
      config: {
        "neoncompute:apiUrl": { value: emulator.url },
        "neoncompute:apiKey": { value: emulator.apiKey, secret: true },
      },
    },
  };
  const keys: string[] = [];
  try {
    for (const face of faces) {
      const program = programs[face];
      if (!program) throw new Error(`BENCH_FACES: "${face}" is not a face; the faces are ts and yaml`);
      const temp = await createTempStack({
        programDir: program.dir,
        config: {
          ...program.config,
          projectId: { value: projectId },
          databaseName: { value: database },
        },
        env: { PATH, NEON_API_KEY: "" },
      });
      try {
        const made = await pulumi(temp, ["up", "--yes"]);
        if (made.code !== 0)
          throw new Error(`${face}: the first up failed (exit ${made.code}):\n${made.out}`);
        // Each case: the command, the config it runs with, and the error a failed run prints.
        const cases = [
          { key: "ok", command: ["up", "--yes"], config: { databaseName: database, schemaDatabase: "" } },
          { key: "typo", command: ["up", "--yes"], config: { databaseName: typo, schemaDatabase: "" } },
          { key: "preview_ok", command: ["preview"], config: { databaseName: database, schemaDatabase: "" } },
          {
            key: "schema404",
            command: ["preview"],
            config: { databaseName: database, schemaDatabase: "nodb" },
          },
        ];
        const failing: Record<string, RegExp> = {
          typo: new RegExp(`error: .*database "${typo}" not found`, "g"),
          schema404: /error: .*the branch has no database "nodb"/g,
        };
        const current: Record<string, string> = { databaseName: database, schemaDatabase: "" };
        const times: Record<string, number[]> = {};
        const errorLines: Record<string, number> = {};
        const handledLate: Record<string, number> = {};
        for (let r = 0; r < runs; r++) {
          for (const c of cases) {
            for (const [k, value] of Object.entries(c.config)) {
              if (current[k] === value) continue;
              // Unset: the program's default (the role's database).
              if (value === "") await temp.stack.removeConfig(k);
              else await temp.stack.setConfig(k, { value });
              current[k] = value;
            }
            const run = await pulumi(temp, c.command);
            const fails = c.key in failing;
            if ((run.code !== 0) !== fails) {
              throw new Error(
                `${face}: ${c.key} (pulumi ${c.command.join(" ")}) ${fails ? "passed" : "failed"} (exit ${run.code}):\n${run.out}`,
              );
            }
            (times[c.key] ??= []).push(run.ms);
            if (fails) {
              if (process.env.BENCH_SHOW) console.log(run.out);
              errorLines[c.key] = Math.max(
                errorLines[c.key] ?? 0,
                (run.out.match(failing[c.key]) ?? []).length,
              );
              handledLate[c.key] =
                (handledLate[c.key] ?? 0) + (run.out.match(/PromiseRejectionHandledWarning/g) ?? []).length;
            }
          }
        }
        const ms = (key: string) => median(times[key]);
        const each = (key: string) => `${s1(ms(key))} s (runs: ${times[key].map(s1).join(", ")})`;
        console.log(
          `${face}: up ok ${each("ok")}; up with the typo, failed, ${each("typo")}; preview ok ` +
            `${each("preview_ok")}; preview of a schema diff of a database neither side has, failed, ` +
            `${each("schema404")}; load average ${loadavg()}`,
        );
        keys.push(
          `${face}_ok_ms=${ms("ok").toFixed(0)}`,
          `${face}_typo_ms=${ms("typo").toFixed(0)}`,
          `${face}_typo_ratio=${(ms("typo") / ms("ok")).toFixed(3)}`,
          `${face}_typo_error_lines=${errorLines.typo}`,
          `${face}_typo_handled_late=${handledLate.typo}`,
          `${face}_preview_ok_ms=${ms("preview_ok").toFixed(0)}`,
          `${face}_schema404_ms=${ms("schema404").toFixed(0)}`,
          `${face}_schema404_ratio=${(ms("schema404") / ms("preview_ok")).toFixed(3)}`,
          `${face}_schema404_error_lines=${errorLines.schema404}`,
          `${face}_schema404_handled_late=${handledLate.schema404}`,
        );
      } finally {
        await temp.dispose();
      }
    }
  } finally {
    await emulator.stop();
  }
  console.log(keys.join(" "));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
