/**
 * `npm run bench:stack`: the provider under the real Pulumi engine, against the emulator.
 *
 * 1. `pulumi up` of 20 computes in one project (20 branches). The control plane runs one operation
 *    per project at a time, so the best possible wall time is the sum of the operations' durations;
 *    `up_ratio` = wall time of the whole `pulumi up` ÷ that sum (target ≤ 1.15).
 *    `requests_per_compute` = API requests the emulator served during the up ÷ 20.
 * 2. `pulumi preview` of 100 computes ÷ the same preview of 100 no-op dynamic resources (≤ 1.2).
 * 3. Bytes of the serialized provider stored with each resource (≤ 8 KB).
 *
 * Options (env): BENCH_OP_MS (default 3000), BENCH_COMPUTES (20), BENCH_PREVIEW (100), BENCH_RUNS (3).
 */
import { execFileSync } from "child_process";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../emulator";
import { createNeonClient } from "../provider/api";
import { createTempStack, type TempStack } from "../scripts/lib/pulumi";

const opMs = Number(process.env.BENCH_OP_MS ?? 3000);
const computes = Number(process.env.BENCH_COMPUTES ?? 20);
const previewCount = Number(process.env.BENCH_PREVIEW ?? 100);
const runs = Number(process.env.BENCH_RUNS ?? 3);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

async function main(): Promise<void> {
  console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}`);
  const emulator = await startEmulator({ opMs, seed: 11 });
  const { projectId, branchIds } = emulator.seed;
  const api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  const config = (count: number) => ({
    "bench-computes:projectId": { value: projectId },
    // The non-default branches: the default one already has the seeded primary compute.
    "bench-computes:branchIds": { value: JSON.stringify(branchIds.slice(1)) },
    "bench-computes:count": { value: String(count) },
    "neon:apiUrl": { value: emulator.url },
    "neon:apiKey": { value: emulator.apiKey, secret: true },
  });
  const stacks: TempStack[] = [];
  try {
    // --- 1. up of 20 computes -----------------------------------------------------------------
    const upStack = await createTempStack({
      programDir: path.join(__dirname, "programs/computes"),
      config: config(computes),
    });
    stacks.push(upStack);
    const since = new Date(emulator.clock.now()).toISOString();
    const requestsBefore = emulator.requestCount();
    const [, upMs] = await timed(() => upStack.stack.up());
    const requests = emulator.requestCount() - requestsBefore;
    let opSum = 0;
    let ops = 0;
    for await (const op of api.operations.list(projectId, { limit: 100 })) {
      if (op.created_at < since) break;
      opSum += op.total_duration_ms ?? Date.parse(op.updated_at) - Date.parse(op.created_at);
      ops++;
    }
    const upRatio = upMs / opSum;
    const requestsPerCompute = requests / computes;
    console.log(
      `up: ${computes} computes, ${ops} operations, sum of operation durations ${(opSum / 1000).toFixed(1)} s, ` +
        `pulumi up ${(upMs / 1000).toFixed(1)} s → ratio ${upRatio.toFixed(3)}; ${requests} requests ` +
        `(${requestsPerCompute.toFixed(1)} per compute)`,
    );

    // --- 3. serialized provider per resource ----------------------------------------------------
    const bin = upStack.env.PATH.split(path.delimiter)[0];
    const exported = JSON.parse(
      execFileSync(path.join(bin, "pulumi"), ["stack", "export", "--stack", "dev"], {
        cwd: upStack.workDir,
        env: { ...process.env, ...upStack.env },
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      }),
    );
    const compute = exported.deployment.resources.find((r: { type: string }) =>
      r.type.endsWith("neon:Compute"),
    );
    const providerBytes = Buffer.byteLength(compute.inputs.__provider);
    const resourceBytes = Buffer.byteLength(JSON.stringify(compute));
    console.log(
      `state: serialized provider ${providerBytes} bytes per resource (stored in inputs and outputs); ` +
        `whole resource entry ${resourceBytes} bytes`,
    );
    await upStack.stack.destroy();

    // --- 2. preview of 100 computes vs 100 no-op dynamic resources -------------------------------
    const computesStack = await createTempStack({
      programDir: path.join(__dirname, "programs/computes"),
      config: config(previewCount),
    });
    const noopStack = await createTempStack({
      programDir: path.join(__dirname, "programs/noop"),
      config: {
        "bench-noop:count": { value: String(previewCount) },
        "bench-noop:shape": { value: "compute" },
      },
    });
    const minimalStack = await createTempStack({
      programDir: path.join(__dirname, "programs/noop"),
      config: {
        "bench-noop:count": { value: String(previewCount) },
        "bench-noop:shape": { value: "minimal" },
      },
    });
    stacks.push(computesStack, noopStack, minimalStack);
    const ours: number[] = [];
    const base: number[] = [];
    const minimal: number[] = [];
    for (let i = 0; i < runs; i++) {
      base.push((await timed(() => noopStack.stack.preview()))[1]);
      ours.push((await timed(() => computesStack.stack.preview()))[1]);
      minimal.push((await timed(() => minimalStack.stack.preview()))[1]);
    }
    const previewRatio = median(ours) / median(base);
    const minimalRatio = median(ours) / median(minimal);
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `preview (median of ${runs}): ${previewCount} computes ${s(median(ours))}; ${previewCount} no-op dynamic ` +
        `resources with the same inputs and outputs ${s(median(base))} → ratio ${previewRatio.toFixed(3)}; ` +
        `with one input ${s(median(minimal))} → ratio ${minimalRatio.toFixed(3)}`,
    );

    console.log(
      `up_ratio=${upRatio.toFixed(3)} requests_per_compute=${requestsPerCompute.toFixed(1)} ` +
        `preview_ratio=${previewRatio.toFixed(3)} provider_bytes=${providerBytes}`,
    );
  } finally {
    for (const s of stacks) await s.dispose();
    await emulator.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
