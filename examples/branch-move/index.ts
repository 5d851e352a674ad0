import * as pulumi from "@pulumi/pulumi";
import { Compute } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();

// `pulumi config set branchId br-…` and `pulumi up` moves this compute to that branch in place:
// same endpoint id and host, no replacement. A branch holds one read_write compute, so the move
// fails cleanly (and nothing is lost) if the target branch already has one.
const compute = new Compute("mover", {
  projectId: config.require("projectId"),
  branchId: config.require("branchId"),
  cu: 0.5,
});

export const endpointId = compute.endpointId;
export const branchId = compute.branchId;
export const host = compute.host;
