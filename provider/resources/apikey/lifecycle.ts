/**
 * The lifecycle of `ApiKey`: check, diff, create, read, update and delete.
 *
 * The token is returned by the API once, at creation; it goes into the outputs (which the class
 * marks secret) and nowhere else: never into a log line or an error message.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type ApiKey as ListedKey, type ApiKeyCreated, type NeonClient } from "../../api";
import { refreshInputs, type Checked, type ResourceSteps } from "../kit";
import type { Runtime } from "../runtime";
import { APIKEY_DEFINITION } from "./definition";
import { diffApiKey } from "./diff";
import { checkInputs } from "./inputs";
import type { ApiKeyInputs } from "./types";
import { describeKey, parseKeyRef, resourceId, toOutputs, type KeyRef } from "./mapping";

type Props = Record<string, unknown>;

// --- check / diff ----------------------------------------------------------------------------

async function check(_rt: Runtime, _olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const { inputs, failures } = checkInputs(news);
  return failures.length > 0 ? { inputs: news, failures } : { inputs };
}

async function diff(_rt: Runtime, _id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const d = diffApiKey(olds, news);
  return { changes: d.changes, replaces: d.replaces, stables: d.stables, deleteBeforeReplace: false };
}

// --- create ------------------------------------------------------------------------------

async function create(rt: Runtime, i: Checked<ApiKeyInputs>): Promise<pulumi.dynamic.CreateResult> {
  const inputs: Props = i;
  if (i.importId) return importExisting(rt, inputs, i);
  const api = rt.client();
  const orgId = i.orgId ?? (i.projectId ? await organizationOf(api, i.projectId) : undefined);
  const created = await createKey(api, i, orgId);
  const ref = { keyId: created.id, orgId, projectId: created.project_id };
  await ensureScope(api, i, ref);
  rt.logger(inputs).info(`created ${describeKey(ref)} named "${created.name}"`);
  return { id: resourceId(ref), outs: toOutputs(inputs, created, orgId, created.key) };
}

/** The organization that owns a project: project-scoped keys are created through it. */
async function organizationOf(api: NeonClient, projectId: string): Promise<string> {
  let orgId: string | undefined;
  try {
    orgId = (await api.projects.get(projectId)).org_id;
  } catch (err) {
    if (err instanceof ApiError && (err.kind === "not_found" || err.kind === "forbidden")) {
      throw err.withRemedy(
        `Check projectId, and that the provider's API key can see project ${projectId}; ` +
          "or set orgId to the project's organization.",
      );
    }
    throw err;
  }
  if (!orgId) {
    throw new Error(
      `Failed to create a project-scoped API key for project ${projectId}: the project belongs to no organization ` +
        "(a personal project), and project-scoped keys exist only for projects of an organization. " +
        "Remove projectId for a personal key, or move the project into an organization.",
    );
  }
  return orgId;
}

async function createKey(
  api: NeonClient,
  i: ApiKeyInputs,
  orgId: string | undefined,
): Promise<ApiKeyCreated> {
  try {
    return orgId ? await api.apiKeys.createOrg(orgId, i.name, i.projectId) : await api.apiKeys.create(i.name);
  } catch (err) {
    if (err instanceof ApiError && err.kind === "forbidden") throw err.withRemedy(whoMayCreate(i, orgId));
    // A key made by a request whose answer was lost cannot be adopted: its token is gone with it.
    if (err instanceof ApiError && err.mayHaveReachedServer) {
      throw err.withRemedy(
        `If a key named "${i.name}" was created (see the console), revoke it: its token was in the lost answer. ` +
          "Then run `pulumi up` again.",
      );
    }
    if (err instanceof ApiError && err.kind === "not_found" && orgId) {
      throw err.withRemedy(
        i.projectId
          ? `Check that project ${i.projectId} belongs to organization ${orgId} and that the API key can see it.`
          : `Check orgId, and that the provider's API key is a personal key of a member of organization ${orgId}.`,
      );
    }
    throw err;
  }
}

/** The remedy of a 403 on create: which key the provider needs for this key type (see the README). */
export function whoMayCreate(i: Pick<ApiKeyInputs, "projectId">, orgId: string | undefined): string {
  if (!orgId) {
    return (
      "Personal API keys are created with a personal API key (organization and project-scoped keys cannot " +
      "create them); set neon:apiKey to your own personal key."
    );
  }
  if (i.projectId) {
    return (
      `Project-scoped keys are created with the personal API key of a member of organization ${orgId}; ` +
      "set neon:apiKey to such a key."
    );
  }
  return (
    `Organization API keys are created only with the personal API key of an administrator of organization ${orgId}; ` +
    "set neon:apiKey to such a key, or set projectId for a project-scoped key, which any member may create."
  );
}

/**
 * The service must have made the key the program asked for: a key for one project must not come
 * back with another scope (e.g. organization-wide). One that does is revoked at once.
 */
async function ensureScope(api: NeonClient, i: ApiKeyInputs, ref: KeyRef & { projectId?: string }) {
  if ((ref.projectId ?? undefined) === (i.projectId ?? undefined)) return;
  const asked = i.projectId ? `project ${i.projectId}` : "no project (organization-wide)";
  const got = ref.projectId ? `project ${ref.projectId}` : "no project (organization-wide)";
  let revoked = "It was revoked.";
  try {
    await revoke(api, ref);
  } catch (err) {
    revoked = `Revoking it failed too (${(err as Error).message}); revoke it in the console.`;
  }
  throw new Error(
    `Failed to create ${describeKey({ keyId: ref.keyId, orgId: ref.orgId })}: the service scoped it to ${got}, ` +
      `but ${asked} was asked for. ${revoked} Check orgId and projectId.`,
  );
}

/**
 * Adopts an existing key named by `importId` (`pulumi import` cannot work for dynamic resources).
 * Its token cannot be read back: the service shows a token only when the key is created.
 */
async function importExisting(
  rt: Runtime,
  inputs: Props,
  i: ApiKeyInputs,
): Promise<pulumi.dynamic.CreateResult> {
  const ref = parseKeyRef(i.importId as string);
  const api = rt.client();
  const found = await findKey(api, ref, "import");
  if (!found) {
    throw new Error(
      `Failed to import ${describeKey(ref)}: the service lists no such key (revoked, or a mistyped importId). ` +
        "Check importId, or remove it to create a new key.",
    );
  }
  const differences: string[] = [];
  if (found.name !== i.name) differences.push(`name: declared "${i.name}", actual "${found.name}"`);
  if ((found.project_id ?? undefined) !== (i.projectId ?? undefined)) {
    differences.push(`projectId: declared ${i.projectId ?? "none"}, actual ${found.project_id ?? "none"}`);
  }
  if (differences.length > 0) {
    throw new Error(
      `Failed to import ${describeKey(ref)}: the declared inputs differ from the key (${differences.join("; ")}). ` +
        "Import changes nothing: make the program match the key.",
    );
  }
  rt.logger(inputs).info(
    `imported ${describeKey({ ...ref, projectId: found.project_id })}; its token cannot be read back ` +
      "(the service shows a token only when the key is created), so the token output stays empty. " +
      "Deleting this resource revokes the key.",
  );
  return { id: resourceId(ref), outs: toOutputs(inputs, found, ref.orgId) };
}

// --- read ----------------------------------------------------------------------------------

/**
 * Reads the key by id from the list where it lives (names are not unique). A key missing from a
 * list the provider could read was revoked: no id drops it from the stack. A list the provider
 * cannot read (its key lacks the scope) fails instead: that says nothing about the key.
 */
async function read(rt: Runtime, id: string, props?: Props): Promise<pulumi.dynamic.ReadResult> {
  const old = props ?? {};
  const ref = parseKeyRef(id);
  const api = rt.client();
  const found = await findKey(api, ref, "read");
  if (!found) {
    await ensureOwnList(api, ref, old, "read");
    rt.logger(old).info(`${describeKey(ref)} no longer exists (revoked); dropping it from the stack`);
    return {};
  }
  const outs = toOutputs(old, found, ref.orgId, old.token);
  return { id, props: outs, inputs: refreshInputs(APIKEY_DEFINITION, old, outs) };
}

/** The key as listed, `undefined` when the list lacks it; fails when the list cannot be read. */
async function findKey(api: NeonClient, ref: KeyRef, verb: string): Promise<ListedKey | undefined> {
  try {
    const listed = ref.orgId ? await api.apiKeys.listOrg(ref.orgId) : await api.apiKeys.list();
    return listed.find((k) => k.id === ref.keyId);
  } catch (err) {
    if (err instanceof ApiError && (err.kind === "forbidden" || err.kind === "not_found")) {
      throw err.withRemedy(
        `The provider's API key cannot list ${ref.orgId ? `the keys of organization ${ref.orgId}` : "personal keys"}, ` +
          `so it cannot ${verb} ${describeKey(ref)}; the stack keeps it as it is. ` +
          (ref.orgId
            ? `Set neon:apiKey to the personal key of an administrator of ${ref.orgId} or an organization key of it.`
            : "Set neon:apiKey to the personal key of the key's owner."),
      );
    }
    throw err;
  }
}

/**
 * The personal list holds only the caller's own keys: a key missing from another user's list may
 * well exist. Fails unless the provider's key belongs to the user who created this one.
 */
async function ensureOwnList(api: NeonClient, ref: KeyRef, old: Props, verb: string): Promise<void> {
  const owner = typeof old.createdBy === "string" ? old.createdBy : undefined;
  if (ref.orgId || !owner) return;
  const me = await api.users.me();
  if (me.id === owner) return;
  throw new Error(
    `Failed to ${verb} ${describeKey(ref)}: it belongs to user ${owner}, but the provider's API key is user ${me.id}'s, ` +
      "and a personal key is visible only to its owner; the stack keeps it as it is. " +
      "Set neon:apiKey to a personal key of the owner.",
  );
}

// --- update --------------------------------------------------------------------------------

/**
 * Every input change replaces the key (see diff), so the engine calls update only for inputs that
 * change nothing (an `importId` added after creation): the outputs stay, with the new inputs.
 */
async function update(
  _rt: Runtime,
  _id: string,
  olds: Props,
  news: Props,
): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: { ...olds, ...news } };
}

// --- delete --------------------------------------------------------------------------------

/** Revokes the key. A key already revoked, or one the service no longer knows, is success. */
async function remove(rt: Runtime, id: string, props: Props): Promise<void> {
  const ref = parseKeyRef(id);
  const api = rt.client();
  const what = describeKey({ ...ref, projectId: props?.projectId as string | undefined });
  try {
    await revoke(api, ref);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.kind === "forbidden") {
      throw err.withRemedy(
        (ref.orgId
          ? `Organization and project-scoped keys are revoked by administrators of ${ref.orgId} ` +
            "(their personal key, or an organization key of it)"
          : "A personal key is revoked with a personal key of its owner") +
          "; set neon:apiKey to such a key, or keep the key with `pulumi state delete` and revoke it in the console.",
      );
    }
    if (err.kind !== "not_found") throw err;
    // The service answers 404 for an unknown key, but also when the provider's key may not look
    // into this organization (scope): only a list that lacks the key proves it gone.
    if (await findKey(api, ref, "revoke")) throw err;
    await ensureOwnList(api, ref, props ?? {}, "revoke");
  }
  rt.logger(props ?? {}).info(`revoked ${what}`);
}

async function revoke(api: NeonClient, ref: KeyRef): Promise<void> {
  if (ref.orgId) await api.apiKeys.revokeOrg(ref.orgId, ref.keyId);
  else await api.apiKeys.revoke(ref.keyId);
}

/** `ApiKey`'s own steps (see `../kit.ts`). */
export const apiKeySteps: ResourceSteps<ApiKeyInputs> = {
  check,
  diff,
  changedKeys: (olds, news) => diffApiKey(olds, news).replaces,
  create,
  read,
  update,
  delete: remove,
};
