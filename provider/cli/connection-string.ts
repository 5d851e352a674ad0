/**
 * `neon-connection-string`: a role's connection string on stdout, for a CI step outside any stack (a
 * deploy job that puts it in its application's environment). It makes the requests `getConnectionUri`
 * and `getRolePassword` make, with the key of `NEON_API_KEY` and the URL of `NEON_API_URL` (as the provider reads them), and
 * keeps nothing. Errors go to stderr, one line each, never with the key or a password; the exit code
 * is 0 with a string, 1 when the service or the environment refuses, 2 for wrong arguments.
 */
import { parseArgs } from "node:util";
import { createNeonClient, type NeonClient } from "../api";
import { defaultBranchId, readConnectionUri, readRolePassword } from "../lookups/connection";
import type { GetConnectionUriArgs } from "../lookups/shapes";

/** The command's name, as package.json's `bin` installs it. */
export const COMMAND = "neon-connection-string";

export const USAGE = `Usage: ${COMMAND} --project <id> [--branch <id>] [--compute <id>] --role <name> --database <name> [--pooled]

Prints the connection string of a role and database on a compute of a Neon project to stdout:
postgresql://<role>:<password>@<host>/<database>?sslmode=require. It carries the role's password:
put it where the application reads it (a masked CI variable, a secret store), never in a log.

  --project <id>     the project
  --branch <id>      the branch (default: the project's default branch)
  --compute <id>     the compute to connect to (ep-…; default: the branch's read_write compute);
                     alone, it names the branch too
  --role <name>      the role to connect as
  --database <name>  the database
  --pooled           connect through the connection pooler (the -pooler host)
  -h, --help         this text

Environment: NEON_API_KEY (required), NEON_API_URL (default: Neon's API).
Exit code: 0 with the string on stdout; 1 when the service or the environment refuses (the reason on
stderr); 2 for wrong arguments. A project that does not store role passwords has no connection string
to read: rotate the role's password instead.`;

/** What a run may write, and the environment it reads (a test passes its own). */
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Wrong arguments: exit code 2, with a pointer to `--help`. */
class UsageError extends Error {}

/** The arguments of a run, or `help` when it asks for the usage text. */
export function parseCommandArgs(argv: readonly string[]): GetConnectionUriArgs | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        project: { type: "string" },
        branch: { type: "string" },
        compute: { type: "string" },
        role: { type: "string" },
        database: { type: "string" },
        pooled: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  if (v.help) return "help";
  const missing = (["project", "role", "database"] as const).filter((k) => !v[k]);
  if (missing.length > 0) {
    const names = missing.map((k) => `--${k}`);
    const listed =
      names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)} are` : `${names[0]} is`;
    throw new UsageError(`${listed} required`);
  }
  for (const k of ["branch", "compute"] as const) {
    if (v[k] === "") throw new UsageError(`--${k} needs a value (leave it out for the default)`);
  }
  return {
    projectId: v.project!,
    branchId: v.branch,
    computeId: v.compute,
    roleName: v.role!,
    databaseName: v.database!,
    pooled: v.pooled ?? false,
  };
}

/**
 * The connection string of `args`, once the role's password proves readable: the password is read as
 * `getRolePassword` reads it (a project that does not store passwords fails saying why and what to do,
 * judged as Role judges it), beside the request `getConnectionUri` makes. A project that does not store
 * passwords thus fails whatever the service would answer to `connection_uri` there (the document does
 * not say), and the password read's error comes first.
 */
export async function connectionString(api: NeonClient, args: GetConnectionUriArgs): Promise<string> {
  // A compute named alone is on its own branch, which the password is read from.
  const branchId =
    args.branchId ??
    (args.computeId
      ? (await api.endpoints.get(args.projectId, args.computeId)).branch_id
      : await defaultBranchId(api, args.projectId, COMMAND));
  const [password, uri] = await Promise.allSettled([
    readRolePassword(api, { projectId: args.projectId, branchId, roleName: args.roleName }),
    readConnectionUri(api, { ...args, branchId }),
  ]);
  if (password.status === "rejected") throw password.reason;
  if (uri.status === "rejected") throw uri.reason;
  return uri.value.uri;
}

/** One run of the command: its exit code. */
export async function runCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let args: GetConnectionUriArgs;
  try {
    const parsed = parseCommandArgs(argv);
    if (parsed === "help") {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    args = parsed;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(`${COMMAND}: ${err.message}. See \`${COMMAND} --help\`.\n`);
    return 2;
  }
  const apiKey = io.env.NEON_API_KEY || undefined;
  if (!apiKey) {
    io.stderr(
      `${COMMAND}: Failed to read the connection string: no API key is set. Set the NEON_API_KEY ` +
        "environment variable (a key that can see the project).\n",
    );
    return 1;
  }
  try {
    const api = createNeonClient({ apiKey, baseUrl: io.env.NEON_API_URL || undefined });
    io.stdout(`${await connectionString(api, args)}\n`);
    return 0;
  } catch (err) {
    // ApiError's message is redacted (no key, no password); any other error shows its message only.
    io.stderr(`${COMMAND}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

if (require.main === module) {
  void runCommand(process.argv.slice(2), {
    env: process.env,
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
  }).then((code) => {
    process.exitCode = code;
  });
}
