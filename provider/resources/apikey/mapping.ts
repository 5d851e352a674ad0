/**
 * Mapping between `ApiKey` outputs, resource ids and the API's key shapes. Pure.
 */
import type { Bag } from "../kit";
import { stripUndefined } from "../runtime";

/** The fields of a key that create, list and revoke answers share. */
export interface KeyFields {
  id: number;
  name: string;
  created_at?: string;
  /** A user id (create, revoke) or the creator object (list). */
  created_by?: string | { id: string; name?: string; image?: string };
  last_used_at?: string | null;
  last_used_from_addr?: string;
  project_id?: string;
}

/** Where a key lives: the personal list (no `orgId`) or an organization's list. */
export interface KeyRef {
  keyId: number;
  orgId?: string;
}

/** The resource id: `"<keyId>"` for a personal key, `"<orgId>/<keyId>"` otherwise (as `importId`). */
export function resourceId(ref: KeyRef): string {
  return ref.orgId ? `${ref.orgId}/${ref.keyId}` : String(ref.keyId);
}

/** Splits a resource id or an `importId` (see {@link resourceId}). */
export function parseKeyRef(id: string): KeyRef {
  const slash = id.lastIndexOf("/");
  const keyId = Number(slash >= 0 ? id.slice(slash + 1) : id);
  if (!Number.isSafeInteger(keyId) || keyId < 0) {
    throw new Error(
      `Failed to read API key "${id}": the id is not "<keyId>" or "<orgId>/<keyId>". ` +
        "Remove the resource from the stack with `pulumi state delete` and import the key with importId.",
    );
  }
  return slash > 0 ? { keyId, orgId: id.slice(0, slash) } : { keyId };
}

/** The id of whoever created the key: a uuid string in create answers, an object in lists. */
export function creatorId(createdBy: KeyFields["created_by"]): string | undefined {
  return typeof createdBy === "object" && createdBy ? createdBy.id : createdBy;
}

/**
 * Outputs: the inputs the user gave, overlaid with what the API reports. `token` is only known at
 * creation; later reads pass the one kept in state.
 */
export function toOutputs(inputs: Bag, key: KeyFields, orgId: string | undefined, token?: unknown): Bag {
  return stripUndefined({
    ...inputs,
    name: key.name,
    orgId,
    projectId: key.project_id,
    keyId: key.id,
    token: typeof token === "string" ? token : undefined,
    createdAt: key.created_at ?? inputs.createdAt,
    createdBy: creatorId(key.created_by) ?? inputs.createdBy,
    // The API reports `null` and "" for a key never used.
    lastUsedAt: key.last_used_at || undefined,
    lastUsedFromAddr: key.last_used_from_addr || undefined,
  });
}

/** `personal API key 12`, `organization API key 12 of org-…`, `project-scoped API key 12 (project p) of org-…`. */
export function describeKey(ref: KeyRef & { projectId?: string }): string {
  if (!ref.orgId) return `personal API key ${ref.keyId}`;
  if (ref.projectId)
    return `project-scoped API key ${ref.keyId} (project ${ref.projectId}) of organization ${ref.orgId}`;
  return `organization API key ${ref.keyId} of organization ${ref.orgId}`;
}
