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
try {
  fs.rmSync(link, { recursive: false, force: true });
} catch {
  // Nothing to remove.
}
fs.symlinkSync(path.relative(path.dirname(link), root), link, "dir");
