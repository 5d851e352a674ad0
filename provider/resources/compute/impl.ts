/**
 * The `Compute` provider's implementation, as the shim in `provider.ts` loads it inside the Pulumi
 * dynamic provider process (states of every earlier version name this module's path, so it stays).
 * The code lives in role-named files: `inputs.ts` (check), `diff.ts`, `mapping.ts`, `lifecycle.ts`
 * (CRUD), `recovery.ts`; settings, client, queue and logging in `../runtime.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { reportedOnce } from "../runtime";
import * as lifecycle from "./lifecycle";

export { configure, setSettings, serialized, type ProviderSettings } from "../runtime";
export { check, diff, create, update, ComputeInitError } from "./lifecycle";

/** `read`, with an expected error reported once (see `reportedOnce`). */
export function read(id: string, props?: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult> {
  return reportedOnce(() => lifecycle.read(id, props));
}

/** `delete`, with an expected error reported once (see `reportedOnce`). */
export function remove(id: string, props: Record<string, unknown>): Promise<void> {
  return reportedOnce(() => lifecycle.remove(id, props));
}
export { remove as delete };
export { updateBody, patchApplied, toOutputs, parseId } from "./mapping";
export { autoName } from "./recovery";
