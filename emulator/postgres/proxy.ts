/**
 * A compute's address: a TCP listener on the compute's own loopback address and Postgres's port, which
 * hands each connection to its branch's server once the compute is active — starting a suspended
 * compute first, as the service's proxy does when a client connects. Bytes pass through untouched
 * (TLS is the server's own).
 */
import * as net from "node:net";

/** What the proxy asks for each connection: the port of the server to join, or why not. */
export type Admit = () => Promise<number>;

export class ComputeProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(
    readonly host: string,
    readonly port: number,
    admit: Admit,
    private readonly onCount: (open: number) => void,
  ) {
    this.server = net.createServer((client) => this.accept(client, admit));
  }

  /** Open client connections. */
  get open(): number {
    return this.sockets.size;
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.port, this.host, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
  }

  /** Stops listening and drops every connection (the compute is gone). */
  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket, admit: Admit): void {
    client.pause();
    this.sockets.add(client);
    this.onCount(this.sockets.size);
    const upstreams: net.Socket[] = [];
    client.on("error", () => undefined);
    client.on("close", () => {
      this.sockets.delete(client);
      for (const u of upstreams) u.destroy();
      this.onCount(this.sockets.size);
    });
    admit().then(
      (port) => {
        if (client.destroyed) return;
        const upstream = net.connect(port, "127.0.0.1");
        upstreams.push(upstream);
        upstream.on("error", () => client.destroy());
        upstream.on("close", () => client.destroy());
        upstream.once("connect", () => {
          client.pipe(upstream);
          upstream.pipe(client);
          client.resume();
        });
      },
      (e: Error) => {
        // A Postgres ErrorResponse: clients show its message (even in answer to their TLS request).
        client.end(errorResponse(e.message));
      },
    );
  }
}

/** A protocol-3 `ErrorResponse` (FATAL, SQLSTATE 57P03 "cannot connect now") carrying `message`. */
export function errorResponse(message: string): Buffer {
  const fields = Buffer.concat([
    field("S", "FATAL"),
    field("V", "FATAL"),
    field("C", "57P03"),
    field("M", message),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write("E", 0, "latin1");
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

function field(code: string, value: string): Buffer {
  return Buffer.concat([Buffer.from(code, "latin1"), Buffer.from(value, "utf8"), Buffer.from([0])]);
}
