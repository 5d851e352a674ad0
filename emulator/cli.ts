/**
 * `npm run emulator -- --port 4010 [--host 127.0.0.1] [--api-key KEY] [--state file.json]
 *   [--seed N] [--op-ms 300] [--op-jitter 0.3] [--plan free|launch|scale] [--check-availability] [--rate-limit] [--with-deprecated-fields] [--log]
 *   [--postgres | --in-memory] [--pg-data DIR]`
 */
import { startEmulator, type EmulatorOptions } from "./index";
import { findPostgres } from "./postgres";

const USAGE =
  "Usage: npm run emulator -- [--port 4010] [--host 127.0.0.1] [--api-key KEY] [--state file.json] " +
  "[--seed N] [--op-ms 300] [--op-jitter 0.3] [--plan free|launch|scale] [--check-availability] [--rate-limit] [--with-deprecated-fields] [--log] " +
  "[--postgres | --in-memory] [--pg-data DIR]";

function fail(message: string): never {
  process.stderr.write(`emulator: ${message}\n${USAGE}\n`);
  process.exit(2);
}

export function parseArgs(argv: string[]): EmulatorOptions {
  const o: EmulatorOptions = { port: 4010 };
  const num = (flag: string, v: string | undefined) => {
    if (v === undefined || v.trim() === "" || !Number.isFinite(Number(v)))
      fail(`${flag} needs a number, got ${v ?? "nothing"}`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const next = () => argv[++i];
    switch (flag) {
      case "--port":
        o.port = num(flag, next());
        break;
      case "--host":
        o.host = next() ?? fail("--host needs a value");
        break;
      case "--api-key":
        o.apiKey = next() ?? fail("--api-key needs a value");
        break;
      case "--state":
        o.statePath = next() ?? fail("--state needs a file name");
        break;
      case "--seed":
        o.seed = Math.trunc(num(flag, next()));
        break;
      case "--op-ms":
        o.opMs = num(flag, next());
        break;
      case "--op-jitter":
        o.opJitter = num(flag, next());
        break;
      case "--plan": {
        const v = next();
        if (v !== "free" && v !== "launch" && v !== "scale") fail("--plan must be free, launch or scale");
        o.plan = v;
        break;
      }
      case "--check-availability":
        o.checkAvailability = true;
        break;
      case "--omit-deprecated-fields":
        o.omitDeprecatedFields = true;
        break;
      case "--with-deprecated-fields":
        o.omitDeprecatedFields = false;
        break;
      case "--rate-limit":
        o.rateLimit = true;
        break;
      case "--log":
        o.logger = true;
        break;
      case "--postgres":
        o.postgres = o.postgres || true;
        break;
      case "--in-memory":
        o.postgres = false;
        break;
      case "--pg-data":
        o.postgres = { dataDir: next() ?? fail("--pg-data needs a folder") };
        break;
      case "--help":
      case "-h":
        process.stdout.write(`${USAGE}\n`);
        process.exit(0);
        break;
      default:
        fail(`unknown argument ${flag}`);
    }
  }
  return o;
}

/**
 * Real Postgres behind the computes unless `--in-memory` says otherwise: required with `--postgres` or
 * `--pg-data`, else used when the server programs are installed.
 */
function withPostgres(o: EmulatorOptions): { options: EmulatorOptions; note: string } {
  if (o.postgres === false)
    return { options: o, note: "in memory (--in-memory): connection URIs do not connect" };
  if (o.postgres) return { options: o, note: "real Postgres behind every compute" };
  const found = findPostgres();
  if (typeof found === "string")
    return { options: o, note: `in memory: connection URIs do not connect (${found})` };
  return { options: { ...o, postgres: true }, note: `real Postgres ${found.major} behind every compute` };
}

async function main(): Promise<void> {
  const { options, note } = withPostgres(parseArgs(process.argv.slice(2)));
  const emu = await startEmulator(options);
  const s = emu.seed;
  process.stdout.write(
    [
      `Emulator listening: ${emu.url}`,
      `API key (personal, bootstrap): ${emu.apiKey}`,
      `Project: ${s.projectId} (default branch ${s.defaultBranchId}, ${s.branchIds.length - 1} more branches)`,
      `Primary compute: ${s.primaryEndpointId} (read_write, on the default branch)`,
      `Branch dev-01 (no compute): ${s.branchIds[1]}`,
      `Free-plan project: ${s.freeProjectId} (branch ${s.freeProjectBranchId}, primary compute ${s.freeProjectPrimaryEndpointId}; branch dev-01 ${s.freeProjectBranchIds[1]})`,
      `Admin: ${emu.url.replace(/\/api\/v2$/, "")}/_emulator/state`,
      `Computes: ${note}`,
      "",
    ].join("\n"),
  );
  const stop = () => {
    void emu.stop().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((e: Error) => fail(e.message));
}
