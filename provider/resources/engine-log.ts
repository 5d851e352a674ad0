/**
 * Messages from inside a provider process to the `pulumi up` display, and the line a retry of the API
 * client earns there ({@link retryLine}).
 *
 * `pulumi.log` is not connected in a provider process (the SDK only connects it in the program
 * process), so progress lines would never reach the user. The engine passes its address as the
 * provider process's first argument; an {@link EngineLog} sends `LogRequest`s to it, attributed to
 * the resource's URN so they show on the resource's row. Each runtime owns one (no module state).
 *
 * A send is not awaited where the line is said, but a step does not answer the engine before its
 * lines have arrived ({@link EngineLog.flush}): a line that arrived after the step's answer can come
 * after the engine has closed its display — a refresh's last resource — and be lost.
 */

import type { RetryInfo } from "../api";

/** Where provider messages go: the engine when running under Pulumi, a sink in tests. */
export interface ResourceLogger {
  /** Progress that replaces itself on the resource's row (ephemeral). */
  progress(message: string): void;
  info(message: string): void;
  warn(message: string): void;
}

type Severity = "debug" | "info" | "warning" | "error";

interface EngineConnection {
  send(severity: Severity, message: string, urn: string | undefined, ephemeral: boolean): Promise<void>;
}

/**
 * The engine's address when this process is Pulumi's dynamic provider host, which is started as
 * `node …/dynamic-provider/index.js <engine-address>`; undefined anywhere else.
 */
export function dynamicHostEngineAddress(argv: readonly string[] = process.argv): string | undefined {
  const script = argv[1] ?? "";
  const addr = argv[2];
  if (!/dynamic-provider/.test(script) || !addr || !/^[\w.[\]:-]+:\d+$/.test(addr)) return undefined;
  return addr;
}

/** How long {@link EngineLog.flush} waits at most for the engine to take its lines. */
const FLUSH_MAX_MS = 5_000;

/** One connection to the engine's log service (made on first use), and the loggers over it. */
export class EngineLog {
  private connection: EngineConnection | null | undefined;
  private readonly sending = new Set<Promise<void>>();

  /**
   * @param address the engine's address (none: lines go only to `sink`)
   * @param sink receives every line as `<severity>: <message>` (tests)
   */
  constructor(
    private readonly address: string | undefined,
    private readonly sink?: (line: string) => void,
  ) {}

  /** A logger for one resource (`urn`), or for the provider as a whole. */
  logger(urn: string | undefined): ResourceLogger {
    const emit = (severity: Severity, message: string, ephemeral: boolean) => {
      this.sink?.(`${severity}: ${message}`);
      const engine = this.connect();
      if (!engine) return;
      const sent = engine.send(severity, message, urn, ephemeral);
      this.sending.add(sent);
      void sent.catch(() => undefined).then(() => this.sending.delete(sent));
    };
    return {
      progress: (m) => emit("info", m, true),
      info: (m) => emit("info", m, false),
      warn: (m) => emit("warning", m, false),
    };
  }

  /**
   * Settles once the engine has taken every line said so far (or after `maxMs`: an engine that does
   * not answer never holds a step). Never rejects.
   */
  async flush(maxMs = FLUSH_MAX_MS): Promise<void> {
    if (this.sending.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
      timer.unref?.();
    });
    try {
      await Promise.race([Promise.all([...this.sending]), cap]);
    } finally {
      clearTimeout(timer);
    }
  }

  private connect(): EngineConnection | null {
    if (this.connection !== undefined) return this.connection;
    if (!this.address) return (this.connection = null);
    try {
      const pulumiDir = require.resolve("@pulumi/pulumi");
      const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
      const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
      const engproto = require("@pulumi/pulumi/proto/engine_pb");
      const client = new engrpc.EngineClient(this.address, grpc.credentials.createInsecure());
      const severities: Record<Severity, number> = {
        debug: engproto.LogSeverity.DEBUG,
        info: engproto.LogSeverity.INFO,
        warning: engproto.LogSeverity.WARNING,
        error: engproto.LogSeverity.ERROR,
      };
      this.connection = {
        send: (severity, message, urn, ephemeral) =>
          new Promise<void>((resolve) => {
            const req = new engproto.LogRequest();
            req.setSeverity(severities[severity]);
            req.setMessage(message);
            if (urn) req.setUrn(urn);
            req.setEphemeral(ephemeral);
            // A lost progress line must never fail a deployment; nor may a call the engine never
            // answers stay in flight, where every later flush would wait out its cap.
            client.log(req, new grpc.Metadata(), { deadline: Date.now() + FLUSH_MAX_MS }, () => resolve());
          }),
      };
    } catch {
      this.connection = null;
    }
    return this.connection;
  }
}

/** How long a wait on a project's lock goes unsaid: most are one operation of a few seconds. */
const LOCK_QUIET_MS = 5_000;
/** After the first, a line for a long wait on a lock this often. */
const LOCK_LINE_EVERY_MS = 15_000;

/** True when a lock wait from `waitedMs` for `delayMs` crosses 5 s, or a later 15 s mark: said then. */
function lockLineDue(waitedMs: number, delayMs: number): boolean {
  const until = waitedMs + delayMs;
  if (until < LOCK_QUIET_MS) return false;
  if (waitedMs < LOCK_QUIET_MS) return true;
  const mark = (t: number) => Math.floor((t - LOCK_QUIET_MS) / LOCK_LINE_EVERY_MS);
  return mark(until) > mark(waitedMs);
}

/**
 * The progress line for a retry the user should know about (a 423 only once the wait has passed
 * {@link LOCK_QUIET_MS}, naming what holds the lock).
 */
export function retryLine(r: RetryInfo): string | undefined {
  const what = r.route;
  const count =
    r.maxAttempts !== undefined && Number.isFinite(r.maxAttempts)
      ? `retrying ${r.attempt + 1}/${r.maxAttempts}`
      : `retrying (attempt ${r.attempt + 1})`;
  const wait = `in ${(r.delayMs / 1000).toFixed(1)} s`;
  switch (r.reason) {
    case "locked":
      // The project's queue: said once the wait is long enough to wonder about, with what holds it.
      return r.holder && lockLineDue(r.waitedMs ?? 0, r.delayMs)
        ? `${r.holder}; ${what} waits for it (one operation at a time) and ${r.look ? "looks again" : "is tried again"} ${wait}`
        : undefined;
    case "network":
      return r.timedOut
        ? `no answer from ${what} in ${Math.round((r.timeoutMs ?? 0) / 1000)} s; ${count} ${wait}`
        : `the connection for ${what} failed; ${count} ${wait}`;
    case "rate_limited":
      return `${what} was rate limited (HTTP 429); ${count} ${wait}`;
    default:
      return `${what} answered HTTP ${r.status ?? "?"}; ${count} ${wait}`;
  }
}
