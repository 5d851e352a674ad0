/**
 * Benchmark of the operation waiter on the emulator (`npm run bench:wait`).
 *
 * For operations of about 0.5, 2, 10 and 30 s (±30 %, seeded), it measures
 * this waiter and, in the same run, a reference poller that reads the
 * operation by id every second:
 *
 *   duration_s=<d> median_overhead_ms=<ours> polls=<ours> ref_overhead_ms=<ref> ref_polls=<ref>
 *
 * overhead = when the wait returned − when the operation finished (the
 * emulator's `updated_at` of the finished operation; its clock is real time),
 * median over the measured waits; polls = mean API requests per wait.
 *
 * Then `concurrent_20_requests_ratio=<r>`: API requests per second while 20
 * operations of one project are awaited at once, ÷ the same for one.
 *
 * The emulator runs a project's operations one at a time, so waits run in
 * parallel across lanes: one emulator per lane, our waiter in its main
 * project, the reference poller in its second project. Each lane first waits
 * on WARMUP operations unmeasured ("cold": no duration history yet, reported
 * on a `#` line), then on the measured ones. All classes run concurrently.
 */
import os from "node:os";
import { startEmulator, type EmulatorHandle } from "../emulator";
import { createNeonClient, type Operation } from "../provider/api";

const JITTER = 0.3;
const LANES = 10;
const WARMUP = 3;
const CLASSES: { seconds: number; lanes: number; measuredPerLane: number }[] = [
  { seconds: 0.5, lanes: LANES, measuredPerLane: 8 },
  { seconds: 2, lanes: LANES, measuredPerLane: 6 },
  { seconds: 10, lanes: LANES, measuredPerLane: 3 },
  { seconds: 30, lanes: 15, measuredPerLane: 1 },
];
const REF_INTERVAL_MS = 1_000;

interface Sample {
  overheadMs: number;
  polls: number;
  cold: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const finishedAt = (op: Operation) => Date.parse(op.updated_at);

/** Our waiter: computes created one after another on the lane's branches. */
async function oursLane(emu: EmulatorHandle, count: number): Promise<Sample[]> {
  const api = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
  const p = emu.seed.projectId;
  const out: Sample[] = [];
  for (let i = 0; i < count; i++) {
    const r = await api.endpoints.create(p, { branch_id: emu.seed.branchIds[1 + i], type: "read_write" });
    const before = api.requestCount();
    const [op] = await api.waitForOperations(
      p,
      r.operations.map((o) => o.id),
    );
    const returned = Date.now();
    out.push({ overheadMs: returned - finishedAt(op), polls: api.requestCount() - before, cold: i < WARMUP });
  }
  return out;
}

/** The reference: read the operation by id every second until it is finished. */
async function refLane(emu: EmulatorHandle, count: number): Promise<Sample[]> {
  const api = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
  const p = emu.seed.freeProjectId;
  const out: Sample[] = [];
  let endpointId: string | undefined;
  for (let i = 0; i < count; i++) {
    let ops: Operation[];
    if (!endpointId) {
      const r = await api.endpoints.create(p, {
        // dev-01: the default branch already has the seeded primary compute.
        branch_id: emu.seed.freeProjectBranchIds[1],
        type: "read_write",
      });
      endpointId = r.endpoint.id;
      ops = r.operations;
    } else {
      ops = (
        i % 2 === 1 ? await api.endpoints.suspend(p, endpointId) : await api.endpoints.start(p, endpointId)
      ).operations;
    }
    let polls = 0;
    let op: Operation;
    for (;;) {
      await sleep(REF_INTERVAL_MS);
      polls++;
      op = await api.operations.get(p, ops[0].id);
      if (op.status === "finished") break;
    }
    out.push({ overheadMs: Date.now() - finishedAt(op), polls, cold: i < WARMUP });
  }
  return out;
}

async function runClass(seconds: number, lanes: number, measuredPerLane: number, seedBase: number) {
  const emus = await Promise.all(
    Array.from({ length: lanes }, (_, i) =>
      startEmulator({ port: 0, seed: seedBase + i, opMs: seconds * 1000, opJitter: JITTER }),
    ),
  );
  try {
    const count = WARMUP + measuredPerLane;
    const [ours, ref] = await Promise.all([
      Promise.all(emus.map((e) => oursLane(e, count))),
      Promise.all(emus.map((e) => refLane(e, count))),
    ]);
    return { seconds, ours: ours.flat(), ref: ref.flat() };
  } finally {
    await Promise.all(emus.map((e) => e.stop()));
  }
}

/**
 * Requests per second of one client while it waits: on one operation, and on
 * twenty operations of one project at once (a branch created with twenty
 * computes queues twenty start_compute operations).
 */
async function concurrency(): Promise<{ ratio: number; one: number; twenty: number; detail: string }> {
  const emu = await startEmulator({ port: 0, seed: 9_001, opMs: 1_000, opJitter: JITTER });
  const api = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
  const p = emu.seed.projectId;
  const createBranch = async (name: string, computes: number): Promise<string[]> => {
    const endpoints = Array.from({ length: computes }, (_, i) => ({
      type: i === 0 ? "read_write" : "read_only",
    }));
    // Branch creation is not part of the client; a raw call is enough for the setup.
    const res = await fetch(`${emu.url}/projects/${p}/branches`, {
      method: "POST",
      headers: { Authorization: `Bearer ${emu.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ branch: { name }, endpoints }),
    });
    if (res.status !== 201)
      throw new Error(`Failed to create branch ${name}: HTTP ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { operations: Operation[] };
    return body.operations.filter((o) => o.action === "start_compute").map((o) => o.id);
  };
  const rate = async (ids: string[]) => {
    const before = api.requestCount();
    const t0 = Date.now();
    await Promise.all(ids.map((id) => api.waitForOperations(p, [id])));
    return { requests: api.requestCount() - before, ms: Date.now() - t0 };
  };
  try {
    // Warm up the duration history like the other runs, then alternate.
    for (let i = 0; i < WARMUP; i++) await rate(await createBranch(`warm-${i}`, 1));
    const ones: { requests: number; ms: number }[] = [];
    for (let i = 0; i < 3; i++) ones.push(await rate(await createBranch(`one-${i}`, 1)));
    const many = await rate(await createBranch("twenty", 20));
    const one = ones.reduce((n, r) => n + r.requests, 0) / (ones.reduce((n, r) => n + r.ms, 0) / 1000);
    const twenty = many.requests / (many.ms / 1000);
    return {
      ratio: twenty / one,
      one,
      twenty,
      detail: `one: ${ones.map((r) => `${r.requests} req/${r.ms} ms`).join(", ")}; twenty: ${many.requests} req/${many.ms} ms`,
    };
  } finally {
    await emu.stop();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const r1 = (x: number) => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    `# bench:wait  node ${process.version}  ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"})  lanes=${CLASSES.map((c) => c.lanes).join("/")} warmup=${WARMUP} jitter=±${JITTER * 100}%`,
  );
  const [results, conc] = await Promise.all([
    Promise.all(CLASSES.map((c, i) => runClass(c.seconds, c.lanes, c.measuredPerLane, 1_000 * (i + 1)))),
    concurrency(),
  ]);
  for (const r of results) {
    const ours = r.ours.filter((s) => !s.cold);
    const cold = r.ours.filter((s) => s.cold);
    console.log(
      `duration_s=${r.seconds} median_overhead_ms=${Math.round(median(ours.map((s) => s.overheadMs)))} polls=${r1(mean(ours.map((s) => s.polls)))} ` +
        `ref_overhead_ms=${Math.round(median(r.ref.map((s) => s.overheadMs)))} ref_polls=${r1(mean(r.ref.map((s) => s.polls)))}`,
    );
    console.log(
      `#   waits=${ours.length} ref_waits=${r.ref.length} p90_overhead_ms=${Math.round(
        quantile(
          ours.map((s) => s.overheadMs),
          0.9,
        ),
      )} ` +
        `max_overhead_ms=${Math.max(...ours.map((s) => s.overheadMs))} cold_median_overhead_ms=${Math.round(median(cold.map((s) => s.overheadMs)))} ` +
        `cold_polls=${r1(mean(cold.map((s) => s.polls)))}`,
    );
  }
  console.log(`concurrent_20_requests_ratio=${conc.ratio.toFixed(2)}`);
  console.log(`#   one=${conc.one.toFixed(2)} req/s twenty=${conc.twenty.toFixed(2)} req/s (${conc.detail})`);
  console.log(`# total ${Math.round((Date.now() - started) / 1000)} s`);
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
