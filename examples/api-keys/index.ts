import * as pulumi from "@pulumi/pulumi";
import { ApiKey, getComputesOutput } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const projectId = config.require("projectId");
// Optional: list only the computes of this branch.
const branchId = config.get("branchId") || undefined;

// A key that can reach this one project and nothing else, for a CI system's deployments.
// `pulumi config set rotation 2` then `pulumi up` rotates it: the new key is created before the
// old one is revoked, so a pipeline that reads the token switches without an outage.
const ciKey = new ApiKey("ci", {
  name: "ci-deploy",
  projectId,
  rotationTrigger: config.get("rotation"),
});

export const ciKeyId = ciKey.keyId;
// A secret output: `pulumi stack output ciToken --show-secrets` prints it, e.g. for the CI's secret store.
export const ciToken = ciKey.token;

// A lookup: the computes the project (or branch) has now, as plain data.
export const computes = getComputesOutput({ projectId, branchId }).apply((list) =>
  list.map((c) => ({ endpointId: c.endpointId, branchId: c.branchId, type: c.type, host: c.host })),
);
