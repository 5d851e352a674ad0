/**
 * The `ApiKey` provider's implementation, as the shim in `provider.ts` loads it inside the Pulumi
 * dynamic provider process (states name this module's path, so it stays). The code lives in
 * role-named files: `inputs.ts` (check), `diff.ts`, `mapping.ts`, `lifecycle.ts` (CRUD); settings,
 * client and logging in `../runtime.ts`, shared with every other resource.
 */
export { configure, setSettings, type ProviderSettings } from "../runtime";
export { check, diff, create, read, update, remove, remove as delete, whoMayCreate } from "./lifecycle";
