/**
 * End to end (issue 19): a database per pull request, driven by the very commands of
 * `examples/preview-environment/workflow.yml`, in its order, on a stack `pr-<n>`, against the emulator —
 * for the TypeScript program (dynamic resources) and for the YAML one (the provider plugin). Each job
 * starts as in a fresh checkout: no `Pulumi.<stack>.yaml`, its config set again.
 *
 * Pull request opened: `stack select --create`, `config set`, `preview --refresh --diff` shows the
 * creates, and the `up` is killed once the branch's create request reached the service. The next run:
 * `cancel`, the pending create cleared, preview, `up --refresh` — the killed run's branch (auto-named) is
 * found again, never a second one. The outputs: the branch with its compute (scale to zero after 300 s),
 * `expiresAt` whole days ahead, the role and the database, and the connection string, a secret that logs
 * in (real Postgres behind the emulator). The workflow's schema step, its bash text run as written: "No
 * schema change." at first, then, after a migration on the branch, the difference against the parent
 * under the preview's comment. A push without changes previews none, and the drift check (`--expect-no-changes`) passes. After the
 * compute was resized and the database renamed and given to another owner outside Pulumi, the drift
 * check exits 7 naming each change, and the next push puts them back. The branch expiring (the service
 * deletes it) while the pull request is open: the next push creates the environment again. Closed:
 * `destroy`, `stack rm`, and nothing is left on the service. The connection strings and passwords
 * appear in no line a command printed, not in `pulumi stack export`, not in any file of the backend.
 */
import { execFile, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import {
  createTempStack,
  ensurePulumi,
  repoRoot,
  trackProcess,
  type TempStack,
} from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { parse as parseYaml } from "yaml";
import { psql } from "../../scripts/lib/psql";
import { persisted, pluginPath, killWhenHeld, watchCli } from "./plugin-helpers";

// The default budget (900 s a test): many times the 1–2 minutes one flow takes idle.
useStepBudgets();

const DAY_MS = 86_400_000;
/** Exit code of `pulumi preview --expect-no-changes` when changes were proposed: drift. */
const EXIT_DRIFT = 7;
const POST_BRANCH = "POST /projects/:project_id/branches";

let emulator: EmulatorHandle;
let api: NeonClient;

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 60, seed: 19, postgres: true });
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
});

afterAll(async () => {
  await emulator?.stop();
});

interface Run {
  code: number;
  /** stdout and stderr together. */
  out: string;
  stdout: string;
}

/** The state as `pulumi stack export` prints it (the parts read here). */
interface Exported {
  deployment: {
    pending_operations?: unknown[];
    resources?: { type: string; inputs?: Record<string, unknown> }[];
  };
}

/** One face of the example: its program, and what the workflow's jobs set in a fresh checkout. */
interface Face {
  programDir: string;
  /** `pulumi config set` arguments of the preview-environment job. */
  config: (projectId: string) => string[][];
  /** Those of the drift job, which must describe the stack's last update: read from its state. */
  configFromState: (projectId: string, state: Exported) => string[][];
  /** Resource types as the CLI prints them. */
  types: { branch: string; role: string; database: string };
  /** The branch's name is `<prefix><7 hex digits>`. */
  branchPrefix: (stack: string) => string;
  env: Record<string, string>;
}

/** The inputs of the stack's branch, as its last update recorded them. */
function branchInputs(state: Exported, type: string): Record<string, unknown> {
  const inputs = state.deployment.resources?.find((r) => r.type === type)?.inputs;
  expect(inputs).toBeDefined();
  return inputs ?? {};
}

/**
 * The day the file started (UTC): every job of a run gives the branch the same expiry, midnight three
 * days after it, also when the run crosses midnight (a job on the next day would otherwise move it).
 */
const START_DAY = Math.floor(Date.now() / DAY_MS);
const EXPIRES_AT_MS = (START_DAY + 3) * DAY_MS;

/** `date -u -d '+3 days' +%Y-%m-%dT00:00:00Z` as the workflow computes it, on the file's start day. */
function workflowExpiresAt(): string {
  return new Date(EXPIRES_AT_MS).toISOString().replace(".000Z", "Z");
}

/** `expiresInDays` that gives the TypeScript program the same expiry on whatever day the job runs. */
const expiresInDays = (): string => String(3 - (Math.floor(Date.now() / DAY_MS) - START_DAY));

const TS: Face = {
  programDir: path.join(repoRoot, "examples", "preview-environment"),
  config: (projectId) => [
    ["projectId", projectId],
    ["expiresInDays", expiresInDays()],
  ],
  // The program computes expiresAt from expiresInDays: the days its last update gave the branch.
  configFromState: (projectId, state) => {
    const at = Date.parse(String(branchInputs(state, "pulumi-nodejs:dynamic/neon:Branch").expiresAt));
    const days = Math.round((at - Math.floor(Date.now() / DAY_MS) * DAY_MS) / DAY_MS);
    return [
      ["projectId", projectId],
      ["expiresInDays", String(days)],
    ];
  },
  types: {
    branch: "pulumi-nodejs:dynamic/neon:Branch",
    role: "pulumi-nodejs:dynamic/neon:Role",
    database: "pulumi-nodejs:dynamic/neon:Database",
  },
  branchPrefix: (stack) => `${stack}-`,
  env: {},
};

const YAML: Face = {
  programDir: path.join(repoRoot, "examples", "preview-environment", "yaml"),
  config: (projectId) => [
    ["projectId", projectId],
    ["expiresAt", workflowExpiresAt()],
  ],
  // As the drift job: jq '.deployment.resources[] | select(.type == "neoncompute:index:Branch") | .inputs.expiresAt'
  configFromState: (projectId, state) => [
    ["projectId", projectId],
    ["expiresAt", String(branchInputs(state, "neoncompute:index:Branch").expiresAt)],
  ],
  types: {
    branch: "neoncompute:index:Branch",
    role: "neoncompute:index:Role",
    database: "neoncompute:index:Database",
  },
  branchPrefix: () => "preview-",
  env: { PATH: pluginPath() },
};

/** The application connecting with the exported connection string (real Postgres): the database it reached. */
async function login(uri: string): Promise<{ ok: boolean; database?: string; reason?: string }> {
  const r = await psql(uri, "SELECT current_database()");
  return r.ok ? { ok: true, database: r.out } : { ok: false, reason: r.error };
}

const WORKFLOW = path.join(repoRoot, "examples", "preview-environment", "workflow.yml");
const SCHEMA_STEP = "Post what the pull request changed in the schema";

/**
 * A step of the workflow's preview-environment job, its `run` text as written there, run by bash as
 * Actions runs it (`bash -eo pipefail`), in the program's folder on the selected stack. `gh` is a stand-in
 * that keeps the comment it was asked to post; the API is the emulator's.
 */
async function workflowStep(
  name: string,
  number: number,
  cwd: string,
  env: Record<string, string>,
  runnerTemp: string,
): Promise<{ code: number; out: string; posted?: string }> {
  const workflow = parseYaml(fs.readFileSync(WORKFLOW, "utf8")) as {
    jobs: Record<string, { steps: { name?: string; run?: string; env?: Record<string, string> }[] }>;
  };
  const step = workflow.jobs["preview-environment"].steps.find((x) => x.name === name);
  if (!step?.run) throw new Error(`workflow.yml has no step "${name}" with a run`);
  const script = step.run.replace(/\$\{\{ github\.event\.number \}\}/g, String(number));
  const bin = path.join(runnerTemp, "bin");
  fs.mkdirSync(bin, { recursive: true });
  // `gh pr comment <n> --edit-last --body-file <file>`: the body is what would be posted.
  fs.writeFileSync(
    path.join(bin, "gh"),
    '#!/usr/bin/env bash\nwhile [ $# -gt 0 ]; do if [ "$1" = --body-file ]; then cp "$2" "$RUNNER_TEMP/posted.md"; fi; shift; done\n',
    { mode: 0o755 },
  );
  fs.rmSync(path.join(runnerTemp, "posted.md"), { force: true });
  const stepEnv = { ...step.env, GH_TOKEN: "test", NEON_API_URL: emulator.url };
  return new Promise((resolve) => {
    execFile(
      "bash",
      ["-eo", "pipefail", "-c", script],
      {
        cwd,
        env: {
          ...process.env,
          ...env,
          ...stepEnv,
          PATH: `${bin}:${ensurePulumi()}:${env.PATH ?? ""}:${process.env.PATH ?? ""}`,
          RUNNER_TEMP: runnerTemp,
          NEON_PROJECT_ID: emulator.seed.projectId,
        },
        encoding: "utf8",
      },
      (err, stdout, stderr) => {
        const posted = path.join(runnerTemp, "posted.md");
        resolve({
          code: err ? (typeof err.code === "number" ? err.code : -1) : 0,
          out: `${stdout}${stderr}`,
          ...(fs.existsSync(posted) ? { posted: fs.readFileSync(posted, "utf8") } : {}),
        });
      },
    );
  });
}

/** The branches of the project whose name the provider derived for this stack's branch. */
async function branchesNamed(prefix: string) {
  const all = await api.branches.list(emulator.seed.projectId);
  return all.filter((b) => b.name.startsWith(prefix) && /^[0-9a-f]{7}$/.test(b.name.slice(prefix.length)));
}

/**
 * The whole life of one pull request's environment on stack `pr-<n>`, with the workflow's commands.
 * Every line every command printed goes to the transcript that the secret scan reads.
 */
async function pullRequest(face: Face, number: number): Promise<void> {
  const { projectId } = emulator.seed;
  const stackName = `pr-${number}`;
  const prefix = face.branchPrefix(stackName);
  const temp: TempStack = await createTempStack({
    programDir: face.programDir,
    stackName,
    // The workflow's secrets, as the environment the CLI runs in: nothing of the key in config or state.
    env: { ...face.env, NEON_API_KEY: emulator.apiKey, NEON_API_URL: emulator.url },
  });
  let transcript = "";
  /** `pulumi <args>` in the program's folder on the selected stack, as a workflow step runs it. */
  const pulumi = (args: string[], opts: { expectCode?: number; quiet?: boolean } = {}): Promise<Run> =>
    new Promise((resolve, reject) => {
      const child = execFile(
        path.join(ensurePulumi(), "pulumi"),
        args,
        { cwd: temp.workDir, env: { ...process.env, ...temp.env }, encoding: "utf8", maxBuffer: 64 << 20 },
        (err, stdout, stderr) => {
          const out = `${stdout}${stderr}`;
          if (!opts.quiet) transcript += out;
          const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
          if (code === (opts.expectCode ?? 0)) resolve({ code, out, stdout });
          else
            reject(
              new Error(`pulumi ${args.join(" ")} exited with ${code}, not ${opts.expectCode ?? 0}:\n${out}`),
            );
        },
      );
      trackProcess([...args, "--stack", stackName], child);
    });
  const outputs = async () => {
    const all = await temp.stack.outputs();
    expect([all.connectionUri?.secret, all.branchId?.secret, all.host?.secret]).toEqual([true, false, false]);
    return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v.value as string]));
  };
  const uris: string[] = [];
  const UP = ["up", "--yes", "--refresh"];
  const exported = async () => JSON.parse((await pulumi(["stack", "export"])).stdout) as Exported;
  /** A job starts in a fresh checkout, without `Pulumi.<stack>.yaml` (its config is set again). */
  const freshCheckout = () => fs.rmSync(path.join(temp.workDir, `Pulumi.${stackName}.yaml`), { force: true });
  /**
   * What the preview-environment and close jobs run first: a dead run's lock removed, the creates it left
   * pending cleared. Closing, also an `up` that finishes them, so that `destroy` deletes what they made.
   */
  const recover = async (closing = false) => {
    await pulumi(["cancel", "--yes"]);
    if (((await exported()).deployment.pending_operations ?? []).length > 0) {
      await pulumi(["refresh", "--yes", "--clear-pending-creates"]);
      if (closing) await pulumi(UP);
    }
  };
  /**
   * The first steps of the preview-environment and close jobs: the stack selected and configured (even
   * `destroy` refuses to start without the config values the program declares required), a killed
   * run's leftovers cleared.
   */
  const selectAndRecover = async (closing = false) => {
    freshCheckout();
    await pulumi(closing ? ["stack", "select", stackName] : ["stack", "select", "--create", stackName]);
    for (const [key, value] of face.config(projectId)) await pulumi(["config", "set", key, value]);
    await recover(closing);
  };
  /** The preview-environment job up to its preview, whose output it returns. */
  const previewJob = async (): Promise<Run> => {
    await selectAndRecover();
    return pulumi(["preview", "--refresh", "--diff", "--color", "never"]);
  };
  /** The drift job's check of this stack, configured as its last update was. */
  const driftJob = async (expectCode = 0): Promise<Run> => {
    freshCheckout();
    await pulumi(["stack", "select", stackName]);
    for (const [key, value] of face.configFromState(projectId, await exported())) {
      await pulumi(["config", "set", key, value]);
    }
    return pulumi(["preview", "--refresh", "--diff", "--expect-no-changes", "--color", "never"], {
      expectCode,
    });
  };

  try {
    // ---- pull_request opened: the preview shows the creates; the up is killed mid-create -------------
    const opened = await previewJob();
    for (const type of Object.values(face.types)) expect(opened.out).toContain(`+ ${type}: (create)`);
    expect(opened.out).toMatch(/suspendTimeoutSeconds\s*: 300/);
    expect(opened.out).toMatch(/expiresAt\s*: "\d{4}-\d\d-\d\dT00:00:00(\.000)?Z"/);
    expect(opened.out).toMatch(/connectionUri\s*: \[unknown\]/);
    expect(opened.out).toMatch(/\+ 4 to create/);

    const hold = emulator.holdAnswers(POST_BRANCH);
    const child = spawn(path.join(ensurePulumi(), "pulumi"), UP, {
      cwd: temp.workDir,
      env: { ...process.env, ...temp.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    trackProcess([...UP, "--stack", stackName], child);
    child.stdout.on("data", (d) => (transcript += String(d)));
    child.stderr.on("data", (d) => (transcript += String(d)));
    await killWhenHeld(
      child,
      watchCli(child, [...UP, "--stack", stackName]),
      hold,
      "the branch's create request",
    );
    const killed = await branchesNamed(prefix);
    expect(killed).toHaveLength(1);

    // ---- the next run (pull_request synchronize): recovered, previewed, updated ----------------------
    const again = await previewJob();
    expect(again.out).toMatch(/\+ 3 to create\s+1 unchanged/); // the stack itself was recorded before the kill
    const recovered = await pulumi(UP);
    expect(recovered.out).toMatch(/made for this resource by an earlier run of this stack .*; managing it/);
    expect((await branchesNamed(prefix)).map((b) => b.id)).toEqual([killed[0].id]);

    // ---- the outputs: branch, compute (scale to zero), expiry, role, database, connection string -----
    const out = await outputs();
    expect(out.branchId).toBe(killed[0].id);
    expect(out.branchName).toBe(killed[0].name);
    const branch = await api.branches.get(projectId, out.branchId);
    expect([branch.current_state, branch.parent_id]).toEqual(["ready", emulator.seed.defaultBranchId]);
    const expires = Date.parse(branch.expires_at ?? "");
    // Whole days (every push of the day previews no change): midnight three days after the start day.
    expect(expires).toBe(EXPIRES_AT_MS);
    const computes = await api.endpoints.listByBranch(projectId, branch.id);
    expect(
      computes.map((e) => [
        e.type,
        e.autoscaling_limit_min_cu,
        e.autoscaling_limit_max_cu,
        e.suspend_timeout_seconds,
        e.host,
      ]),
    ).toEqual([["read_write", 0.25, 1, 300, out.host]]);
    expect((await api.roles.get(projectId, branch.id, "app")).name).toBe("app");
    expect(
      (await api.databases.list(projectId, branch.id)).map((d) => [d.name, d.owner_name]),
    ).toContainEqual(["app", "app"]);
    // What the application's deploy step runs; its output is the secret itself (kept out of the transcript).
    const shown = await pulumi(["stack", "output", "connectionUri", "--show-secrets"], { quiet: true });
    expect(shown.out.trim()).toBe(out.connectionUri);
    const uri = new URL(out.connectionUri);
    uris.push(out.connectionUri);
    expect([uri.protocol, uri.username, uri.hostname, uri.pathname]).toEqual([
      "postgresql:",
      "app",
      out.host,
      "/app",
    ]);
    expect(await login(out.connectionUri)).toEqual({ ok: true, database: "app" });
    expect((await pulumi(["stack", "output"])).out).toMatch(/connectionUri\s+\[secret\]/);

    // ---- the schema step: nothing changed yet; after the pull request's migration, what it changed ---
    const runnerTemp = fs.mkdtempSync(path.join(temp.workDir, ".runner-"));
    fs.writeFileSync(path.join(runnerTemp, "comment.md"), "### the preview's comment\n");
    const schemaStep = () => workflowStep(SCHEMA_STEP, number, temp.workDir, temp.env, runnerTemp);
    const before = await schemaStep();
    expect(before.code).toBe(0);
    expect(before.posted).toBe(
      "### the preview's comment\n\n### Schema of `neondb`: this pull request's branch against its parent\nNo schema change.\n",
    );
    const owner = await api.projects.connectionUri(projectId, {
      branchId: branch.id,
      databaseName: "neondb",
      roleName: "neondb_owner",
    });
    const migrated = await psql(owner, "CREATE TABLE orders (id bigint PRIMARY KEY, total numeric(10,2))");
    expect(migrated.error).toBe("");
    const after = await schemaStep();
    expect(after.code).toBe(0);
    expect(after.posted).toMatch(
      /^### the preview's comment\n\n### Schema of `neondb`: this pull request's branch against its parent\n```diff\n--- a\/neondb\n\+\+\+ b\/neondb\n/,
    );
    expect(after.posted).toMatch(/^\+CREATE TABLE public\.orders \($/m);
    expect(after.posted).toMatch(/\n```\n$/);

    // ---- a push without changes: nothing to do; the drift check finds nothing ------------------------
    const push = await previewJob();
    expect(push.out).toMatch(/4 unchanged/);
    expect(push.out).not.toMatch(/to create|to update|to delete|to replace/);
    await pulumi(UP);
    expect((await driftJob(0)).out).toMatch(/4 unchanged/);

    // ---- the scheduled drift check, after changes made outside Pulumi ---------------------------------
    await api.endpoints.update(projectId, computes[0].id, { autoscaling_limit_max_cu: 2 });
    await api.databases.update(projectId, branch.id, "app", {
      name: "app_renamed",
      owner_name: "neondb_owner",
    });
    const drift = await driftJob(EXIT_DRIFT);
    expect(drift.out).toMatch(/~ maxCu\s*: 1 => 2/); // what the refresh found
    expect(drift.out).toMatch(/~ maxCu\s*: 2 => 1/); // what the next up would do
    expect(drift.out).toMatch(/~ name\s*: "app" => "app_renamed"/);
    expect(drift.out).toMatch(/~ name\s*: "app_renamed" => "app"/);
    expect(drift.out).toMatch(/~ ownerName\s*: "app" => "neondb_owner"/);
    expect(drift.out).toMatch(/~ ownerName\s*: "neondb_owner" => "app"/);
    expect(drift.out).toMatch(/~ 2 to update/);
    expect(drift.out).toMatch(/no changes were expected for preview but changes were proposed/);
    // The next push puts the declared values back.
    expect((await previewJob()).out).toMatch(/~ 2 to update/);
    await pulumi(UP);
    const [compute] = await api.endpoints.listByBranch(projectId, branch.id);
    expect(compute.autoscaling_limit_max_cu).toBe(1);
    const databases = (await api.databases.list(projectId, branch.id)).map((d) => [d.name, d.owner_name]);
    expect(databases).toContainEqual(["app", "app"]);
    expect(databases.map(([name]) => name)).not.toContain("app_renamed");

    // ---- the branch expired while the pull request is open: the next push makes it again -------------
    await api.branches.delete(projectId, branch.id); // what the service does at expiresAt
    const expired = await previewJob();
    expect(expired.out).toMatch(/\+ 3 to create/);
    await pulumi(UP);
    const renewed = await outputs();
    expect(renewed.branchId).not.toBe(branch.id);
    expect(renewed.branchName).toBe(branch.name); // the same derived name: the same resource
    expect((await branchesNamed(prefix)).map((b) => b.id)).toEqual([renewed.branchId]);
    uris.push(renewed.connectionUri);
    expect(await login(renewed.connectionUri)).toEqual({ ok: true, database: "app" });

    // ---- the secrets are nowhere but the secret output ------------------------------------------------
    const secrets = [...uris, ...uris.map((u) => decodeURIComponent(new URL(u).password))];
    const everything = await persisted(temp);
    expect(everything).toContain("connectionUri");
    for (const secret of [...secrets, emulator.apiKey]) {
      expect(everything).not.toContain(secret);
      expect(transcript).not.toContain(secret);
    }

    // ---- pull_request closed: destroy, stack rm; nothing is left ---------------------------------------
    await selectAndRecover(true);
    const destroyed = await pulumi(["destroy", "--yes"]);
    expect(destroyed.out).toMatch(/- 4 deleted/);
    await pulumi(["stack", "rm", "--yes"]); // no --force: destroy left nothing in the stack
    expect((await temp.stack.workspace.listStacks()).map((s) => s.name)).not.toContain(stackName);
    for (const id of [branch.id, renewed.branchId]) {
      await expect(api.branches.get(projectId, id)).rejects.toMatchObject({ kind: "not_found" });
      await expect(api.roles.get(projectId, id, "app")).rejects.toMatchObject({ kind: "not_found" });
      await expect(api.databases.list(projectId, id)).rejects.toMatchObject({ kind: "not_found" });
    }
    expect(await branchesNamed(prefix)).toEqual([]);
    const orphans = (await api.endpoints.list(projectId)).filter((e) =>
      [branch.id, renewed.branchId].includes(e.branch_id),
    );
    expect(orphans).toEqual([]);
    expect((await login(renewed.connectionUri)).ok).toBe(false);

    // Nothing the backend keeps (history, backups) and no line printed holds a secret.
    const left = fs
      .readdirSync(temp.backendDir, { recursive: true, encoding: "utf8" })
      .map((f) => path.join(temp.backendDir, f))
      .filter((f) => fs.statSync(f).isFile())
      .map((f) => fs.readFileSync(f, "utf8"))
      .join("\n");
    for (const secret of secrets) {
      expect(left).not.toContain(secret);
      expect(transcript).not.toContain(secret);
    }
  } finally {
    await temp.dispose();
  }
}

test("TypeScript (examples/preview-environment): the workflow's commands on stack pr-<n>, from open to close", async () => {
  await pullRequest(TS, 101);
});

test("YAML through the plugin (examples/preview-environment/yaml): the workflow's commands on stack pr-<n>, from open to close", async () => {
  await pullRequest(YAML, 102);
});
