/**
 * The organization calls of the client (`OrganizationCalls`): an organization (its plan), the regions,
 * private networking (an organization's VPC endpoints per region, a project's restriction to them) and
 * the spending limit. None starts an operation. An assignment (`POST`) sets or updates (its label): the
 * same request sent again does no harm.
 */
import { z } from "zod";
import { route } from "../http";
import type { Call } from "./call";

/** `Organization`: what the provider reads of one. */
export const OrganizationSchema = z.object({ id: z.string(), name: z.string(), plan: z.string() });
export type Organization = z.infer<typeof OrganizationSchema>;

/** `RegionResponse`: what the provider reads of one. */
export const RegionSchema = z.object({ region_id: z.string(), name: z.string(), default: z.boolean() });
export type Region = z.infer<typeof RegionSchema>;

/** `VPCEndpointWithRegion` (the organization's list across regions; a project's list has no region). */
export const VpcEndpointSchema = z.object({
  vpc_endpoint_id: z.string(),
  label: z.string(),
  region_id: z.string().optional(),
});
export type VpcEndpoint = z.infer<typeof VpcEndpointSchema>;

/** `VPCEndpointDetails`. */
export const VpcEndpointDetailsSchema = z.object({
  vpc_endpoint_id: z.string(),
  label: z.string(),
  state: z.string(),
  num_restricted_projects: z.number(),
  example_restricted_projects: z.array(z.string()),
});
export type VpcEndpointDetails = z.infer<typeof VpcEndpointDetailsSchema>;

const EndpointsSchema = z.object({ endpoints: z.array(VpcEndpointSchema) });
const LimitSchema = z.object({ spending_limit_cents: z.number().nullable() });

/** Where an organization's VPC endpoint is registered. */
export interface VpcEndpointRef {
  orgId: string;
  regionId: string;
  vpcEndpointId: string;
}

/** The organization calls of the client. */
export interface OrganizationCalls {
  /** One organization the key belongs to (404 otherwise). */
  get(orgId: string): Promise<Organization>;
  /** The regions open to the organization (`GET /regions?org_id=`). */
  regions(orgId: string): Promise<Region[]>;
  /** The organization's VPC endpoints in every region, each with its `region_id`. */
  vpcEndpoints(orgId: string): Promise<VpcEndpoint[]>;
  /** One VPC endpoint of the organization in a region; 404 when it is not registered there. */
  vpcEndpoint(ref: VpcEndpointRef): Promise<VpcEndpointDetails>;
  /** Registers the VPC endpoint in the region, or sets the label of the one registered. */
  assignVpcEndpoint(ref: VpcEndpointRef, label: string): Promise<void>;
  /** Removes it from the organization (which cannot add it back: Neon's document). */
  deleteVpcEndpoint(ref: VpcEndpointRef): Promise<void>;
  /** The VPC endpoints a project is restricted to. */
  projectVpcEndpoints(projectId: string): Promise<VpcEndpoint[]>;
  /** Restricts the project to the endpoint, or sets the restriction's label. */
  restrictProject(projectId: string, vpcEndpointId: string, label: string): Promise<void>;
  /** Lifts the restriction; 404 when the project has none to this endpoint. */
  unrestrictProject(projectId: string, vpcEndpointId: string): Promise<void>;
  /** The monthly spending limit in cents; `null` when none is set. */
  spendingLimit(orgId: string): Promise<number | null>;
  /** Sets the monthly spending limit (cents, at least 1). */
  setSpendingLimit(orgId: string, cents: number): Promise<number | null>;
  /** Removes the spending limit (idempotent). */
  removeSpendingLimit(orgId: string): Promise<void>;
}

const one = (r: VpcEndpointRef) =>
  route("POST /organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}", {
    org_id: r.orgId,
    region_id: r.regionId,
    vpc_endpoint_id: r.vpcEndpointId,
  });
const what = (r: VpcEndpointRef) =>
  `VPC endpoint ${r.vpcEndpointId} of organization ${r.orgId} in region ${r.regionId}`;
const PATH_ONE = "/organizations/{org_id}/vpc/region/{region_id}/vpc_endpoints/{vpc_endpoint_id}";
const onePath = (method: "GET" | "DELETE", r: VpcEndpointRef) =>
  route(`${method} ${PATH_ONE}`, {
    org_id: r.orgId,
    region_id: r.regionId,
    vpc_endpoint_id: r.vpcEndpointId,
  });
// The assignments' answers have no body (Neon's document): nothing in them is read.
const none = { map: () => undefined } as const;

export function organizationCalls(call: Call): OrganizationCalls {
  return {
    get: (orgId) =>
      call(
        route("GET /organizations/{org_id}", { org_id: orgId }),
        "read",
        `organization ${orgId}`,
        OrganizationSchema,
      ),
    regions: (orgId) =>
      call(route("GET /regions"), "list", "the regions", z.object({ regions: z.array(RegionSchema) }), {
        query: { org_id: orgId },
        map: (v) => v.regions,
      }),
    vpcEndpoints: (orgId) =>
      call(
        route("GET /organizations/{org_id}/vpc/vpc_endpoints", { org_id: orgId }),
        "list",
        `the VPC endpoints of organization ${orgId}`,
        EndpointsSchema,
        { map: (v) => v.endpoints },
      ),
    vpcEndpoint: (ref) => call(onePath("GET", ref), "read", what(ref), VpcEndpointDetailsSchema),
    assignVpcEndpoint: (ref, label) =>
      call(one(ref), "assign", what(ref), z.unknown(), { body: { label }, ...none }),
    deleteVpcEndpoint: (ref) => call(onePath("DELETE", ref), "delete", what(ref), z.unknown(), none),
    projectVpcEndpoints: (projectId) =>
      call(
        route("GET /projects/{project_id}/vpc_endpoints", { project_id: projectId }),
        "list",
        `the VPC endpoint restrictions of project ${projectId}`,
        EndpointsSchema,
        { map: (v) => v.endpoints },
      ),
    restrictProject: (projectId, vpcEndpointId, label) =>
      call(
        route("POST /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}", {
          project_id: projectId,
          vpc_endpoint_id: vpcEndpointId,
        }),
        "set",
        `the restriction of project ${projectId} to VPC endpoint ${vpcEndpointId}`,
        z.unknown(),
        { body: { label }, ...none },
      ),
    unrestrictProject: (projectId, vpcEndpointId) =>
      call(
        route("DELETE /projects/{project_id}/vpc_endpoints/{vpc_endpoint_id}", {
          project_id: projectId,
          vpc_endpoint_id: vpcEndpointId,
        }),
        "delete",
        `the restriction of project ${projectId} to VPC endpoint ${vpcEndpointId}`,
        z.unknown(),
        none,
      ),
    spendingLimit: (orgId) =>
      call(
        route("GET /organizations/{org_id}/billing/spending_limit", { org_id: orgId }),
        "read",
        `the spending limit of organization ${orgId}`,
        LimitSchema,
        { map: (v) => v.spending_limit_cents },
      ),
    setSpendingLimit: (orgId, cents) =>
      call(
        route("PUT /organizations/{org_id}/billing/spending_limit", { org_id: orgId }),
        "set",
        `the spending limit of organization ${orgId}`,
        LimitSchema,
        { body: { spending_limit_cents: cents }, map: (v) => v.spending_limit_cents },
      ),
    removeSpendingLimit: (orgId) =>
      call(
        route("DELETE /organizations/{org_id}/billing/spending_limit", { org_id: orgId }),
        "remove",
        `the spending limit of organization ${orgId}`,
        z.unknown(),
        none,
      ),
  };
}
