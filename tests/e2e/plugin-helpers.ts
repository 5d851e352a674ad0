/**
 * Helpers of the provider plugin's end-to-end tests: the plugin's launcher on PATH, the CLI run
 * directly (for `pulumi import`, which the Automation API of this version cannot print code for),
 * and the engine events that show a resource's steps.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import * as YAML from "yaml";
import { ensurePulumi, repoRoot, trackProcess, type TempStack } from "../../scripts/lib/pulumi";

/** `bin/` of this checkout, where `pulumi-resource-neoncompute` is. */
export const pluginBin = path.join(repoRoot, "bin");

/** PATH with the plugin's launcher and the CLI (incl. `pulumi-language-yaml` and `pulumi-language-go`) first. */
export function pluginPath(): string {
  return [pluginBin, ensurePulumi(), process.env.PATH ?? ""].join(path.delimiter);
}

/**
 * Runs the CLI in the stack's folder; resolves with stdout and stderr together. Asynchronous: the
 * emulator answers from this same process.
 */
export function cli(temp: TempStack, args: string[]): Promise<string> {
  const full = [...args, "--stack", temp.stack.name];
  return new Promise((resolve, reject) => {
    const child = execFile(
      path.join(ensurePulumi(), "pulumi"),
      full,
      { cwd: temp.workDir, env: { ...process.env, ...temp.env }, encoding: "utf8", maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`pulumi ${args.join(" ")} failed: ${err.message}\n${stdout}\n${stderr}`));
        else resolve(`${stdout}${stderr}`);
      },
    );
    trackProcess(full, child);
  });
}

/** Adds the resources of a YAML file (code `pulumi import --out` generated) to the stack's program. */
export function addResources(temp: TempStack, generated: string): Record<string, unknown> {
  const file = path.join(temp.workDir, "Pulumi.yaml");
  const program = YAML.parse(fs.readFileSync(file, "utf8")) as { resources: Record<string, unknown> };
  const added = (YAML.parse(generated) as { resources: Record<string, unknown> }).resources;
  Object.assign(program.resources, added);
  fs.writeFileSync(file, YAML.stringify(program));
  return added;
}

/** The engine's operations on one resource (by name), in the order they finished. */
export function stepsOf(events: EngineEvent[], name: string): string[] {
  return events
    .map((e) => e.resOutputsEvent?.metadata)
    .filter((m) => m?.urn.endsWith(`::${name}`))
    .map((m) => m!.op);
}

/** The diagnostics (info and warnings) the provider attributed to one resource. */
export function diagnosticsOf(events: EngineEvent[], name: string): string[] {
  return events
    .map((e) => e.diagnosticEvent)
    .filter((d) => d?.urn?.endsWith(`::${name}`))
    .map((d) => d!.message);
}

/** `pulumi stack export` as a user runs it (secrets encrypted) and every state file of the backend. */
export async function persisted(temp: TempStack): Promise<string> {
  const exported = await cli(temp, ["stack", "export"]);
  const files = fs
    .readdirSync(temp.backendDir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".json"))
    .map((f) => fs.readFileSync(path.join(temp.backendDir, f), "utf8"));
  return [exported, ...files].join("\n");
}
