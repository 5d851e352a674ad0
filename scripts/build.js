#!/usr/bin/env node
// `npm run build`: compiles into a fresh folder beside `dist/`, then moves each file over its old
// version (a rename: atomic per file) and removes the files no source makes any more. A clean build
// (no stale file of a deleted source is ever published), yet no file of `dist/` is ever missing or
// half-written: a `pulumi up` loading the provider from this checkout while `npm run emulator`,
// `npm test` or a bench rebuilds it finds every module it asks for (issue 19). Swapping the folder
// itself would leave a moment without `dist/` (Linux has no portable atomic exchange of folders).
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const dist = path.join(root, "dist");
const next = path.join(root, `.dist-next-${process.pid}`);

try {
  execFileSync(
    process.execPath,
    [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json", "--outDir", next],
    {
      cwd: root,
      stdio: "inherit",
    },
  );
} catch {
  fs.rmSync(next, { recursive: true, force: true });
  process.exit(1);
}
// Leftovers of builds that were killed between their steps.
for (const name of fs.readdirSync(root)) {
  if (/^\.dist-next-\d+$/.test(name) && !name.endsWith(`-${process.pid}`)) {
    const pid = Number(name.split("-").pop());
    if (!alive(pid)) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}
const built = new Set(files(next));
for (const rel of built) {
  fs.mkdirSync(path.dirname(path.join(dist, rel)), { recursive: true });
  fs.renameSync(path.join(next, rel), path.join(dist, rel));
}
for (const rel of files(dist)) if (!built.has(rel)) fs.rmSync(path.join(dist, rel));
removeEmptyFolders(dist);
fs.rmSync(next, { recursive: true, force: true });

/** The files under `dir`, as paths relative to it. */
function files(dir, prefix = "") {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(prefix, e.name);
    return e.isDirectory() ? files(path.join(dir, e.name), rel) : [rel];
  });
}

function removeEmptyFolders(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const sub = path.join(dir, e.name);
    removeEmptyFolders(sub);
    if (fs.readdirSync(sub).length === 0) fs.rmdirSync(sub);
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
