/**
 * The definition of `ProjectVpcEndpoint`: every input and output with its type, docs and what a change
 * does. The plugin schema and `docs/api/ProjectVpcEndpoint.md` are generated from it, the key lists and
 * input checks derived from it, and the class's args/outputs types held equal to it at compile time.
 * Dependency-free.
 */
import type { ResourceDef } from "../definition";
import { fixedInput, importIdInput } from "../definition";

/** What a ProjectVpcEndpoint is called in messages. */
export const PROJECT_VPC_ENDPOINT_NOUN = "VPC endpoint restriction";

export const PROJECT_VPC_ENDPOINT_DEFINITION = {
  name: "ProjectVpcEndpoint",
  description:
    "A project's restriction to one of its organization's VPC endpoints: once a project has one, it accepts " +
    "connections only from its restricting endpoints (private networking, the Scale plan). The endpoint must " +
    "be registered with the project's organization first (`VpcEndpoint`; pass its `vpcEndpointId`). Setting " +
    "it starts no operation. A restriction no resource of the stack manages fails at preview with the exact " +
    "`importId`. The label changes in place; a change of `projectId` or `vpcEndpointId` restricts anew " +
    "before the old restriction is lifted. Deleting the resource lifts the restriction.",
  importId: {
    format: "<projectId>/<vpcEndpointId>",
    example: "shiny-wind-123456/vpce-0123456789abcdef0",
  },
  aliases: ["pulumi-nodejs:dynamic/neon:ProjectVpcEndpoint"],
  properties: [
    fixedInput(
      "projectId",
      "The project to restrict. Changing it restricts the new project, then lifts this one's restriction.",
    ),
    fixedInput(
      "vpcEndpointId",
      "The VPC endpoint (`vpce-…`), registered with the project's organization. Changing it restricts the " +
        "project to the new endpoint, then lifts the restriction to this one.",
    ),
    {
      name: "label",
      type: "string",
      input: "required",
      output: "always",
      change: "update",
      description: "A descriptive label of the restriction. Changed in place.",
    },
    importIdInput(
      'Manage a restriction the project already has: `"<projectId>/<vpcEndpointId>"`, naming this very ' +
        "restriction. The declared `label` replaces its own. Read at creation only. Deleting the resource " +
        "lifts the restriction.",
    ),
  ],
  notes: [
    "A project restricted to endpoints refuses connections from the public internet: its connection " +
      "strings work only from inside the restricting VPCs.",
  ],
  examples: {
    title: "Restrict a project to an organization's VPC endpoint",
    yaml: [
      "resources:",
      "  appVpc:",
      "    type: neoncompute:index:VpcEndpoint",
      "    properties:",
      "      orgId: org-cool-sky-12345678",
      "      regionId: aws-us-east-2",
      "      vpcEndpointId: vpce-0123456789abcdef0",
      "      label: app-vpc",
      "  private:",
      "    type: neoncompute:index:ProjectVpcEndpoint",
      "    properties:",
      "      projectId: shiny-wind-123456",
      "      vpcEndpointId: ${appVpc.vpcEndpointId}",
      "      label: app only",
    ].join("\n"),
    typescript: [
      'import { plugin } from "@neon-labs-unofficial/pulumi-neon-compute";',
      "",
      'const appVpc = new plugin.VpcEndpoint("appVpc", {',
      '  orgId: "org-cool-sky-12345678",',
      '  regionId: "aws-us-east-2",',
      '  vpcEndpointId: "vpce-0123456789abcdef0",',
      '  label: "app-vpc",',
      "});",
      'new plugin.ProjectVpcEndpoint("private", {',
      '  projectId: "shiny-wind-123456",',
      "  vpcEndpointId: appVpc.vpcEndpointId,",
      '  label: "app only",',
      "});",
    ].join("\n"),
  },
} as const satisfies ResourceDef;
