/**
 * The engine's floor for `scale_ratio` (bench/scale.ts): the same `pulumi up` shape — 5 projects ×
 * 20 resources, one operation per project at a time, opMs each — with a provider that makes no
 * request at all (bench/programs/ideal). Whatever ratio it gets is the Pulumi engine's and CLI's,
 * not this provider's. Run on its own: `npx tsx bench/ideal.ts` (BENCH_OP_MS, default 3000).
 *
 * Prints one line per variant: engine parallelism (the CLI default, or 100), declaration order, and
 * whether the Compute classes' admission (provider/resources/compute/admission.ts) is used.
 */
import * as path from "path";
import { createTempStack } from "../scripts/lib/pulumi";

const PROJECTS = 5;
const PER_PROJECT = 20;

interface Variant {
  parallel?: number;
  order: "project" | "interleaved";
  admission: boolean;
}

/** `pulumi up` of the ideal program; returns wall time ÷ one project's sum of operations. */
export async function idealScale(opMs: number, v: Variant): Promise<number> {
  const temp = await createTempStack({
    programDir: path.join(__dirname, "programs/ideal"),
    config: {
      "bench-ideal:projects": { value: String(PROJECTS) },
      "bench-ideal:count": { value: String(PER_PROJECT) },
      "bench-ideal:opMs": { value: String(opMs) },
      "bench-ideal:order": { value: v.order },
      "bench-ideal:admission": { value: String(v.admission) },
    },
  });
  try {
    const t0 = performance.now();
    await temp.stack.up(v.parallel ? { parallel: v.parallel } : {});
    return (performance.now() - t0) / (PER_PROJECT * opMs);
  } finally {
    await temp.dispose();
  }
}

if (require.main === module) {
  const opMs = Number(process.env.BENCH_OP_MS ?? 3000);
  const variants: Variant[] = [
    { order: "project", admission: false },
    { order: "project", admission: true },
    { order: "interleaved", admission: false },
    { parallel: 100, order: "project", admission: false },
  ];
  (async () => {
    for (const v of variants) {
      const ratio = await idealScale(opMs, v);
      console.log(
        `ideal: parallel ${v.parallel ?? "CLI default"}, declared ${v.order} by project, admission ` +
          `${v.admission ? "on" : "off"} → ratio ${ratio.toFixed(3)}`,
      );
    }
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
