/**
 * Running the real Pulumi CLI offline, for the demo, the end-to-end tests and the benchmarks.
 *
 * Everything is local: a file backend in a temporary folder, a passphrase secrets provider, no
 * update checks and no plugin downloads. The CLI comes from PATH or from `scripts/ensure-pulumi`,
 * which builds it from Go modules once per machine.
 */
import { execFileSync, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";

export const repoRoot = path.resolve(__dirname, "../..");

let binDir: string | undefined;

/**
 * The folder holding `pulumi`, `pulumi-language-nodejs` and the dynamic provider plugin, and (unless
 * `nodejsOnly`: a caller that runs TypeScript programs only, such as the demo) the YAML and Go
 * language hosts. The first call of a process decides.
 */
export function ensurePulumi(options: { nodejsOnly?: boolean } = {}): string {
  if (binDir) return binDir;
  const out = execFileSync(path.join(repoRoot, "scripts/ensure-pulumi"), {
    cwd: repoRoot,
    encoding: "utf8",
    env: options.nodejsOnly
      ? { ...process.env, ENSURE_PULUMI_NO_YAML: "1", ENSURE_PULUMI_NO_GO: "1" }
      : process.env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = out.trim().split("\n");
  binDir = lines[lines.length - 1].trim();
  if (!fs.existsSync(path.join(binDir, "pulumi"))) {
    throw new Error(`scripts/ensure-pulumi printed ${binDir}, which holds no pulumi binary`);
  }
  return binDir;
}

/** Environment for an offline CLI run against a file backend. */
export function offlineEnv(backendDir: string): Record<string, string> {
  return {
    PATH: `${ensurePulumi()}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: "local-only-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_HOME: path.join(backendDir, ".pulumi-home"),
    // Type-checking is `npm test`'s job; the engine only needs to run the programs.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
}

/** A CLI command running now: what the e2e tests' step budgets report when they run out. */
export interface RunningCommand {
  /** `pulumi up --stack dev` (flags with values left out). */
  label: string;
  startedAt: number;
}

const running = new Set<RunningCommand>();

/** The CLI commands running now, oldest first. */
export function runningCommands(): RunningCommand[] {
  return [...running].sort((a, b) => a.startedAt - b.startedAt);
}

/** `pulumi <subcommand…> --stack <name>`: the command's leading words, and its stack. */
export function commandLabel(args: readonly string[]): string {
  const firstFlag = args.findIndex((a) => a.startsWith("-"));
  const words = firstFlag < 0 ? args : args.slice(0, firstFlag);
  const i = args.indexOf("--stack");
  const stack = i >= 0 && args[i + 1] ? ` --stack ${args[i + 1]}` : "";
  return `pulumi ${words.join(" ")}${stack}`;
}

/** Records `child` (a CLI started directly) as running until it exits. */
export function trackProcess(args: readonly string[], child: ChildProcess): void {
  const entry = { label: commandLabel(args), startedAt: Date.now() };
  running.add(entry);
  child.once("exit", () => running.delete(entry));
  child.once("error", () => running.delete(entry));
}

let command: Promise<PulumiCommand> | undefined;

/**
 * The Automation API's handle on the CLI found by {@link ensurePulumi}; every command it runs is
 * recorded as running (see {@link runningCommands}) while it runs.
 */
export function pulumiCommand(): Promise<PulumiCommand> {
  const bin = ensurePulumi();
  command ??= PulumiCommand.get({ root: path.dirname(bin), skipVersionCheck: false }).then(tracked);
  return command;
}

/** `PulumiCommand.run`, which the Automation API calls for every command (not in its typings). */
type Runner = { run(args: string[], ...rest: unknown[]): Promise<unknown> };

function tracked(cmd: PulumiCommand): PulumiCommand {
  const run = (cmd as unknown as Runner).run.bind(cmd);
  const wrapper = Object.create(cmd) as Runner;
  wrapper.run = (args, ...rest) => {
    const entry = { label: commandLabel(args), startedAt: Date.now() };
    running.add(entry);
    return run(args, ...rest).finally(() => running.delete(entry));
  };
  return wrapper as unknown as PulumiCommand;
}

/**
 * Fails early, naming the remedy, unless this checkout can be imported by its package name: the
 * programs the CLI runs import `@neon-labs-unofficial/pulumi-neon-compute`, and the provider process
 * loads the compiled implementation through that name (docs/decisions/0001). Installing the package's
 * dependencies builds and links nothing; `npm run build:link` does both, and `npm test`,
 * `npm run demo` and `npm run bench:stack` run it first.
 */
export function assertPackageLinked(): void {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    name: string;
    main: string;
  };
  const link = path.join(repoRoot, "node_modules", ...pkg.name.split("/"));
  const problems: string[] = [];
  let target: string | undefined;
  try {
    target = fs.realpathSync(link);
  } catch {
    // Reported below.
  }
  if (target !== fs.realpathSync(repoRoot)) problems.push(`${link} is not a link to this checkout`);
  if (!fs.existsSync(path.join(repoRoot, pkg.main))) problems.push(`${pkg.main} is not built`);
  if (problems.length > 0) {
    throw new Error(
      `Failed to run a Pulumi program against this checkout: ${problems.join("; ")}. ` +
        'Run "npm run build:link" first.',
    );
  }
}

/** A throwaway copy of a Pulumi program with its own file backend. */
export interface TempStack {
  stack: Stack;
  workDir: string;
  backendDir: string;
  env: Record<string, string>;
  /** Removes the stack's state and the temporary folders. */
  dispose(): Promise<void>;
}

/**
 * Copies `programDir` into a temporary folder inside the repository (so that `node_modules` and the
 * package itself resolve as for a user) and creates a stack there on a fresh file backend.
 */
export async function createTempStack(opts: {
  programDir: string;
  stackName?: string;
  config?: Record<string, { value: string; secret?: boolean }>;
  env?: Record<string, string>;
}): Promise<TempStack> {
  assertPackageLinked();
  const tmpRoot = path.join(repoRoot, ".pulumi-tmp");
  fs.mkdirSync(tmpRoot, { recursive: true });
  const workDir = fs.mkdtempSync(path.join(tmpRoot, `${path.basename(opts.programDir)}-`));
  for (const file of fs.readdirSync(opts.programDir)) {
    if (/^Pulumi\..+\.yaml$/.test(file) || file === "node_modules") continue;
    fs.cpSync(path.join(opts.programDir, file), path.join(workDir, file), { recursive: true });
  }
  const backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "neon-pulumi-backend-"));
  const env = { ...offlineEnv(backendDir), ...(opts.env ?? {}) };
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: opts.stackName ?? "dev", workDir },
    { pulumiCommand: await pulumiCommand(), envVars: env },
  );
  if (opts.config) await stack.setAllConfig(opts.config);
  return {
    stack,
    workDir,
    backendDir,
    env,
    async dispose() {
      try {
        await stack.workspace.removeStack(stack.name, { force: true });
      } catch {
        // The folders go anyway.
      }
      fs.rmSync(workDir, { recursive: true, force: true });
      fs.rmSync(backendDir, { recursive: true, force: true });
    },
  };
}
