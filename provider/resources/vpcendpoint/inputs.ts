/**
 * Inputs of the `VpcEndpoint` resource and `check`'s pure part: validation at `pulumi preview`. Pure.
 */
import { z } from "zod";
import { checkAgainst, inputsChecked, inputSchema, type InputsCheck } from "../check";
import type { Bag } from "../definition";
import { apiId } from "../branch-objects/objects";
import { VPC_ENDPOINT_DEFINITION } from "./definition";
import type { VpcEndpointInputs } from "./types";

/** An AWS VPC endpoint's id: `vpce-` and 8 or 17 hexadecimal digits. */
export const VPC_ENDPOINT_ID_PATTERN = /^vpce-[0-9a-f]{8}([0-9a-f]{9})?$/;

/** A Neon region id of AWS (`aws-us-east-2`); Neon's document: Azure regions are not supported. */
export const AWS_REGION_PATTERN = /^aws-[a-z0-9-]{1,40}$/;

/** `"<orgId>/<regionId>/<vpcEndpointId>"`. */
export const IMPORT_ID_PATTERN = /^([a-z0-9-]{1,60})\/([a-z0-9-]{1,60})\/(vpce-[0-9a-f]{8,17})$/;

/** The rule of a VPC endpoint id (a ProjectVpcEndpoint's too). */
export const vpcEndpointIdRule = z
  .string({ error: 'is required: the AWS VPC endpoint\'s id ("vpce-…")' })
  .regex(VPC_ENDPOINT_ID_PATTERN, {
    error:
      'must be an AWS VPC endpoint id: "vpce-" and 8 or 17 hexadecimal digits, e.g. vpce-0123456789abcdef0',
  });

const inputsSchema = inputSchema(VPC_ENDPOINT_DEFINITION, {
  orgId: apiId("an organization id (org-…: 1–60 lower-case letters, digits and dashes)"),
  regionId: z
    .string({ error: 'is required: the Neon region of the endpoint, e.g. "aws-us-east-2"' })
    .refine((v) => !v.startsWith("azure-"), {
      error:
        "is an Azure region: private networking is offered in AWS regions only; use the AWS region of the endpoint",
    })
    .regex(AWS_REGION_PATTERN, { error: 'must be a Neon region id of AWS, e.g. "aws-us-east-2"' }),
  vpcEndpointId: vpcEndpointIdRule,
  label: z.string({ error: 'is required: a label for the endpoint, e.g. "app-vpc"' }),
  importId: z.string({ error: "must be a string" }).regex(IMPORT_ID_PATTERN, {
    error: 'must name the endpoint to manage, as "<orgId>/<regionId>/<vpcEndpointId>"',
  }),
});

/** Validates raw inputs. Values not known yet (preview) are neither validated nor altered. */
export function checkInputs(news: Bag): InputsCheck<VpcEndpointInputs> {
  const checked = checkAgainst(VPC_ENDPOINT_DEFINITION, inputsSchema, news);
  const { failures } = checked;
  if (!checked.parsed) return inputsChecked(news, failures);
  const v = checked.value as Partial<VpcEndpointInputs>;
  const own = `${v.orgId}/${v.regionId}/${v.vpcEndpointId}`;
  if (
    typeof v.importId === "string" &&
    [v.orgId, v.regionId, v.vpcEndpointId].every((x) => typeof x === "string") &&
    v.importId !== own
  ) {
    failures.push({
      property: "importId",
      reason: `importId ${v.importId} names another endpoint than this resource's (${own}); make them the same, or remove importId`,
    });
  }
  return inputsChecked(news, failures);
}
