/**
 * The resources the emulator serves, one line each. A resource made with `collection.ts` is one module
 * (its records, seed and routes) and one line here; the older areas register their routes only, their
 * state being the core store's (`state.ts`, `store.ts`). A test serves more with
 * `startEmulator({ resources })`.
 */
import type { Resource } from "./collection";
import { anonymizedResource } from "./routes/anonymized";
import { branchRoutes } from "./routes/branches";
import { endpointRoutes } from "./routes/endpoints";
import { keyRoutes } from "./routes/keys";
import { operationRoutes } from "./routes/operations";
import { projectPermissions } from "./routes/permissions";
import { projectRoutes } from "./routes/projects";
import { roleRoutes } from "./routes/roles";
import { snapshotResource } from "./routes/snapshots";
import { spendingLimit } from "./routes/billing";
import { privateNetworking } from "./routes/vpc";
import { neonAuthResource } from "./routes/neonauth";
import { dataApiResource } from "./routes/dataapi";
import { projectJwks } from "./routes/jwks";

export const RESOURCES: readonly Resource[] = [
  { name: "projects", routes: projectRoutes },
  { name: "branches", routes: branchRoutes },
  { name: "computes", routes: endpointRoutes },
  { name: "operations", routes: operationRoutes },
  { name: "API keys", routes: keyRoutes },
  { name: "roles and databases", routes: roleRoutes },
  projectPermissions,
  snapshotResource,
  anonymizedResource,
  privateNetworking,
  spendingLimit,
  neonAuthResource,
  dataApiResource,
  projectJwks,
];
