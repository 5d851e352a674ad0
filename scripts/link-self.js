#!/usr/bin/env node
// Makes this checkout resolvable by its own package name from node_modules, so the examples
// import it exactly as users do (`import { Compute } from "@neon-labs-unofficial/pulumi-neon-compute"`)
// and the provider process loads the implementation by package name, not by an absolute path.
// Runs from `npm run build:link`, which `npm test`, `npm run demo`, `npm run emulator` and
// `npm run bench:stack` run first; never at install time (a user's install must build or link nothing).
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const { name } = require(path.join(root, "package.json"));
const link = path.join(root, "node_modules", ...name.split("/"));
fs.mkdirSync(path.dirname(link), { recursive: true });
// Made under another name, then renamed over the old link in one step: a test running meanwhile
// (`npm run demo` runs this beside the other e2e tests) always finds the package.
const temp = `${link}.${process.pid}.tmp`;
fs.rmSync(temp, { force: true });
fs.symlinkSync(path.relative(path.dirname(link), root), temp, "dir");
try {
  fs.renameSync(temp, link);
} catch (err) {
  // A folder where the link goes (an install of the package) cannot be renamed over: replace it.
  if (!["EISDIR", "ENOTEMPTY", "EEXIST", "EPERM"].includes(err.code)) throw err;
  fs.rmSync(link, { recursive: true, force: true });
  fs.renameSync(temp, link);
}
