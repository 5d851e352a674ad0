/**
 * The definition of `VpcEndpoint`: every input and output with its type, docs and what a change does.
 * The plugin schema and `docs/api/VpcEndpoint.md` are generated from it, the key lists and input checks
 * derived from it, and the class's args/outputs types held equal to it at compile time. Dependency-free.
 */
import type { ResourceDef } from "../definition";
import { fixedInput, importIdInput } from "../definition";

/** What a VpcEndpoint is called in messages. */
export const VPC_ENDPOINT_NOUN = "VPC endpoint";

export const VPC_ENDPOINT_DEFINITION = {
  name: "VpcEndpoint",
  description:
    "An AWS VPC endpoint registered with an organization in a Neon region (private networking over AWS " +
    "PrivateLink; the Scale plan, AWS regions only). Registering starts no operation; the service then " +
    "accepts the connection (`endpointState` turns from `new` to `accepted`). An endpoint already registered " +
    "that no resource of the stack manages fails at preview with the exact `importId`. The label changes in " +
    "place. **Deleting the resource removes the endpoint from the organization for good**: Neon's document " +
    "says a removed endpoint cannot be added back to the organization. A change of `vpcEndpointId` or " +
    "`orgId` registers the new endpoint before the old one is removed; `regionId` cannot change (an endpoint " +
    "lives in one region, and a removed one cannot come back).",
  importId: {
    format: "<orgId>/<regionId>/<vpcEndpointId>",
    example: "org-cool-sky-12345678/aws-us-east-2/vpce-0123456789abcdef0",
  },
  aliases: ["pulumi-nodejs:dynamic/neon:VpcEndpoint"],
  properties: [
    fixedInput(
      "orgId",
      "The organization (`org-…`) the endpoint is registered with. Changing it registers the endpoint with " +
        "the new organization, then removes it from this one.",
    ),
    {
      name: "regionId",
      type: "string",
      input: "required",
      output: "always",
      change: "refused",
      description:
        "The Neon region of the endpoint (`aws-us-east-2`, …; Azure regions are not supported), the AWS " +
        "region the endpoint was made in. Cannot change: declare another endpoint instead.",
    },
    fixedInput(
      "vpcEndpointId",
      "The AWS VPC endpoint's id (`vpce-…`). Changing it registers the new endpoint, then removes this one " +
        "from the organization for good.",
    ),
    {
      name: "label",
      type: "string",
      input: "required",
      output: "always",
      change: "update",
      description: "A descriptive label the console shows. Changed in place.",
    },
    importIdInput(
      'Manage an endpoint the organization already has: `"<orgId>/<regionId>/<vpcEndpointId>"`, naming this ' +
        "very endpoint. The declared `label` replaces its own. Read at creation only. Deleting the resource " +
        "removes the endpoint from the organization for good.",
    ),
    {
      name: "endpointState",
      type: "string",
      output: "always",
      description:
        "The service's state of the endpoint: `new` (registered, the connection not accepted yet) or " +
        "`accepted` (as of the last read).",
    },
  ],
  notes: [
    "A project is restricted to the endpoint by `ProjectVpcEndpoint`: pass it this resource's " +
      "`vpcEndpointId`, so that the endpoint is registered first and the restriction lifted before it goes.",
  ],
  examples: {
    title: "Register an AWS VPC endpoint with an organization",
    yaml: [
      "resources:",
      "  appVpc:",
      "    type: neoncompute:index:VpcEndpoint",
      "    properties:",
      "      orgId: org-cool-sky-12345678",
      "      regionId: aws-us-east-2",
      "      vpcEndpointId: vpce-0123456789abcdef0",
      "      label: app-vpc",
    ].join("\n"),
    typescript: [
      'import { plugin } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'new plugin.VpcEndpoint("appVpc", {',
      '  orgId: "org-cool-sky-12345678",',
      '  regionId: "aws-us-east-2",',
      '  vpcEndpointId: "vpce-0123456789abcdef0",',
      '  label: "app-vpc",',
      "});",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
