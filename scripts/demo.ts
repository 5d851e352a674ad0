/**
 * `npm run demo`: a pull request's database, end to end, against the local emulator with real Postgres
 * behind it (PostgreSQL's server programs are on every machine this project runs on).
 *
 * 1. "Production" (the project's default branch) holds a table.
 * 2. `pulumi up` of examples/preview-environment: the pull request's branch with its compute, a role, a
 *    database and the connection string (a secret output).
 * 3. The exported connection string connects (`psql`).
 * 4. The pull request's migration runs as its role, on the database the role owns (through the exported
 *    connection string), and the schema difference shows what it made (what review needs): production
 *    has no such database, so its whole schema is new.
 * 5. The role's password is rotated: Postgres refuses the old one, takes the new one; that `up` also
 *    reads the schema difference again into the stack's `schemaDiff` output.
 * 6. `pulumi destroy`.
 *
 * `npm run demo` installs the server programs first when they are missing (scripts/ensure-postgres); run
 * directly (`tsx scripts/demo.ts`) without them, it says so and runs steps 2 and 6 only.
 */
import * as path from "path";
import { startEmulator } from "../emulator";
import { findPostgres } from "../emulator/postgres";
import { createNeonClient } from "../provider/api";
import { getConnectionUri, getSchemaDiff, withLookupClient } from "../provider/lookups";
import { createTempStack, ensurePulumi, repoRoot } from "./lib/pulumi";
import { psql, withPassword } from "./lib/psql";

const step = (text: string) => console.log(`\n• ${text}`);
const indent = (text: string) =>
  text
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");

/** Runs SQL through a connection string; a failure ends the demo with Postgres's message. */
async function sql(uri: string, text: string): Promise<string> {
  const r = await psql(uri, text);
  if (!r.ok) throw new Error(`psql failed: ${r.error}`);
  return r.out;
}

async function main(): Promise<void> {
  const started = Date.now();
  // The demo runs a TypeScript program only: no YAML or Go language host to build.
  console.log("• Pulumi CLI:", ensurePulumi({ nodejsOnly: true }));
  const pg = findPostgres();
  const real = typeof pg !== "string";
  const emulator = await startEmulator({ opMs: 400, postgres: real });
  const projectId = emulator.seed.projectId;
  const main = emulator.seed.defaultBranchId;
  console.log(
    `• Emulator: ${emulator.url} (project ${projectId}, default branch ${main}); computes: ${
      real ? `real Postgres ${pg.major}` : `in memory — connection strings do not connect (${pg})`
    }`,
  );
  const api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  const since = emulator.clock.now();
  const lookup = <T>(fn: () => Promise<T>) => withLookupClient(api, fn);
  const ownerUri = (branchId: string) =>
    lookup(() => getConnectionUri({ projectId, branchId, databaseName: "neondb", roleName: "neondb_owner" }));

  if (real) {
    step("Production (the default branch) holds a table, in its database neondb:");
    const prod = (await ownerUri(main)).uri;
    await sql(prod, "CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL)");
    await sql(prod, "INSERT INTO users VALUES (1, 'ada@example.com'), (2, 'linus@example.com')");
    console.log(indent("CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL) — 2 rows"));
  }

  const temp = await createTempStack({
    programDir: path.join(repoRoot, "examples/preview-environment"),
    stackName: "pr-42",
    config: {
      "neon-preview-environment:projectId": { value: projectId },
      "neon:apiUrl": { value: emulator.url },
      "neon:apiKey": { value: emulator.apiKey, secret: true },
    },
  });
  try {
    step("pulumi up --yes (examples/preview-environment, stack pr-42)\n");
    const up = await temp.stack.up({ onOutput: (s) => process.stdout.write(s) });
    const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, o]) => [k, o.value as string]));
    step("Stack outputs (the connection string is a secret: shown here without its password):");
    for (const [key, value] of Object.entries(outputs)) {
      const shown = key === "connectionUri" ? withPassword(value, "********") : value;
      console.log(`    ${key} = ${shown}`);
    }

    if (real) {
      const uri = outputs.connectionUri;
      step("The exported connection string connects (psql):");
      console.log(
        indent(await sql(uri, "SELECT current_user || ' on ' || current_database() || ', ' || version()")),
      );
      const inherited = await sql((await ownerUri(outputs.branchId)).uri, "SELECT count(*) FROM users");
      console.log(indent(`the branch's neondb holds production's users: ${inherited} rows`));

      step("The pull request's migration, as its role app on the database it owns (connectionUri):");
      const migration =
        "CREATE TABLE orders (id bigint PRIMARY KEY, email text NOT NULL, total numeric(10,2));\n" +
        "CREATE INDEX orders_email ON orders (email);";
      console.log(indent(migration));
      await sql(uri, migration);

      step("What the pull request made in the schema of app (getSchemaDiff), for review:");
      // Production has no database app: the diff is its whole schema, every line added.
      const diff = await lookup(() =>
        getSchemaDiff({ projectId, branchId: outputs.branchId, databaseName: outputs.databaseName }),
      );
      console.log(indent(diff.changed ? diff.diff.trimEnd() : "(no change)"));
      const prodDbs = (await api.databases.list(projectId, main)).map((d) => d.name);
      console.log(
        `    production untouched: ${prodDbs.includes("app") ? "?!" : `its databases: ${prodDbs.join(", ")}`}`,
      );

      step("Rotate the app role's password (pulumi config set passwordRotation 2; pulumi up):\n");
      const oldUri = uri;
      await temp.stack.setConfig("passwordRotation", { value: "2" });
      const rotated = await temp.stack.up({ onOutput: (s) => process.stdout.write(s) });
      const newUri = rotated.outputs.connectionUri.value as string;
      const refused = await psql(oldUri, "SELECT 1");
      console.log(
        `\n    old password: ${refused.ok ? "still accepted?!" : `refused — ${refused.error.split("\n")[0]}`}`,
      );
      console.log(`    new password: ${(await psql(newUri, "SELECT 'accepted'")).out || "refused?!"}`);
      // What the workflow's schema step prints after its `up`: `pulumi stack output schemaDiff`.
      const output = rotated.outputs.schemaDiff.value as string;
      console.log(
        `    stack output schemaDiff: ${output === diff.diff ? "the diff above" : `differs?! ${output}`}`,
      );
    }

    step("Operations the control plane recorded during the demo (oldest first):");
    const ops = [];
    for await (const op of api.operations.list(projectId, { limit: 100 })) {
      if (Date.parse(op.created_at) < since) break;
      ops.push(op);
    }
    for (const op of ops.reverse()) {
      console.log(
        `    ${op.created_at}  ${op.action.padEnd(16)} ${op.status.padEnd(9)} ${op.endpoint_id ?? op.branch_id ?? ""}`,
      );
    }

    step("pulumi destroy --yes\n");
    await temp.stack.destroy({ onOutput: (s) => process.stdout.write(s) });
  } finally {
    await temp.dispose();
    await emulator.stop();
  }
  console.log(
    `\n• Done in ${Math.round((Date.now() - started) / 1000)} s: the stack is destroyed and the emulator stopped.`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
