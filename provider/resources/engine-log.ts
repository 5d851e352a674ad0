/**
 * Messages from inside the dynamic provider process to the `pulumi up` display.
 *
 * `pulumi.log` is not connected in a dynamic provider process (the SDK only
 * connects it in the program process), so progress lines would never reach
 * the user. The engine passes its address as the provider process's first
 * argument; this module sends `LogRequest`s to it, attributed to the
 * resource's URN so they show on the resource's row.
 */

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

let connection: EngineConnection | null | undefined;

let pluginEngineAddress: string | undefined;

/**
 * Connects the loggers of a provider plugin process (`provider/plugin/`), which gets the engine's
 * address as its first argument too, but is not the dynamic-provider host.
 */
export function useEngineAddress(addr: string | undefined): void {
  pluginEngineAddress = addr;
  connection = undefined;
}

function engineAddress(): string | undefined {
  if (pluginEngineAddress) return pluginEngineAddress;
  // The dynamic provider host is started as `node …/dynamic-provider/index.js <engine-address>`.
  const script = process.argv[1] ?? "";
  const addr = process.argv[2];
  if (!/dynamic-provider/.test(script) || !addr || !/^[\w.[\]:-]+:\d+$/.test(addr)) return undefined;
  return addr;
}

function connect(): EngineConnection | null {
  if (connection !== undefined) return connection;
  const addr = engineAddress();
  if (!addr) return (connection = null);
  try {
    const pulumiDir = require.resolve("@pulumi/pulumi");
    const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
    const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
    const engproto = require("@pulumi/pulumi/proto/engine_pb");
    const client = new engrpc.EngineClient(addr, grpc.credentials.createInsecure());
    const severities: Record<Severity, number> = {
      debug: engproto.LogSeverity.DEBUG,
      info: engproto.LogSeverity.INFO,
      warning: engproto.LogSeverity.WARNING,
      error: engproto.LogSeverity.ERROR,
    };
    connection = {
      send: (severity, message, urn, ephemeral) =>
        new Promise<void>((resolve) => {
          const req = new engproto.LogRequest();
          req.setSeverity(severities[severity]);
          req.setMessage(message);
          if (urn) req.setUrn(urn);
          req.setEphemeral(ephemeral);
          // A lost progress line must never fail a deployment.
          client.log(req, () => resolve());
        }),
    };
  } catch {
    connection = null;
  }
  return connection;
}

/** A logger for one resource. Outside a provider process it writes to `fallback` (tests) or nowhere. */
export function resourceLogger(urn: string | undefined, fallback?: (line: string) => void): ResourceLogger {
  const emit = (severity: Severity, message: string, ephemeral: boolean) => {
    fallback?.(`${severity}: ${message}`);
    const engine = connect();
    if (engine) void engine.send(severity, message, urn, ephemeral);
  };
  return {
    progress: (m) => emit("info", m, true),
    info: (m) => emit("info", m, false),
    warn: (m) => emit("warning", m, false),
  };
}
