/**
 * The lifecycle of `SpendingLimit`: an organization's one monthly budget alert. Create and update set
 * it (`PUT`: the client sends it again on a lost answer, which does no harm), delete removes it
 * (idempotent), read gets it. An organization with an alert no resource of the program declares is
 * refused at preview with its `importId` (the service keeps no mark of who set it: a killed run's reads
 * the same). Nothing waits: no operation starts.
 */
import type * as pulumi from "@pulumi/pulumi";
import { definedDiff } from "../compare";
import {
  UNKNOWN,
  diffResult,
  isNewResource,
  readImported,
  refreshInputs,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import { organizationFor, SPENDING_LIMIT } from "../organizations";
import type { Runtime } from "../runtime";
import { SPENDING_LIMIT_DEFINITION as DEF, SPENDING_LIMIT_NOUN } from "./definition";
import { checkInputs } from "./inputs";
import { describeLimit, dollars, toOutputs } from "./mapping";
import type { SpendingLimitInputs, SpendingLimitOutputs } from "./types";

type Inputs = SpendingLimitInputs;
type State = Stated<SpendingLimitOutputs>;

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;

/** What an organization whose alert no resource of the stack manages is told, with the `importId` that takes it. */
function heldMessage(orgId: string, cents: number): string {
  return (
    `organization ${orgId} already has a spending limit (${dollars(cents)}) that no resource of this stack manages ` +
    `(the service keeps no mark of who set it). To manage it here, set importId: "${orgId}" (the declared ` +
    "limitCents then replaces it); or remove it in the console first"
  );
}

// --- check / diff ----------------------------------------------------------------------------

/**
 * Every rule a create would refuse by, so that the preview fails where `up` would: one resource per
 * organization in the program; for a resource that is new or moves, an organization the key sees, on a
 * plan with the spending limit, and without one yet (unless `importId` takes it).
 */
async function check(rt: Runtime, olds: Stated<Inputs>, news: Bag): Promise<CheckResult<Inputs>> {
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) return { inputs: news, failures };
  const { orgId, importId } = inputs;
  const fail = (property: string, reason: string) => ({ inputs: news, failures: [{ property, reason }] });
  if (!known(orgId)) return { inputs };
  const other =
    typeof news.__urn === "string" ? rt.ledger.declare(`spending limit:${orgId}`, news.__urn) : undefined;
  if (other) {
    return fail(
      "orgId",
      `the spending limit of organization ${orgId} is already declared by another resource of this program ` +
        `(${other.slice(other.lastIndexOf("::") + 2)}); an organization has one: remove one of them`,
    );
  }
  if (!isNewResource(olds) && olds.orgId === orgId) return { inputs };
  const api = rt.client();
  const { failure } = await organizationFor(api, orgId, "orgId", SPENDING_LIMIT);
  if (failure) return { inputs: news, failures: [failure] };
  if (importId !== undefined) return { inputs };
  const cents = await api.organizations.spendingLimit(orgId);
  return cents !== null ? fail("orgId", heldMessage(orgId, cents)) : { inputs };
}

async function diff(
  _rt: Runtime,
  _id: string,
  olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.DiffResult> {
  // Delete first: a forced replacement in the same organization must not find its own alert there.
  return diffResult(definedDiff(DEF, olds, news), true);
}

// --- create / read / update ------------------------------------------------------------------

/** Sets the declared alert on an organization that has none; or, given `importId`, takes over its own. */
async function create(rt: Runtime, i: Checked<Inputs>): Promise<pulumi.dynamic.CreateResult> {
  const api = rt.client();
  const log = rt.logger(i);
  const what = describeLimit(i.orgId);
  if (i.importId !== undefined) {
    await readImported("organization", i.importId, () => api.organizations.spendingLimit(i.orgId));
    rt.ledger.noteTakenOver(SPENDING_LIMIT_NOUN, i.orgId);
    log.info(`took over ${what}`);
  } else {
    const cents = await api.organizations.spendingLimit(i.orgId);
    if (cents !== null) throw new Error(`Failed to set ${what}: ${heldMessage(i.orgId, cents)}.`);
  }
  const set = await api.organizations.setSpendingLimit(i.orgId, i.limitCents);
  log.info(`set ${what} to ${dollars(set ?? i.limitCents)}`);
  return { id: i.orgId, outs: toOutputs(i, i.orgId, set ?? i.limitCents) };
}

/** Reads the alert. None set: it was removed outside the stack, and no id drops it from the stack. */
async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const old: State = props ?? {};
  const cents = await rt.client().organizations.spendingLimit(id);
  if (cents === null) {
    rt.logger(old).info(`${describeLimit(id)} was removed outside the stack; dropping it from the stack`);
    return {};
  }
  const outs = toOutputs(old, id, cents);
  return { id, props: outs, inputs: refreshInputs(DEF, old, outs) };
}

/** Sets the declared amount. */
async function update(
  rt: Runtime,
  id: string,
  _olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  const set = await rt.client().organizations.setSpendingLimit(id, news.limitCents);
  rt.logger(news).info(`set ${describeLimit(id)} to ${dollars(set ?? news.limitCents)}`);
  return { outs: toOutputs(news, id, set ?? news.limitCents) };
}

// --- delete ------------------------------------------------------------------------------------

/** Removes the alert (the service answers the same when there is none). */
async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  await rt.client().organizations.removeSpendingLimit(id);
  rt.logger(props).info(`removed ${describeLimit(id)}`);
}

/** `SpendingLimit`'s own steps (see `../kit.ts`). */
export const spendingLimitSteps: ResourceSteps<Inputs, SpendingLimitOutputs> = {
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
};
