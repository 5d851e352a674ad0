/**
 * End to end (issue 55): a restore declared in the program (`Branch.restoreFrom`, docs/decisions/0021)
 * under the real CLI, TypeScript face, against the emulator with real Postgres. A branch with its compute,
 * a role and a database it owns; rows written through the stack's own connection string; a `Snapshot`
 * declared once they are; a migration that drops the table; then `restoreFrom` set to the snapshot. The
 * preview shows the Branch replaced (its delete leaves the original to the restore) and the original's fate, and sends nothing that changes
 * anything. The `up` is killed once its restore request was carried out; after `pulumi cancel` and
 * `refresh --clear-pending-creates`, the next `up` finishes it with one restore and one finalize in all:
 * the rows are back through the stack's connection string output, the compute is the same one, the
 * original branch is gone. `refresh` then
 * `preview --expect-no-changes` pass; `destroy` leaves nothing the stack made, and `stack rm` needs no
 * `--force`.
 */
import * as path from "path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { createTempStack } from "../../scripts/lib/pulumi";
import { psql } from "../../scripts/lib/psql";
import { useStepBudgets } from "../support/budgets";
import { mutationCount } from "../support/requests";
import { changedCounts, cli, diagnosticsOf, persisted, upKilledWhenHeld } from "./plugin-helpers";

useStepBudgets();

const RESTORE = "POST /projects/:project_id/snapshots/:snapshot_id/restore";
const FINALIZE = "POST /projects/:project_id/branches/:branch_id/finalize_restore";
const CREATE_ROLE = "POST /projects/:project_id/branches/:branch_id/roles";
const CREATE_DATABASE = "POST /projects/:project_id/branches/:branch_id/databases";
const DELETE_SNAPSHOT = "DELETE /projects/:project_id/snapshots/:snapshot_id";

let emulator: EmulatorHandle;
let api: NeonClient;

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 30, seed: 55, postgres: true });
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
});

afterAll(async () => {
  await emulator?.stop();
});

const count = (route: string) => emulator.requestsByRoute()[route] ?? 0;

/** The result of `sql` run through `uri`; fails with Postgres's error. */
async function query(uri: string, sql: string): Promise<string> {
  const r = await psql(uri, sql);
  expect(r.error).toBe("");
  return r.out.trim();
}

test("a restore declared on the Branch brings the dropped rows back through the stack's own connection string", async () => {
  const { projectId } = emulator.seed;
  const seededBranches = (await api.branches.list(projectId)).map((b) => b.id).sort();
  const seededSnapshots = (await api.snapshots.list(projectId)).map((s) => s.id).sort();
  let transcript = "";
  const capture = (s: string) => {
    transcript += s;
  };
  const temp = await createTempStack({
    programDir: path.join(__dirname, "restore-program"),
    config: {
      "neon-e2e-restore:projectId": { value: projectId },
      "neon-e2e-restore:branchName": { value: "restore-ts" },
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    },
    env: { NEON_API_KEY: "" },
  });
  const outputs = async () => {
    const all = await temp.stack.outputs();
    expect(all.connectionUri?.secret).toBe(true);
    return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v.value])) as Record<string, string>;
  };
  try {
    // --- the branch, its role and database; rows written through the stack's connection string ----
    const first = await temp.stack.up({ onOutput: capture, onError: capture });
    expect(changedCounts(first.summary.resourceChanges ?? {})).toEqual({ create: 4 }); // with the stack
    const made = await outputs();
    const original = made.branchId;
    await query(
      made.connectionUri,
      "CREATE TABLE orders (id int PRIMARY KEY, note text, email text); " +
        "INSERT INTO orders VALUES (1, 'a', 'a@corp.example'), (2, 'b', 'b@corp.example'), (3, 'c', 'c@corp.example')",
    );

    // --- the snapshot, taken once the rows are there ---------------------------------------------
    await temp.stack.setConfig("snapshot", { value: "true" });
    const snapped = await temp.stack.up({ onOutput: capture, onError: capture });
    // With it, an anonymized child: its copy of the rows masked by two rules, its parent's intact.
    expect(changedCounts(snapped.summary.resourceChanges ?? {})).toEqual({ create: 2 });
    const { snapshotId, maskedUri } = await outputs();
    const ORDERS = "SELECT string_agg(note || '|' || email, ',' ORDER BY id) FROM orders";
    const maskedRows = (await query(maskedUri, ORDERS)).split(",");
    expect(maskedRows.map((r) => r.split("|")[0])).toEqual(["hidden", "hidden", "hidden"]);
    expect(maskedRows.some((r) => r.includes("corp.example"))).toBe(false);
    expect(await query(made.connectionUri, ORDERS)).toBe(
      "a|a@corp.example,b|b@corp.example,c|c@corp.example",
    );
    // A changed rule previews as an update (no replacement) and masks nothing until triggered.
    await temp.stack.setConfig("maskNote", { value: "'withheld'" });
    const ruled = await temp.stack.preview({ diff: true, onOutput: capture, onError: capture });
    expect(changedCounts(ruled.changeSummary)).toEqual({ update: 1 });
    await temp.stack.setConfig("maskTrigger", { value: "1" });
    const triggered = await temp.stack.up({ onOutput: capture, onError: capture });
    expect(changedCounts(triggered.summary.resourceChanges ?? {})).toEqual({ update: 1 });
    expect(await query(maskedUri, "SELECT string_agg(note, ',' ORDER BY id) FROM orders")).toBe(
      "withheld,withheld,withheld",
    );
    expect((await api.snapshots.list(projectId)).find((s) => s.id === snapshotId)?.source_branch_id).toBe(
      original,
    );

    // --- a migration gone wrong ------------------------------------------------------------------
    await query(made.connectionUri, "DROP TABLE orders");
    expect((await psql(made.connectionUri, "SELECT count(*) FROM orders")).error).toMatch(
      /relation "orders" does not exist/,
    );

    // --- the restore's preview: a replacement, the original's fate said, nothing sent -------------
    await temp.stack.setConfig("restoreFrom", { value: snapshotId });
    const sent = mutationCount(emulator);
    const previewEvents: EngineEvent[] = [];
    const preview = await temp.stack.preview({
      diff: true,
      onOutput: capture,
      onError: capture,
      onEvent: (e) => previewEvents.push(e),
    });
    expect(mutationCount(emulator)).toBe(sent);
    expect([count(RESTORE), count(FINALIZE)]).toEqual([0, 0]);
    // The role and the database show as replaced (their branch's new id is unknown); the snapshot, which
    // holds the data being restored, follows in place: never deleted and taken again.
    // The anonymized child follows its parent's restore in place too (the finalize moves it).
    expect(changedCounts(preview.changeSummary)).toEqual({ replace: 3, update: 2 });
    expect(diagnosticsOf(previewEvents, "before").join("\n")).toContain(
      `snapshot ${snapshotId} follows its branch's restore: it keeps its data`,
    );
    const planned = previewEvents
      .map((e) => e.resourcePreEvent?.metadata)
      .filter((m) => m?.urn.endsWith("::env"))
      .map((m) => m!.op);
    // Deleted first, as every Branch replacement: the delete leaves the original to the restore.
    expect(planned.indexOf("delete-replaced")).toBeGreaterThanOrEqual(0);
    expect(planned.indexOf("delete-replaced")).toBeLessThan(planned.indexOf("create-replacement"));
    const warned = diagnosticsOf(previewEvents, "env").join("\n");
    expect(warned).toContain(
      `branch ${original} ("restore-ts") will be restored from snapshot ${snapshotId}`,
    );
    expect(warned).toMatch(/taken over on the new branch, not recreated/);
    expect(warned).toMatch(
      new RegExp(
        `The original branch ${original} is renamed "restore-ts-before-restore-[0-9a-f]{7}", then deleted`,
      ),
    );

    // --- the restore's up, killed once the restore request was carried out; then what a CI job does
    const [roles, databases, snapshotDeletes] = [
      count(CREATE_ROLE),
      count(CREATE_DATABASE),
      count(DELETE_SNAPSHOT),
    ];
    await upKilledWhenHeld(temp, emulator.holdAnswers(RESTORE), "its restore request", capture);
    expect([count(RESTORE), count(FINALIZE)]).toEqual([1, 0]);
    await temp.stack.cancel();
    await temp.stack.refresh({ clearPendingCreates: true, onOutput: capture, onError: capture });
    // The next up finishes it: the restore found by its derived name and finalized, never sent again;
    // the role and the database the cascade left on the original taken over on the restored branch.
    const finishing = await temp.stack.up({ onOutput: capture, onError: capture });
    expect(finishing.summary.result).toBe("succeeded");
    expect(finishing.stdout).toMatch(/not finalized yet; finalizing it/);
    expect([count(RESTORE), count(FINALIZE)]).toEqual([1, 1]);
    expect([count(CREATE_ROLE), count(CREATE_DATABASE), count(DELETE_SNAPSHOT)]).toEqual([
      roles,
      databases,
      snapshotDeletes,
    ]);
    // One branch holds the name; no second restored branch.
    const named = (await api.branches.list(projectId)).map((b) => b.name);
    expect(named.filter((n) => n === "restore-ts" || n.startsWith("restore-ts-restore-"))).toEqual([
      "restore-ts",
    ]);
    const restored = await outputs();
    expect(restored.branchId).not.toBe(original);
    // The anonymized child now hangs under the restored branch, its masked rows as they were.
    const child = (await api.branches.list(projectId)).find((b) => b.name === "restore-ts-masked");
    expect(child?.parent_id).toBe(restored.branchId);
    expect(await query(restored.maskedUri, "SELECT string_agg(note, ',' ORDER BY id) FROM orders")).toBe(
      "withheld,withheld,withheld",
    );
    expect(restored.computeId).toBe(made.computeId); // the compute moved with the name, same host
    expect(restored.snapshotId).toBe(snapshotId);
    expect((await api.branches.get(projectId, restored.branchId)).name).toBe("restore-ts");
    // original: delete — the renamed original went once the restored branch served.
    await expect(api.branches.get(projectId, original)).rejects.toMatchObject({ kind: "not_found" });
    // The rows are back, through the stack's own connection string output.
    expect(await query(restored.connectionUri, "SELECT string_agg(note, ',' ORDER BY id) FROM orders")).toBe(
      "a,b,c",
    );
    const { deployment } = await temp.stack.exportStack();
    const ids = Object.fromEntries(
      ((deployment.resources ?? []) as { urn: string; id?: string }[]).map((r) => [
        r.urn.split("::").pop() as string,
        r.id,
      ]),
    );
    expect([ids.env, ids.app]).toEqual([restored.branchId, `${projectId}/${restored.branchId}/app`]);

    // --- the stack is true: no drift, nothing to change ------------------------------------------
    transcript += await cli(temp, ["refresh", "--yes", "--color", "never"]);
    transcript += await cli(temp, ["preview", "--expect-no-changes", "--color", "never"]);
    expect([count(RESTORE), count(FINALIZE)]).toEqual([1, 1]);

    // --- the secret connection strings are nowhere but the secret outputs --------------------------
    const everything = await persisted(temp);
    // The masking rules are secret: nowhere in the state or the transcript in plain text.
    expect(everything).not.toContain("anon.fake_email");
    expect(transcript).not.toContain("anon.fake_email");
    for (const secret of [made.connectionUri, restored.connectionUri, restored.maskedUri, emulator.apiKey]) {
      expect(everything).not.toContain(secret);
      expect(transcript).not.toContain(secret);
    }

    // --- destroy leaves nothing the stack made ---------------------------------------------------
    await temp.stack.destroy({ onOutput: capture, onError: capture });
    expect((await api.branches.list(projectId)).map((b) => b.id).sort()).toEqual(seededBranches);
    expect((await api.snapshots.list(projectId)).map((s) => s.id).sort()).toEqual(seededSnapshots);
    expect([count(RESTORE), count(FINALIZE)]).toEqual([1, 1]);
    await cli(temp, ["stack", "rm", "--yes"]); // no --force: destroy left nothing in the stack
    expect((await temp.stack.workspace.listStacks()).map((s) => s.name)).not.toContain(temp.stack.name);
  } finally {
    await temp.dispose();
  }
});
