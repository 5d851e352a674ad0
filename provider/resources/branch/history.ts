/**
 * A branch from its parent's past (`parentTimestamp`), judged at preview against what the service can
 * restore: the project keeps `history_retention_seconds` of each branch's history (one day by default),
 * and none from before the parent was made. Judged whenever the branch is to be created — a new
 * resource or a replacement, which deletes the old branch first and must not then fail to create.
 */
import { ApiError } from "../../api";
import type { CheckFailure } from "../check";
import { UNKNOWN, type Checked } from "../kit";
import type { Runtime } from "../runtime";
import type { BranchInputs } from "./types";

/**
 * How much of the window a replacement keeps in hand: between its preview and its create come the
 * delete of the old branch and its wait (and any queue on the project's lock, and 429s): more than one
 * call's default deadline (20 min).
 */
export const REPLACEMENT_MARGIN_MS = 30 * 60_000;

/**
 * Failures of `parentTimestamp` against the project's history retention and the parent's creation;
 * `marginMs` more of the window is required (a replacement, which deletes the old branch first).
 */
export async function historyFailures(
  rt: Runtime,
  inputs: Checked<BranchInputs>,
  marginMs = 0,
): Promise<CheckFailure[]> {
  const { projectId, parentId, parentTimestamp } = inputs;
  if (typeof parentTimestamp !== "string" || typeof projectId !== "string") return [];
  if ([projectId, parentId, parentTimestamp].includes(UNKNOWN)) return [];
  const api = rt.client();
  let retention: number | undefined;
  let parent: { id: string; created_at?: string } | undefined;
  try {
    retention = (await rt.projectFacts(projectId)).history_retention_seconds;
    parent =
      typeof parentId === "string"
        ? await api.branches.get(projectId, parentId).catch((err: unknown) => {
            // A parent that is not there is the kit's target check's to report.
            if (err instanceof ApiError && err.kind === "not_found") return undefined;
            throw err;
          })
        : (await api.branches.list(projectId)).find((b) => b.default);
  } catch (err) {
    // A project the key cannot see is reported by the kit's target check, naming projectId.
    if (err instanceof ApiError && (err.kind === "not_found" || err.kind === "forbidden")) return [];
    throw err;
  }
  const at = Date.parse(parentTimestamp);
  const now = rt.serviceNow();
  const which = typeof parentId === "string" ? `branch ${parentId}` : "the project's default branch";
  if (at > now) {
    return [
      {
        property: "parentTimestamp",
        reason: `parentTimestamp ${parentTimestamp} is in the future (the service's time is ${iso(now)}); give a time in the parent's past, or remove it for the parent's latest data`,
      },
    ];
  }
  const kept = retention === undefined ? undefined : now - retention * 1000;
  if (kept !== undefined && at < kept + marginMs) {
    const margin =
      marginMs > 0
        ? `, and a replacement, which deletes the old branch first, needs ${marginMs / 60_000} minutes more of it`
        : "";
    return [
      {
        property: "parentTimestamp",
        reason:
          `parentTimestamp ${parentTimestamp} is older than the history project ${projectId} keeps ` +
          `(history_retention_seconds ${retention}: from ${iso(kept)} on${margin}); give a later time, or raise ` +
          "the project's history retention (Project historyRetentionSeconds) in an earlier `pulumi up`",
      },
    ];
  }
  const made = parent?.created_at ? Date.parse(parent.created_at) : NaN;
  if (at < made) {
    return [
      {
        property: "parentTimestamp",
        reason: `parentTimestamp ${parentTimestamp} is before ${which} was made (${parent?.created_at}); give a time after that`,
      },
    ];
  }
  return [];
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
