/**
 * `npm run demo`: `pulumi up` of examples/basic against the local emulator, then destroy.
 *
 * Makes sure the Pulumi CLI is there (building it from Go modules once if needed), starts the
 * emulator in this process, runs the program with a temporary local backend, prints the stack
 * outputs and the operations the control plane recorded, then cleans everything up.
 */
import * as path from "path";
import { startEmulator } from "../emulator";
import { createNeonClient } from "../provider/api";
import { createTempStack, ensurePulumi, repoRoot } from "./lib/pulumi";

async function main(): Promise<void> {
  console.log("• Pulumi CLI:", ensurePulumi());
  const emulator = await startEmulator({ opMs: 400 });
  console.log(
    `• Emulator: ${emulator.url} (project ${emulator.seed.projectId}, default branch ${emulator.seed.defaultBranchId} with primary compute ${emulator.seed.primaryEndpointId})`,
  );
  const temp = await createTempStack({
    programDir: path.join(repoRoot, "examples/basic"),
    stackName: "demo",
    config: {
      "neon-basic:projectId": { value: emulator.seed.projectId },
      // The default branch, as a real project's: the program adopts its primary compute.
      "neon-basic:branchId": { value: emulator.seed.defaultBranchId },
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    },
  });
  try {
    console.log("• pulumi up --yes (examples/basic)\n");
    const up = await temp.stack.up({ onOutput: (s) => process.stdout.write(s) });
    console.log("\n• Stack outputs:");
    for (const [key, out] of Object.entries(up.outputs))
      console.log(`  ${key} = ${JSON.stringify(out.value)}`);

    const api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
    console.log("\n• Operations the control plane recorded for the computes (oldest first):");
    const ops = [];
    for await (const op of api.operations.list(emulator.seed.projectId, { limit: 100 })) {
      if (op.endpoint_id) ops.push(op);
    }
    for (const op of ops.reverse()) {
      console.log(
        `  ${op.created_at}  ${op.action.padEnd(16)} ${op.status.padEnd(9)} ${op.endpoint_id ?? ""}`,
      );
    }

    console.log("\n• pulumi destroy --yes\n");
    await temp.stack.destroy({ onOutput: (s) => process.stdout.write(s) });
  } finally {
    await temp.dispose();
    await emulator.stop();
  }
  console.log("\n• Done: the stack is destroyed and the emulator stopped.");
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
