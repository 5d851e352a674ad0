/**
 * `scale_ratio` of `npm run bench:stack`: `pulumi up` of 100 computes spread over 5 projects (20
 * each, 3 s operations). Projects run their operations in parallel, so the floor is the largest
 * project's sum of operation durations; scale_ratio = wall time of the up ÷ that floor. `http_429`
 * counts the provider's progress lines about 429 answers (the provider paces itself under the
 * account's limit with one client for every resource in the process).
 *
 * The emulator seeds two projects; the other four are copies of the main one (its branches, no
 * operations) written into a state file before the emulator starts.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../emulator";
import { Store } from "../emulator/store";
import { createNeonClient } from "../provider/api";
import { createTempStack } from "../scripts/lib/pulumi";

const PROJECTS = 5;
const PER_PROJECT = 20;

/** A state file with the seeded projects plus copies of the main one; returns the targets. */
function seededState(file: string, seed: number, opMs: number): { projectId: string; branchIds: string[] }[] {
  const store = Store.seeded(seed, "launch", file, 0, undefined, () => opMs);
  const st = store.state;
  const main = st.projects[st.seed_info.projectId];
  const targets = [{ projectId: main.id, branchIds: st.seed_info.branchIds.slice(1, 1 + PER_PROJECT) }];
  for (let k = 2; k <= PROJECTS; k++) {
    const pid = `${main.id.slice(0, 50)}-p${k}`;
    st.projects[pid] = {
      ...main,
      id: pid,
      name: `${main.name}-${k}`,
      default_branch_id: `${main.default_branch_id}-p${k}`,
    };
    const ids: string[] = [];
    for (const bid of st.seed_info.branchIds) {
      const b = st.branches[bid];
      const nid = `${bid}-p${k}`;
      st.branches[nid] = {
        ...b,
        id: nid,
        project_id: pid,
        ...(b.parent_id ? { parent_id: `${b.parent_id}-p${k}` } : {}),
      };
      ids.push(nid);
    }
    st.operations[pid] = [];
    st.sim[pid] = { pending: 0, last_end_ms: 0 };
    targets.push({ projectId: pid, branchIds: ids.slice(1, 1 + PER_PROJECT) });
  }
  store.save();
  return targets;
}

interface Span {
  start: number;
  end: number;
}

/** The project's operations created since `since`, oldest first, as [start, end] in emulator time. */
async function spans(
  api: ReturnType<typeof createNeonClient>,
  projectId: string,
  since: string,
): Promise<Span[]> {
  const out: Span[] = [];
  for await (const op of api.operations.list(projectId, { limit: 100 })) {
    if (op.created_at < since) break;
    const end = Date.parse(op.updated_at);
    out.push({ start: end - (op.total_duration_ms ?? 0), end });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Runs the scale benchmark; returns the key=value parts. `parallel` is passed to `up` (the CLI's
 * own default, 4 × GOMAXPROCS, when unset).
 */
export async function scale(
  opMs: number,
  opts: { parallel?: number; destroy?: boolean; order?: "project" | "interleaved" } = {},
): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "neon-bench-scale-"));
  const file = path.join(dir, "state.json");
  const targets = seededState(file, 17, opMs);
  const emulator = await startEmulator({ opMs, seed: 17, statePath: file, rateLimit: true });
  const api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  const temp = await createTempStack({
    programDir: path.join(__dirname, "programs/computes"),
    config: {
      "bench-computes:targets": { value: JSON.stringify(targets) },
      "bench-computes:count": { value: String(PER_PROJECT) },
      ...(opts.order ? { "bench-computes:order": { value: opts.order } } : {}),
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    },
  });
  try {
    const since = new Date(emulator.clock.now()).toISOString();
    const before = emulator.requestCount();
    let output = "";
    const capture = (s: string) => (output += s);
    const limitedBefore = emulator.rateLimitedCount();
    const upStart = emulator.clock.now();
    const t0 = performance.now();
    await temp.stack.up({ onOutput: capture, ...(opts.parallel ? { parallel: opts.parallel } : {}) });
    const upMs = performance.now() - t0;
    const requests = emulator.requestCount() - before;
    const sums: number[] = [];
    // Per project, from the emulator's operation timestamps (seconds since the up started): when
    // its first operation started and its last ended, and the idle time between its operations.
    for (const [k, t] of targets.entries()) {
      const ss = await spans(api, t.projectId, since);
      const sum = ss.reduce((n, x) => n + x.end - x.start, 0);
      sums.push(sum);
      const gaps = ss.slice(1).map((x, i) => Math.max(0, x.start - ss[i].end));
      const s = (ms: number) => ((ms - upStart) / 1000).toFixed(1);
      console.log(
        `  project ${k + 1} (${t.projectId}): ${ss.length} operations, ${(sum / 1000).toFixed(1)} s, ` +
          `first start ${ss.length ? s(ss[0].start) : "-"} s, last end ${ss.length ? s(ss[ss.length - 1].end) : "-"} s, ` +
          `idle between ${(gaps.reduce((n, g) => n + g, 0) / 1000).toFixed(1)} s (largest gap ${((gaps.length ? Math.max(...gaps) : 0) / 1000).toFixed(1)} s)`,
      );
      if (process.env.BENCH_SCALE_VERBOSE) console.log(`    starts: ${ss.map((x) => s(x.start)).join(" ")}`);
    }
    const floor = Math.max(...sums);
    const rate429 = (output.match(/HTTP 429/g) ?? []).length;
    const refused = emulator.rateLimitedCount() - limitedBefore;
    console.log(
      `scale: ${PROJECTS * PER_PROJECT} computes over ${PROJECTS} projects, pulumi up ${(upMs / 1000).toFixed(1)} s, ` +
        `largest project's operations ${(floor / 1000).toFixed(1)} s → ratio ${(upMs / floor).toFixed(3)}; ` +
        `${requests} requests (${((requests / upMs) * 60_000).toFixed(0)}/min); 429 answers: ${refused} ` +
        `(emulator), ${rate429} (provider's progress lines); parallel ${opts.parallel ?? "CLI default"}, ` +
        `declared ${opts.order ?? "project"} by project`,
    );
    if (opts.destroy !== false) await temp.stack.destroy();
    return [`scale_ratio=${(upMs / floor).toFixed(3)}`, `http_429=${refused}`];
  } finally {
    await temp.dispose();
    await emulator.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  scale(Number(process.env.BENCH_OP_MS ?? 3000), {
    parallel: process.env.BENCH_PARALLEL ? Number(process.env.BENCH_PARALLEL) : undefined,
    destroy: process.env.BENCH_SCALE_DESTROY !== "0",
    order: process.env.BENCH_SCALE_ORDER === "interleaved" ? "interleaved" : undefined,
  })
    .then((keys) => console.log(keys.join(" ")))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
