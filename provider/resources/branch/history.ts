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

/** How a window's failures name what is judged: Branch's `parentTimestamp`, Snapshot's `timestamp`. */
export interface WindowWords {
  /** The input judged. */
  property: string;
  /** Where a good time lies: "the parent's past". */
  past: string;
  /** What removing the time gives: "for the parent's latest data". */
  latest: string;
  /** What a replacement deletes first: "branch". */
  replaced: string;
}

const BRANCH_WORDS: WindowWords = {
  property: "parentTimestamp",
  past: "the parent's past",
  latest: "for the parent's latest data",
  replaced: "branch",
};

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
  if (typeof parentTimestamp !== "string") return [];
  return windowFailures(rt, projectId, parentId, parentTimestamp, BRANCH_WORDS, marginMs);
}

/**
 * Failures of a time `at` of branch `branchId` (the project's default branch when undefined) against
 * the project's history retention and the branch's creation: the window the service can read from.
 * `marginMs` more of the window is required when `words.replaced` is deleted first. Nothing while a
 * value is unknown, or the project or branch cannot be read (the kit's target check reports those).
 */
export async function windowFailures(
  rt: Runtime,
  projectId: unknown,
  branchId: unknown,
  at: string,
  words: WindowWords,
  marginMs = 0,
): Promise<CheckFailure[]> {
  if (typeof projectId !== "string" || [projectId, branchId, at].includes(UNKNOWN)) return [];
  const api = rt.client();
  let retention: number | undefined;
  let branch: { id: string; created_at?: string } | undefined;
  try {
    retention = (await rt.projectFacts(projectId)).history_retention_seconds;
    branch =
      typeof branchId === "string"
        ? await api.branches.get(projectId, branchId).catch((err: unknown) => {
            if (err instanceof ApiError && err.kind === "not_found") return undefined;
            throw err;
          })
        : (await api.branches.list(projectId)).find((b) => b.default);
  } catch (err) {
    if (err instanceof ApiError && (err.kind === "not_found" || err.kind === "forbidden")) return [];
    throw err;
  }
  const time = Date.parse(at);
  const now = rt.serviceNow();
  const which = typeof branchId === "string" ? `branch ${branchId}` : "the project's default branch";
  const fail = (reason: string): CheckFailure[] => [{ property: words.property, reason }];
  if (time > now) {
    return fail(
      `${words.property} ${at} is in the future (the service's time is ${iso(now)}); give a time in ` +
        `${words.past}, or remove it ${words.latest}`,
    );
  }
  const kept = retention === undefined ? undefined : now - retention * 1000;
  if (kept !== undefined && time < kept + marginMs) {
    const margin =
      marginMs > 0
        ? `, and a replacement, which deletes the old ${words.replaced} first, needs ${marginMs / 60_000} minutes more of it`
        : "";
    return fail(
      `${words.property} ${at} is older than the history project ${projectId} keeps ` +
        `(history_retention_seconds ${retention}: from ${iso(kept)} on${margin}); give a later time, or raise ` +
        "the project's history retention (Project historyRetentionSeconds) in an earlier `pulumi up`",
    );
  }
  const made = branch?.created_at ? Date.parse(branch.created_at) : NaN;
  if (time < made) {
    return fail(
      `${words.property} ${at} is before ${which} was made (${branch?.created_at}); give a time after that`,
    );
  }
  return [];
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
