/**
 * `SpendingLimit`'s mapping to and from the API: its resource id (the organization's id, as `importId`
 * writes it) and its outputs. Pure.
 */
import { stateOf, type Bag } from "../kit";
import { SPENDING_LIMIT_DEFINITION } from "./definition";

/** `the spending limit (budget alert) of organization org-…`. */
export const describeLimit = (orgId: string): string =>
  `the spending limit (budget alert) of organization ${orgId}`;

/** `$500.00`. */
export const dollars = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

/** The outputs: the inputs as given (for the next diff) and the amount as the service holds it. */
export function toOutputs(inputs: Bag, orgId: string, cents: number): Bag {
  return stateOf(SPENDING_LIMIT_DEFINITION, inputs, { ...inputs, orgId, limitCents: cents });
}
