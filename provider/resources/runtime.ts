/**
 * The runtime of one provider instance: its settings, its API client, its per-project change queue,
 * its engine log, the deadlines of the call running now, and its run's {@link RunLedger}. A face
 * (the dynamic provider process, the plugin process, a test) makes one with {@link Runtime} and hands
 * it to every step; nothing here is module state, so two instances never share a key or a queue.
 *
 * It lives only in the provider process; nothing here is serialized into state.
 */
import type { Bag } from "./definition";
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
import { RunLedger } from "./ledger";
import { EngineLog, retryLine, type ResourceLogger } from "./engine-log";
import {
  DEFAULT_OPERATION_TIMEOUT_SECONDS,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  apiKeyOf,
  type ProviderSettings,
} from "./settings";

export type { ProviderSettings } from "./settings";

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

/** One provider instance's runtime; see the module comment. */
export class Runtime {
  readonly settings: Readonly<ProviderSettings>;
  private readonly namespace: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly engine: EngineLog;
  private cachedClient: { key: string; url: string | undefined; client: NeonClient } | undefined;
  private readonly projectQueues = new Map<string, Promise<unknown>>();
  private servicePrimed = false;
  /** What this instance's run remembers between steps (see {@link RunLedger}). */
  readonly ledger = new RunLedger();
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
    // Read now, not at configure: a key named by `apiKeyEnv` is the environment's of this command.
    const key = apiKeyOf(this.settings, this.namespace, this.env);
    const url = this.settings.apiUrl ?? this.env.NEON_API_URL;
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
  logger(props: Bag): ResourceLogger {
    return this.engine.logger(typeof props.__urn === "string" ? props.__urn : undefined);
  }

  /** Settles once the engine has taken every line this instance said (see {@link EngineLog.flush}). */
  flushLog(): Promise<void> {
    return this.engine.flush();
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
    let read = this.ledger.projectReads.get(projectId);
    if (!read) {
      read = this.client().projects.get(projectId);
      this.ledger.projectReads.set(projectId, read);
      read.catch(() => this.ledger.projectReads.delete(projectId));
    }
    return read;
  }

  /** Forgets {@link projectFacts}' read of `projectId`: this process changed the project. */
  forgetProject(projectId: string): void {
    this.ledger.projectReads.delete(projectId);
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
export function stripUndefined<T extends Bag>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
