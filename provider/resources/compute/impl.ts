/**
 * The `Compute` provider's implementation. It runs only inside the Pulumi
 * dynamic provider process, loaded by the shim in `provider.ts`; nothing here
 * is serialized into state. Credentials arrive through `configure()` or the
 * environment and live in this module only.
 */
import type * as pulumi from "@pulumi/pulumi";
import { createHash } from "crypto";
import { createNeonClient, ApiError, type NeonClient, type Endpoint, type Operation } from "../../api";
import { checkInputs, INTERNAL_KEYS, type ComputeInputs } from "./inputs";
import { diffCompute, propertyChanged, sameValue } from "./diff";
import { deriveSizing } from "./sizing";
import { COMPUTE_INPUT_KEYS } from "./keys";
import { resourceLogger, type ResourceLogger } from "../engine-log";

type Props = Record<string, unknown>;

/** Settings read by `configure()`; exported for tests. */
export interface ProviderSettings {
  apiKey?: string;
  apiUrl?: string;
  /** Deadline for one wait on operations, in seconds. */
  operationTimeoutSeconds?: number;
  /** Receives every message the provider shows in `pulumi up` (tests). */
  logSink?: (line: string) => void;
}

const DEFAULT_OPERATION_TIMEOUT_SECONDS = 20 * 60;

let settings: ProviderSettings = {};
let cachedClient: { key: string; url: string | undefined; client: NeonClient } | undefined;

/** Replaces the provider settings; `configure()` and tests call it. */
export function setSettings(next: ProviderSettings): void {
  settings = { ...next };
  cachedClient = undefined;
}

/** Reads `neon:apiKey`, `neon:apiUrl` and `neon:operationTimeoutSeconds`, falling back to the environment. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  const timeout =
    req.config.get("neon:operationTimeoutSeconds") ?? process.env.NEON_OPERATION_TIMEOUT_SECONDS;
  if (timeout !== undefined && !(Number(timeout) > 0)) {
    throw new Error(
      `Failed to configure the Neon provider: neon:operationTimeoutSeconds is "${timeout}"; ` +
        "set it to a number of seconds greater than 0, e.g. `pulumi config set neon:operationTimeoutSeconds 1800`.",
    );
  }
  setSettings({
    ...settings,
    apiKey: req.config.get("neon:apiKey") || undefined,
    apiUrl: req.config.get("neon:apiUrl") || undefined,
    operationTimeoutSeconds: timeout ? Number(timeout) : undefined,
  });
}

function client(): NeonClient {
  const key = settings.apiKey ?? process.env.NEON_API_KEY;
  const url = settings.apiUrl ?? process.env.NEON_API_URL;
  if (!key) {
    throw new Error(
      "Failed to configure the Neon provider: no API key is set. " +
        "Set it with `pulumi config set --secret neon:apiKey <key>` or the NEON_API_KEY environment variable.",
    );
  }
  if (!cachedClient || cachedClient.key !== key || cachedClient.url !== url) {
    // One client per process: every Compute shares it, so their operation polls are shared too.
    cachedClient = {
      key,
      url,
      client: createNeonClient({ apiKey: key, baseUrl: url || undefined, retryDeadlineMs: deadlineMs() }),
    };
  }
  return cachedClient.client;
}

function logger(props: Props): ResourceLogger {
  return resourceLogger(typeof props.__urn === "string" ? props.__urn : undefined, settings.logSink);
}

function deadlineMs(): number {
  const s = settings.operationTimeoutSeconds;
  return (s && s > 0 ? s : DEFAULT_OPERATION_TIMEOUT_SECONDS) * 1000;
}

/** Raised by create when the compute exists but did not become ready: the engine keeps it in state. */
export class ComputeInitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
    readonly reasons: string[],
  ) {
    super(message);
    this.name = "ComputeInitError";
  }
}

// The control plane runs one operation per project at a time and answers 423 to any change
// while one runs. Changes of one project made from this process therefore go one after the
// other: each sends its request once the previous one's operations have finished, instead of
// many resources retrying 423s against each other (fewer requests, no backoff gaps).
const projectQueues = new Map<string, Promise<unknown>>();

/** Runs `fn` after every earlier `serialized` call for the same project has settled. */
export function serialized<T>(projectId: string, fn: () => Promise<T>): Promise<T> {
  const previous = projectQueues.get(projectId) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  projectQueues.set(projectId, settled);
  void settled.then(() => {
    if (projectQueues.get(projectId) === settled) projectQueues.delete(projectId);
  });
  return run;
}

// Statuses after which an operation will not change again (`failed` is retried by the control plane).
const TERMINAL: readonly string[] = ["finished", "skipped", "error", "cancelled"];
const SUCCEEDED: readonly string[] = ["finished", "skipped"];

/** An error message as the middle of a sentence: without its final period. */
function clause(err: unknown): string {
  return String((err as Error)?.message ?? err).replace(/\.\s*$/, "");
}

// --- check / diff ----------------------------------------------------------------------------

export async function check(_olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const { inputs, failures } = checkInputs(news);
  return failures.length > 0 ? { inputs: news, failures } : { inputs };
}

export async function diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const d = diffCompute(olds, news);
  if (d.restartWarning) logger(news).warn(d.restartWarning);
  return {
    changes: d.changes,
    replaces: d.replaces,
    stables: d.stables,
    deleteBeforeReplace: d.deleteBeforeReplace,
  };
}

// --- mapping between inputs and the API ---------------------------------------------------------

function createBody(i: ComputeInputs) {
  return stripUndefined({
    branch_id: i.branchId,
    type: i.type ?? "read_write",
    region_id: i.regionId,
    autoscaling_limit_min_cu: i.minCu,
    autoscaling_limit_max_cu: i.maxCu,
    suspend_timeout_seconds: i.suspendTimeoutSeconds,
    settings: i.pgSettings ? { pg_settings: i.pgSettings } : undefined,
    pooler_enabled: i.poolerEnabled,
    pooler_mode: i.poolerMode,
    disabled: i.disabled,
    name: i.name,
    provisioner: i.provisioner,
  });
}

/** The PATCH body for the properties that changed, nothing more. */
export function updateBody(olds: Props, news: Props): Props {
  const i = news as unknown as ComputeInputs;
  const changed = (k: string) => propertyChanged(k, olds, news);
  const body: Props = {};
  if (changed("branchId")) body.branch_id = i.branchId;
  if (changed("minCu") || changed("maxCu")) {
    body.autoscaling_limit_min_cu = i.minCu;
    body.autoscaling_limit_max_cu = i.maxCu;
  }
  if (changed("suspendTimeoutSeconds")) body.suspend_timeout_seconds = i.suspendTimeoutSeconds ?? 0;
  // The whole map is sent: a key left out of it is removed from the compute.
  if (changed("pgSettings")) body.settings = { pg_settings: i.pgSettings ?? {} };
  if (changed("poolerEnabled")) body.pooler_enabled = i.poolerEnabled ?? false;
  if (changed("poolerMode")) body.pooler_mode = i.poolerMode ?? "transaction";
  if (changed("disabled")) body.disabled = i.disabled ?? false;
  if (changed("name")) body.name = i.name;
  if (changed("provisioner")) body.provisioner = i.provisioner;
  return stripUndefined(body);
}

function stripUndefined<T extends Props>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Outputs: the inputs the user gave, overlaid with what the API reports, plus derived sizing.
 * `asked` is set right after this provider wrote the compute: a suspend timeout of 0 ("the platform
 * default") then stays 0 whatever value the API echoes for that default. A refresh reports the
 * API's value, so a change made outside Pulumi shows up.
 */
export function toOutputs(inputs: Props, ep: Endpoint, asked = true): Props {
  const sizing = deriveSizing(ep.autoscaling_limit_min_cu, ep.autoscaling_limit_max_cu);
  return stripUndefined({
    ...inputs,
    projectId: ep.project_id,
    branchId: ep.branch_id,
    type: ep.type,
    minCu: ep.autoscaling_limit_min_cu,
    maxCu: ep.autoscaling_limit_max_cu,
    regionId: ep.region_id,
    // 0 asks for the platform default; the API may echo the default's value instead.
    suspendTimeoutSeconds: asked && inputs.suspendTimeoutSeconds === 0 ? 0 : ep.suspend_timeout_seconds,
    pgSettings: { ...(ep.settings?.pg_settings ?? {}) },
    poolerEnabled: ep.pooler_enabled,
    poolerMode: ep.pooler_mode,
    disabled: ep.disabled,
    name: ep.name ?? (inputs.name as string | undefined),
    provisioner: ep.provisioner,
    endpointId: ep.id,
    host: ep.host,
    proxyHost: ep.proxy_host,
    currentState: ep.current_state,
    pendingState: ep.pending_state,
    creationSource: ep.creation_source,
    createdAt: ep.created_at,
    updatedAt: ep.updated_at,
    lastActive: ep.last_active,
    startedAt: ep.started_at,
    suspendedAt: ep.suspended_at,
    computeReleaseVersion: ep.compute_release_version,
    ramGb: sizing.ramGb,
    lfcGb: sizing.lfcGb,
    maxConnections: sizing.maxConnections,
    tempDiskGiB: sizing.tempDiskGiB,
  });
}

function describe(ep: { id: string; branch_id?: string }): string {
  return ep.branch_id ? `compute ${ep.id} on branch ${ep.branch_id}` : `compute ${ep.id}`;
}

async function waitFor(projectId: string, operations: Operation[], log: ResourceLogger): Promise<void> {
  const ids = operations.filter((o) => !["finished", "skipped"].includes(o.status)).map((o) => o.id);
  if (ids.length === 0) return;
  await client().waitForOperations(projectId, ids, {
    deadlineMs: deadlineMs(),
    onProgress: (p) => log.progress(`${p.action}: ${p.status} (${Math.round(p.elapsedMs / 1000)} s)`),
  });
}

// --- create ------------------------------------------------------------------------------

/**
 * The name a compute gets when its `name` input is unset: the resource's name plus a suffix derived
 * from its URN (stack, project and name) and from the inputs whose change replaces it, like Pulumi's
 * auto-naming but deterministic. It lets a later `up` recognise the compute that an interrupted run
 * created for this very resource; a replacement (other project, type or region) gets another name,
 * so it never mistakes the compute it replaces for its own.
 */
export function autoName(
  urn: string,
  identity: Pick<ComputeInputs, "projectId" | "type" | "regionId"> = {
    projectId: "",
    type: "read_write",
  },
): string {
  const logical = urn.slice(urn.lastIndexOf("::") + 2) || "compute";
  const key = [urn, identity.projectId, identity.type ?? "read_write", identity.regionId ?? ""].join("\n");
  const suffix = createHash("sha256").update(key).digest("hex").slice(0, 7);
  return `${logical.slice(0, 56)}-${suffix}`;
}

export async function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  if (typeof inputs.importId === "string") return importExisting(inputs);
  const i = { ...(inputs as unknown as ComputeInputs) };
  const urn = typeof inputs.__urn === "string" ? inputs.__urn : undefined;
  if (!i.name && urn) i.name = autoName(urn, i);
  const api = client();
  const log = logger(inputs);
  let ep: Endpoint | undefined;
  let ready: Endpoint | undefined;
  try {
    await serialized(i.projectId, async () => {
      // What the branch held before: if the POST's answer is lost, the compute it made is the new one.
      const existing = await api.endpoints.listByBranch(i.projectId, i.branchId);
      const interrupted =
        urn && !inputs.name
          ? existing.find((e) => e.name === i.name && e.type === (i.type ?? "read_write"))
          : undefined;
      let result: { endpoint: Endpoint; operations: Operation[] };
      if (interrupted) {
        // Only this resource's own auto-name matches: an earlier run was stopped after creating it.
        log.info(
          `found ${describe(interrupted)} created for this resource by an interrupted run; finishing it`,
        );
        result = {
          endpoint: interrupted,
          // Its older failures are history: ensureStarted below starts it if it never did.
          operations: await operationsOf(api, i.projectId, interrupted.id, { includeFailed: false }),
        };
      } else {
        result = await createOrReconcile(api, i, new Set(existing.map((e) => e.id)), log);
      }
      ep = result.endpoint;
      log.progress(
        `created ${describe(ep)}; waiting for ${result.operations.map((o) => o.action).join(", ") || "nothing"}`,
      );
      await waitFor(i.projectId, result.operations, log);
      // A compute found again (interrupted run, lost answer) may have failed to start earlier.
      ready = await ensureStarted(api, i.projectId, ep.id, log, !i.disabled);
    });
    if (!ready) throw new Error(`Failed to read back ${describe(ep as Endpoint)}`);
    if (ready.current_state === "init" && !i.disabled) {
      throw new Error(`${describe(ready)} did not start`);
    }
    return { id: ready.id, outs: toOutputs(inputs, ready) };
  } catch (err) {
    if (!ep) throw err;
    // The compute exists: keep it in state so that a later `up` finishes or deletes it.
    const reason = clause(err);
    throw new ComputeInitError(
      `Failed to finish creating ${describe(ep)}: ${reason}. It is kept in the stack; run \`pulumi up\` again to retry, or \`pulumi destroy\` to remove it.`,
      ep.id,
      toOutputs(inputs, ep),
      [reason],
    );
  }
}

/**
 * Adopts an existing compute named by `importId` instead of creating one (`pulumi import` cannot
 * work for dynamic resources: the engine reads without the provider code). Like Pulumi's import, it
 * changes nothing: the declared inputs must describe the compute as it is, else it fails and says
 * which properties differ.
 */
async function importExisting(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const importId = inputs.importId as string;
  const { projectId, endpointId } = parseId(importId);
  let ep: Endpoint;
  try {
    ep = await client().endpoints.get(projectId, endpointId);
  } catch (err) {
    if (err instanceof ApiError && err.kind === "not_found") {
      throw new Error(
        `Failed to import compute ${importId}: it does not exist (or the API key cannot see it). ` +
          "Check importId, or remove it to create a new compute.",
      );
    }
    throw err;
  }
  const actual = toOutputs({}, ep, false);
  const declared = Object.keys(inputs).filter(
    (k) => INPUT_KEYS.includes(k) && !["cu", "restartTrigger", "importId"].includes(k),
  );
  const differences = declared.filter((k) => propertyChanged(k, actual, inputs));
  if (differences.length > 0) {
    const detail = differences
      .map((k) => `${k}: declared ${JSON.stringify(inputs[k])}, actual ${JSON.stringify(actual[k])}`)
      .join("; ");
    throw new Error(
      `Failed to import ${describe(ep)}: the declared inputs differ from the compute (${detail}). ` +
        "Import changes nothing: make the program match the compute, import, then change it in a later update.",
    );
  }
  logger(inputs).info(`imported ${describe(ep)}; deleting this resource will delete the compute`);
  return { id: ep.id, outs: toOutputs(inputs, ep) };
}

async function createOrReconcile(
  api: NeonClient,
  i: ComputeInputs,
  before: Set<string>,
  log: ResourceLogger,
): Promise<{ endpoint: Endpoint; operations: Operation[] }> {
  try {
    return await api.endpoints.create(i.projectId, createBody(i) as never);
  } catch (err) {
    if (!(err instanceof ApiError) || !err.mayHaveReachedServer) throw friendlyCreateError(err, i);
    // The request may have created the compute although no answer came back. Look for it
    // instead of sending the POST again, which could create a second one.
    const found = (await api.endpoints.listByBranch(i.projectId, i.branchId)).filter(
      (e) => !before.has(e.id) && e.type === (i.type ?? "read_write") && (!i.name || e.name === i.name),
    );
    if (found.length === 1) {
      const ep = found[0];
      log.info(`the answer to the create request was lost; found ${describe(ep)}, which it created`);
      // A brand-new compute: every operation it has is this request's, failures included.
      return {
        endpoint: ep,
        operations: await operationsOf(api, i.projectId, ep.id, { includeFailed: true }),
      };
    }
    if (found.length === 0) {
      log.info("the answer to the create request was lost and nothing was created; sending it again");
      return api.endpoints.create(i.projectId, createBody(i) as never);
    }
    throw new Error(
      `Failed to create a compute on branch ${i.branchId}: the answer to the create request was lost and ` +
        `${found.length} new computes (${found.map((e) => e.id).join(", ")}) appeared on the branch, so it is ` +
        "not clear which one is this resource's. Delete the extra ones, then run `pulumi up` again.",
    );
  }
}

/**
 * The operations of one compute still worth waiting for. `includeFailed` keeps those that ended in
 * error or were cancelled (waiting on them fails, which is right when they belong to the change at
 * hand); `sinceMs` ignores operations created before that time.
 */
async function operationsOf(
  api: NeonClient,
  projectId: string,
  endpointId: string,
  opts: { includeFailed: boolean; sinceMs?: number },
): Promise<Operation[]> {
  const page = await api.operations.listPage(projectId, { limit: 100 });
  const done = opts.includeFailed ? SUCCEEDED : TERMINAL;
  return page.operations.filter(
    (o) =>
      o.endpoint_id === endpointId &&
      !done.includes(o.status) &&
      (opts.sinceMs === undefined || Date.parse(o.created_at) >= opts.sinceMs),
  );
}

// A conflict (409) on a read_write create or move is the branch's one read_write slot being taken.
function isConflict(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 409;
}

function friendlyCreateError(err: unknown, i: ComputeInputs): unknown {
  if (isConflict(err) && (i.type ?? "read_write") === "read_write") {
    return new Error(
      `${err.message} A branch holds one read_write compute: give this resource type "read_only", ` +
        "attach it to another branch, or remove the existing compute from the branch first.",
    );
  }
  return err;
}

// --- read ----------------------------------------------------------------------------------

/** Splits a resource id: `projectId/endpointId` (import) or `endpointId` with the project from state. */
export function parseId(id: string, props?: Props): { projectId: string; endpointId: string } {
  const slash = id.indexOf("/");
  if (slash > 0) return { projectId: id.slice(0, slash), endpointId: id.slice(slash + 1) };
  const projectId = props?.projectId;
  if (typeof projectId !== "string") {
    throw new Error(
      `Failed to read compute ${id}: the id has no project; use the form <projectId>/<endpointId>.`,
    );
  }
  return { projectId, endpointId: id };
}

const INPUT_KEYS: readonly string[] = COMPUTE_INPUT_KEYS;

export async function read(id: string, props?: Props): Promise<pulumi.dynamic.ReadResult> {
  const { projectId, endpointId } = parseId(id, props);
  let ep: Endpoint;
  try {
    ep = await client().endpoints.get(projectId, endpointId);
  } catch (err) {
    // Gone: no id tells the engine to drop the resource from the stack.
    if (err instanceof ApiError && err.kind === "not_found") return {};
    throw err;
  }
  const old = props ?? {};
  const outs = toOutputs(old, ep, false);
  // `cu` is shorthand for equal bounds; drop it when the compute no longer has a fixed size.
  if (outs.cu !== undefined && outs.minCu !== outs.cu) delete outs.cu;
  const inputs: Props = {};
  for (const k of [...INPUT_KEYS, ...INTERNAL_KEYS]) {
    if (k in old || ["projectId", "branchId", "type"].includes(k)) {
      if (outs[k] !== undefined) inputs[k] = outs[k];
    }
  }
  return { id: ep.id, props: outs, inputs };
}

// --- update --------------------------------------------------------------------------------

export async function update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const { projectId, endpointId } = parseId(id, olds);
  const api = client();
  const log = logger(news);
  const d = diffCompute(olds, news);
  const body = updateBody(olds, news);
  if (Object.keys(body).length > 0) {
    // The restart warning was already shown by diff, which runs before every update.
    await serialized(projectId, async () => {
      let operations: Operation[];
      // Allows for clock skew between this machine and the control plane.
      const sentAt = Date.now() - 120_000;
      try {
        operations = (await api.endpoints.update(projectId, endpointId, body as never)).operations;
      } catch (err) {
        if (!(err instanceof ApiError && err.mayHaveReachedServer))
          throw friendlyUpdateError(err, olds, news);
        // The answer was lost: look at the compute rather than blindly sending the change again.
        const current = await api.endpoints.get(projectId, endpointId);
        if (patchApplied(body, current)) {
          log.info(`the answer to the update request was lost; ${describe(current)} already has the change`);
          operations = await operationsOf(api, projectId, endpointId, {
            includeFailed: true,
            sinceMs: sentAt,
          });
        } else {
          log.info("the answer to the update request was lost and the change is not there; sending it again");
          operations = (await api.endpoints.update(projectId, endpointId, body as never)).operations;
        }
      }
      await waitFor(projectId, operations, log);
    });
  }
  if (olds.currentState === "init" && !news.disabled) {
    // A create that did not finish: the engine keeps such a compute and updates it on the next up.
    // The change above went first, so a fix to what made the start fail is in place.
    try {
      await serialized(projectId, () => ensureStarted(api, projectId, endpointId, log, true));
    } catch (err) {
      const reason = clause(err);
      const current = await api.endpoints.get(projectId, endpointId).catch(() => undefined);
      throw new ComputeInitError(
        `Failed to start compute ${endpointId}: ${reason}. It is kept in the stack; run \`pulumi up\` again to retry.`,
        endpointId,
        // A restart asked for in this update did not happen: keep the old trigger so it is asked again.
        current ? toOutputs({ ...news, restartTrigger: olds.restartTrigger }, current) : olds,
        [reason],
      );
    }
  }
  if (d.updates.includes("restartTrigger")) {
    await serialized(projectId, async () => {
      const current = await api.endpoints.get(projectId, endpointId);
      if (current.current_state === "active") {
        log.info(`restartTrigger changed: restarting ${describe(current)}`);
        try {
          const result = await api.endpoints.restart(projectId, endpointId);
          await waitFor(projectId, result.operations, log);
        } catch (err) {
          // It scaled to zero between the read and the restart: nothing left to restart.
          if (!isConflict(err)) throw err;
          log.info(`${describe(current)} went idle before the restart: nothing to restart`);
        }
      } else {
        log.info(
          `restartTrigger changed, but ${describe(current)} is ${current.current_state}: nothing to restart ` +
            "(it starts with the new settings on its next connection)",
        );
      }
    });
  }
  const ep = await api.endpoints.get(projectId, endpointId);
  return { outs: toOutputs(news, ep) };
}

/**
 * Reads a compute and, when `start` is set and it is still in `init` (its start failed or never
 * ran), waits for its unfinished operations and starts it. Returns the compute as it ends up.
 * Callers hold the project's queue (`serialized`).
 */
async function ensureStarted(
  api: NeonClient,
  projectId: string,
  endpointId: string,
  log: ResourceLogger,
  start: boolean,
): Promise<Endpoint> {
  let ep = await api.endpoints.get(projectId, endpointId);
  if (ep.current_state !== "init" || !start) return ep;
  const pending = await operationsOf(api, projectId, endpointId, { includeFailed: false });
  if (pending.length > 0) {
    await waitFor(projectId, pending, log);
    ep = await api.endpoints.get(projectId, endpointId);
    if (ep.current_state !== "init") return ep;
  }
  log.info(`${describe(ep)} did not start when it was created; starting it`);
  const result = await api.endpoints.start(projectId, endpointId);
  await waitFor(projectId, result.operations, log);
  return api.endpoints.get(projectId, endpointId);
}

/** True when every field of a PATCH body already reads back from the compute. */
export function patchApplied(body: Props, ep: Endpoint): boolean {
  const actual: Props = {
    branch_id: ep.branch_id,
    autoscaling_limit_min_cu: ep.autoscaling_limit_min_cu,
    autoscaling_limit_max_cu: ep.autoscaling_limit_max_cu,
    suspend_timeout_seconds: ep.suspend_timeout_seconds,
    settings: { pg_settings: ep.settings?.pg_settings ?? {} },
    pooler_enabled: ep.pooler_enabled,
    pooler_mode: ep.pooler_mode,
    disabled: ep.disabled,
    name: ep.name,
    provisioner: ep.provisioner,
  };
  return Object.entries(body).every(([k, v]) => sameValue(v, actual[k]));
}

function friendlyUpdateError(err: unknown, olds: Props, news: Props): unknown {
  if (isConflict(err) && olds.branchId !== news.branchId) {
    return new Error(
      `${err.message} The compute stays on branch ${String(olds.branchId)}. Move or delete the read_write ` +
        `compute of branch ${String(news.branchId)} first, or choose another branch.`,
    );
  }
  return err;
}

// --- delete --------------------------------------------------------------------------------

export async function remove(id: string, props: Props): Promise<void> {
  const { projectId, endpointId } = parseId(id, props);
  await serialized(projectId, async () => {
    let result: { operations: Operation[] } | undefined;
    try {
      result = await client().endpoints.delete(projectId, endpointId);
    } catch (err) {
      // Already gone is what delete wants.
      if (err instanceof ApiError && err.kind === "not_found") return;
      throw err;
    }
    if (result) await waitFor(projectId, result.operations, logger(props));
  });
}

export { remove as delete };
