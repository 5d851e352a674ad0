/**
 * The runtime of one provider instance: its settings, its API client, its per-project change queue,
 * its engine log, the deadlines of the call running now, and the caches its resources keep. A face
 * (the dynamic provider process, the plugin process, a test) makes one with {@link Runtime} and hands
 * it to every step; nothing here is module state, so two instances never share a key or a queue.
 *
 * It lives only in the provider process; nothing here is serialized into state.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import {
  ApiError,
  createNeonClient,
  OperationError,
  type NeonClient,
  type Operation,
  type ProjectDetails,
} from "../api";
import { isSucceeded } from "../operations";
import { EngineLog, retryLine, type ResourceLogger } from "./engine-log";
import {
  DEFAULT_OPERATION_TIMEOUT_SECONDS,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  noApiKeyMessage,
  type ProviderSettings,
} from "./settings";

export type { ProviderSettings } from "./settings";

type Props = Record<string, unknown>;

/** What a {@link Runtime} is made of. */
export interface RuntimeOptions {
  /** The instance's settings (parsed by `parseSettings`); the key and URL fall back to `env`. */
  settings?: ProviderSettings;
  /** The namespace the face reads its settings from (`neon`, `neoncompute`), for messages. */
  namespace?: string;
  /** The engine's address, when the process runs under Pulumi. */
  engineAddress?: string;
  /** Receives every message the provider shows in `pulumi up` (tests). */
  logSink?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** A read_write compute a program declares on a branch (see {@link Runtime.expectCompute}). */
export interface ComputeComing {
  /** Settles when its create (or move) has ended, made or failed. */
  readonly done: Promise<void>;
  settle: () => void;
  /** Its create (or move) has begun. */
  started: boolean;
  /** Its create (or move) has ended. */
  settled: boolean;
}

/** One provider instance's runtime; see the module comment. */
export class Runtime {
  readonly settings: Readonly<ProviderSettings>;
  private readonly namespace: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly engine: EngineLog;
  private cachedClient: { key: string; url: string | undefined; client: NeonClient } | undefined;
  private readonly projectQueues = new Map<string, Promise<unknown>>();
  private readonly checkedUrns = new Set<string>();
  private readonly deletedUrns = new Map<string, string>();
  private readonly takenOver = new Set<string>();
  // Objects a refresh of this run found deleted by the service at their expiry, by key.
  private readonly expired = new Map<string, string>();
  private servicePrimed = false;
  private readonly projectReads = new Map<string, Promise<ProjectDetails>>();
  private readonly made = new Set<string>();
  private readonly computesComing = new Map<string, ComputeComing>();
  private readonly said = new Set<string>();
  private readonly declared = new Map<string, string>();
  private readonly stores = new Map<string, unknown>();
  // A resource's own `operationTimeoutSeconds` input, for the steps of the call running now (the
  // engine never passes `customTimeouts` to dynamic providers).
  private readonly resourceDeadline = new AsyncLocalStorage<number>();
  // The plugin passes the request's `customTimeouts` here; it wins over the input above.
  private readonly requestDeadline = new AsyncLocalStorage<number>();

  constructor(options: RuntimeOptions = {}) {
    this.settings = { ...options.settings };
    this.namespace = options.namespace ?? "neon";
    this.env = options.env ?? process.env;
    this.engine = new EngineLog(options.engineAddress, options.logSink);
  }

  /** The instance's API client (one per key and URL: every resource shares its operation polls). */
  client(): NeonClient {
    const key = this.settings.apiKey ?? this.env.NEON_API_KEY;
    const url = this.settings.apiUrl ?? this.env.NEON_API_URL;
    if (!key) throw new Error(noApiKeyMessage(this.namespace));
    if (!this.cachedClient || this.cachedClient.key !== key || this.cachedClient.url !== url) {
      const log = this.engine.logger(undefined);
      this.cachedClient = {
        key,
        url,
        client: createNeonClient({
          apiKey: key,
          baseUrl: url || undefined,
          // The instance's setting, never a resource's own deadline: the client is shared.
          retryDeadlineMs: this.settingsDeadlineMs(),
          timeoutMs: (this.settings.requestTimeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS) * 1000,
          onRetry: (r) => {
            const line = retryLine(r);
            if (line) log.info(line);
          },
        }),
      };
    }
    return this.cachedClient.client;
  }

  /** The logger of the resource whose inputs or outputs are `props` (they carry its `__urn`). */
  logger(props: Props): ResourceLogger {
    return this.engine.logger(typeof props.__urn === "string" ? props.__urn : undefined);
  }

  /** Settles once the engine has taken every line this instance said (see {@link EngineLog.flush}). */
  flushLog(): Promise<void> {
    return this.engine.flush();
  }

  /**
   * A cache a resource keeps for this instance (e.g. a project's computes), made on first use.
   * `name` is the resource's own (one namespace per resource folder).
   */
  store<T>(name: string, make: () => T): T {
    if (!this.stores.has(name)) this.stores.set(name, make());
    return this.stores.get(name) as T;
  }

  /** Runs `fn` with waits on operations bounded by `seconds` (when given) instead of the setting. */
  withOperationTimeout<T>(seconds: unknown, fn: () => Promise<T>): Promise<T> {
    return typeof seconds === "number" && seconds > 0 ? this.resourceDeadline.run(seconds * 1000, fn) : fn();
  }

  /** Runs `fn` with waits bounded by `seconds` (a resource's `customTimeouts`), over everything else. */
  withDeadline<T>(seconds: number | undefined, fn: () => Promise<T>): Promise<T> {
    return seconds && seconds > 0 ? this.requestDeadline.run(seconds * 1000, fn) : fn();
  }

  /** The deadline of one wait on operations, in milliseconds. */
  deadlineMs(): number {
    return this.requestDeadline.getStore() ?? this.resourceDeadline.getStore() ?? this.settingsDeadlineMs();
  }

  private settingsDeadlineMs(): number {
    return (this.settings.operationTimeoutSeconds ?? DEFAULT_OPERATION_TIMEOUT_SECONDS) * 1000;
  }

  /**
   * Waits for the given operations of a project (those not already done), reporting progress.
   * Resolves with the final view of every operation given.
   */
  async waitFor(projectId: string, operations: Operation[], log: ResourceLogger): Promise<Operation[]> {
    const pending = operations.filter((o) => !isSucceeded(o.status));
    if (pending.length === 0) return operations;
    const done = await this.client().waitForOperations(projectId, pending, {
      deadlineMs: this.deadlineMs(),
      onProgress: (p) => log.progress(`${p.action}: ${p.status} (${Math.round(p.elapsedMs / 1000)} s)`),
    });
    const byId = new Map(done.map((o) => [o.id, o]));
    return operations.map((o) => byId.get(o.id) ?? o);
  }

  /**
   * Runs `fn` after every earlier `serialized` call for the same project has settled.
   *
   * The control plane runs one operation per project at a time and answers 423 to any change while
   * one runs. Changes of one project made by this instance therefore go one after the other: each
   * sends its request once the previous one's operations have finished, instead of many resources
   * retrying 423s against each other (fewer requests, no backoff gaps).
   */
  serialized<T>(projectId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.projectQueues.get(projectId) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.projectQueues.set(projectId, settled);
    void settled.then(() => {
      if (this.projectQueues.get(projectId) === settled) this.projectQueues.delete(projectId);
    });
    return run;
  }

  /**
   * Records that the engine checked these inputs (the kit's `check` calls it). The engine checks
   * before it diffs in a preview or an update, but a refresh diffs without checking (to display what
   * changed outside Pulumi): warnings about what an update will do, and reads made to vet a change,
   * belong to the former only.
   */
  markChecked(news: Props): void {
    if (typeof news.__urn === "string") this.checkedUrns.add(news.__urn);
  }

  /** Records that this run created the `noun` (a branch, a role …) `id`. */
  noteMade(noun: string, id: string): void {
    this.made.add(`${noun}:${id}`);
  }

  /**
   * A read_write compute this program declares on `branchId` and has not made yet (its check ran for a
   * new resource, or one that moves there): a role or database of that branch refused for want of one
   * waits for it ({@link computeComing}) instead of failing, once its create has started.
   */
  expectCompute(branchId: string): ComputeComing {
    let c = this.computesComing.get(branchId);
    // A second compute coming to the branch in one run (the first one's create ended) is waited for anew.
    if (!c || c.settled) {
      let settle!: () => void;
      const done = new Promise<void>((resolve) => (settle = resolve));
      c = { done, settle, started: false, settled: false };
      this.computesComing.set(branchId, c);
    }
    return c;
  }

  /** The create (or move) of the expected compute of `branchId` has begun. */
  computeStarted(branchId: string): void {
    const c = this.computesComing.get(branchId);
    (c && !c.started ? c : this.expectCompute(branchId)).started = true;
  }

  /** The expected compute of `branchId` was made, or its create failed: what waits for it goes on. */
  computeSettled(branchId: string): void {
    const c = this.computesComing.get(branchId) ?? this.expectCompute(branchId);
    c.started = true;
    c.settled = true;
    // Kept, settled: a change refused just before may look for it only after it was made.
    c.settle();
  }

  /** The read_write compute this program declares on `branchId`, if any: whether its create began, and its end. */
  computeComing(branchId: string): ComputeComing | undefined {
    return this.computesComing.get(branchId);
  }

  /** True when this run created the `noun` `id` (e.g. a branch a role is declared on). */
  madeThisRun(noun: string, id: string): boolean {
    return this.made.has(`${noun}:${id}`);
  }

  /** True the first time `line` is asked about in this run: a warning shown once, not at every check. */
  firstTime(line: string): boolean {
    if (this.said.has(line)) return false;
    this.said.add(line);
    return true;
  }

  /**
   * The service's time (its answers' `Date`): what the service judges against, e.g. an expiry "in
   * the future". This machine's clock until a client has had an answer.
   */
  serviceNow(): number {
    return this.cachedClient ? this.cachedClient.client.serviceNow() : Date.now();
  }

  /**
   * Makes sure the service's time is known before a time is judged against it: one read (of the
   * project, or of the key's user) when this process has had no answer yet. A failed read still
   * answers with the service's time; a read that gets no answer leaves this machine's clock.
   */
  async primeServiceClock(projectId: string | undefined): Promise<void> {
    if (this.servicePrimed) return;
    this.servicePrimed = true;
    const api = this.client();
    const read = projectId ? this.projectFacts(projectId) : api.users.me();
    await read.catch(() => undefined);
  }

  /**
   * The project as this process first read it, for what a check judges that changes rarely and only
   * by a `Project` update (its plan and limits, its history retention, that the key can see it): one
   * read per project per process instead of one per judgement. A failed read is not kept.
   */
  projectFacts(projectId: string): Promise<ProjectDetails> {
    let read = this.projectReads.get(projectId);
    if (!read) {
      read = this.client().projects.get(projectId);
      this.projectReads.set(projectId, read);
      read.catch(() => this.projectReads.delete(projectId));
    }
    return read;
  }

  /** Forgets {@link projectFacts}' read of `projectId`: this process changed the project. */
  forgetProject(projectId: string): void {
    this.projectReads.delete(projectId);
  }

  /** Records that a refresh of this run found `key` deleted by the service at its expiry `at`. */
  noteExpired(key: string, at: string): void {
    this.expired.set(key, at);
  }

  /** The expiry at which a refresh of this run found `key` deleted by the service, if it did. */
  expiredThisRun(key: string): string | undefined {
    return this.expired.get(key);
  }

  /**
   * Records that a create of this run took over the existing `noun` `id` (one a killed run left): no
   * delete of this run may then delete it — not the one of a replacement it replaces, nor the one of
   * a resource whose logical name changed without an alias.
   */
  noteTakenOver(noun: string, id: string): void {
    this.takenOver.add(`${noun}:${id}`);
  }

  /** True when a create of this run took over the `noun` `id`. */
  takenOverThisRun(noun: string, id: string): boolean {
    return this.takenOver.has(`${noun}:${id}`);
  }

  /** Records that this run deleted the object (`what`) of the resource `urn` (a replacement's first half). */
  noteDeleted(urn: string, what: string): void {
    this.deletedUrns.set(urn, what);
  }

  /** The object this run deleted for the resource `urn`, if it did. */
  deletedThisRun(urn: string): string | undefined {
    return this.deletedUrns.get(urn);
  }

  /**
   * Records that resource `urn` declares the object `key` (e.g. a role's importId) and returns the
   * URN of another resource of this program that already declared it, if one did.
   */
  declare(key: string, urn: string): string | undefined {
    const other = this.declared.get(key);
    if (other !== undefined && other !== urn) return other;
    this.declared.set(key, urn);
    return undefined;
  }

  /** The URN of the resource of this program that declared the object `key` (see {@link declare}). */
  declaredBy(key: string): string | undefined {
    return this.declared.get(key);
  }

  /** True when `diff` runs for a preview or an update (its inputs were checked), not for a refresh. */
  isPlanning(news: Props): boolean {
    return typeof news.__urn === "string" && this.checkedUrns.has(news.__urn);
  }
}

/** True for the errors this provider raises on purpose (API answers, failed waits, its own advice). */
export function isExpectedError(err: unknown): err is Error {
  return (
    err instanceof ApiError ||
    err instanceof OperationError ||
    (err instanceof Error && err.constructor === Error && err.message.startsWith("Failed to "))
  );
}

/** An error message as the middle of a sentence: without its final period. */
export function clause(err: unknown): string {
  return String((err as Error)?.message ?? err).replace(/\.\s*$/, "");
}

/** A copy of `o` without its `undefined` values (the engine refuses them in outputs). */
export function stripUndefined<T extends Props>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
