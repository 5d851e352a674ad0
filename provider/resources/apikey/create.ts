/**
 * `ApiKey`'s create: a personal, organization or project-scoped key (a project's organization looked
 * up when only the project is given), checked to have the scope asked for, or an existing key
 * imported by `importId`. The token is in the create's answer only: it goes into the outputs and
 * nowhere else, and a lost answer cannot be reconciled (its token is gone with it).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type ApiKeyCreated, type NeonClient } from "../../api";
import type { Checked, Bag } from "../kit";
import type { Runtime } from "../runtime";
import type { ApiKeyInputs } from "./types";
import { describeKey, parseKeyRef, resourceId, toOutputs, type KeyRef } from "./mapping";
import { findKey, revoke } from "./listing";

export async function create(rt: Runtime, i: Checked<ApiKeyInputs>): Promise<pulumi.dynamic.CreateResult> {
  const inputs: Bag = i;
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
  inputs: Bag,
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
