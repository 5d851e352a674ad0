/**
 * The lifecycle of `NeonAuth`: a branch's one Neon Auth. Create enables it (once: a lost answer is
 * found by reading the branch's Neon Auth) and applies the declared settings; update applies them;
 * read gets the integration and its settings; delete disables it. A branch that has Neon Auth no
 * resource of the program declares is refused at preview with its `importId` (the service keeps no
 * mark of who enabled it: a killed run's reads the same), as are two resources of one branch and an
 * unknown database. Nothing waits: no call starts an operation.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, isNotFound, type NeonAuthIntegration, type NeonClient } from "../../api";
import { definedDiff } from "../compare";
import {
  UNKNOWN,
  confirmGone,
  createOnce,
  deleteAndWait,
  diffResult,
  isNewResource,
  keptInStack,
  readImported,
  refreshInputs,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import type { Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import { unknownDatabase } from "../branch-objects/database-known";
import { NEON_AUTH_DEFINITION as DEF, NEON_AUTH_NOUN } from "./definition";
import { checkInputs } from "./inputs";
import { describeAuth, parseAuthRef, resourceId, toOutputs, type AuthRead, type AuthRef } from "./mapping";
import type { NeonAuthInputs, NeonAuthOauthProviderInputs, NeonAuthOutputs } from "./types";

type Inputs = NeonAuthInputs;
type State = Stated<NeonAuthOutputs>;

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;
const isConflict = (err: unknown) => err instanceof ApiError && err.kind === "conflict";

/** What a branch whose Neon Auth no resource of the stack manages is told, with the `importId` that takes it. */
function heldMessage(ref: AuthRef, a: NeonAuthIntegration): string {
  return (
    `branch ${ref.branchId} already has Neon Auth (enabled ${a.created_at}, over database "${a.db_name}") that no ` +
    "resource of this stack manages (the service keeps no mark of who enabled it). To manage it here, set " +
    `importId: "${resourceId(ref)}" (the declared settings are then applied); or disable it in the console first`
  );
}

/** The branch's Neon Auth; `undefined` when it has none (or the branch cannot be found). */
async function authOf(api: NeonClient, ref: AuthRef): Promise<NeonAuthIntegration | undefined> {
  return api.neonAuth.get(ref.projectId, ref.branchId).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
}

// --- check / diff ----------------------------------------------------------------------------

/**
 * Every rule an enable would refuse by, so that the preview fails where `up` would: one resource per
 * branch in the program; a database the branch has; without `importId`, a branch with no Neon Auth yet
 * (read only for a resource that is new or moves; a branch this run makes has none). A branch that is
 * not there: the kit's target rule names it.
 */
async function check(rt: Runtime, olds: Stated<Inputs>, news: Bag): Promise<CheckResult<Inputs>> {
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) return { inputs: news, failures };
  const { projectId, branchId, importId, databaseName } = inputs;
  const fail = (property: string, reason: string) => ({ inputs: news, failures: [{ property, reason }] });
  if (!known(projectId) || !known(branchId)) return { inputs };
  const other =
    typeof news.__urn === "string"
      ? rt.ledger.declare(`neon auth:${projectId}/${branchId}`, news.__urn)
      : undefined;
  if (other) {
    return fail(
      "branchId",
      `Neon Auth of branch ${branchId} is already declared by another resource of this program ` +
        `(${other.slice(other.lastIndexOf("::") + 2)}); a branch has one Neon Auth: remove one of them`,
    );
  }
  const isNew = isNewResource(olds);
  const moves = !isNew && (olds.projectId !== projectId || olds.branchId !== branchId);
  const dbChanged = known(databaseName) && olds.databaseName !== databaseName;
  if (known(databaseName) && (isNew || moves || dbChanged)) {
    const why = await unknownDatabase(rt, projectId, branchId, databaseName, "databaseName");
    if (why) return fail("databaseName", why);
  }
  if (isNew && importId !== undefined && known(importId)) {
    const held = await authOf(rt.client(), { projectId, branchId });
    const differs = held && importMismatch(inputs, held);
    if (differs) return fail("importId", differs);
  }
  if ((!isNew && !moves) || importId !== undefined) return { inputs };
  if (rt.ledger.madeThisRun("branch-in", `${projectId}/${branchId}`)) return { inputs };
  const ref = { projectId, branchId };
  const held = await authOf(rt.client(), ref);
  return held ? fail("branchId", heldMessage(ref, held)) : { inputs };
}

async function diff(
  _rt: Runtime,
  _id: string,
  olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.DiffResult> {
  // Delete first: a replacement on the same branch must disable Neon Auth before enabling it again.
  return diffResult(definedDiff(DEF, olds, news), true);
}

// --- settings ----------------------------------------------------------------------------------

const sameProvider = (a: NeonAuthOauthProviderInputs, b: NeonAuthOauthProviderInputs | undefined) =>
  b !== undefined && a.clientId === b.clientId && a.clientSecret === b.clientSecret;

/**
 * Applies the declared settings (each only when declared) and reads back what the resource outputs.
 * `olds`: the providers as last applied (an update sends only those that changed; a create sends every
 * declared one). An add the service already holds (409: a lost answer's retry, or a default) is
 * changed instead.
 */
async function apply(
  api: NeonClient,
  ref: AuthRef,
  i: Checked<Inputs>,
  integration: NeonAuthIntegration,
  olds: readonly NeonAuthOauthProviderInputs[] | undefined,
  log: ResourceLogger,
): Promise<AuthRead> {
  const { projectId: p, branchId: b } = ref;
  const provider = integration.auth_provider;
  if (i.emailAndPassword !== undefined) await api.neonAuth.setEmailAndPassword(p, b, i.emailAndPassword);
  if (i.allowLocalhost !== undefined) await api.neonAuth.setAllowLocalhost(p, b, i.allowLocalhost);
  if (i.trustedDomains !== undefined) {
    const now = await api.neonAuth.domains(p, b);
    for (const d of i.trustedDomains.filter((x) => !now.includes(x))) {
      await api.neonAuth.addDomain(p, b, provider, d).catch((err: unknown) => {
        if (!isConflict(err)) throw err;
      });
    }
    const extra = now.filter((x) => !i.trustedDomains!.includes(x));
    if (extra.length > 0) await api.neonAuth.removeDomains(p, b, provider, extra);
  }
  if (i.oauthProviders !== undefined) {
    const now = await api.neonAuth.oauthProviders(p, b);
    for (const want of i.oauthProviders) {
      const body = {
        ...(want.clientId !== undefined ? { client_id: want.clientId } : {}),
        ...(want.clientSecret !== undefined ? { client_secret: want.clientSecret } : {}),
      };
      const there = now.find((x) => x.id === want.id);
      if (!there) {
        await api.neonAuth.addOauthProvider(p, b, want.id, body).catch(async (err: unknown) => {
          if (!isConflict(err)) throw err;
          await api.neonAuth.updateOauthProvider(p, b, want.id, body);
        });
        log.info(`added OAuth provider ${want.id} to ${describeAuth(ref)}`);
      } else if (
        there.client_id !== want.clientId ||
        !sameProvider(
          want,
          olds?.find((o) => o.id === want.id),
        )
      ) {
        await api.neonAuth.updateOauthProvider(p, b, want.id, body);
        log.info(`changed OAuth provider ${want.id} of ${describeAuth(ref)}`);
      }
    }
    for (const gone of now.filter((x) => !i.oauthProviders!.some((w) => w.id === x.id))) {
      await api.neonAuth.removeOauthProvider(p, b, gone.id).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
      log.info(`removed OAuth provider ${gone.id} from ${describeAuth(ref)}`);
    }
  }
  return readSettings(api, ref, integration, i);
}

/** The integration's settings as the service holds them: the lists only where the program manages them. */
async function readSettings(
  api: NeonClient,
  ref: AuthRef,
  integration: NeonAuthIntegration,
  given: Bag,
): Promise<AuthRead> {
  const { projectId: p, branchId: b } = ref;
  return {
    integration,
    emailAndPassword: await api.neonAuth.emailAndPassword(p, b),
    allowLocalhost: await api.neonAuth.allowLocalhost(p, b),
    ...(given.trustedDomains !== undefined ? { domains: await api.neonAuth.domains(p, b) } : {}),
    ...(given.oauthProviders !== undefined ? { providers: await api.neonAuth.oauthProviders(p, b) } : {}),
  };
}

// --- create / read / update ----------------------------------------------------------------------

/** Enables Neon Auth on a branch that has none and applies the settings; or, given `importId`, takes over the branch's. */
async function create(rt: Runtime, i: Checked<Inputs>): Promise<pulumi.dynamic.CreateResult> {
  const api = rt.client();
  const ref = { projectId: i.projectId, branchId: i.branchId };
  const id = resourceId(ref);
  const log = rt.logger(i);
  let integration: NeonAuthIntegration;
  let keys: AuthRead["keys"];
  if (i.importId !== undefined) {
    integration = await readImported("Neon Auth of branch", i.importId, () =>
      api.neonAuth.get(ref.projectId, ref.branchId),
    );
    const differs = importMismatch(i, integration);
    if (differs) throw new Error(`Failed to import ${describeAuth(ref)}: ${differs}`);
    rt.ledger.noteTakenOver(NEON_AUTH_NOUN, id);
    log.info(`took over ${describeAuth(ref)}`);
  } else {
    const held = await authOf(api, ref);
    if (held) throw new Error(`Failed to enable ${describeAuth(ref)}: ${heldMessage(ref, held)}.`);
    // The enable alone is the create: its answer carries the keys, and a read after it that fails
    // leaves Neon Auth kept in the stack, never enabled outside it.
    const made = await createOnce<NeonAuthIntegration | undefined, NeonAuthIntegration>({
      log,
      send: async () => {
        const c = await api.neonAuth.enable(
          ref.projectId,
          ref.branchId,
          i.authProvider ?? "better_auth",
          i.databaseName,
        );
        keys = { publishableClientKey: c.pub_client_key, secretServerKey: c.secret_server_key };
        return undefined;
      },
      find: () => authOf(api, ref),
      finish: async (found) => found,
      describe: () => describeAuth(ref),
    });
    integration =
      made ??
      (await api.neonAuth.get(ref.projectId, ref.branchId).catch((err: unknown) => {
        throw keptInStack(describeAuth(ref), err, id, { ...i, ...keysOutputs(keys) });
      }));
    if (!keys)
      log.warn(`${describeAuth(ref)}: the keys answered by the enable were lost; they are not outputs`);
    log.info(`enabled ${describeAuth(ref)}`);
  }
  let read: AuthRead;
  try {
    read = await apply(api, ref, i, integration, undefined, log);
  } catch (err) {
    // Enabled, its settings not all applied: kept in the stack, the next `up` applies them.
    throw keptInStack(describeAuth(ref), err, id, toOutputs(i, ref, { integration, keys }));
  }
  return { id, outs: toOutputs(i, ref, { ...read, keys }) };
}

/**
 * Reads the branch's Neon Auth. None (disabled outside the stack, or its branch gone, the project
 * visible): no id drops it from the stack. A project the key cannot see fails instead.
 */
async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const old: State = props ?? {};
  const ref = parseAuthRef(id);
  const api = rt.client();
  const what = describeAuth(ref);
  const integration = await api.neonAuth.get(ref.projectId, ref.branchId).catch(async (err: unknown) => {
    if (!isNotFound(err)) throw err;
    await confirmGone(api, ref.projectId, what, "refresh", err);
    return undefined;
  });
  if (!integration) {
    rt.logger(old).info(
      `${what} is disabled or its branch is gone (outside the stack); dropping it from the stack`,
    );
    return {};
  }
  const outs = toOutputs(old, ref, await readSettings(api, ref, integration, old), old);
  return { id, props: outs, inputs: refreshInputs(DEF, old, outs) };
}

/** Applies the declared settings that changed. */
async function update(
  rt: Runtime,
  id: string,
  olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  const ref = parseAuthRef(id);
  // What the delete does is the stack's to remember: nothing is sent for it.
  if (definedDiff(DEF, olds, news).updates.every((k) => k === "deleteDataOnDestroy")) {
    return { outs: { ...olds, deleteDataOnDestroy: news.deleteDataOnDestroy } };
  }
  const api = rt.client();
  const log = rt.logger(news);
  const integration = await api.neonAuth.get(ref.projectId, ref.branchId);
  const r = await apply(
    api,
    ref,
    news,
    integration,
    olds.oauthProviders as NeonAuthOauthProviderInputs[] | undefined,
    log,
  );
  log.info(`updated ${describeAuth(ref)}`);
  return { outs: toOutputs(news, ref, r, olds) };
}

// --- delete ------------------------------------------------------------------------------------

/** Disables Neon Auth (its users' data stays unless `deleteDataOnDestroy`); one already disabled is deleted. */
async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  const ref = parseAuthRef(id);
  const log = rt.logger(props);
  await deleteAndWait(
    rt,
    ref.projectId,
    describeAuth(ref),
    async () => {
      await rt.client().neonAuth.disable(ref.projectId, ref.branchId, props.deleteDataOnDestroy === true);
      return { operations: [] };
    },
    log,
  );
  log.info(`disabled ${describeAuth(ref)}`);
}

/** `NeonAuth`'s own steps (see `../kit.ts`). */
export const neonAuthSteps: ResourceSteps<Inputs, NeonAuthOutputs> = {
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
};

/**
 * What an imported Neon Auth has other than the program declares (its database, its provider): taken
 * over as is, the next diff would replace it — disabling it, with its users when `deleteDataOnDestroy`.
 */
function importMismatch(i: Checked<Inputs>, held: NeonAuthIntegration): string | undefined {
  const wrong: string[] = [];
  if (known(i.databaseName) && i.databaseName !== held.db_name) {
    wrong.push(`databaseName is "${String(i.databaseName)}" but its database is "${held.db_name}"`);
  }
  if (known(i.authProvider) && i.authProvider !== undefined && i.authProvider !== held.auth_provider) {
    wrong.push(`authProvider is "${String(i.authProvider)}" but it is "${held.auth_provider}"`);
  }
  return wrong.length > 0
    ? `${wrong.join("; ")}: declare them as the service has them (a change replaces Neon Auth). Nothing was changed.`
    : undefined;
}

/** The keys the enable answered, as outputs. */
function keysOutputs(keys: AuthRead["keys"]): Record<string, string> {
  return keys
    ? { publishableClientKey: keys.publishableClientKey, secretServerKey: keys.secretServerKey }
    : {};
}
