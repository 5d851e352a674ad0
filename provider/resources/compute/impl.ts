/**
 * The `Compute` provider's implementation, as the shim in `provider.ts` loads it inside the Pulumi
 * dynamic provider process (states of every earlier version name this module's path, so it stays).
 * The code lives in role-named files: `inputs.ts` (check), `diff.ts`, `mapping.ts`, `lifecycle.ts`
 * (CRUD), `recovery.ts`; settings, client, queue and logging in `../runtime.ts`.
 */
export { configure, setSettings, serialized, type ProviderSettings } from "../runtime";
export { check, diff, create, read, update, remove, remove as delete, ComputeInitError } from "./lifecycle";
export { updateBody, patchApplied, toOutputs, parseId } from "./mapping";
export { autoName } from "./recovery";
