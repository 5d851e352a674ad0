/**
 * `Branch`'s expiry as the service applies it: at `expiresAt` the service deletes the branch. A
 * refresh that finds it gone says so and notes it; the check of its recreation in the same run (the
 * drift job's `preview --refresh`) then says it will be created again instead of failing on the date
 * that passed, and a create refuses that date before sending. Times are the service's (its answers'
 * `Date`).
 */
import type { Runtime } from "../runtime";
import { isNewResource, UNKNOWN, type Bag, type Checked, type Stated } from "../kit";
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
export function refusePassedExpiry(rt: Runtime, i: BranchInputs): void {
  if (!i.expiresAt || Date.parse(i.expiresAt) > rt.serviceNow()) return;
  throw new Error(
    `Failed to create branch "${i.name ?? "(auto-named)"}": expiresAt ${i.expiresAt} has passed (a branch that ` +
      "reached its expiry was deleted by the service). Set a later expiresAt to create it again, or remove the " +
      "Branch from the program. Nothing was created.",
  );
}
