/**
 * The registry: every resource and lookup of the package, in one list each. The dynamic face
 * (`dynamic/`), the plugin's faces and schema (`plugin/`), the generated docs
 * (`scripts/lib/api-docs.ts`) read it. A new resource is a folder under `resources/` and a line
 * here, as CONTRIBUTING.md lists (a test holds the list to the code): the dynamic face loads
 * every resource through its one entry (`dynamic/impl.ts`); TypeScript names
 * cannot come from data, so the public index and the plugin SDK each re-export its classes by name.
 */
import { LOOKUPS, OBJECT_TYPES as LOOKUP_TYPES } from "./lookups/definitions";
import { apiKey } from "./resources/apikey/kind";
import { branch } from "./resources/branch/kind";
import { compute } from "./resources/compute/kind";
import { database } from "./resources/database/kind";
import { project } from "./resources/project/kind";
import { projectPermission } from "./resources/projectpermission/kind";
import { role } from "./resources/role/kind";
import type { ObjectTypeDef } from "./resources/definition";
import type { ResourceKind } from "./resources/kit";

/** The resources, in schema and docs order. */
export const RESOURCES: readonly ResourceKind[] = [
  compute,
  apiKey,
  project,
  branch,
  role,
  database,
  projectPermission,
];

export { LOOKUPS };

/** Every object type of the package: the lookups' and the resources' own. */
export const OBJECT_TYPES: readonly ObjectTypeDef[] = [
  ...LOOKUP_TYPES,
  ...RESOURCES.flatMap((r) => r.objectTypes ?? []),
];

/** The registry entry of a resource by its type name (`Compute`); throws naming the known ones. */
export function resourceKind(name: string): ResourceKind {
  const kind = RESOURCES.find((r) => r.definition.name === name);
  if (!kind) {
    throw new Error(
      `Failed to find resource ${name}: the package's resources are ` +
        `${RESOURCES.map((r) => r.definition.name).join(", ")}.`,
    );
  }
  return kind;
}
