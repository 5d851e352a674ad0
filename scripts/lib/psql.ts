/**
 * A client connecting as an application would (the demo and the tests): `psql` with a connection URI the API gave. The password
 * travels in the environment (`PGPASSWORD`), never in the arguments a process list shows, and no answer
 * carries it.
 */
import { execFile } from "node:child_process";

export interface PsqlResult {
  ok: boolean;
  /** Rows, one per line, fields separated by `|`. */
  out: string;
  /** What psql said on failure (Postgres's own message), without the password. */
  error: string;
}

/** Runs `sql` through `uri` (async: the emulator's computes live in this process). */
export function psql(uri: string, sql: string, timeoutMs = 180_000): Promise<PsqlResult> {
  const url = new URL(uri);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return new Promise((resolve) => {
    execFile(
      "psql",
      ["-X", "-A", "-t", "-F", "|", "-v", "ON_ERROR_STOP=1", "-d", url.toString(), "-c", sql],
      {
        timeout: timeoutMs,
        env: { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: "120" },
      },
      (err, stdout, stderr) => {
        const clean = (s: string) => (password ? s.split(password).join("***") : s);
        resolve({ ok: !err, out: clean(String(stdout)).trim(), error: clean(String(stderr)).trim() });
      },
    );
  });
}

/** The URI with another password (to try one a reset replaced). */
export function withPassword(uri: string, password: string): string {
  const url = new URL(uri);
  url.password = encodeURIComponent(password);
  return url.toString();
}
