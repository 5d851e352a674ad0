/**
 * An organization's spending limit (`/organizations/{org_id}/billing/spending_limit`): a monthly cap in
 * cents that only sends alerts (Neon's document: at 80% and 100%; computes are not suspended). As the
 * document says: on the Launch and Scale plans only; `PUT` takes a whole number of cents, at least 1
 * (`0` and `null` are refused: `DELETE` removes the limit); `DELETE` is idempotent; members read it,
 * administrators change it. What it does not say, and the emulator assumes: another plan is refused
 * with 403, a body out of range with 400; `DELETE` answers `{}`. No operation starts.
 *
 * The record: at most one per organization, while a limit is set. Nothing is seeded.
 */
import { z } from "zod";
import { collection, resource } from "../collection";
import { forbidden } from "../errors";
import type { Org } from "../state";
import { requireOrgAdmin } from "./keys";

const ID = "spending_limit";

export const SpendingLimitSchema = z.object({ id: z.literal(ID), spending_limit_cents: z.number().int() });

/** `SpendingLimitUpdateRequest`: a whole number of cents, at least 1. */
export const SpendingLimitBody = z
  .object({
    spending_limit_cents: z
      .number({ error: "must be a number of cents" })
      .int("must be a whole number of cents")
      .min(1, "must be at least 1 (to remove the limit, send DELETE)"),
  })
  .strict();

export const spendingLimits = collection({
  name: "spending_limits",
  noun: "spending limit",
  scope: "organization",
  schema: SpendingLimitSchema,
  id: () => ID,
});

/** The plans with a spending limit (Neon's document: Launch and Scale). */
const PLANS: readonly string[] = ["launch", "scale"];

function requirePlan(org: Org, what: string): void {
  if (!PLANS.includes(org.plan)) {
    throw forbidden(`Failed to ${what}: spending limits are available on the Launch and Scale plans only`);
  }
}

export const spendingLimit = resource({
  name: "spending limit",
  collections: [spendingLimits],
  routes(r) {
    const PATH = "/organizations/:org_id/billing/spending_limit";

    r.get(PATH, (ctx) => {
      const at = spendingLimits.at(ctx, "get spending limit");
      requirePlan(at.org as Org, at.what);
      return { body: { spending_limit_cents: at.get(ID)?.spending_limit_cents ?? null } };
    });

    r.put(PATH, (ctx) => {
      const at = spendingLimits.at(ctx, "set spending limit");
      requireOrgAdmin(ctx, at.org as Org, at.what);
      requirePlan(at.org as Org, at.what);
      const { spending_limit_cents } = ctx.body(SpendingLimitBody, at.what);
      const record = { id: ID, spending_limit_cents } as const;
      if (at.get(ID)) at.replace(record);
      else at.add(record);
      return { body: { spending_limit_cents } };
    });

    r.delete(PATH, (ctx) => {
      const at = spendingLimits.at(ctx, "remove spending limit");
      requireOrgAdmin(ctx, at.org as Org, at.what);
      requirePlan(at.org as Org, at.what);
      at.remove(ID);
      return { body: {} };
    });
  },
});
