/**
 * `Branch`'s mapping to and from the API: the deterministic auto-name, the create body (with the
 * compute in `endpoints[]`), the compute's update body, and the outputs of a branch and its compute.
 */
import type { Branch, BranchCreateBody, Endpoint, EndpointUpdateBody } from "../../api";
import {
  OWNER_KEYS,
  derivedName,
  stateOf,
  ownerAnnotations,
  type Bag,
  type Checked,
  type Stated,
} from "../kit";
import { neverStarted } from "../compute/recovery";
import { BRANCH_DEFINITION } from "./definition";
import { definedDiff, type DefinedDiff } from "../compare";
import { stableNames, UNKNOWN } from "../definition";
import { normalizedTime } from "./inputs";
import { anonymized, madeAnonymized, runOwed, sameRules } from "./anonymized";
import type { BranchComputeInputs, BranchInputs, BranchOutputs } from "./types";

/**
 * The diff the definition derives (replaces, updates) for a branch's old and new inputs. A state
 * written before `initSource` was recorded says nothing of it: declaring it then replaces nothing
 * (the next refresh or update records the branch's own).
 */
export function diffBranch(olds: Stated<BranchOutputs>, news: Checked<BranchInputs>): DefinedDiff {
  const d = definedDiff(
    BRANCH_DEFINITION,
    olds.initSource === undefined && olds.currentState !== undefined
      ? { ...olds, initSource: news.initSource }
      : olds,
    news,
  );
  // A branch becomes anonymized, or stops being, only by a new branch: masked data never comes back.
  // Rules unknown at preview on a plain branch may make it anonymized: shown as the replacement it may be.
  if (d.updates.includes("maskingRules")) {
    const unknown = (news.maskingRules as unknown) === UNKNOWN;
    if (unknown ? !madeAnonymized(olds) : madeAnonymized(olds) !== anonymized(news.maskingRules)) {
      d.updates = d.updates.filter((k) => k !== "maskingRules");
      d.replaces.push("maskingRules");
      d.stables = [];
    } else if (!unknown && sameRules(olds.maskingRules, news.maskingRules)) {
      // The same rules in another order (the service's): no change.
      d.updates = d.updates.filter((k) => k !== "maskingRules");
      d.changes = d.replaces.length + d.updates.length + d.refused.length > 0;
    }
  }
  // The last run of its rules did not end masked (failed, or interrupted): the update runs them.
  if (d.replaces.length === 0 && anonymized(news.maskingRules) && runOwed(olds)) {
    d.updates.push("anonymizationState");
    d.changes = true;
  }
  // A restore is asked for by another snapshot only: `original` is read at the restore alone.
  if (d.replaces.includes("restoreFrom") && !restoreAsked(olds, news)) {
    d.replaces = d.replaces.filter((k) => k !== "restoreFrom");
    d.changes = d.replaces.length + d.updates.length + d.refused.length > 0;
    if (d.replaces.length === 0) d.stables = stableNames(BRANCH_DEFINITION.properties);
  }
  return d;
}

/** True when `restoreFrom` names a snapshot (or one not known yet) other than the last restore's. */
export function restoreAsked(olds: Bag, news: Bag): boolean {
  const next = news.restoreFrom;
  if (next === UNKNOWN) return true;
  if (!next || typeof next !== "object") return false;
  const id = (next as Bag).snapshotId;
  const old = olds.restoreFrom;
  return id === UNKNOWN || !old || typeof old !== "object" || (old as Bag).snapshotId !== id;
}

/**
 * `<resource name>-<7 hex digits>` from the URN and the project: a killed run's branch is found again
 * by the next run, and no other resource of any stack derives the same name.
 */
export function autoName(urn: string, projectId: string): string {
  return derivedName(urn, [projectId], "branch", 200);
}

/** `branch br-… ("name") of project p`. */
export function describeBranch(b: { id: string; name?: string; project_id?: string }): string {
  return `branch ${b.id}${b.name ? ` ("${b.name}")` : ""}${b.project_id ? ` of project ${b.project_id}` : ""}`;
}

/** The compute fields of an endpoint body. */
export function computeBody(c: BranchComputeInputs): EndpointUpdateBody {
  return {
    ...(c.minCu !== undefined ? { autoscaling_limit_min_cu: c.minCu } : {}),
    ...(c.maxCu !== undefined ? { autoscaling_limit_max_cu: c.maxCu } : {}),
    ...(c.suspendTimeoutSeconds !== undefined ? { suspend_timeout_seconds: c.suspendTimeoutSeconds } : {}),
  };
}

/** The create request; the branch is annotated with the stack that creates it (`urn`'s). */
export function createBody(i: BranchInputs, name: string, urn?: string): BranchCreateBody {
  // The program's annotations, then the provider's (which name the stack; check refuses their keys).
  const annotation = { ...(i.annotations ?? {}), ...ownerAnnotations(urn) };
  return {
    branch: {
      name,
      ...(i.parentId ? { parent_id: i.parentId } : {}),
      ...(i.parentTimestamp ? { parent_timestamp: i.parentTimestamp } : {}),
      ...(i.parentLsn ? { parent_lsn: i.parentLsn } : {}),
      ...(i.initSource ? { init_source: i.initSource } : {}),
      ...(i.protected !== undefined ? { protected: i.protected } : {}),
      ...(i.expiresAt ? { expires_at: i.expiresAt } : {}),
    },
    ...(i.compute ? { endpoints: [{ type: "read_write" as const, ...computeBody(i.compute) }] } : {}),
    ...(Object.keys(annotation).length > 0 ? { annotation_value: annotation } : {}),
  };
}

/** The compute as it runs, with the keys the program declared (a setting left out is not compared). */
export function actualCompute(ep: Endpoint | undefined, declared: unknown): BranchComputeInputs | undefined {
  if (!ep) return undefined;
  const keys = declared && typeof declared === "object" ? Object.keys(declared) : ["minCu", "maxCu"];
  const all: Record<string, number | undefined> = {
    minCu: ep.autoscaling_limit_min_cu,
    maxCu: ep.autoscaling_limit_max_cu,
    suspendTimeoutSeconds: ep.suspend_timeout_seconds,
  };
  return Object.fromEntries(keys.filter((k) => all[k] !== undefined).map((k) => [k, all[k]]));
}

/** The state key marking a branch's compute that has never started. */
export const NEVER_STARTED_KEY = "__computeNeverStarted";

/** A branch's annotation without the provider's own keys: the program's pairs. */
export function userAnnotations(annotation: Record<string, string>): Record<string, string> {
  const own = new Set<string>(Object.values(OWNER_KEYS));
  return Object.fromEntries(Object.entries(annotation).filter(([k]) => !own.has(k)));
}

/**
 * The resource's outputs: the inputs as given (for the next diff) and the branch and compute as they
 * are. `annotation` is the branch's as read (undefined when it could not be read: the declared pairs stand).
 */
export function toOutputs(
  inputs: Bag,
  b: Branch,
  ep: Endpoint | undefined,
  annotation: Record<string, string> | undefined,
  extra: Partial<BranchOutputs> = {},
): Bag {
  const user = annotation ? userAnnotations(annotation) : inputs.annotations;
  const outs: Bag = {
    ...inputs,
    ...extra,
    projectId: b.project_id,
    // The branch it was made from, once recorded: a reset of the parent that keeps its old state
    // (preserve_under_name) moves the children under the kept branch, which is no new parent to them.
    parentId: typeof inputs.parentId === "string" && inputs.parentId ? inputs.parentId : b.parent_id,
    // As declared (the service may spell the time otherwise), else as the service recorded it.
    parentTimestamp:
      typeof inputs.parentTimestamp === "string" && inputs.parentTimestamp
        ? inputs.parentTimestamp
        : b.parent_timestamp && normalizedTime(b.parent_timestamp),
    parentLsn: typeof inputs.parentLsn === "string" && inputs.parentLsn ? inputs.parentLsn : b.parent_lsn,
    initSource: b.init_source ?? inputs.initSource,
    name: b.name,
    protected: b.protected ?? false,
    expiresAt: b.expires_at,
    default: b.default ?? false,
    currentState: b.current_state,
    createdAt: b.created_at,
    computeId: ep?.id,
    computeState: ep?.current_state,
    // Never started (a failed first start, then maybe suspended): the next update starts it.
    [NEVER_STARTED_KEY]: ep && neverStarted(ep) ? true : undefined,
    host: ep?.host,
    compute: ep ? actualCompute(ep, inputs.compute) : inputs.compute,
    // What the branch carries (the service cannot change it after create), shown when it has any.
    annotations:
      inputs.annotations !== undefined || (user && Object.keys(user).length > 0) ? user : undefined,
  };
  return stateOf(BRANCH_DEFINITION, inputs, outs);
}
