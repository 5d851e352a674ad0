/**
 * Sweeps a Neon project's leaked preview branches: branches this package made for Pulumi stacks that no
 * longer exist in the backend (a pipeline that died before its destroy, a stack removed with --force).
 * Never the default branch, a protected branch, a parent of other branches, a live stack's branch or a
 * branch this package did not annotate. A dry run unless --delete is given.
 *
 *   NEON_API_KEY=… PULUMI_BACKEND_URL=… npx tsx examples/sweep/sweep.ts --project-id <id> [--delete]
 *   NEON_API_KEY=… npx tsx examples/sweep/sweep.ts --project-id <id> --older-than-days 14 [--delete]
 *
 * The backend is the one the pipelines use (the same PULUMI_BACKEND_URL, or `pulumi login`); its stacks
 * are listed with the Automation API, per Pulumi project named in the branches' annotations. With
 * --older-than-days the backend is not read and the age decides instead. The branches of a Pulumi project
 * of which the backend lists no stack at all are kept (a wrong backend lists none) unless
 * --allow-empty-projects is given.
 */
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { getBranches, sweepBranches } from "@neon-labs-unofficial/pulumi-neon-compute";

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** The backend's stacks of each Pulumi project the branches' annotations name, as `<project>/<stack>`. */
async function backendStacks(projects: readonly string[]): Promise<string[]> {
  const stacks: string[] = [];
  for (const project of projects) {
    const ws = await LocalWorkspace.create({ projectSettings: { name: project, runtime: "nodejs" } });
    for (const s of await ws.listStacks()) stacks.push(`${project}/${s.name.split("/").pop()}`);
  }
  return stacks;
}

async function main(): Promise<void> {
  const projectId = option("--project-id");
  if (!projectId) throw new Error("--project-id <id> is required");
  const days = option("--older-than-days");
  const remove = process.argv.includes("--delete");
  let liveStacks: string[] | undefined;
  if (days === undefined) {
    const projects = new Set(
      (await getBranches({ projectId }))
        .map((b) => b.annotations["pulumi-project"])
        .filter((p): p is string => p !== undefined),
    );
    liveStacks = await backendStacks([...projects]);
    console.log(`backend stacks: ${liveStacks.join(", ") || "none"}`);
  }
  const result = await sweepBranches({
    projectId,
    liveStacks,
    allowEmptyProjects: process.argv.includes("--allow-empty-projects"),
    olderThanSeconds: days === undefined ? undefined : Number(days) * 86_400,
    delete: remove,
  });
  for (const v of result.verdicts) {
    const what = `${v.branch.branchId} (${v.branch.name})`;
    if (!v.sweep) console.log(`keep ${what}: ${v.reason}`);
    else console.log(`${remove ? "deleted" : "would delete"} ${what}: ${v.reason}`);
  }
  const n = result.verdicts.filter((v) => v.sweep).length;
  console.log(
    remove
      ? `deleted ${result.deleted.length} branch(es)`
      : `dry run: ${n} branch(es) would be deleted; add --delete`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
