/**
 * `npm run bench:stack`: the provider under the real Pulumi engine, against the emulator.
 *
 * 1. Lead time: `pulumi up` of N no-op dynamic resources (each pings the emulator once from its
 *    create), then the `up` of N computes; the time from `up` start to the first request the
 *    emulator serves, ours − the no-op's = `lead_ms` (the provider's own share of the lead).
 * 2. `pulumi up` of N computes in one project (N branches). The control plane runs one operation per
 *    project at a time, so the best possible wall time is the sum of the operations' durations;
 *    `up_ratio` = wall time of the whole `pulumi up` ÷ that sum. `idle_gap_ms` = median time the
 *    project had no operation running between two consecutive ones (the emulator's timestamps).
 *    `requests_create` = API requests the emulator served during the up ÷ N.
 * 3. An `up` that resizes all N (`requests_resize`), then `destroy` (`requests_delete`).
 * 4. `pulumi preview` of 100 computes ÷ the same preview of 100 no-op dynamic resources.
 * 5. Bytes of the serialized provider stored with each resource.
 * 6. `cold_overhead_ms`: the first wait of a fresh API client (a fresh provider process) on a 10 s and
 *    a 30 s operation, in a project whose history holds earlier operations of that action.
 *
 * 7. `scale_ratio`: 100 computes over 5 projects (bench/scale.ts); `scale_ideal_ratio`: the same up
 *    with a provider that makes no request (bench/ideal.ts), the engine's own floor in this run.
 *
 * Options (env): BENCH_OP_MS (default 3000), BENCH_COMPUTES (20), BENCH_PREVIEW (100; 0 skips),
 * BENCH_RUNS (3), BENCH_COLD (1; 0 skips), BENCH_SCALE (1; 0 skips).
 */
import { execFileSync } from "child_process";
import * as os from "os";
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../emulator";
import { createNeonClient, type NeonClient } from "../provider/api";
import { createTempStack, type TempStack } from "../scripts/lib/pulumi";
import { coldOverhead } from "./cold";
import { idealScale } from "./ideal";
import { scale } from "./scale";

const opMs = Number(process.env.BENCH_OP_MS ?? 3000);
const computes = Number(process.env.BENCH_COMPUTES ?? 20);
const previewCount = Number(process.env.BENCH_PREVIEW ?? 100);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const cold = process.env.BENCH_COLD !== "0";
const scaleRun = process.env.BENCH_SCALE !== "0";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

/** Runs `fn`, noting how long after its start the emulator served its next request (ms). */
async function withLead<T>(emulator: EmulatorHandle, fn: () => Promise<T>): Promise<[T, number, number]> {
  const before = emulator.requestCount();
  const t0 = performance.now();
  let lead = Number.NaN;
  const timer = setInterval(() => {
    if (Number.isNaN(lead) && emulator.requestCount() !== before) lead = performance.now() - t0;
  }, 1);
  try {
    const value = await fn();
    return [value, lead, performance.now() - t0];
  } finally {
    clearInterval(timer);
  }
}

interface OpStats {
  ops: number;
  sumMs: number;
  gaps: number[];
}

/** The project's operations created since `since`: count, sum of durations, idle gaps between them. */
async function opStats(api: NeonClient, projectId: string, since: string): Promise<OpStats> {
  const spans: { start: number; end: number }[] = [];
  for await (const op of api.operations.list(projectId, { limit: 100 })) {
    if (op.created_at < since) break;
    const end = Date.parse(op.updated_at);
    spans.push({ start: end - (op.total_duration_ms ?? 0), end });
  }
  spans.sort((a, b) => a.start - b.start);
  const gaps: number[] = [];
  for (let i = 1; i < spans.length; i++) gaps.push(Math.max(0, spans[i].start - spans[i - 1].end));
  return { ops: spans.length, sumMs: spans.reduce((n, s) => n + s.end - s.start, 0), gaps };
}

/** Requests per route between two `requestsByRoute()` readings, most first, as one line. */
function routeDelta(before: Record<string, number>, after: Record<string, number>): string {
  return Object.entries(after)
    .map(([k, n]) => [k, n - (before[k] ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ×${n}`)
    .join(", ");
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

async function main(): Promise<void> {
  console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}`);
  console.log(
    `load average before: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  const emulator = await startEmulator({ opMs, seed: 11 });
  const { projectId, branchIds } = emulator.seed;
  const api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  const config = (count: number, cu = 0.25) => ({
    "bench-computes:projectId": { value: projectId },
    // The non-default branches: the default one already has the seeded primary compute.
    "bench-computes:branchIds": { value: JSON.stringify(branchIds.slice(1)) },
    "bench-computes:count": { value: String(count) },
    "bench-computes:cu": { value: String(cu) },
    "neon:apiUrl": { value: emulator.url },
    "neon:apiKey": { value: emulator.apiKey, secret: true },
  });
  const keys: string[] = [];
  const stacks: TempStack[] = [];
  try {
    // --- 1. the lead of a no-op program with as many resources ---------------------------------
    const noopUp = await createTempStack({
      programDir: path.join(__dirname, "programs/noop"),
      config: {
        "bench-noop:count": { value: String(computes) },
        "bench-noop:shape": { value: "compute" },
        "bench-noop:pingUrl": { value: `${emulator.url}/bench-ping` },
      },
    });
    stacks.push(noopUp);
    // Twice: the first run of the CLI on a fresh machine state also warms caches; the faster one counts.
    const noopLeads: number[] = [];
    let noopUpMs = 0;
    for (let i = 0; i < 2; i++) {
      const [, l, ms] = await withLead(emulator, () => noopUp.stack.up());
      noopLeads.push(l);
      noopUpMs = ms;
      await noopUp.stack.destroy();
    }
    const noopLead = Math.min(...noopLeads);

    // --- 2. up of N computes -------------------------------------------------------------------
    const upStack = await createTempStack({
      programDir: path.join(__dirname, "programs/computes"),
      config: config(computes),
    });
    stacks.push(upStack);
    let since = new Date(emulator.clock.now()).toISOString();
    let requestsBefore = emulator.requestCount();
    let routesBefore = emulator.requestsByRoute();
    const [, lead, upMs] = await withLead(emulator, () => upStack.stack.up());
    const createRequests = emulator.requestCount() - requestsBefore;
    console.log(`  create requests: ${routeDelta(routesBefore, emulator.requestsByRoute())}`);
    const created = await opStats(api, projectId, since);
    const upRatio = upMs / created.sumMs;
    const leadMs = lead - noopLead;
    console.log(
      `up: ${computes} computes, ${created.ops} operations, sum of operation durations ` +
        `${(created.sumMs / 1000).toFixed(1)} s, pulumi up ${(upMs / 1000).toFixed(1)} s → ratio ` +
        `${upRatio.toFixed(3)}; ${createRequests} requests (${(createRequests / computes).toFixed(2)} per compute); ` +
        `idle gaps median ${fmt(median(created.gaps))} ms, max ${fmt(Math.max(...created.gaps))} ms`,
    );
    console.log(
      `lead: first request ${fmt(lead)} ms after \`pulumi up\` started; no-op program with ${computes} ` +
        `resources ${fmt(noopLead)} ms (its up ${(noopUpMs / 1000).toFixed(1)} s) → provider's own ${fmt(leadMs)} ms`,
    );
    keys.push(
      `up_ratio=${upRatio.toFixed(3)}`,
      `idle_gap_ms=${fmt(median(created.gaps))}`,
      `requests_create=${(createRequests / computes).toFixed(2)}`,
      `lead_ms=${fmt(leadMs)}`,
    );

    // --- 5. serialized provider per resource ----------------------------------------------------
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
    keys.push(`provider_bytes=${providerBytes}`);

    // --- 3. resize all, then destroy ------------------------------------------------------------
    await upStack.stack.setConfig("bench-computes:cu", { value: "0.5" });
    since = new Date(emulator.clock.now()).toISOString();
    requestsBefore = emulator.requestCount();
    routesBefore = emulator.requestsByRoute();
    const [, resizeMs] = await timed(() => upStack.stack.up());
    const resizeRequests = emulator.requestCount() - requestsBefore;
    console.log(`  resize requests: ${routeDelta(routesBefore, emulator.requestsByRoute())}`);
    const resized = await opStats(api, projectId, since);
    requestsBefore = emulator.requestCount();
    routesBefore = emulator.requestsByRoute();
    since = new Date(emulator.clock.now()).toISOString();
    const [, destroyMs] = await timed(() => upStack.stack.destroy());
    const deleteRequests = emulator.requestCount() - requestsBefore;
    console.log(`  destroy requests: ${routeDelta(routesBefore, emulator.requestsByRoute())}`);
    const deleted = await opStats(api, projectId, since);
    console.log(
      `resize: ${resized.ops} operations (${(resized.sumMs / 1000).toFixed(1)} s), up ${(resizeMs / 1000).toFixed(1)} s, ` +
        `${resizeRequests} requests, idle gaps median ${fmt(median(resized.gaps))} ms; destroy: ${deleted.ops} ` +
        `operations (${(deleted.sumMs / 1000).toFixed(1)} s), ${(destroyMs / 1000).toFixed(1)} s, ${deleteRequests} ` +
        `requests, idle gaps median ${fmt(median(deleted.gaps))} ms`,
    );
    keys.push(
      `requests_resize=${(resizeRequests / computes).toFixed(2)}`,
      `requests_delete=${(deleteRequests / computes).toFixed(2)}`,
    );

    // --- 4. preview of 100 computes vs 100 no-op dynamic resources -------------------------------
    if (previewCount > 0) {
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
      keys.push(`preview_ratio=${previewRatio.toFixed(3)}`);
    }

    // --- 6. the first wait of a fresh process, with history ---------------------------------------
    if (cold) {
      const c = await coldOverhead();
      console.log(c.line);
      keys.push(`cold_overhead_ms=${fmt(c.worstMedianMs)}`);
    }
    if (scaleRun) {
      keys.push(...(await scale(opMs)));
      // The same up with a provider that makes no request: what the engine and CLI alone cost.
      const floor = await idealScale(opMs, { order: "project", admission: true });
      console.log(`scale, ideal provider (no requests, same admission): ratio ${floor.toFixed(3)}`);
      keys.push(`scale_ideal_ratio=${floor.toFixed(3)}`);
    }
    console.log(keys.join(" "));
  } finally {
    for (const s of stacks) await s.dispose();
    await emulator.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
