// Generated from definition.ts by `npm run types:gen`: do not edit (a test fails when it is stale).

/** `ProjectVpcEndpoint`'s TypeScript types: the program's args, the outputs, and the inputs its steps receive after `check`. */

import type * as pulumi from "@pulumi/pulumi";

/** Inputs of a {@link ProjectVpcEndpoint}. */
export interface ProjectVpcEndpointArgs {
  /** The project to restrict. Changing it restricts the new project, then lifts this one's restriction. */
  projectId: pulumi.Input<string>;
  /**
   * The VPC endpoint (`vpce-…`), registered with the project's organization. Changing it restricts the
   * project to the new endpoint, then lifts the restriction to this one.
   */
  vpcEndpointId: pulumi.Input<string>;
  /** A descriptive label of the restriction. Changed in place. */
  label: pulumi.Input<string>;
  /**
   * Manage a restriction the project already has: `"<projectId>/<vpcEndpointId>"`, naming this very
   * restriction. The declared `label` replaces its own. Read at creation only. Deleting the resource lifts
   * the restriction.
   */
  importId?: pulumi.Input<string>;
}

/** Outputs of a {@link ProjectVpcEndpoint}. */
export interface ProjectVpcEndpointOutputs {
  /** The project to restrict. Changing it restricts the new project, then lifts this one's restriction. */
  projectId: string;
  /**
   * The VPC endpoint (`vpce-…`), registered with the project's organization. Changing it restricts the
   * project to the new endpoint, then lifts the restriction to this one.
   */
  vpcEndpointId: string;
  /** A descriptive label of the restriction. Changed in place. */
  label: string;
  /**
   * Manage a restriction the project already has: `"<projectId>/<vpcEndpointId>"`, naming this very
   * restriction. The declared `label` replaces its own. Read at creation only. Deleting the resource lifts
   * the restriction.
   */
  importId?: string;
}

/** Inputs of a {@link ProjectVpcEndpoint} after `check`: what its steps receive. */
export interface ProjectVpcEndpointInputs {
  /** The project to restrict. Changing it restricts the new project, then lifts this one's restriction. */
  projectId: string;
  /**
   * The VPC endpoint (`vpce-…`), registered with the project's organization. Changing it restricts the
   * project to the new endpoint, then lifts the restriction to this one.
   */
  vpcEndpointId: string;
  /** A descriptive label of the restriction. Changed in place. */
  label: string;
  /**
   * Manage a restriction the project already has: `"<projectId>/<vpcEndpointId>"`, naming this very
   * restriction. The declared `label` replaces its own. Read at creation only. Deleting the resource lifts
   * the restriction.
   */
  importId?: string;
}
