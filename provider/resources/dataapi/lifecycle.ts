/**
 * The lifecycle of `DataApi`: a database's one Data API. Create sends its auth provider and settings
 * once (a lost answer is found by reading the database's Data API); update changes its settings;
 * read gets it; delete deletes it. Refused at preview with nothing sent: two resources of one database,
 * a database the branch lacks, `neon_auth` on a branch without Neon Auth that the program does not
 * declare first, and a database whose Data API no resource of the program declares (with its
 * `importId`; the service keeps no mark of who made one: a killed run's reads the same). Nothing
 * waits: no call starts an operation.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isNotFound, type DataApi, type NeonClient } from "../../api";
import { definedDiff } from "../compare";
import {
  UNKNOWN,
  confirmGone,
  createOnce,
  deleteAndWait,
  diffResult,
  isNewResource,
  readImported,
  refreshInputs,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import type { Runtime } from "../runtime";
import { unknownDatabase } from "../branch-objects/database-known";
import { DATA_API_DEFINITION as DEF, DATA_API_NOUN } from "./definition";
import { checkInputs } from "./inputs";
import {
  describeDataApi,
  parseDataApiRef,
  resourceId,
  toApiSettings,
  toOutputs,
  type DataApiRef,
} from "./mapping";
import type { DataApiInputs, DataApiOutputs } from "./types";

type Inputs = DataApiInputs;
type State = Stated<DataApiOutputs>;

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;

/** What a database whose Data API no resource of the stack manages is told, with the `importId` that takes it. */
function heldMessage(ref: DataApiRef): string {
  return (
    `database "${ref.databaseName}" of branch ${ref.branchId} already has a Data API that no resource of this ` +
    "stack manages (the service keeps no mark of who made it). To manage it here, set " +
    `importId: "${resourceId(ref)}" (the declared settings are then applied); or delete it in the console first`
  );
}

/** The database's Data API; `undefined` when it has none (or the branch or database cannot be found). */
async function dataApiOf(api: NeonClient, ref: DataApiRef): Promise<DataApi | undefined> {
  return api.dataApi.get(ref.projectId, ref.branchId, ref.databaseName).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
}

// --- check / diff ----------------------------------------------------------------------------

async function check(rt: Runtime, olds: Stated<Inputs>, news: Bag): Promise<CheckResult<Inputs>> {
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) return { inputs: news, failures };
  const { projectId, branchId, databaseName, importId } = inputs;
  const fail = (property: string, reason: string) => ({ inputs: news, failures: [{ property, reason }] });
  if (!known(projectId) || !known(branchId) || !known(databaseName)) return { inputs };
  const ref = { projectId, branchId, databaseName };
  const other =
    typeof news.__urn === "string" ? rt.ledger.declare(`data api:${resourceId(ref)}`, news.__urn) : undefined;
  if (other) {
    return fail(
      "databaseName",
      `the Data API of database "${databaseName}" of branch ${branchId} is already declared by another resource ` +
        `of this program (${other.slice(other.lastIndexOf("::") + 2)}); a database has one Data API: remove one of them`,
    );
  }
  const isNew = isNewResource(olds);
  const moves =
    !isNew &&
    (olds.projectId !== projectId || olds.branchId !== branchId || olds.databaseName !== databaseName);
  // A change of provider replaces the Data API (deleted first): Neon Auth must be there for the new one.
  const providerChanges = !isNew && olds.authProvider !== inputs.authProvider;
  if (!isNew && !moves && !providerChanges) return { inputs };
  const why =
    moves || isNew ? await unknownDatabase(rt, projectId, branchId, databaseName, "databaseName") : undefined;
  if (why) return fail("databaseName", why);
  const fresh = rt.ledger.madeThisRun("branch-in", `${projectId}/${branchId}`);
  if ((inputs.authProvider ?? "neon_auth") === "neon_auth" && !fresh) {
    const declared = rt.ledger.declaredBy(`neon auth:${projectId}/${branchId}`);
    const enabled =
      declared !== undefined ||
      (await rt
        .client()
        .neonAuth.get(projectId, branchId)
        .then(
          () => true,
          (err: unknown) => {
            if (isNotFound(err)) return false;
            throw err;
          },
        ));
    if (!enabled) {
      return fail(
        "authProvider",
        `authProvider "neon_auth": branch ${branchId} has no Neon Auth. Declare a NeonAuth for the branch and make ` +
          'this DataApi depend on it (use its branchId, or dependsOn), or use authProvider "external" with jwksUrl',
      );
    }
  }
  // Its own Data API is no holder: only a new one, or one moved, meets a stranger's.
  if (importId !== undefined || fresh || !(isNew || moves)) return { inputs };
  return (await dataApiOf(rt.client(), ref)) ? fail("databaseName", heldMessage(ref)) : { inputs };
}

async function diff(
  _rt: Runtime,
  _id: string,
  olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.DiffResult> {
  // Delete first: a replacement on the same database must delete its Data API before creating it again.
  return diffResult(definedDiff(DEF, olds, news), true);
}

// --- create / read / update ----------------------------------------------------------------------

/** Creates the database's Data API once; or, given `importId`, takes it over and applies the settings. */
async function create(rt: Runtime, i: Checked<Inputs>): Promise<pulumi.dynamic.CreateResult> {
  const api = rt.client();
  const ref = { projectId: i.projectId, branchId: i.branchId, databaseName: i.databaseName };
  const id = resourceId(ref);
  const log = rt.logger(i);
  const settings = toApiSettings(i.settings);
  if (i.importId !== undefined) {
    await readImported("Data API of database", i.importId, () =>
      api.dataApi.get(ref.projectId, ref.branchId, ref.databaseName),
    );
    rt.ledger.noteTakenOver(DATA_API_NOUN, id);
    if (Object.keys(settings).length > 0)
      await api.dataApi.update(ref.projectId, ref.branchId, ref.databaseName, settings);
    log.info(`took over ${describeDataApi(ref)}`);
  } else {
    if (await dataApiOf(api, ref))
      throw new Error(`Failed to create ${describeDataApi(ref)}: ${heldMessage(ref)}.`);
    await createOnce({
      log,
      send: () =>
        api.dataApi.create(ref.projectId, ref.branchId, ref.databaseName, {
          auth_provider: i.authProvider ?? "neon_auth",
          ...(i.jwksUrl !== undefined ? { jwks_url: i.jwksUrl } : {}),
          ...(i.providerName !== undefined ? { provider_name: i.providerName } : {}),
          ...(i.jwtAudience !== undefined ? { jwt_audience: i.jwtAudience } : {}),
          ...(i.addDefaultGrants !== undefined ? { add_default_grants: i.addDefaultGrants } : {}),
          ...(Object.keys(settings).length > 0 ? { settings } : {}),
        }),
      find: () => dataApiOf(api, ref),
      finish: async (found) => ({ url: found.url }),
      describe: () => describeDataApi(ref),
    });
    log.info(`created ${describeDataApi(ref)}`);
  }
  const d = await api.dataApi.get(ref.projectId, ref.branchId, ref.databaseName);
  return { id, outs: toOutputs(i, ref, d) };
}

/**
 * Reads the database's Data API. None (deleted outside the stack, or its branch or database gone, the
 * project visible): no id drops it from the stack. A project the key cannot see fails instead.
 */
async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const old: State = props ?? {};
  const ref = parseDataApiRef(id);
  const api = rt.client();
  const what = describeDataApi(ref);
  const d = await api.dataApi
    .get(ref.projectId, ref.branchId, ref.databaseName)
    .catch(async (err: unknown) => {
      if (!isNotFound(err)) throw err;
      await confirmGone(api, ref.projectId, what, "refresh", err);
      return undefined;
    });
  if (!d) {
    rt.logger(old).info(`${what} is gone (deleted outside the stack); dropping it from the stack`);
    return {};
  }
  const outs = toOutputs(old, ref, d);
  return { id, props: outs, inputs: refreshInputs(DEF, old, outs) };
}

/** Sets the declared settings. */
async function update(
  rt: Runtime,
  id: string,
  _olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  const ref = parseDataApiRef(id);
  const api = rt.client();
  await api.dataApi.update(ref.projectId, ref.branchId, ref.databaseName, toApiSettings(news.settings));
  rt.logger(news).info(`updated ${describeDataApi(ref)}`);
  const d = await api.dataApi.get(ref.projectId, ref.branchId, ref.databaseName);
  return { outs: toOutputs(news, ref, d) };
}

// --- delete ------------------------------------------------------------------------------------

/** Deletes the Data API; one already gone (404, the project visible) is deleted. */
async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  const ref = parseDataApiRef(id);
  const log = rt.logger(props);
  await deleteAndWait(
    rt,
    ref.projectId,
    describeDataApi(ref),
    async () => {
      await rt.client().dataApi.delete(ref.projectId, ref.branchId, ref.databaseName);
      return { operations: [] };
    },
    log,
  );
  log.info(`deleted ${describeDataApi(ref)}`);
}

/** `DataApi`'s own steps (see `../kit.ts`). */
export const dataApiSteps: ResourceSteps<Inputs, DataApiOutputs> = {
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
};
