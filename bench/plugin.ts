/**
 * `npm run bench:plugin`: the provider plugin against the dynamic provider.
 *
 * 1. Plugin start-up: from spawning `bin/pulumi-resource-neoncompute` to the port it prints (the
 *    moment the engine can talk to it), median of BENCH_RUNS.
 * 2. `pulumi preview` of BENCH_PREVIEW new computes: a Pulumi YAML program through the plugin, and a
 *    TypeScript program with the same computes through the plugin classes and through the dynamic
 *    `Compute`, each on a fresh stack against the emulator; median of BENCH_RUNS wall times.
 *
 * Options (env): BENCH_PREVIEW (default 100), BENCH_RUNS (3).
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../emulator";
import { createTempStack, ensurePulumi, repoRoot } from "../scripts/lib/pulumi";

const count = Number(process.env.BENCH_PREVIEW ?? 100);
const runs = Number(process.env.BENCH_RUNS ?? 3);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function startup(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(path.join(repoRoot, "bin/pulumi-resource-neoncompute"), [], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout.once("data", () => {
      const ms = performance.now() - t0;
      child.kill();
      resolve(ms);
    });
    child.once("error", reject);
  });
}

async function main(): Promise<void> {
  console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}`);
  const starts: number[] = [];
  for (let i = 0; i < Math.max(runs, 5); i++) starts.push(await startup());
  console.log(
    `plugin_startup_ms=${median(starts).toFixed(0)} (runs: ${starts.map((s) => s.toFixed(0)).join(", ")})`,
  );

  const emulator = await startEmulator({ opMs: 50, seed: 13 });
  const { projectId, branchIds } = emulator.seed;
  const PATH = [path.join(repoRoot, "bin"), ensurePulumi(), process.env.PATH].join(path.delimiter);
  const yamlDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-plugin-yaml-"));
  const resources = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `c${i}`,
      {
        type: "neoncompute:index:Compute",
        properties: { projectId, branchId: branchIds[1], type: "read_only", cu: 0.25 },
      },
    ]),
  );
  fs.writeFileSync(
    path.join(yamlDir, "Pulumi.yaml"),
    JSON.stringify({ name: "bench-plugin-yaml", runtime: "yaml", resources }, null, 2),
  );
  const cases: [string, string, Record<string, string>][] = [
    ["yaml_plugin", yamlDir, {}],
    ["ts_plugin", path.join(__dirname, "programs/dynamic-preview"), { face: "plugin" }],
    ["ts_dynamic", path.join(__dirname, "programs/dynamic-preview"), { face: "dynamic" }],
  ];
  const results: Record<string, number> = {};
  for (const [name, dir, extra] of cases) {
    const times: number[] = [];
    for (let r = 0; r < runs; r++) {
      const temp = await createTempStack({
        programDir: dir,
        config: {
          "neon:apiUrl": { value: emulator.url },
          "neon:apiKey": { value: emulator.apiKey, secret: true },
          "neoncompute:apiUrl": { value: emulator.url },
          "neoncompute:apiKey": { value: emulator.apiKey, secret: true },
          projectId: { value: projectId },
          branchId: { value: branchIds[1] },
          count: { value: String(count) },
          ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, { value: v }])),
        },
        env: { PATH },
      });
      try {
        const t0 = performance.now();
        const p = await temp.stack.preview();
        times.push(performance.now() - t0);
        if ((p.changeSummary.create ?? 0) !== count + 1)
          throw new Error(`${name}: preview planned ${JSON.stringify(p.changeSummary)}`);
      } finally {
        await temp.dispose();
      }
    }
    results[name] = median(times);
    console.log(
      `preview_${count}_${name}_ms=${results[name].toFixed(0)} (runs: ${times.map((t) => t.toFixed(0)).join(", ")})`,
    );
  }
  console.log(`ratio ts_plugin/ts_dynamic=${(results.ts_plugin / results.ts_dynamic).toFixed(3)}`);
  fs.rmSync(yamlDir, { recursive: true, force: true });
  await emulator.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
