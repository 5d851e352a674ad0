/**
 * `ProjectVpcEndpoint`'s mapping to and from the API: its resource id (`<projectId>/<vpcEndpointId>`, as
 * `importId` writes it) and its outputs. Pure.
 */
import type { VpcEndpoint } from "../../api";
import { splitProjectScoped, stateOf, type Bag } from "../kit";
import { PROJECT_VPC_ENDPOINT_DEFINITION } from "./definition";

/** Where a restriction is: its project and its endpoint. */
export interface RestrictionRef {
  projectId: string;
  vpcEndpointId: string;
}

/** The resource id of a restriction. */
export const resourceId = (r: RestrictionRef): string => `${r.projectId}/${r.vpcEndpointId}`;

/** Splits a resource id (or an `importId`); throws naming the remedy for any other shape. */
export function parseRestrictionRef(id: string): RestrictionRef {
  const [projectId, vpcEndpointId] = splitProjectScoped(id, "VPC endpoint restriction", "vpcEndpointId");
  return { projectId, vpcEndpointId };
}

/** `the restriction of project p to VPC endpoint vpce-…`. */
export const describeRestriction = (r: RestrictionRef): string =>
  `the restriction of project ${r.projectId} to VPC endpoint ${r.vpcEndpointId}`;

/** The outputs: the inputs as given (for the next diff) and the restriction as the service holds it. */
export function toOutputs(inputs: Bag, ref: RestrictionRef, r: VpcEndpoint): Bag {
  return stateOf(PROJECT_VPC_ENDPOINT_DEFINITION, inputs, {
    ...inputs,
    projectId: ref.projectId,
    vpcEndpointId: r.vpc_endpoint_id,
    label: r.label,
  });
}
