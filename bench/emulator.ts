/**
 * `npm run bench:emulator` — requests/s and latency of `GET /projects/{id}/operations/{op_id}`
 * against the emulator with 64 concurrent keep-alive clients on loopback.
 *
 * The emulator runs in its own process (the CLI, as a user would start it) so the
 * load generator does not share its event loop. Options (environment):
 *   BENCH_SECONDS (default 10), BENCH_WARMUP_SECONDS (default 2), BENCH_CONCURRENCY (default 64).
 */
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { cpus } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const KEY = "bench-key";

interface Started {
  url: string;
  project: string;
  branch: string;
  stop(): void;
}

function startEmulatorProcess(): Promise<Started> {
  const child = spawn(
    join(ROOT, "node_modules/.bin/tsx"),
    // The control plane's hot path, in memory unless BENCH_POSTGRES=1 (real Postgres behind the
    // computes: every answer then waits for a pass that brings the machine up to date).
    [
      "emulator/cli.ts",
      "--port",
      "0",
      "--api-key",
      KEY,
      "--seed",
      "1",
      "--op-ms",
      "50",
      process.env.BENCH_POSTGRES === "1" ? "--postgres" : "--in-memory",
    ],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return new Promise((res, rej) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const url = /Emulator listening: (\S+)/.exec(out)?.[1];
      const project = /Project: (\S+)/.exec(out)?.[1];
      const branch = /Branch dev-01 \(no compute\): (\S+)/.exec(out)?.[1];
      if (url && project && branch && /Admin: /.test(out))
        res({ url, project, branch, stop: () => child.kill("SIGTERM") });
    });
    child.on("exit", (code) => rej(new Error(`emulator exited with ${code}`)));
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function call(method: string, url: string, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((res, rej) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${KEY}`,
          accept: "application/json",
          ...(data ? { "content-type": "application/json", "content-length": Buffer.byteLength(data) } : {}),
        },
      },
      (r) => {
        let text = "";
        r.setEncoding("utf8");
        r.on("data", (c) => (text += c));
        r.on("end", () => res({ status: r.statusCode ?? 0, text }));
      },
    );
    req.on("error", rej);
    req.end(data);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const emu = await startEmulatorProcess();
  try {
    const created = await call("POST", `${emu.url}/projects/${emu.project}/endpoints`, {
      endpoint: { branch_id: emu.branch, type: "read_write" },
    });
    if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.text}`);
    const opId = JSON.parse(created.text).operations[0].id as string;
    const target = `${emu.url}/projects/${emu.project}/operations/${opId}`;

    let measuring = false;
    let stopping = false;
    let errors = 0;
    const latencies: number[] = [];
    const worker = async () => {
      while (!stopping) {
        const t = process.hrtime.bigint();
        const r = await call("GET", target);
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (r.status !== 200) errors++;
        if (measuring) latencies.push(ms);
      }
    };
    const workers = Array.from({ length: CONCURRENCY }, worker);
    await new Promise((r) => setTimeout(r, WARMUP * 1000));
    measuring = true;
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    measuring = false;
    const elapsed = (Date.now() - t0) / 1000;
    stopping = true;
    await Promise.all(workers);

    latencies.sort((a, b) => a - b);
    const rps = latencies.length / elapsed;
    const state = JSON.parse(
      (await call("GET", `${emu.url.replace(/\/api\/v2$/, "")}/_emulator/state`)).text,
    );
    const lines = [
      `GET /projects/{id}/operations/{op_id}: ${CONCURRENCY} concurrent keep-alive clients, ${elapsed.toFixed(1)} s after ${WARMUP} s warm-up`,
      `requests/s: ${rps.toFixed(0)} (target >= 5000: ${rps >= 5000 ? "met" : "NOT met"})`,
      `latency ms: p50 ${percentile(latencies, 50).toFixed(2)}  p99 ${percentile(latencies, 99).toFixed(2)}  max ${latencies[latencies.length - 1].toFixed(2)}`,
      `requests measured: ${latencies.length}, non-200: ${errors}, served by the emulator in total: ${state.requests}`,
      `machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? "unknown"}), node ${process.version}`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    if (errors) process.exitCode = 1;
  } finally {
    agent.destroy();
    emu.stop();
  }
}

main().catch((e: Error) => {
  process.stderr.write(`bench:emulator failed: ${e.message}\n`);
  process.exit(1);
});
