import * as pulumi from "@pulumi/pulumi";
import { Branch } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();

// A pull request's branch that the service deletes at its expiry.
const branch = new Branch("env", {
  projectId: config.require("projectId"),
  name: config.require("branchName"),
  expiresAt: config.require("expiresAt"),
});

export const branchId = branch.id;
