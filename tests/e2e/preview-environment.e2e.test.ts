/**
 * End to end (issues 19, 53): `examples/preview-environment/workflow.yml` itself, its jobs run by
 * `tests/support/workflow-runner.ts` as a runner would — each job's `if:`, its `run:` steps in order under
 * `bash -eo pipefail`, its `env:` and `working-directory`, `$GITHUB_OUTPUT`/`$GITHUB_ENV`, `::add-mask::` —
 * against the emulator (real Postgres behind it), for the YAML program as the file ships it and for the
 * TypeScript one (its `PREVIEW_DIR` line changed, as the file says). What the `uses:` steps provide stands
 * in: Node.js and the Pulumi CLI on PATH (no plugin of this checkout on it), the checkout a copy of the
 * program folders. `gh` records the comments it is asked to post. The provider comes from a release the
 * file built once: its tarball (`npm pack`) and plugin archive (`npm run release`), served over HTTP
 * (YAML: the "release asset" form of `NEON_PROVIDER_FROM`) or a folder (TypeScript); nothing is
 * installed by the published name, which answers 404.
 *
 * The life of a pull request: opened, its `up` killed once the branch's create reached the service; the
 * next push recovers (one branch, the killed run's), the application's migration runs as the pull
 * request's role on its database `app`, and the comment shows the preview and the new table; a push to
 * main (`main`, over a stand-in `infra` program); the scheduled `drift` (none, then exit 7 naming each
 * change made outside Pulumi) and `sweep` (a leaked branch deleted, the live one kept); the next push puts
 * the declared values back (the Data API made again); the branch expires and the next push makes it again;
 * Neon Auth's and the Data API's URLs printed as outputs, served (the Data API refuses a request without a
 * token, 401, and answers the migration's table to a Neon Auth user); closed: destroy, stack
 * rm, nothing left; closed again: nothing to do. A fork's pull request runs nothing. The connection
 * strings and passwords are masked by the job and appear in no line printed, no comment, no backend file.
 */
import { execFile, execFileSync, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as http from "http";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";
import { buildPluginArchive, PACKAGE, PLUGIN } from "../../scripts/lib/package";
import { ensurePulumi, repoRoot } from "../../scripts/lib/pulumi";
import { psql } from "../../scripts/lib/psql";
import { useStepBudgets } from "../support/budgets";
import { loadWorkflow, runJob, type JobResult, type Workflow } from "../support/workflow-runner";
import { killWhenHeld, watchCli } from "./plugin-helpers";

// The default budget (900 s a test): many times what one pull request's jobs take idle.
useStepBudgets();

const run = promisify(execFile);
const WORKFLOW = path.join(repoRoot, "examples", "preview-environment", "workflow.yml");
const POST_BRANCH = "POST /projects/:project_id/branches";
const SCHEMA_STEP = "Post what the pull request changed in the schema";
const REPOSITORY = "acme/shop";

let emulator: EmulatorHandle;
let api: NeonClient;
/** The release the tests install from: a folder, and the same files over HTTP. */
let release: { dir: string; url: string; server: http.Server };
let work: string;

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 60, seed: 19, postgres: true });
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  work = fs.mkdtempSync(path.join(os.tmpdir(), "neon-workflow-"));
  const dir = path.join(work, "release");
  // `npm run release` (it packs the package first); the tarball is packed again from the archive's copy
  // of the package, without building it a second time.
  const archive = await buildPluginArchive(dir);
  const unpacked = path.join(work, "unpacked");
  fs.mkdirSync(unpacked);
  await run("tar", ["-xzf", archive, "-C", unpacked]);
  await run("npm", ["pack", "--ignore-scripts", "--pack-destination", dir], {
    cwd: path.join(unpacked, "node_modules", ...PACKAGE.name.split("/")),
  });
  fs.rmSync(unpacked, { recursive: true, force: true });
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.basename(decodeURIComponent(req.url ?? "")));
    if (!fs.existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  release = { dir, url: `http://127.0.0.1:${port}/releases/download/v${PACKAGE.version}/`, server };
});

afterAll(async () => {
  await new Promise((resolve) => release?.server.close(resolve));
  await emulator?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** One face of the example: its folder (`PREVIEW_DIR`), its types, its branch's derived name. */
interface Face {
  previewDir: string;
  types: { branch: string; role: string; database: string; auth: string; dataApi: string };
  /** The branch's name is `<prefix><7 hex digits>`. */
  branchPrefix: (stack: string) => string;
  /** Where the checkout is made: the TypeScript program resolves the package from this checkout. */
  workRoot: string;
  /** `NEON_PROVIDER_FROM`. */
  providerFrom: () => string;
}

const YAML: Face = {
  previewDir: "examples/preview-environment/yaml",
  types: {
    branch: "neoncompute:index:Branch",
    role: "neoncompute:index:Role",
    database: "neoncompute:index:Database",
    auth: "neoncompute:index:NeonAuth",
    dataApi: "neoncompute:index:DataApi",
  },
  branchPrefix: () => "preview-",
  workRoot: os.tmpdir(),
  providerFrom: () => release.url,
};

const TS: Face = {
  previewDir: "examples/preview-environment",
  types: {
    branch: "pulumi-nodejs:dynamic/neon:Branch",
    role: "pulumi-nodejs:dynamic/neon:Role",
    database: "pulumi-nodejs:dynamic/neon:Database",
    auth: "pulumi-nodejs:dynamic/neon:NeonAuth",
    dataApi: "pulumi-nodejs:dynamic/neon:DataApi",
  },
  branchPrefix: (stack) => `${stack}-`,
  // Inside the repository: `node_modules` holds the package (linked) and @pulumi/pulumi, as a user's
  // `npm ci` would.
  workRoot: path.join(repoRoot, ".pulumi-tmp"),
  providerFrom: () => release.dir,
};

/** A comment `gh` was asked to post: its arguments and its body. */
interface Posted {
  args: string[];
  body: string;
}

/**
 * The machine the jobs of one test run on, one after the other: a file backend (the secret
 * `PULUMI_BACKEND_URL`), Pulumi's home (its plugin cache, as a runner's tool cache keeps it), `gh` and
 * the clock's day pinned for `date -d '+N days'` (every job of the test gives the branch the same expiry,
 * also when the test crosses midnight). Every line a job printed is kept for the secret scan.
 */
function machine(face: Face) {
  const root = fs.mkdtempSync(path.join(work, "machine-"));
  const backend = path.join(root, "backend");
  const stubs = path.join(root, "bin");
  const gh = path.join(root, "gh");
  for (const d of [backend, stubs, gh]) fs.mkdirSync(d);
  fs.writeFileSync(
    path.join(stubs, "gh"),
    [
      "#!/usr/bin/env bash",
      '[ -n "$GH_TOKEN" ] || { echo "gh: GH_TOKEN is not set" >&2; exit 4; }',
      'n=$(find "$GH_RECORD" -name "*.args" | wc -l)',
      'printf "%s\\n" "$@" > "$GH_RECORD/$n.args"',
      'while [ $# -gt 0 ]; do if [ "$1" = --body-file ]; then cp "$2" "$GH_RECORD/$n.body"; fi; shift; done',
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  const today = new Date().toISOString().slice(0, 10);
  const realDate = execFileSync("bash", ["-c", "command -v date"], { encoding: "utf8" }).trim();
  fs.writeFileSync(
    path.join(stubs, "date"),
    [
      "#!/usr/bin/env bash",
      "args=()",
      "while [ $# -gt 0 ]; do",
      `  if [ "$1" = -d ] && [[ "$2" == +* ]]; then args+=(-d "${today} $2"); shift 2; else args+=("$1"); shift; fi`,
      "done",
      `exec ${realDate} "\${args[@]}"`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  // setup-node and pulumi/actions: Node.js and the CLI (with its language hosts) on PATH; the rest
  // of the machine's PATH without any folder holding this checkout's plugin launcher.
  const systemPath = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((d) => d !== "" && !fs.existsSync(path.join(d, PLUGIN)) && !d.includes("node_modules"));
  // The machine's own environment (its certificates, proxies, npm's settings), without what this test
  // run or a checkout set: Pulumi's and the provider's variables, npm's script variables.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !/^(PULUMI_|NEON_|npm_(?!config_))/.test(e[0]),
    ),
  );
  const machineEnv: Record<string, string> = {
    ...inherited,
    PATH: [stubs, path.dirname(process.execPath), ensurePulumi(), ...systemPath].join(path.delimiter),
    GH_RECORD: gh,
    PULUMI_HOME: path.join(root, "pulumi-home"),
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // Type-checking is `npm test`'s job; the engine only needs to run the TypeScript program.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    // The service: the emulator (the workflow leaves it to the provider's default, the real one).
    NEON_API_URL: emulator.url,
    // npm's cache first (the sweep job installs @pulumi/pulumi and tsx).
    npm_config_prefer_offline: "true",
  };
  const secrets = {
    NEON_API_KEY: emulator.apiKey,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "local-only-passphrase",
  };
  const workflow: Workflow = loadWorkflow(WORKFLOW);
  // The file's one line that says where the provider comes from, and (TypeScript) which program.
  workflow.env = { ...workflow.env, NEON_PROVIDER_FROM: face.providerFrom(), PREVIEW_DIR: face.previewDir };
  const infra = path.join(root, "infra");
  fs.mkdirSync(infra);
  fs.writeFileSync(
    path.join(infra, "Pulumi.yaml"),
    "name: infra\nruntime: yaml\ndescription: Stands in for the long-lived program of the stack main.\noutputs:\n  ready: true\n",
  );
  let transcript = "";
  const comments: Posted[] = [];
  return {
    backend,
    infra,
    machineEnv,
    secrets,
    /** Every comment posted so far. */
    comments,
    get transcript() {
      return transcript;
    },
    /** The comments posted since the last call. */
    posted(): Posted[] {
      const seen = comments.length;
      const all = fs.readdirSync(gh).filter((f) => f.endsWith(".args")).length;
      for (let n = seen; n < all; n++) {
        const body = path.join(gh, `${n}.body`);
        comments.push({
          args: fs
            .readFileSync(path.join(gh, `${n}.args`), "utf8")
            .trimEnd()
            .split("\n"),
          body: fs.existsSync(body) ? fs.readFileSync(body, "utf8") : "",
        });
      }
      return comments.slice(seen);
    },
    /** Runs a job in a fresh checkout (no `Pulumi.<stack>.yaml`) with the event given. */
    async job(
      id: string,
      event: { name: string; payload?: Record<string, unknown> },
      hooks: Pick<Parameters<typeof runJob>[1], "before" | "started"> = {},
    ): Promise<JobResult> {
      fs.mkdirSync(face.workRoot, { recursive: true });
      const workspace = fs.mkdtempSync(path.join(face.workRoot, "workflow-checkout-"));
      const runnerTemp = fs.mkdtempSync(path.join(root, "runner-temp-"));
      try {
        const result = await runJob(id, {
          workflow,
          github: {
            event_name: event.name,
            event: (event.payload ?? {}) as never,
            repository: REPOSITORY,
            token: "ghs_stand-in-token",
          },
          secrets,
          vars: { NEON_PROJECT_ID: emulator.seed.projectId },
          machineEnv,
          workspace,
          runnerTemp,
          actions: {
            // The repository's files the jobs read: the program folder and the long-lived program.
            "actions/checkout": ({ workspace: into }) => {
              const program = path.join(repoRoot, face.previewDir);
              for (const file of fs.readdirSync(program)) {
                if (/^Pulumi\..+\.yaml$/.test(file) || file === "node_modules") continue;
                fs.cpSync(path.join(program, file), path.join(into, face.previewDir, file), {
                  recursive: true,
                });
              }
              fs.cpSync(infra, path.join(into, "infra"), { recursive: true });
            },
            "actions/setup-node": () => undefined,
            "pulumi/actions": () => undefined,
          },
          ...hooks,
        });
        transcript += result.log;
        return result;
      } finally {
        fs.rmSync(workspace, { recursive: true, force: true });
        fs.rmSync(runnerTemp, { recursive: true, force: true });
      }
    },
  };
}

/** A `pull_request` event of this repository (or of a fork). */
function pullRequestEvent(number: number, action: string, fork = false) {
  return {
    name: "pull_request",
    payload: {
      action,
      number,
      pull_request: { number, head: { repo: { full_name: fork ? "someone/shop" : REPOSITORY } } },
    },
  };
}

/** The steps that ran, by label, and how each ended: what a failing job shows first. */
function summary(job: JobResult): string {
  return job.steps.map((s) => `${s.label}: ${s.skipped ? "skipped" : `exit ${s.code}`}`).join("\n");
}

/** Fails with the job's log unless every step that ran succeeded. */
function expectSucceeded(job: JobResult): void {
  if (!job.succeeded || job.skipped) {
    throw new Error(`the job did not succeed:\n${summary(job)}\n${job.log}`);
  }
}

/** The branches of the project whose name the provider derived for this stack's branch. */
async function branchesNamed(prefix: string) {
  const all = await api.branches.list(emulator.seed.projectId);
  return all.filter((b) => b.name.startsWith(prefix) && /^[0-9a-f]{7}$/.test(b.name.slice(prefix.length)));
}

/** The application connecting with the exported connection string (real Postgres). */
async function login(uri: string): Promise<{ ok: boolean; database?: string }> {
  const r = await psql(uri, "SELECT current_database()");
  return r.ok ? { ok: true, database: r.out } : { ok: false };
}

const schemaHeading = "### Schema of `app`: this pull request's branch against its parent\n";

/**
 * A pull request's first run, killed in its `up` right after the branch's create reached the service,
 * then the next push: recovered, previewed, updated, migrated, its schema posted. Returns the branch.
 */
async function openAndRecover(face: Face, m: ReturnType<typeof machine>, number: number) {
  const { projectId } = emulator.seed;
  const stack = `pr-${number}`;
  const prefix = face.branchPrefix(stack);

  // ---- pull_request opened: the preview posted; the up killed mid-create ------------------------------
  const hold = emulator.holdAnswers(POST_BRANCH);
  const opened = await m.job("preview-environment", pullRequestEvent(number, "opened"), {
    started: {
      Update: (child: ChildProcess) =>
        killWhenHeld(child, watchCli(child, ["up", "--stack", stack]), hold, "the branch's create request"),
    },
  });
  expect(opened.step("Install the neoncompute provider").code).toBe(0);
  expect(opened.step("Recover from a run that was killed").out).not.toMatch(/clear-pending|Refreshing/);
  const preview = opened.step("Preview").out;
  for (const type of Object.values(face.types)) expect(preview).toContain(`+ ${type}: (create)`);
  expect(preview).toMatch(/suspendTimeoutSeconds\s*: 300/);
  expect(preview).toMatch(/expiresAt\s*: "\d{4}-\d\d-\d\dT00:00:00(\.000)?Z"/);
  expect(preview).toMatch(/connectionUri\s*: \[unknown\]/);
  expect(preview).toMatch(/authUrl\s*: \[unknown\]\n\s*branchId/);
  expect(preview).toMatch(/\+ 6 to create/);
  const [first] = m.posted();
  expect(first.args).toEqual([
    "pr",
    "comment",
    String(number),
    "--edit-last",
    "--create-if-none",
    "--body-file",
    expect.any(String),
  ]);
  expect(
    first.body.startsWith(
      `### Database of this pull request: \`pulumi preview\` of stack ${stack}\n\`\`\`\n`,
    ),
  ).toBe(true);
  expect(first.body).toMatch(/\+ 6 to create\n(?:[\s\S]*\n)?```\n$/);
  expect(first.body).toContain(`+ ${face.types.database}: (create)`);
  expect([opened.succeeded, opened.step("Update").code]).toEqual([false, null]); // killed
  expect(opened.step(SCHEMA_STEP).skipped).toBe(true);
  const killed = await branchesNamed(prefix);
  expect(killed).toHaveLength(1);

  // ---- the next run (synchronize): recovered, previewed, updated; the migration; the schema posted ----
  let migrated = "";
  const again = await m.job("preview-environment", pullRequestEvent(number, "synchronize"), {
    // The application's deploy (the workflow's commented step): its migration, as the pull request's
    // role on its own database, with the connection string the job handed over.
    before: {
      [SCHEMA_STEP]: async (outputs) => {
        const r = await psql(
          outputs.database.uri,
          "CREATE TABLE orders (id bigint PRIMARY KEY, total numeric(10,2))",
        );
        migrated = r.error;
      },
    },
  });
  expectSucceeded(again);
  expect(migrated).toBe("");
  expect(again.step("Recover from a run that was killed").out).toMatch(/Refreshing \(pr-/);
  expect(again.step("Preview").out).toMatch(/\+ 5 to create\s+1 unchanged/); // the stack was recorded before the kill
  expect(again.step("Update").out).toMatch(
    /made for this resource by an earlier run of this stack .*; managing it/,
  );
  expect((await branchesNamed(prefix)).map((b) => b.id)).toEqual([killed[0].id]);

  // ---- what the job handed over, and what the service holds -------------------------------------------
  const uri = again.outputs.database.uri;
  const password = decodeURIComponent(new URL(uri).password);
  expect(again.masks).toEqual([uri, password]);
  const branch = await api.branches.get(projectId, killed[0].id);
  expect([branch.current_state, branch.parent_id]).toEqual(["ready", emulator.seed.defaultBranchId]);
  const expires = new Date(Date.parse(branch.expires_at ?? ""));
  expect(expires.toISOString()).toMatch(/T00:00:00\.000Z$/);
  const computes = await api.endpoints.listByBranch(projectId, branch.id);
  expect(
    computes.map((e) => [
      e.type,
      e.autoscaling_limit_min_cu,
      e.autoscaling_limit_max_cu,
      e.suspend_timeout_seconds,
    ]),
  ).toEqual([["read_write", 0.25, 1, 300]]);
  expect((await api.databases.list(projectId, branch.id)).map((d) => [d.name, d.owner_name])).toContainEqual([
    "app",
    "app",
  ]);
  const parsed = new URL(uri);
  expect([parsed.protocol, parsed.username, parsed.hostname, parsed.pathname]).toEqual([
    "postgresql:",
    "app",
    computes[0].host,
    "/app",
  ]);
  expect(await login(uri)).toEqual({ ok: true, database: "app" });

  // ---- the URLs of Neon Auth and the Data API, as the update printed them: served, the data behind a token
  const printed = (name: string) => {
    const m = new RegExp(`\\+ ${name}\\s*: "([^"]+)"`).exec(again.step("Update").out);
    if (!m) throw new Error(`the update printed no output ${name}:\n${again.step("Update").out}`);
    return m[1];
  };
  const authUrl = printed("authUrl");
  const dataApiUrl = printed("dataApiUrl");
  expect(authUrl).toContain(`/neon-auth/${projectId}/${branch.id}/`);
  expect(dataApiUrl).toMatch(new RegExp(`/data-api/${projectId}/${branch.id}/app/rest/v1$`));
  const keys = (await (await fetch(`${authUrl}/.well-known/jwks.json`)).json()) as { keys: unknown[] };
  expect(keys.keys).toHaveLength(1);
  expect((await fetch(`${dataApiUrl}/orders`)).status).toBe(401);
  const signedUp = await fetch(`${authUrl}/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "dev@example.com", password: "a-long-password-1", name: "Dev" }),
  });
  const { token } = (await signedUp.json()) as { token: string };
  const rows = await fetch(`${dataApiUrl}/orders`, { headers: { authorization: `Bearer ${token}` } });
  expect([rows.status, await rows.json()]).toEqual([200, []]); // the migration's table, empty

  // ---- the comment: the preview, then what the migration changed in `app` -----------------------------
  const [previewComment, schemaComment] = m.posted();
  expect(previewComment.body).toContain(`\`pulumi preview\` of stack ${stack}\n`);
  expect(previewComment.body).toMatch(/\+ 5 to create/);
  expect(schemaComment.args).toEqual(previewComment.args.slice(0, -1).concat(expect.any(String)));
  expect(schemaComment.body.startsWith(`${previewComment.body}\n${schemaHeading}\`\`\`diff\n`)).toBe(true);
  expect(schemaComment.body).toContain(`${schemaHeading}\`\`\`diff\n--- a/app\n+++ b/app\n`);
  expect(schemaComment.body).toMatch(/^\+CREATE TABLE public\.orders \($/m);
  expect(schemaComment.body).toMatch(/\n```\n$/);
  return { branch, uri, stack, prefix };
}

/** Closing: destroy, stack rm; then nothing of the pull request is left on the service. */
async function close(
  m: ReturnType<typeof machine>,
  number: number,
  prefix: string,
  branchIds: string[],
  uri: string,
) {
  const { projectId } = emulator.seed;
  const closed = await m.job("close", pullRequestEvent(number, "closed"));
  expectSucceeded(closed);
  expect(closed.outputs.stack).toEqual({ exists: "true" });
  expect(closed.step("Destroy").out).toMatch(/- 6 deleted/);
  expect(closed.step("Remove the stack").out).toMatch(/has been removed/);
  for (const id of branchIds) {
    await expect(api.branches.get(projectId, id)).rejects.toMatchObject({ kind: "not_found" });
  }
  expect(await branchesNamed(prefix)).toEqual([]);
  const orphans = (await api.endpoints.list(projectId)).filter((e) => branchIds.includes(e.branch_id));
  expect(orphans).toEqual([]);
  expect((await login(uri)).ok).toBe(false);
}

/** Every file of the backend (state, history, backups), as text. */
function backendFiles(backend: string): string {
  return fs
    .readdirSync(backend, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(backend, f))
    .filter((f) => fs.statSync(f).isFile())
    .map((f) => fs.readFileSync(f, "utf8"))
    .join("\n");
}

/** No secret in any line a job printed (add-mask commands aside), any comment or any backend file. */
function expectNoSecrets(m: ReturnType<typeof machine>, secrets: string[]): void {
  const stored = backendFiles(m.backend);
  expect(stored).toContain("connectionUri");
  const bodies = m.comments.map((c) => c.body).join("\n");
  for (const secret of [...secrets, emulator.apiKey]) {
    expect(m.transcript).not.toContain(secret);
    expect(bodies).not.toContain(secret);
    expect(stored).not.toContain(secret);
  }
}

test("YAML, as the workflow ships: every job of a pull request's life, main, drift and sweep, run from the file", async () => {
  const { projectId } = emulator.seed;
  const m = machine(YAML);
  const number = 102;

  // A fork's pull request gets no secrets: no job runs.
  for (const id of ["preview-environment", "close", "main", "drift", "sweep"]) {
    expect((await m.job(id, pullRequestEvent(number, "opened", true))).skipped).toBe(true);
  }

  const { branch, uri, stack, prefix } = await openAndRecover(YAML, m, number);
  const uris = [uri];

  // ---- push to main: the long-lived stack (the stand-in program has no resources) ------------------
  await run("pulumi", ["stack", "init", "main"], {
    cwd: m.infra,
    env: {
      ...process.env,
      ...m.machineEnv,
      PULUMI_BACKEND_URL: m.secrets.PULUMI_BACKEND_URL,
      PULUMI_CONFIG_PASSPHRASE: m.secrets.PULUMI_CONFIG_PASSPHRASE,
    },
  });
  const push = await m.job("main", { name: "push", payload: { ref: "refs/heads/main" } });
  expectSucceeded(push);
  expect(push.steps.map((s) => s.skipped)).not.toContain(true);
  expect(push.step("pulumi up --yes --refresh").out).toMatch(/Updating \(main\)[\s\S]*\+ 1 created/);

  // ---- the schedule: no drift; the sweep deletes a leaked branch and keeps the live one ---------------
  const calm = await m.job("drift", { name: "schedule", payload: { schedule: "17 6 * * *" } });
  expectSucceeded(calm);
  expect(calm.annotations).toEqual([
    { level: "notice", message: "main: no drift" },
    { level: "notice", message: `${stack}: no drift` },
  ]);
  expect(calm.step("Compare every stack with the service").out).toMatch(/6 unchanged/);
  const leaked = await api.branches.create(projectId, {
    branch: { name: "preview-leaked" },
    annotation_value: { "pulumi-project": "neon-preview-environment-yaml", "pulumi-stack": "pr-7" },
  });
  await api.waitForOperations(
    projectId,
    leaked.operations.map((o) => o.id),
  );
  const sweep = await m.job("sweep", { name: "schedule", payload: { schedule: "17 6 * * *" } });
  expectSucceeded(sweep);
  const swept = sweep.step("Sweep leaked preview branches (dry run first, in the log)").out;
  expect(swept).toContain(`backend stacks: neon-preview-environment-yaml/${stack}`);
  expect(swept).toMatch(
    new RegExp(`would delete ${leaked.branch.id} .*\\n[\\s\\S]*deleted ${leaked.branch.id} `),
  );
  expect(swept).toMatch(
    new RegExp(`keep ${branch.id} .*its stack neon-preview-environment-yaml/${stack} exists`),
  );
  await expect(api.branches.get(projectId, leaked.branch.id)).rejects.toMatchObject({ kind: "not_found" });
  expect((await api.branches.get(projectId, branch.id)).id).toBe(branch.id);

  // ---- changes made outside Pulumi: the drift job fails with exit code 7 for that stack ---------------
  const [compute] = await api.endpoints.listByBranch(projectId, branch.id);
  await api.endpoints.update(projectId, compute.id, { autoscaling_limit_max_cu: 2 });
  await api.databases.update(projectId, branch.id, "app", {
    name: "app_renamed",
    owner_name: "neondb_owner",
  });
  const drift = await m.job("drift", { name: "workflow_dispatch" });
  expect(drift.succeeded).toBe(false);
  expect(drift.annotations).toEqual([
    { level: "notice", message: "main: no drift" },
    { level: "error", message: `${stack}: changed outside Pulumi (the diff above)` },
  ]);
  const diff = drift.step("Compare every stack with the service").out;
  expect(diff).toMatch(/~ maxCu\s*: 1 => 2/); // what the refresh found
  expect(diff).toMatch(/~ maxCu\s*: 2 => 1/); // what the next up would do
  expect(diff).toMatch(/~ name\s*: "app" => "app_renamed"/);
  expect(diff).toMatch(/~ name\s*: "app_renamed" => "app"/);
  expect(diff).toMatch(/~ ownerName\s*: "app" => "neondb_owner"/);
  expect(diff).toMatch(/~ ownerName\s*: "neondb_owner" => "app"/);
  expect(diff).toMatch(/no changes were expected for preview but changes were proposed/);

  // ---- the next push puts the declared values back; the table is still there -------------------------
  const back = await m.job("preview-environment", pullRequestEvent(number, "synchronize"));
  expectSucceeded(back);
  // The Data API went with the database's name (the emulator's assumption): made again once it is back.
  expect(back.step("Preview").out).toMatch(/\+ 1 to create/);
  expect(back.step("Preview").out).toMatch(/~ 2 to update/);
  expect((await api.dataApi.get(projectId, branch.id, "app")).url).toMatch(/\/app\/rest\/v1$/);
  expect((await api.endpoints.listByBranch(projectId, branch.id))[0].autoscaling_limit_max_cu).toBe(1);
  const databases = (await api.databases.list(projectId, branch.id)).map((d) => [d.name, d.owner_name]);
  expect(databases).toContainEqual(["app", "app"]);
  expect(databases.map(([name]) => name)).not.toContain("app_renamed");
  const [, backSchema] = m.posted();
  expect(backSchema.body).toMatch(/^\+CREATE TABLE public\.orders \($/m);

  // ---- the branch expired (the service deletes it): the next push makes the environment again --------
  await api.branches.delete(projectId, branch.id);
  const renewed = await m.job("preview-environment", pullRequestEvent(number, "synchronize"));
  expectSucceeded(renewed);
  expect(renewed.step("Preview").out).toMatch(/\+ 5 to create/);
  const [again] = await branchesNamed(prefix);
  expect(again.id).not.toBe(branch.id);
  expect(again.name).toBe(branch.name); // the same derived name: the same resource
  uris.push(renewed.outputs.database.uri);
  expect(await login(renewed.outputs.database.uri)).toEqual({ ok: true, database: "app" });
  const [, renewedSchema] = m.posted();
  // The new branch has the parent's data and none of the old branch's migration.
  expect(renewedSchema.body.endsWith(`\n${schemaHeading}No schema change.\n`)).toBe(true);

  const secrets = [...uris, ...uris.map((u) => decodeURIComponent(new URL(u).password))];
  expectNoSecrets(m, secrets);

  // ---- closed: destroy, stack rm, nothing left; closed again: nothing to do ---------------------------
  await close(m, number, prefix, [branch.id, again.id], uris[1]);
  const twice = await m.job("close", pullRequestEvent(number, "closed"));
  expectSucceeded(twice);
  expect(twice.annotations).toEqual([{ level: "notice", message: `no stack ${stack}: nothing to destroy` }]);
  expect(twice.steps.filter((s) => s.skipped).map((s) => s.label)).toEqual([
    "Recover from a run that was killed",
    "Destroy",
    "Remove the stack",
  ]);
  m.posted();
  expectNoSecrets(m, secrets);
});

test("TypeScript (its PREVIEW_DIR line changed): opened and killed, recovered with its migration's schema, closed", async () => {
  const m = machine(TS);
  const { branch, uri, prefix } = await openAndRecover(TS, m, 101);
  await close(m, 101, prefix, [branch.id], uri);
  m.posted();
  expectNoSecrets(m, [uri, decodeURIComponent(new URL(uri).password)]);
});
