/**
 * `Compute` as the dynamic provider host loads it (states of every earlier version name this
 * module's path in their serialized shim, so it stays).
 */
import { dynamicImpl } from "../../dynamic/host";

export const { configure, check, diff, create, read, update, delete: remove } = dynamicImpl("Compute");
export { remove as delete };
