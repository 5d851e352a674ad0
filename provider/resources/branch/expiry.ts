/**
 * `Branch`'s expiry as the service applies it: at `expiresAt` the service deletes the branch. A
 * refresh that finds it gone says so and notes it; the check of its recreation in the same run (the
 * drift job's `preview --refresh`) then says it will be created again instead of failing on the date
 * that passed, and a create refuses that date before sending. Times are the service's (its answers'
 * `Date`).
 */
import { isNotFound } from "../../http/errors";
import type { CheckFailure } from "../check";
import type { Runtime } from "../runtime";
import { isNewResource, UNKNOWN, type Bag, type Checked, type Stated } from "../kit";
import type { Named } from "./ownership";
import type { BranchInputs, BranchOutputs } from "./types";

/** For a new resource: the expiry at which a refresh of this run found its branch deleted. */
export function expiredThisRun(rt: Runtime, olds: Stated<BranchInputs>, news: Bag): string | undefined {
  return isNewResource(olds) && typeof news.__urn === "string"
    ? rt.ledger.expiredThisRun(news.__urn)
    : undefined;
}

/**
 * Before a new or changed `expiresAt` is judged: the service's time, known (one read when this
 * process has had no answer yet), so that "in the future" is the service's verdict, not this machine's.
 */
export async function primeForExpiry(rt: Runtime, olds: Stated<BranchInputs>, news: Bag): Promise<void> {
  const at = news.expiresAt;
  if (typeof at !== "string" || at === UNKNOWN || (!isNewResource(olds) && olds.expiresAt === at)) return;
  const p = news.projectId;
  await rt.primeServiceClock(typeof p === "string" && p !== UNKNOWN && p !== "" ? p : undefined);
}

/**
 * At the diff of a preview or an update: a replacement would create the branch anew, which the
 * service refuses with an expiry that has passed — and a replacement deletes the old branch first.
 */
export function refuseReplacementPastExpiry(
  rt: Runtime,
  id: string,
  news: Checked<BranchInputs>,
  replaces: string[],
): void {
  const at = news.expiresAt;
  if (replaces.length === 0 || typeof at !== "string" || at === UNKNOWN) return;
  if (Date.parse(at) > rt.serviceNow()) return;
  throw new Error(
    `Failed to replace branch ${id} (${replaces.join(", ")} changed): its expiresAt ${at} has passed, and the ` +
      "replacement would be a new branch, which the service refuses with a time that has passed — after the " +
      "old branch was deleted. Set a later expiresAt in the same change. Nothing was changed.",
  );
}

/** Says that the branch deleted at its expiry will be created again, and what `up` needs for that. */
export function sayRecreation(
  rt: Runtime,
  news: Bag,
  inputs: Checked<BranchInputs>,
  expiredAt: string | undefined,
): void {
  if (expiredAt === undefined || inputs.expiresAt === UNKNOWN) return;
  if (Date.parse(String(inputs.expiresAt)) !== Date.parse(expiredAt)) return;
  rt.logger(news).warn(
    `will be created again: this refresh found the branch deleted by the service at its expiry (${expiredAt}). ` +
      "`pulumi up` needs a later expiresAt to create it (the service refuses a time that has passed); or " +
      "remove the Branch from the program",
  );
}

/** A branch gone at refresh whose expiry had passed: the service deleted it then; said, and noted for check. */
export function noteExpired(rt: Runtime, branchId: string, props: Stated<BranchOutputs>): void {
  const at = props.expiresAt;
  if (typeof at !== "string" || !(Date.parse(at) <= rt.serviceNow())) return;
  if (typeof props.__urn === "string") rt.ledger.noteExpired(props.__urn, at);
  rt.logger(props).warn(
    `branch ${branchId} reached its expiry (${at}) and is gone (the service deletes a branch then, with its ` +
      "computes, roles and databases); the stack drops it. To have it again, set a later expiresAt (then `pulumi up` creates it), " +
      "or remove the Branch from the program",
  );
}

/**
 * An expiry that has passed on the service's clock (after a read, so that clock is known): a branch
 * that reached it was deleted (a refresh said so); the service would refuse the create with a 400.
 */
export function refusePassedExpiry(rt: Runtime, i: BranchInputs, name: string): void {
  if (!i.expiresAt || Date.parse(i.expiresAt) > rt.serviceNow()) return;
  throw new Error(
    `Failed to create branch "${name}"${i.name ? "" : " (named by the provider)"}: expiresAt ${i.expiresAt} has passed (a branch that ` +
      "reached its expiry was deleted by the service). Set a later expiresAt to create it again, or remove the " +
      "Branch from the program. Nothing was created.",
  );
}

/** Records the expiry a new branch (or a replacement, whose id is unknown until made) is given. */
export function noteComing(rt: Runtime, urn: unknown, i: Checked<BranchInputs>): void {
  if (typeof urn !== "string" || typeof i.projectId !== "string" || i.projectId === UNKNOWN) return;
  rt.ledger.branchesComing.set(urn, { projectId: i.projectId, expiresAt: i.expiresAt ?? null });
}

const SERVICE_RULE =
  "the service sets an expiry only on a branch without children (it refuses expiresAt on a parent), so the " +
  "stack would hold a parent it cannot keep as declared";

/**
 * A new branch (or one moving to another parent) must not be the child of an expiring branch: the
 * service refuses an expiry on a parent, and the provider refuses it in the other order (an expiry
 * added to a branch with children). The parent's expiry is the one this run gives it, else the
 * service's. A parent given as an unknown id (made in this run) is judged when every branch this
 * run makes in the project expires — then it is one of them, whichever; otherwise `up` judges it,
 * when the id is known, before the create is sent.
 */
export async function parentExpiryFailures(
  rt: Runtime,
  i: Checked<BranchInputs>,
  listed?: readonly Named[],
): Promise<CheckFailure[]> {
  const { projectId, parentId } = i;
  // Without parentId the parent is the default branch, which never expires.
  if (typeof projectId !== "string" || projectId === UNKNOWN || parentId === undefined) return [];
  if (parentId === UNKNOWN) {
    const coming = [...rt.ledger.branchesComing].filter(
      ([urn, b]) => urn !== i.__urn && b.projectId === projectId,
    );
    if (coming.length === 0 || coming.some(([, b]) => b.expiresAt === null || b.expiresAt === UNKNOWN)) {
      return [];
    }
    const names = coming.map(([urn]) => `"${urn.slice(urn.lastIndexOf("::") + 2)}"`).join(", ");
    return [
      {
        property: "parentId",
        reason:
          `the parent is a branch this program makes in this run, and each such branch (${names}) has expiresAt: ` +
          `${SERVICE_RULE}. Remove the parent's expiresAt, or give this branch a parent that does not expire`,
      },
    ];
  }
  let at = rt.ledger.expiryPlanned.get(`${projectId}/${parentId}`);
  if (at === undefined) {
    const parent = listed
      ? listed.find((x) => x.branch.id === parentId)?.branch
      : await rt
          .client()
          .branches.get(projectId, parentId)
          .catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
    at = parent?.expires_at ?? null;
  }
  if (!at || at === UNKNOWN) return [];
  return [
    {
      property: "parentId",
      reason:
        `parent branch ${parentId} has expiresAt ${at}: ${SERVICE_RULE}. Remove the parent's expiresAt, or give ` +
        "this branch a parent that does not expire",
    },
  ];
}
