/**
 * `VpcEndpoint`'s mapping to and from the API: its resource id (`<orgId>/<regionId>/<vpcEndpointId>`, as
 * `importId` writes it) and its outputs. Pure.
 */
import type { VpcEndpointDetails, VpcEndpointRef } from "../../api";
import { stateOf, type Bag } from "../kit";
import { VPC_ENDPOINT_DEFINITION } from "./definition";

/** The resource id of a registration. */
export const resourceId = (r: VpcEndpointRef): string => `${r.orgId}/${r.regionId}/${r.vpcEndpointId}`;

/** Splits a resource id (or an `importId`); throws naming the remedy for any other shape. */
export function parseVpcEndpointRef(id: string): VpcEndpointRef {
  const parts = id.split("/");
  if (parts.length !== 3 || parts.some((p) => p === "")) {
    throw new Error(
      `Failed to read VPC endpoint "${id}": the id is not "<orgId>/<regionId>/<vpcEndpointId>". Remove the ` +
        "resource from the stack with `pulumi state delete` and import the endpoint with importId.",
    );
  }
  return { orgId: parts[0], regionId: parts[1], vpcEndpointId: parts[2] };
}

/** `VPC endpoint vpce-… of organization org-… in region aws-…`. */
export const describeVpcEndpoint = (r: VpcEndpointRef): string =>
  `VPC endpoint ${r.vpcEndpointId} of organization ${r.orgId} in region ${r.regionId}`;

/** The outputs: the inputs as given (for the next diff) and the endpoint as the service holds it. */
export function toOutputs(inputs: Bag, ref: VpcEndpointRef, e: VpcEndpointDetails): Bag {
  return stateOf(VPC_ENDPOINT_DEFINITION, inputs, {
    ...inputs,
    orgId: ref.orgId,
    regionId: ref.regionId,
    vpcEndpointId: e.vpc_endpoint_id,
    label: e.label,
    endpointState: e.state,
  });
}
