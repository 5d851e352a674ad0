/**
 * The provider's lines to the engine (`provider/resources/engine-log.ts`) against a real gRPC engine
 * log service that answers only when the test lets it: a step answers the engine only once the
 * lines it said have arrived. Without that, a refresh's last read (a branch gone at its expiry)
 * could answer before its warning, and the engine close its display without it (CI, a busy machine).
 */
import { bind, type ResourceKind } from "../../../provider/resources/kit";
import { EngineLog } from "../../../provider/resources/engine-log";
import { Runtime } from "../../../provider/resources/runtime";

const pulumiDir = require.resolve("@pulumi/pulumi");
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
const { LogSeverity } = require("@pulumi/pulumi/proto/engine_pb");
const { Empty } = require(
  require.resolve("google-protobuf/google/protobuf/empty_pb", { paths: [pulumiDir] }),
);

interface Received {
  message: string;
  urn: string;
  severity: number;
}

/** An engine whose `Log` takes each line and answers once `release()` is called (or at once when open). */
class HeldEngine {
  readonly received: Received[] = [];
  private readonly waiting: (() => void)[] = [];
  private arrivedOne: (() => void) | undefined;
  private open = false;
  private server = new grpc.Server();
  address = "";

  async start(): Promise<void> {
    this.server.addService(engrpc.EngineService, {
      log: (
        call: { request: { getMessage(): string; getUrn(): string; getSeverity(): number } },
        cb: (e: null, r: unknown) => void,
      ) => {
        const r = call.request;
        this.received.push({ message: r.getMessage(), urn: r.getUrn(), severity: r.getSeverity() });
        const answer = () => cb(null, new Empty());
        if (this.open) answer();
        else this.waiting.push(answer);
        this.arrivedOne?.();
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(
        "127.0.0.1:0",
        grpc.ServerCredentials.createInsecure(),
        (e: Error | null, p: number) => (e ? reject(e) : resolve(p)),
      ),
    );
    this.address = `127.0.0.1:${port}`;
  }

  /** Settles when `n` lines have arrived (however many answers are held). */
  async arrived(n: number): Promise<void> {
    while (this.received.length < n) await new Promise<void>((resolve) => (this.arrivedOne = resolve));
  }

  /** Answers every held line, and every later one at once. */
  release(): void {
    this.open = true;
    for (const answer of this.waiting.splice(0)) answer();
  }

  /** Holds the answers again (for the next test). */
  hold(): void {
    this.open = false;
    this.received.length = 0;
  }

  stop(): Promise<void> {
    this.release();
    this.server.forceShutdown();
    return Promise.resolve();
  }
}

/** Tracks whether `p` has settled. */
function watch<T>(p: Promise<T>): { settled: () => boolean; p: Promise<T> } {
  let done = false;
  const q = p.finally(() => (done = true));
  return { settled: () => done, p: q };
}

let engine: HeldEngine;

beforeAll(async () => {
  engine = new HeldEngine();
  await engine.start();
});

afterEach(() => engine.hold());

afterAll(() => engine.stop());

/** A resource whose read finds its object gone and says so (as Branch's does at its expiry). */
const sayingKind = {
  noun: "thing",
  definition: { token: "test:index:Thing", properties: [] },
  steps: {
    check: async (_rt: Runtime, _olds: object, news: object) => ({ inputs: news }),
    diff: async () => ({}),
    create: async () => ({ id: "t-1", outs: {} }),
    read: async (rt: Runtime, id: string, props?: Record<string, unknown>) => {
      rt.logger(props ?? {}).warn(`thing ${id} reached its expiry and is gone`);
      return {};
    },
    update: async () => ({ outs: {} }),
    delete: async (rt: Runtime, id: string, props: Record<string, unknown>) => {
      rt.logger(props).info(`deleting thing ${id}`);
      throw new Error(`Failed to delete thing ${id}`);
    },
  },
} as unknown as ResourceKind;

describe("a step's lines reach the engine before its answer", () => {
  test("a read that says why its object is gone answers only once the engine has the line", async () => {
    const rt = new Runtime({ engineAddress: engine.address });
    const urn = "urn:pulumi:dev::p::test:index:Thing::env";
    const read = watch(bind(sayingKind, rt).read("t-1", { __urn: urn }));

    await engine.arrived(1);
    // The line is at the engine, whose answer is held: the read has not answered.
    await new Promise((resolve) => setImmediate(resolve));
    expect(read.settled()).toBe(false);
    expect(engine.received).toEqual([
      { message: "thing t-1 reached its expiry and is gone", urn, severity: LogSeverity.WARNING },
    ]);

    engine.release();
    await expect(read.p).resolves.toEqual({});
  });

  test("a step that fails still waits for its lines, then fails as it did", async () => {
    const rt = new Runtime({ engineAddress: engine.address });
    const del = watch(bind(sayingKind, rt).delete("t-2", { __urn: "urn:x" }));
    del.p.catch(() => undefined);

    await engine.arrived(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(del.settled()).toBe(false);

    engine.release();
    await expect(del.p).rejects.toThrow("Failed to delete thing t-2");
    expect(engine.received.map((r) => r.message)).toEqual(["deleting thing t-2"]);
  });

  test("an engine that never answers holds a flush no longer than its cap; no engine: nothing to wait for", async () => {
    const log = new EngineLog(engine.address);
    log.logger("urn:y").info("a line the engine keeps");
    await engine.arrived(1);
    await expect(log.flush(10)).resolves.toBeUndefined();

    const none = new EngineLog(undefined);
    none.logger(undefined).warn("nowhere to go");
    await expect(none.flush(0)).resolves.toBeUndefined();
  });
});
