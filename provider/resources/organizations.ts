/**
 * What a preview can know of an organization before a resource of it is made (VpcEndpoint,
 * ProjectVpcEndpoint, SpendingLimit): that the key can see it, and that its plan has the feature. Part
 * of the kit.
 *
 * The service names plans with a suffix of its own (`scale`, `scale_v3`, `free_v3`; Neon's document
 * gives `Organization.plan` as a plain string): a plan is judged by its family, the word before the
 * first `_`. Only a family Neon names and that lacks the feature is refused at preview; a plan name the
 * provider does not know is left to the service, which answers at `up`.
 */
import { isNotFound, type NeonClient, type Organization } from "../api";
import type { CheckFailure } from "./check";

/** The plan families Neon names (its plans page and its document's plan lists). */
export const PLAN_FAMILIES = ["free", "launch", "scale", "agent", "business", "enterprise"] as const;

/** A feature only some plans have. */
export interface PlanFeature {
  /** As messages name it: "private networking". */
  name: string;
  /** The plan families that have it. */
  families: readonly string[];
  /** Where the families come from, for the message. */
  source: string;
}

/** `scale_v3` → `scale`. */
export const planFamily = (plan: string): string => plan.toLowerCase().split(/[_\s]/)[0];

/** True when the plan is one Neon names that lacks the feature (an unknown plan is not judged). */
export function lacks(feature: PlanFeature, plan: string): boolean {
  const family = planFamily(plan);
  return (PLAN_FAMILIES as readonly string[]).includes(family) && !feature.families.includes(family);
}

/**
 * The organization `orgId` as the key sees it, or the failure a preview gives against `property`: an
 * organization the key cannot see, or one on a plan without the feature. Other errors are thrown.
 */
export async function organizationFor(
  api: NeonClient,
  orgId: string,
  property: string,
  feature: PlanFeature,
): Promise<{ org?: Organization; failure?: CheckFailure }> {
  let org: Organization;
  try {
    org = await api.organizations.get(orgId);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    return {
      failure: {
        property,
        reason:
          `organization ${orgId}: the API key cannot see it (it does not exist, or the key is not a member's ` +
          `or the organization's own); check ${property}, or use a key of organization ${orgId}`,
      },
    };
  }
  if (!lacks(feature, org.plan)) return { org };
  return {
    org,
    failure: {
      property,
      reason:
        `organization ${orgId} is on the ${org.plan} plan, which has no ${feature.name} (${feature.source}); ` +
        "upgrade the organization's plan, or remove this resource",
    },
  };
}

/** Private networking (VpcEndpoint, ProjectVpcEndpoint): Neon's guide names Scale, and Business and Enterprise. */
export const PRIVATE_NETWORKING: PlanFeature = {
  name: "private networking",
  families: ["scale", "business", "enterprise"],
  source: "Neon's private networking guide: Scale, Business and Enterprise",
};

/** The spending limit (SpendingLimit): Neon's document says Launch and Scale only. */
export const SPENDING_LIMIT: PlanFeature = {
  name: "spending limit",
  families: ["launch", "scale"],
  source: "Neon's API document: Launch and Scale only",
};
