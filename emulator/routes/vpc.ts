/**
 * Private networking: an organization's VPC endpoints (`/organizations/{org_id}/vpc/…`, registered per
 * region) and a project's restriction to some of them (`/projects/{project_id}/vpc_endpoints/…`). Neither
 * starts an operation.
 *
 * What Neon's document says, kept: a registration (`POST`) assigns the endpoint or updates its label;
 * Azure regions are not supported; a deleted endpoint "cannot be added back" to the organization; a
 * project can be restricted to an endpoint only once it is assigned to the project's organization. What
 * it does not say, and the emulator assumes (a client must not count on it): the feature is on the Scale
 * plan only (Neon's guide; another plan, or a personal project, is refused with 403, as the guide's
 * "access error"); an unknown region is a 400, re-adding a deleted endpoint or registering one in a
 * second region a 409; writes need an administrator (403); an endpoint turns from `new` to `accepted`
 * one operation's time (`opMs`) after it is registered; deleting a registration leaves the projects'
 * restrictions to it in place. Assignments answer 200 with no body, as the document declares.
 *
 * The records: registrations per organization (a deleted one is kept, marked, so that it cannot come
 * back), restrictions per project (removed with it). Nothing is seeded.
 */
import { z } from "zod";
import { collection, resource } from "../collection";
import type { Ctx } from "../context";
import { badRequest, conflict, forbidden } from "../errors";
import { iso } from "../ids";
import type { Org, Project } from "../state";
import { requireOrgAdmin } from "./keys";
import { REGIONS } from "./projects";

/** An organization's VPC endpoint, as registered in a region. */
export const VpcEndpointSchema = z.object({
  vpc_endpoint_id: z.string(),
  label: z.string(),
  region_id: z.string(),
  registered_at: z.string(),
  /** Set once deleted: the endpoint cannot be added back to the organization. */
  deleted_at: z.string().optional(),
});
export type VpcEndpoint = z.infer<typeof VpcEndpointSchema>;

/** A project's restriction to one of its organization's endpoints. */
export const RestrictionSchema = z.object({ vpc_endpoint_id: z.string(), label: z.string() });
export type Restriction = z.infer<typeof RestrictionSchema>;

/** `VPCEndpointAssignment`: the endpoint's label. */
export const AssignmentBody = z.object({ label: z.string() }).strict();

export const vpcEndpoints = collection({
  name: "vpc_endpoints",
  noun: "VPC endpoint",
  scope: "organization",
  schema: VpcEndpointSchema,
  id: (e) => e.vpc_endpoint_id,
});

export const vpcRestrictions = collection({
  name: "project_vpc_endpoints",
  noun: "VPC endpoint restriction",
  scope: "project",
  schema: RestrictionSchema,
  id: (r) => r.vpc_endpoint_id,
});

/** The plans that offer private networking (Neon's guide: Scale). */
const VPC_PLANS: readonly string[] = ["scale"];

function requireVpcPlan(plan: string, what: string): void {
  if (!VPC_PLANS.includes(plan)) {
    throw forbidden(`Failed to ${what}: private networking is not available on the ${plan} plan`);
  }
}

function checkRegion(regionId: string, what: string): void {
  if (regionId.startsWith("azure-")) {
    throw badRequest(`Failed to ${what}: Azure regions are not supported (${regionId})`);
  }
  if (!REGIONS.includes(regionId)) throw badRequest(`Failed to ${what}: unknown region ${regionId}`);
}

/** The organization's endpoints that are not deleted. */
function live(ctx: Ctx, org: Org): VpcEndpoint[] {
  return vpcEndpoints
    .in(ctx.store)
    .of(org.id)
    .filter((e) => e.deleted_at === undefined);
}

/** The organization's projects restricted to an endpoint, by id. */
function restrictedProjects(ctx: Ctx, org: Org, id: string): string[] {
  const records = vpcRestrictions.in(ctx.store);
  return Object.values(ctx.store.state.projects)
    .filter((p) => p.org_id === org.id && records.get(p.id, id) !== undefined)
    .map((p) => p.id)
    .sort();
}

function details(ctx: Ctx, org: Org, e: VpcEndpoint): Record<string, unknown> {
  const acceptedAt = Date.parse(e.registered_at) + ctx.emu.settings.engine.opMs;
  const projects = restrictedProjects(ctx, org, e.vpc_endpoint_id);
  return {
    vpc_endpoint_id: e.vpc_endpoint_id,
    label: e.label,
    state: ctx.now() >= acceptedAt ? "accepted" : "new",
    num_restricted_projects: projects.length,
    example_restricted_projects: projects.slice(0, 3),
  };
}

/** The project's organization, on a plan with the feature. */
function projectOrg(ctx: Ctx, project: Project, what: string): Org {
  if (!project.org_id) {
    throw forbidden(`Failed to ${what}: private networking is for projects of an organization`);
  }
  const org = ctx.store.state.orgs[project.org_id];
  requireVpcPlan(org.plan, what);
  return org;
}

/**
 * The organization a route names, on a plan with the feature (a write: by an administrator), with the
 * region and endpoint the path names (the region checked) and its live registration there, if any.
 */
function named(ctx: Ctx, what: string, write: boolean) {
  const at = vpcEndpoints.at(ctx, what);
  const org = at.org as Org;
  const { region_id, vpc_endpoint_id } = ctx.params();
  if (write) requireOrgAdmin(ctx, org, at.what);
  requireVpcPlan(org.plan, at.what);
  checkRegion(region_id, at.what);
  const found = live(ctx, org).find(
    (x) => x.vpc_endpoint_id === vpc_endpoint_id && x.region_id === region_id,
  );
  // A 404 naming the endpoint and its region, for the routes that need it there.
  const one = () => found ?? at.one(`${vpc_endpoint_id} (region ${region_id})`);
  return { at, org, region_id, vpc_endpoint_id, one };
}

export const privateNetworking = resource({
  name: "private networking",
  collections: [vpcEndpoints, vpcRestrictions],
  routes(r) {
    const ONE = "/organizations/:org_id/vpc/region/:region_id/vpc_endpoints/:vpc_endpoint_id";

    r.get("/organizations/:org_id/vpc/vpc_endpoints", (ctx) => {
      const at = vpcEndpoints.at(ctx, "list VPC endpoints");
      const org = at.org as Org;
      requireVpcPlan(org.plan, at.what);
      const endpoints = live(ctx, org).map((e) => ({
        vpc_endpoint_id: e.vpc_endpoint_id,
        label: e.label,
        region_id: e.region_id,
      }));
      return { body: { endpoints } };
    });

    r.get("/organizations/:org_id/vpc/region/:region_id/vpc_endpoints", (ctx) => {
      const at = vpcEndpoints.at(ctx, "list VPC endpoints");
      const org = at.org as Org;
      const region = ctx.params().region_id;
      requireVpcPlan(org.plan, at.what);
      checkRegion(region, at.what);
      const endpoints = live(ctx, org)
        .filter((e) => e.region_id === region)
        .map((e) => ({ vpc_endpoint_id: e.vpc_endpoint_id, label: e.label }));
      return { body: { endpoints } };
    });

    r.get(ONE, (ctx) => {
      const { org, one } = named(ctx, "get VPC endpoint", false);
      return { body: details(ctx, org, one()) };
    });

    r.post(ONE, (ctx) => {
      const { at, org, region_id, vpc_endpoint_id } = named(ctx, "assign VPC endpoint", true);
      const { label } = ctx.body(AssignmentBody, at.what);
      const held = at.get(vpc_endpoint_id);
      if (held?.deleted_at !== undefined) {
        throw conflict(
          `Failed to ${at.what}: VPC endpoint ${vpc_endpoint_id} was deleted from organization ${org.id} and cannot be added back`,
        );
      }
      if (held && held.region_id !== region_id) {
        throw conflict(
          `Failed to ${at.what}: VPC endpoint ${vpc_endpoint_id} is assigned in region ${held.region_id}`,
        );
      }
      if (held) at.replace({ ...held, label });
      else at.add({ vpc_endpoint_id, label, region_id, registered_at: iso(ctx.now()) });
      return { body: undefined };
    });

    r.delete(ONE, (ctx) => {
      const { at, one } = named(ctx, "delete VPC endpoint", true);
      at.replace({ ...one(), deleted_at: iso(ctx.now()) });
      return { body: undefined };
    });

    r.get("/projects/:project_id/vpc_endpoints", (ctx) => {
      const at = vpcRestrictions.at(ctx, "list VPC endpoint restrictions");
      projectOrg(ctx, at.project, at.what);
      return { body: { endpoints: at.list().map((x) => ({ ...x })) } };
    });

    r.post("/projects/:project_id/vpc_endpoints/:vpc_endpoint_id", (ctx) => {
      const at = vpcRestrictions.at(ctx, "set VPC endpoint restriction");
      const org = projectOrg(ctx, at.project, at.what);
      requireOrgAdmin(ctx, org, at.what);
      const id = ctx.params().vpc_endpoint_id;
      const { label } = ctx.body(AssignmentBody, at.what);
      if (!live(ctx, org).some((e) => e.vpc_endpoint_id === id)) {
        throw badRequest(
          `Failed to ${at.what}: VPC endpoint ${id} is not assigned to organization ${org.id}; assign it first`,
        );
      }
      const held = at.get(id);
      if (held) at.replace({ vpc_endpoint_id: id, label });
      else at.add({ vpc_endpoint_id: id, label });
      return { body: undefined };
    });

    r.delete("/projects/:project_id/vpc_endpoints/:vpc_endpoint_id", (ctx) => {
      const at = vpcRestrictions.at(ctx, "delete VPC endpoint restriction");
      const org = projectOrg(ctx, at.project, at.what);
      requireOrgAdmin(ctx, org, at.what);
      at.remove(at.one(ctx.params().vpc_endpoint_id).vpc_endpoint_id);
      return { body: undefined };
    });
  },
});
