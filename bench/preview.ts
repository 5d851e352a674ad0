/**
 * `npm run bench:preview`: pull-request environments (examples/preview-environment, issue 19) against
 * ONE project of the emulator, with the service's rate limits on (700 requests per minute, 40 per
 * second per route) and operations long enough for the project's lock (one operation at a time, 423
 * to any other change) to matter. Every `up` and `destroy` is the real Pulumi CLI, one process per
 * environment, each its own stack `pr-<n>` on its own file backend: nothing coordinates them but the
 * service.
 *
 * 1. One environment alone (stack `pr-0`): its `pulumi up` wall time ÷ the sum of its operations'
 *    durations (`env_up_ratio`), the API requests of that up, polls included (`env_requests`), and of
 *    its destroy (`env_destroy_requests`).
 * 2. The engine's own share: the same shape with a provider that sends no API request and holds a
 *    first-come-first-served queue for as many operations of the same length
 *    (bench/programs/preview-ideal, the "ideal provider" of bench/ideal.ts): one environment
 *    (`env_ideal_ratio`) and N at once (`parallel_ideal_ratio`). `engine_share` = the ideal run's time
 *    above its floor ÷ ours above ours (1 = all of our overhead is the engine's and the CLI's).
 * 3. N environments (`pr-1` … `pr-N`) whose `pulumi up` start together: how many succeed on the first
 *    try (`parallel_ok`), their wall time ÷ the project's sum of operation durations (the lock makes
 *    that the floor: `parallel_ratio`), their API requests ÷ N (`parallel_requests_per_env`), the most
 *    requests answered in any 60 s (`busiest_minute`), the 423 and 429 answers (`http_423`, `http_429`),
 *    then `duplicates` and `orphans` (branches, roles and databases on the emulator vs the stacks'
 *    states). Then the N destroys together: `parallel_destroy_ok`, `parallel_destroy_ratio`, and
 *    what they left (`duplicates_after_destroy`, `orphans_after_destroy`: expect 0).
 * * Options (env): BENCH_OP_MS (default 3000), BENCH_ENVS (10), BENCH_IDEAL (1; 0 skips 2), BENCH_TRACE
 * (a file: every answer of the emulator, as `ms status method path environment`, written at the end).
 */
import * as fs from "fs";
import * as http from "http";
import * as os from "os";
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../emulator";
import { createNeonClient, type NeonClient } from "../provider/api";
import { createTempStack, repoRoot, type TempStack } from "../scripts/lib/pulumi";

const opMs = Number(process.env.BENCH_OP_MS ?? 3000);
const envCount = Number(process.env.BENCH_ENVS ?? 10);
const idealRun = process.env.BENCH_IDEAL !== "0";

const PROGRAM = "neon-preview-environment";
const IDEAL = "bench-preview-ideal";

const s1 = (ms: number) => (ms / 1000).toFixed(1);
const r3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "n/a");
/** 1 … n. */
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const loadavg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

// --- the emulator's answers by status -------------------------------------------------------------

/** `<status> <METHOD> <path with ids as :id>` → answers so far (the emulator counts requests, not statuses). */
const answers = new Map<string, number>();
const COLLECTIONS = new Set([
  "projects",
  "branches",
  "endpoints",
  "operations",
  "roles",
  "databases",
  "organizations",
  "api_keys",
]);

function routeShape(url: string): string {
  const parts = url.split("?")[0].split("/");
  return parts.map((p, i) => (i > 0 && COLLECTIONS.has(parts[i - 1]) ? ":id" : p)).join("/");
}

/** Per API key (the benchmark gives each environment its own): first answer, answers, 423s, 429s. */
interface KeyTally {
  first: number;
  n: number;
  locked: number;
  limited: number;
}
const byKey = new Map<string, KeyTally>();
/** When each API answer was sent (ms), for the busiest minute. */
const answerTimes: number[] = [];
/** With `BENCH_TRACE=<file>`: every answer as `ms status method route key`, written at the end. */
const trace: string[] = [];

/**
 * Tallies every answer of the emulator (it runs in this process) by status and route shape, and by
 * API key, by wrapping `ServerResponse.writeHead`, which Fastify calls once per answer.
 */
function countAnswers(): void {
  const proto = http.ServerResponse.prototype as unknown as {
    writeHead: (this: http.ServerResponse, ...args: unknown[]) => unknown;
  };
  const original = proto.writeHead;
  proto.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    const url = this.req?.url ?? "";
    if (url.startsWith("/api/v2/")) {
      const now = Date.now();
      const status = typeof args[0] === "number" ? args[0] : this.statusCode;
      const key = `${status} ${this.req.method} ${routeShape(url.slice("/api/v2".length))}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
      answerTimes.push(now);
      const token = String(this.req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
      if (process.env.BENCH_TRACE) trace.push([now, status, this.req.method, url.slice(7), token].join(" "));
      const t = byKey.get(token) ?? { first: now, n: 0, locked: 0, limited: 0 };
      t.n++;
      if (status === 423) t.locked++;
      if (status === 429) t.limited++;
      byKey.set(token, t);
    }
    return original.apply(this, args);
  };
}

/** The most answers in any 60 s between `from` and `to` (ms). */
function busiestMinute(from: number, to: number): number {
  const ts = answerTimes.filter((t) => t >= from && t <= to);
  let best = 0;
  for (let i = 0, j = 0; i < ts.length; i++) {
    while (ts[i] - ts[j] >= 60_000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/** Answers since `before` (a copy of {@link answers}) with this status, in all and by route. */
function answered(before: Map<string, number>, status: number): { n: number; routes: string } {
  const rows: [string, number][] = [];
  for (const [k, v] of answers) {
    if (!k.startsWith(`${status} `)) continue;
    const d = v - (before.get(k) ?? 0);
    if (d > 0) rows.push([k.slice(4), d]);
  }
  rows.sort((a, b) => b[1] - a[1]);
  return { n: rows.reduce((s, [, d]) => s + d, 0), routes: rows.map(([k, d]) => `${k} ×${d}`).join(", ") };
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

// --- operations -------------------------------------------------------------------------------------

interface Span {
  start: number;
  end: number;
  action: string;
  branchId?: string;
}

/** The project's operations created at or after `since` (emulator ms), by start time. */
async function spansSince(api: NeonClient, projectId: string, since: number): Promise<Span[]> {
  const out: Span[] = [];
  for await (const op of api.operations.list(projectId, { limit: 100 })) {
    if (Date.parse(op.created_at) < since) break;
    const end = Date.parse(op.updated_at);
    out.push({ start: end - (op.total_duration_ms ?? 0), end, action: op.action, branchId: op.branch_id });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Wall time = lead (to the first operation) + operations + idle gaps between them + tail. */
function timeline(spans: { start: number; end: number }[], t0: number, t1: number) {
  const sum = spans.reduce((n, s) => n + s.end - s.start, 0);
  const gaps = spans.slice(1).map((s, i) => Math.max(0, s.start - spans[i].end));
  return {
    sum,
    lead: spans.length ? spans[0].start - t0 : NaN,
    gaps: gaps.reduce((n, g) => n + g, 0),
    largestGap: gaps.length ? Math.max(...gaps) : 0,
    each: gaps,
    tail: spans.length ? t1 - spans[spans.length - 1].end : NaN,
  };
}

const describeTimeline = (t: ReturnType<typeof timeline>) =>
  `lead to the first operation ${s1(t.lead)} s, operations ${s1(t.sum)} s, idle between them ${s1(t.gaps)} s ` +
  `(largest ${s1(t.largestGap)} s), after the last ${s1(t.tail)} s`;

// --- what the emulator holds vs what the stacks hold ----------------------------------------------------

interface Held {
  branches: Map<string, string>; // id → name
  roles: Set<string>; // branchId/name
  databases: Set<string>;
}

/** The branches the environments made (not the seeded ones), with their own roles and databases. */
async function onEmulator(api: NeonClient, emu: EmulatorHandle, inherited: Held): Promise<Held> {
  const { projectId, branchIds } = emu.seed;
  const seeded = new Set(branchIds);
  const held: Held = { branches: new Map(), roles: new Set(), databases: new Set() };
  for (const b of await api.branches.list(projectId)) {
    if (seeded.has(b.id)) continue;
    held.branches.set(b.id, b.name);
    for (const r of await api.roles.list(projectId, b.id))
      if (!inherited.roles.has(r.name)) held.roles.add(`${b.id}/${r.name}`);
    for (const d of await api.databases.list(projectId, b.id))
      if (!inherited.databases.has(d.name)) held.databases.add(`${b.id}/${d.name}`);
  }
  return held;
}

/** Per stack, the branches, roles and databases its state holds. */
async function inStates(stacks: TempStack[]): Promise<{ stack: string; held: Held }[]> {
  return Promise.all(
    stacks.map(async (t) => {
      const held: Held = { branches: new Map(), roles: new Set(), databases: new Set() };
      const exported = await t.stack.exportStack();
      const resources = (exported.deployment?.resources ?? []) as {
        type: string;
        id?: string;
        outputs?: Record<string, unknown>;
      }[];
      for (const r of resources) {
        const o = r.outputs ?? {};
        if (r.type.endsWith(":Branch") && r.id) held.branches.set(r.id, String(o.name));
        if (r.type.endsWith(":Role")) held.roles.add(`${o.branchId}/${o.name}`);
        if (r.type.endsWith(":Database")) held.databases.add(`${o.branchId}/${o.name}`);
      }
      return { stack: t.stack.name, held };
    }),
  );
}

/**
 * Duplicates: an object in two states, or a second branch of one environment (branch names are
 * `<stack>-<hash>`). Orphans: an object on the emulator that no state holds. Missing: held by a state
 * but not on the emulator.
 */
function compare(emulator: Held, states: { stack: string; held: Held }[]) {
  let duplicates = 0;
  let orphans = 0;
  let missing = 0;
  const notes: string[] = [];
  for (const kind of ["branches", "roles", "databases"] as const) {
    const owners = new Map<string, number>();
    for (const { held } of states) {
      const ids = kind === "branches" ? [...held.branches.keys()] : [...held[kind]];
      for (const id of ids) owners.set(id, (owners.get(id) ?? 0) + 1);
    }
    const onEmu = kind === "branches" ? [...emulator.branches.keys()] : [...emulator[kind]];
    for (const [id, n] of owners) {
      if (n > 1) {
        duplicates += n - 1;
        notes.push(`${kind} ${id} in ${n} states`);
      }
      if (!onEmu.includes(id)) {
        missing++;
        notes.push(`${kind} ${id} in a state, not on the emulator`);
      }
    }
    for (const id of onEmu) {
      if (!owners.has(id)) {
        orphans++;
        notes.push(`${kind} ${id} on the emulator, in no state`);
      }
    }
  }
  for (const { stack } of states) {
    const mine = [...emulator.branches.values()].filter((n) => n.startsWith(`${stack}-`));
    if (mine.length > 1) {
      duplicates += mine.length - 1;
      notes.push(`${stack}: ${mine.length} branches (${mine.join(", ")})`);
    }
  }
  const count = (h: Held) =>
    `${h.branches.size} branches, ${h.roles.size} roles, ${h.databases.size} databases`;
  const held: Held = { branches: new Map(), roles: new Set(), databases: new Set() };
  for (const { held: h } of states) {
    for (const [id, name] of h.branches) held.branches.set(id, name);
    for (const r of h.roles) held.roles.add(r);
    for (const d of h.databases) held.databases.add(d);
  }
  const counts = `emulator ${count(emulator)}; states ${count(held)}`;
  return { duplicates, orphans, missing, notes, counts };
}

// --- the ideal provider's queue -------------------------------------------------------------------------

/**
 * The project's lock as a perfect provider would meet it: one queue, first come first served, each
 * request held for `ops × ms` from the moment the previous one ends, no gap, no request spent waiting.
 */
async function startQueue() {
  const spans: { start: number; end: number }[] = [];
  const arrivals: number[] = [];
  let tail: Promise<void> = Promise.resolve();
  let served = 0;
  const server = http.createServer((req, res) => {
    arrivals.push(Date.now());
    const u = new URL(req.url ?? "/", "http://queue");
    const ms = Number(u.searchParams.get("ops")) * Number(u.searchParams.get("ms"));
    tail = tail.then(async () => {
      const start = Date.now();
      await new Promise((r) => setTimeout(r, ms));
      spans.push({ start, end: Date.now() });
      res.end(String(++served));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hold`,
    spans,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// --- runs -----------------------------------------------------------------------------------------------

interface Outcome {
  ok: boolean;
  ms: number;
  output: string;
  error?: string;
}

async function run(fn: (onOutput: (s: string) => void) => Promise<unknown>): Promise<Outcome> {
  let output = "";
  const t0 = performance.now();
  try {
    await fn((s) => (output += s));
    return { ok: true, ms: performance.now() - t0, output };
  } catch (err) {
    const msg = String((err as Error)?.message ?? err);
    // The CLI's own error lines: what the user would read.
    const lines = msg.split("\n").filter((l) => /error:|Failed to/.test(l));
    return { ok: false, ms: performance.now() - t0, output, error: (lines.join(" | ") || msg).slice(0, 600) };
  }
}

/** Lines of the provider about rate limits and other retries it shows in `pulumi up`. */
const retryLines = (out: string) => ({
  r429: (out.match(/HTTP 429/g) ?? []).length,
  retries: (out.match(/retrying/g) ?? []).length,
});

async function main(): Promise<void> {
  const benchStart = performance.now();
  const cpu = os.cpus()[0]?.model ?? "cpu";
  console.log(`machine: ${os.cpus().length} × ${cpu}, node ${process.version}`);
  console.log(`load average at start: ${loadavg()}`);
  console.log(`operations ${opMs} ms each, ${envCount} environments, emulator rate limits on`);
  countAnswers();
  const emu = await startEmulator({ opMs, seed: 19, rateLimit: true });
  const { projectId, defaultBranchId } = emu.seed;
  // The benchmark's own reads (inventory, operations) pace themselves like the provider's.
  const api = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
  const inherited: Held = {
    branches: new Map(),
    roles: new Set((await api.roles.list(projectId, defaultBranchId)).map((r) => r.name)),
    databases: new Set((await api.databases.list(projectId, defaultBranchId)).map((d) => d.name)),
  };
  // Each environment its own personal key of the same user: one account, one rate-limit budget (as one
  // CI secret would be), but the answers can be told apart.
  const keyOf = new Map<number, string>();
  const envStack = (n: number) => {
    const key = emu.createPersonalKey("admin");
    keyOf.set(n, key);
    return createTempStack({
      programDir: path.join(repoRoot, "examples/preview-environment"),
      stackName: `pr-${n}`,
      config: {
        [`${PROGRAM}:projectId`]: { value: projectId },
        "neon:apiUrl": { value: emu.url },
        "neon:apiKey": { value: key, secret: true },
      },
    });
  };
  const queue = await startQueue();
  const idealStack = (n: number, ops: { branch: number; role: number; database: number }) =>
    createTempStack({
      programDir: path.join(__dirname, "programs/preview-ideal"),
      stackName: `pr-${n}`,
      config: {
        [`${IDEAL}:queueUrl`]: { value: queue.url },
        [`${IDEAL}:opMs`]: { value: String(opMs) },
        [`${IDEAL}:branchOps`]: { value: String(ops.branch) },
        [`${IDEAL}:roleOps`]: { value: String(ops.role) },
        [`${IDEAL}:databaseOps`]: { value: String(ops.database) },
      },
    });
  const all: TempStack[] = [];
  const keys: string[] = [];
  try {
    // --- 1. one environment alone ----------------------------------------------------------------------
    const single = await envStack(0);
    all.push(single);
    let since = emu.clock.now();
    let requests = emu.requestCount();
    let routes = emu.requestsByRoute();
    let t0 = emu.clock.now();
    const up = await run((onOutput) => single.stack.up({ onOutput }));
    if (!up.ok) throw new Error(`the single environment's up failed: ${up.error}`);
    const envRequests = emu.requestCount() - requests;
    console.log(`  up requests: ${routeDelta(routes, emu.requestsByRoute())}`);
    const envSpans = await spansSince(api, projectId, since);
    const envT = timeline(envSpans, t0, t0 + up.ms);
    const envRatio = up.ms / envT.sum;
    console.log(
      `one environment: pulumi up ${s1(up.ms)} s; ${envSpans.length} operations ` +
        `(${envSpans.map((s) => s.action).join(", ")}) → ratio ${r3(envRatio)}; ${envRequests} requests; ` +
        describeTimeline(envT) +
        ` (gaps ${envT.each.map((g) => `${Math.round(g)} ms`).join(", ")})`,
    );
    since = emu.clock.now();
    requests = emu.requestCount();
    routes = emu.requestsByRoute();
    const down = await run((onOutput) => single.stack.destroy({ onOutput }));
    if (!down.ok) throw new Error(`the single environment's destroy failed: ${down.error}`);
    const envDestroyRequests = emu.requestCount() - requests;
    console.log(`  destroy requests: ${routeDelta(routes, emu.requestsByRoute())}`);
    const downSpans = await spansSince(api, projectId, since);
    console.log(
      `one environment: pulumi destroy ${s1(down.ms)} s; ${downSpans.length} operations ` +
        `(${downSpans.map((s) => s.action).join(", ")}) → ratio ${r3(down.ms / timeline(downSpans, 0, 0).sum)}; ` +
        `${envDestroyRequests} requests`,
    );
    keys.push(
      `env_up_ratio=${r3(envRatio)}`,
      `env_requests=${envRequests}`,
      `env_destroy_requests=${envDestroyRequests}`,
    );

    // The operations of one environment, per resource, for the ideal program.
    const branchOps = envSpans.filter(
      (s) => s.action === "create_branch" || s.action === "start_compute",
    ).length;
    const rest = envSpans.length - branchOps;
    const ops = { branch: branchOps, role: Math.ceil(rest / 2), database: Math.floor(rest / 2) };

    // --- 2. the ideal provider: one environment, then N at once -------------------------------------------
    let idealEnvRatio = NaN;
    let idealParallel: { ratio: number; ms: number; floor: number } | undefined;
    if (idealRun) {
      const one = await idealStack(0, ops);
      all.push(one);
      queue.spans.length = 0;
      t0 = Date.now();
      const idealUp = await run((onOutput) => one.stack.up({ onOutput }));
      if (!idealUp.ok) throw new Error(`the ideal environment's up failed: ${idealUp.error}`);
      const it = timeline(queue.spans, t0, t0 + idealUp.ms);
      idealEnvRatio = idealUp.ms / it.sum;
      console.log(
        `ideal provider, one environment: pulumi up ${s1(idealUp.ms)} s → ratio ${r3(idealEnvRatio)}; ${describeTimeline(it)}`,
      );
      const ideals = await Promise.all(range(envCount).map((n) => idealStack(n, ops)));
      all.push(...ideals);
      queue.spans.length = 0;
      queue.arrivals.length = 0;
      console.log(`load average before the ideal parallel up: ${loadavg()}`);
      t0 = Date.now();
      const outs = await Promise.all(ideals.map((t) => run((onOutput) => t.stack.up({ onOutput }))));
      const wall = Date.now() - t0;
      const pt = timeline(queue.spans, t0, t0 + wall);
      idealParallel = { ratio: wall / pt.sum, ms: wall, floor: pt.sum };
      console.log(
        `ideal provider, ${envCount} environments at once: ${outs.filter((o) => o.ok).length} ok, wall ${s1(wall)} s → ` +
          `ratio ${r3(idealParallel.ratio)}; first create reached the provider ${s1(queue.arrivals[0] - t0)} s in ` +
          `(the last ${s1(Math.max(...queue.arrivals.slice(0, envCount)) - t0)} s); ${describeTimeline(pt)}`,
      );
    }

    // --- 3. N environments at once --------------------------------------------------------------------------
    const stacks = await Promise.all(range(envCount).map((n) => envStack(n)));
    all.push(...stacks);
    console.log(`load average before the parallel up: ${loadavg()}`);
    since = emu.clock.now();
    requests = emu.requestCount();
    routes = emu.requestsByRoute();
    let answersBefore = new Map(answers);
    let limitedBefore = emu.rateLimitedCount();
    for (const k of keyOf.values()) byKey.delete(k);
    t0 = emu.clock.now();
    const ups = await Promise.all(
      stacks.map(async (t) => {
        const o = await run((onOutput) => t.stack.up({ onOutput }));
        return { ...o, endedAt: emu.clock.now() };
      }),
    );
    const wall = Math.max(...ups.map((u) => u.endedAt)) - t0;
    const upRequests = emu.requestCount() - requests;
    console.log(`  parallel up requests: ${routeDelta(routes, emu.requestsByRoute())}`);
    const locked = answered(answersBefore, 423);
    const limited = answered(answersBefore, 429);
    const limitedByEmulator = emu.rateLimitedCount() - limitedBefore;
    const spans = await spansSince(api, projectId, since);
    const pt = timeline(spans, t0, t0 + wall);
    const parallelRatio = wall / pt.sum;
    const ok = ups.filter((u) => u.ok).length;
    const names = new Map<string, string>();
    for (const b of await api.branches.list(projectId)) names.set(b.id, b.name);
    ups.forEach((u, i) => {
      const mine = spans.filter((s) => (names.get(s.branchId ?? "") ?? "").startsWith(`pr-${i + 1}-`));
      const lines = retryLines(u.output);
      const k = byKey.get(keyOf.get(i + 1) ?? "");
      console.log(
        `  pr-${i + 1}: ${u.ok ? "ok" : "FAILED"} in ${s1(u.ms)} s; first request ${k ? s1(k.first - t0) : "-"} s, ` +
          `operations start at ${mine.map((s) => s1(s.start - t0)).join(", ") || "-"} s; ${k?.n ?? 0} requests, ` +
          `${k?.locked ?? 0} × 423, ${k?.limited ?? 0} × 429; provider lines: ${lines.r429} × HTTP 429, ` +
          `${lines.retries} × retrying${u.error ? `; ${u.error}` : ""}`,
      );
    });
    console.log(
      `${envCount} environments at once: ${ok} ok; wall ${s1(wall)} s, ${spans.length} operations → ratio ` +
        `${r3(parallelRatio)}; ${describeTimeline(pt)}; ${upRequests} requests ` +
        `(${((upRequests / wall) * 60_000).toFixed(0)}/min on average, ${busiestMinute(t0, t0 + wall)} in the ` +
        `busiest 60 s)`,
    );
    const firsts = range(envCount).map((n) => byKey.get(keyOf.get(n) ?? "")?.first ?? NaN);
    console.log(
      `  first API request ${s1(Math.min(...firsts) - t0)} s after the start (the last environment's ` +
        `${s1(Math.max(...firsts) - t0)} s)`,
    );
    console.log(`  423 answers: ${locked.n} (${locked.routes || "none"})`);
    console.log(
      `  429 answers: ${limited.n} (${limited.routes || "none"}); the emulator's rate limiter: ${limitedByEmulator}`,
    );
    const afterUp = compare(await onEmulator(api, emu, inherited), await inStates(stacks));
    console.log(
      `after the ups (${afterUp.counts}): duplicates ${afterUp.duplicates}, orphans ${afterUp.orphans}, missing ${afterUp.missing}` +
        (afterUp.notes.length ? ` (${afterUp.notes.join("; ")})` : ""),
    );
    keys.push(
      `parallel_ok=${ok}`,
      `parallel_ratio=${r3(parallelRatio)}`,
      `parallel_requests_per_env=${r3(upRequests / envCount)}`,
      `busiest_minute=${busiestMinute(t0, t0 + wall)}`,
      `http_423=${locked.n}`,
      `http_429=${limitedByEmulator}`,
      `duplicates=${afterUp.duplicates}`,
      `orphans=${afterUp.orphans}`,
    );
    if (idealParallel) {
      const share = (idealParallel.ms - idealParallel.floor) / (wall - pt.sum);
      keys.push(
        `env_ideal_ratio=${r3(idealEnvRatio)}`,
        `parallel_ideal_ratio=${r3(idealParallel.ratio)}`,
        `engine_share=${r3(share)}`,
      );
    }

    // --- 4. their destroys at once ------------------------------------------------------------------------------
    console.log(`load average before the parallel destroy: ${loadavg()}`);
    since = emu.clock.now();
    requests = emu.requestCount();
    answersBefore = new Map(answers);
    limitedBefore = emu.rateLimitedCount();
    t0 = emu.clock.now();
    const downs = await Promise.all(
      stacks.map(async (t) => {
        const o = await run((onOutput) => t.stack.destroy({ onOutput }));
        return { ...o, endedAt: emu.clock.now() };
      }),
    );
    const destroyWall = Math.max(...downs.map((u) => u.endedAt)) - t0;
    const dt = timeline(await spansSince(api, projectId, since), t0, t0 + destroyWall);
    const destroyOk = downs.filter((d) => d.ok).length;
    downs.forEach((d, i) => {
      if (!d.ok) console.log(`  pr-${i + 1} destroy FAILED: ${d.error}`);
    });
    console.log(
      `${envCount} destroys at once: ${destroyOk} ok; wall ${s1(destroyWall)} s → ratio ` +
        `${r3(destroyWall / dt.sum)}; ${describeTimeline(dt)}; ${emu.requestCount() - requests} requests; ` +
        `423 answers ${answered(answersBefore, 423).n}, 429 answers ${emu.rateLimitedCount() - limitedBefore}`,
    );
    const afterDestroy = compare(await onEmulator(api, emu, inherited), await inStates(stacks));
    console.log(
      `after the destroys (${afterDestroy.counts}): duplicates ${afterDestroy.duplicates}, orphans ${afterDestroy.orphans}, missing ` +
        `${afterDestroy.missing}` +
        (afterDestroy.notes.length ? ` (${afterDestroy.notes.join("; ")})` : ""),
    );
    keys.push(
      `parallel_destroy_ok=${destroyOk}`,
      `parallel_destroy_ratio=${r3(destroyWall / dt.sum)}`,
      `duplicates_after_destroy=${afterDestroy.duplicates}`,
      `orphans_after_destroy=${afterDestroy.orphans}`,
    );
    console.log(`load average at the end: ${loadavg()}; bench ${s1(performance.now() - benchStart)} s`);
    console.log(keys.join(" "));
    if (process.env.BENCH_TRACE) {
      const envOf = new Map([...keyOf].map(([n, k]) => [k, `pr-${n}`]));
      const rows = trace.map((row) => {
        const cut = row.lastIndexOf(" ");
        return `${row.slice(0, cut)} ${envOf.get(row.slice(cut + 1)) ?? "-"}`;
      });
      fs.writeFileSync(process.env.BENCH_TRACE, rows.join("\n") + "\n");
    }
  } finally {
    for (const t of all) await t.dispose();
    await queue.close();
    await emu.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
