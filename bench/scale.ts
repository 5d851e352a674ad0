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
function seededState(file: string, seed: number): { projectId: string; branchIds: string[] }[] {
  const store = Store.seeded(seed, "launch", file);
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

/** Runs the scale benchmark; returns the key=value parts. */
export async function scale(opMs: number): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "neon-bench-scale-"));
  const file = path.join(dir, "state.json");
  const targets = seededState(file, 17);
  const emulator = await startEmulator({ opMs, seed: 17, statePath: file });
  const api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  const temp = await createTempStack({
    programDir: path.join(__dirname, "programs/computes"),
    config: {
      "bench-computes:targets": { value: JSON.stringify(targets) },
      "bench-computes:count": { value: String(PER_PROJECT) },
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    },
  });
  try {
    const since = new Date(emulator.clock.now()).toISOString();
    const before = emulator.requestCount();
    let output = "";
    const capture = (s: string) => (output += s);
    const t0 = performance.now();
    await temp.stack.up({ onOutput: capture });
    const upMs = performance.now() - t0;
    const requests = emulator.requestCount() - before;
    const sums: number[] = [];
    for (const t of targets) {
      let sum = 0;
      for await (const op of api.operations.list(t.projectId, { limit: 100 })) {
        if (op.created_at < since) break;
        sum += op.total_duration_ms ?? 0;
      }
      sums.push(sum);
    }
    const floor = Math.max(...sums);
    const rate429 = (output.match(/HTTP 429/g) ?? []).length;
    console.log(
      `scale: ${PROJECTS * PER_PROJECT} computes over ${PROJECTS} projects, pulumi up ${(upMs / 1000).toFixed(1)} s, ` +
        `largest project's operations ${(floor / 1000).toFixed(1)} s → ratio ${(upMs / floor).toFixed(3)}; ` +
        `${requests} requests (${((requests / upMs) * 60_000).toFixed(0)}/min); 429 answers reported: ${rate429}`,
    );
    await temp.stack.destroy();
    return [`scale_ratio=${(upMs / floor).toFixed(3)}`, `http_429=${rate429}`];
  } finally {
    await temp.dispose();
    await emulator.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  scale(Number(process.env.BENCH_OP_MS ?? 3000))
    .then((keys) => console.log(keys.join(" ")))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
