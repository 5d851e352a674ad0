// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `VpcEndpoint`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link VpcEndpoint}. */
export interface VpcEndpointArgs {
  /**
   * The organization (`org-…`) the endpoint is registered with. Changing it registers the endpoint with the
   * new organization, then removes it from this one.
   */
  orgId: pulumi.Input<string>;
  /**
   * The Neon region of the endpoint (`aws-us-east-2`, …; Azure regions are not supported), the AWS region the
   * endpoint was made in. Cannot change: declare another endpoint instead.
   */
  regionId: pulumi.Input<string>;
  /**
   * The AWS VPC endpoint's id (`vpce-…`). Changing it registers the new endpoint, then removes this one from
   * the organization for good.
   */
  vpcEndpointId: pulumi.Input<string>;
  /** A descriptive label the console shows. Changed in place. */
  label: pulumi.Input<string>;
  /**
   * Manage an endpoint the organization already has: `"<orgId>/<regionId>/<vpcEndpointId>"`, naming this very
   * endpoint. The declared `label` replaces its own. Read at creation only. Deleting the resource removes the
   * endpoint from the organization for good.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link VpcEndpoint}. */
export interface VpcEndpointOutputs {
  /**
   * The organization (`org-…`) the endpoint is registered with. Changing it registers the endpoint with the
   * new organization, then removes it from this one.
   */
  orgId: string;
  /**
   * The Neon region of the endpoint (`aws-us-east-2`, …; Azure regions are not supported), the AWS region the
   * endpoint was made in. Cannot change: declare another endpoint instead.
   */
  regionId: string;
  /**
   * The AWS VPC endpoint's id (`vpce-…`). Changing it registers the new endpoint, then removes this one from
   * the organization for good.
   */
  vpcEndpointId: string;
  /** A descriptive label the console shows. Changed in place. */
  label: string;
  /**
   * Manage an endpoint the organization already has: `"<orgId>/<regionId>/<vpcEndpointId>"`, naming this very
   * endpoint. The declared `label` replaces its own. Read at creation only. Deleting the resource removes the
   * endpoint from the organization for good.
   */
  importId?: string;
  /**
   * The service's state of the endpoint: `new` (registered, the connection not accepted yet) or `accepted`
   * (as of the last read).
   */
  endpointState: string;
}

/** Inputs of a {@link VpcEndpoint} after `check`: what its steps receive. */
export interface VpcEndpointInputs {
  /**
   * The organization (`org-…`) the endpoint is registered with. Changing it registers the endpoint with the
   * new organization, then removes it from this one.
   */
  orgId: string;
  /**
   * The Neon region of the endpoint (`aws-us-east-2`, …; Azure regions are not supported), the AWS region the
   * endpoint was made in. Cannot change: declare another endpoint instead.
   */
  regionId: string;
  /**
   * The AWS VPC endpoint's id (`vpce-…`). Changing it registers the new endpoint, then removes this one from
   * the organization for good.
   */
  vpcEndpointId: string;
  /** A descriptive label the console shows. Changed in place. */
  label: string;
  /**
   * Manage an endpoint the organization already has: `"<orgId>/<regionId>/<vpcEndpointId>"`, naming this very
   * endpoint. The declared `label` replaces its own. Read at creation only. Deleting the resource removes the
   * endpoint from the organization for good.
   */
  importId?: string;
}
