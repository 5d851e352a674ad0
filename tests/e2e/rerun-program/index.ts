import * as pulumi from "@pulumi/pulumi";
import { Branch } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();

// A pull request's branch, with its compute; the same program runs again from a fresh backend.
const branch = new Branch("env", {
  projectId: config.require("projectId"),
  name: config.require("branchName"),
  compute: { cu: 0.25 },
});

export const branchId = branch.id;
