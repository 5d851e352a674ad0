/**
 * Where `ApiKey`'s keys are found and revoked: the list of the organization that owns a key, or the
 * caller's own personal keys — a personal key is visible only to its owner.
 */
import type { Bag } from "../kit";
import { ApiError, type ApiKey as ListedKey, type NeonClient } from "../../api";
import { describeKey, type KeyRef } from "./mapping";

/** The key as listed, `undefined` when the list lacks it; fails when the list cannot be read. */
export async function findKey(api: NeonClient, ref: KeyRef, verb: string): Promise<ListedKey | undefined> {
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
export async function ensureOwnList(api: NeonClient, ref: KeyRef, old: Bag, verb: string): Promise<void> {
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

/** Revokes the key where it lives (an organization's, or the caller's personal ones). */
export async function revoke(api: NeonClient, ref: KeyRef): Promise<void> {
  if (ref.orgId) await api.apiKeys.revokeOrg(ref.orgId, ref.keyId);
  else await api.apiKeys.revoke(ref.keyId);
}
