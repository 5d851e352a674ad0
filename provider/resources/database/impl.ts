/** `Database` as the dynamic provider host loads it (states name this module's path: it stays). */
import { dynamicImpl } from "../dynamic";

export const { configure, check, diff, create, read, update, delete: remove } = dynamicImpl("Database");
export { remove as delete };
