/**
 * Requests per `Project` and per `Branch` with its compute (`npm run bench:branch`), through the
 * resources' own steps against the emulator with 3 s operations, one provider runtime as in one
 * `pulumi up`: mutating requests, operation polls and other reads, per create and per delete.
 * Prints `key=value` lines.
 */
import { startEmulator, type EmulatorHandle } from "../emulator";
import { resourceKind } from "../provider/registry";
import { bind } from "../provider/resources/kit";
import { Runtime } from "../provider/resources/runtime";

const OP_MS = 3000;
const BRANCHES = 5;

type Tally = Record<string, number>;

function split(emu: EmulatorHandle, before: Tally) {
  const now = emu.requestsByRoute();
  let mutating = 0;
  let polls = 0;
  let reads = 0;
  for (const [route, n] of Object.entries(now)) {
    const d = n - (before[route] ?? 0);
    if (!route.startsWith("GET ")) mutating += d;
    else if (route.includes("/operations")) polls += d;
    else reads += d;
  }
  return { mutating, polls, reads };
}

async function main(): Promise<void> {
  const emu = await startEmulator({ opMs: OP_MS, seed: 41 });
  try {
    const rt = new Runtime({ settings: { apiKey: emu.apiKey, apiUrl: emu.url }, logSink: () => undefined });
    const project = bind(resourceKind("Project"), rt);
    const branch = bind(resourceKind("Branch"), rt);
    const urn = (t: string, n: string) =>
      `urn:pulumi:bench::neon-bench::pulumi-nodejs:dynamic/neon:${t}::${n}`;
    const checked = async (r: typeof project, t: string, n: string, inputs: Record<string, unknown>) => {
      const c = await r.check({}, { __urn: urn(t, n), ...inputs });
      if (c.failures?.length) throw new Error(JSON.stringify(c.failures));
      return c.inputs;
    };

    let before = emu.requestsByRoute();
    const p = await project.create(await checked(project, "Project", "app", { orgId: emu.seed.orgId }));
    const pc = split(emu, before);
    const made: { id: string; outs: Record<string, unknown> }[] = [];
    before = emu.requestsByRoute();
    for (let i = 0; i < BRANCHES; i++) {
      const inputs = await checked(branch, "Branch", `env-${i}`, {
        projectId: p.id,
        compute: { minCu: 0.25, maxCu: 1 },
      });
      const b = await branch.create(inputs);
      made.push({ id: b.id, outs: b.outs as Record<string, unknown> });
    }
    const bc = split(emu, before);
    before = emu.requestsByRoute();
    for (const b of made.reverse()) await branch.delete(b.id, b.outs);
    const bd = split(emu, before);
    before = emu.requestsByRoute();
    await project.delete(p.id, p.outs as Record<string, unknown>);
    const pd = split(emu, before);

    const per = (x: number) => (x / BRANCHES).toFixed(2);
    console.log(`op_ms=${OP_MS}`);
    console.log(
      `project_create_mutating=${pc.mutating} project_create_polls=${pc.polls} project_create_reads=${pc.reads}`,
    );
    console.log(
      `branch_create_mutating=${per(bc.mutating)} branch_create_polls=${per(bc.polls)} branch_create_reads=${per(bc.reads)}`,
    );
    console.log(
      `branch_delete_mutating=${per(bd.mutating)} branch_delete_polls=${per(bd.polls)} branch_delete_reads=${per(bd.reads)}`,
    );
    console.log(`project_delete_mutating=${pd.mutating} project_delete_reads=${pd.reads}`);
  } finally {
    await emu.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
