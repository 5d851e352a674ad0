/**
 * Text formatted by the repository's Prettier settings, so generated files pass `prettier --check`.
 * Through Prettier's CLI: its API is ESM-only, which the tests' CommonJS runtime cannot load.
 */
import { execFileSync } from "child_process";
import * as path from "path";

const repo = path.resolve(__dirname, "../..");

/** `text` as Prettier formats a file named `file` (relative to the repository). */
export function formatted(text: string, file: string): string {
  return execFileSync(
    process.execPath,
    [path.join(repo, "node_modules/prettier/bin/prettier.cjs"), "--stdin-filepath", file],
    {
      cwd: repo,
      input: text,
      encoding: "utf8",
    },
  );
}
