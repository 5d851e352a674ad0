import * as pulumi from "@pulumi/pulumi";
import { Branch } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();

// One branch with its read_write compute. Without branchName it is auto-named (found again by that
// name after a killed run); importId is what the provider's refusal of a taken name asks for.
const branch = new Branch("env", {
  projectId: config.require("projectId"),
  name: config.get("branchName"),
  importId: config.get("importId"),
  compute: { minCu: 0.25, maxCu: 0.5 },
});

export const branchId = branch.id;
export const branchName = branch.name;
export const computeId = branch.computeId;
