/**
 * The first wait of a fresh provider process (`cold_overhead_ms` of `npm run bench:stack`).
 *
 * A provider process lives for one `pulumi up`; its waiter starts with no duration estimate. The
 * project's history usually holds earlier operations of the same action, though. For operations of
 * about 10 s and 30 s (±30 %, seeded) each lane builds such a history with one client (it creates
 * computes one after another and moves the emulator clock past each operation, so the history costs
 * no real time), then a fresh client creates one more compute and waits on its `start_compute` the
 * way the provider does. Overhead = when that wait returned − when the operation finished (the
 * emulator's `updated_at`; the emulator clock is real time plus the offset the history added).
 */
import { startEmulator } from "../emulator";
import { createNeonClient } from "../provider/api";

const CLASSES_S = [10, 30];
const LANES = 3;
const HISTORY = 5;
const JITTER = 0.3;

async function lane(seconds: number, seed: number): Promise<number> {
  const emu = await startEmulator({ opMs: seconds * 1000, opJitter: JITTER, seed });
  try {
    const p = emu.seed.projectId;
    const branches = emu.seed.branchIds.slice(1);
    const earlier = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
    for (let i = 0; i < HISTORY; i++) {
      await earlier.endpoints.create(p, { branch_id: branches[i], type: "read_write" });
      emu.clock.advance(seconds * 1000 * (1 + JITTER) + 1000);
    }
    const fresh = createNeonClient({ apiKey: emu.apiKey, baseUrl: emu.url });
    const r = await fresh.endpoints.create(p, { branch_id: branches[HISTORY], type: "read_write" });
    const [op] = await fresh.waitForOperations(p, r.operations);
    return emu.clock.now() - Date.parse(op.updated_at);
  } finally {
    await emu.stop();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Runs every class's lanes at once; the line to print and the larger of the two medians. */
export async function coldOverhead(): Promise<{ line: string; worstMedianMs: number }> {
  const results = await Promise.all(
    CLASSES_S.map(async (seconds) => {
      const overheads = await Promise.all(
        Array.from({ length: LANES }, (_, i) => lane(seconds, 100 * seconds + i)),
      );
      return { seconds, overheads, median: median(overheads) };
    }),
  );
  const line =
    "cold waits (fresh client, history of " +
    `${HISTORY} earlier operations): ` +
    results
      .map(
        (r) =>
          `${r.seconds} s: median ${Math.round(r.median)} ms (${r.overheads.map(Math.round).join(", ")})`,
      )
      .join("; ");
  return { line, worstMedianMs: Math.max(...results.map((r) => r.median)) };
}

if (require.main === module) {
  coldOverhead()
    .then((r) => console.log(`${r.line}\ncold_overhead_ms=${Math.round(r.worstMedianMs)}`))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
