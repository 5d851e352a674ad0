/**
 * `npm run demo`, exactly as README.md tells a newcomer to run it: the preview environment under the
 * real CLI against the emulator with real Postgres — the exported connection string connects, the
 * pull request's migration, run as its role on the database it owns (which production lacks), shows in
 * the schema difference as wholly new, and in the stack's `schemaDiff` output after the next `up`; a
 * new database no migration touched shows none; a password rotation
 * leaves the old password refused by Postgres and the new one accepted — then destroy. Nothing it
 * prints holds a password.
 */
import { spawn } from "child_process";
import { repoRoot } from "../../scripts/lib/pulumi";
import { useTranscript } from "../support/e2e";

jest.setTimeout(600_000);
const transcript = useTranscript();

test("npm run demo: connect, migrate, schema diff, rotate, destroy", async () => {
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn("npm", ["run", "demo"], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (d: Buffer) => transcript.capture(d.toString()));
    child.stderr.on("data", (d: Buffer) => transcript.capture(d.toString()));
    child.on("error", reject);
    child.on("close", (c) => resolve(c ?? -1));
  });
  const out = transcript.text;
  expect(code).toBe(0);
  expect(out).toMatch(/computes: real Postgres \d+/);
  expect(out).toMatch(/^ {4}app on app, PostgreSQL \d+/m);
  expect(out).toMatch(/the branch's neondb holds production's users: 2 rows/);
  // The first up: the new database holds nothing yet, so no schema difference.
  expect(out).toMatch(/^ {4}schemaChanged = false$/m);
  expect(out).toMatch(/^ {4}--- a\/app\n {4}\+\+\+ b\/app\n {4}@@ -0,0 \+1,\d+ @@$/m);
  expect(out).toMatch(/^ {4}\+CREATE TABLE public\.orders \($/m);
  expect(out).toMatch(/^ {4}\+ {4}total numeric\(10,2\)$/m);
  expect(out).toMatch(/^ {4}\+CREATE INDEX orders_email ON public\.orders USING btree \(email\);$/m);
  expect(out).toMatch(/production untouched: its databases: neondb$/m);
  expect(out).toMatch(/stack output schemaDiff: the diff above$/m);
  expect(out).toMatch(/old password: refused — .*password authentication failed for user "app"/);
  expect(out).toMatch(/new password: accepted/);
  expect(out).toMatch(/- 6 deleted/);
  expect(out).toMatch(/Done in \d+ s: the stack is destroyed and the emulator stopped/);
  // The connection string is shown only with its password masked.
  expect(out).toMatch(/connectionUri = postgresql:\/\/app:\*{8}@127\./);
  expect(out).not.toMatch(/postgresql:\/\/[^:\s]+:(?!\*{8}@)[^@\s]+@/);
});
