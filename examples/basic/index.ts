import * as pulumi from "@pulumi/pulumi";
import { Compute } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const projectId = config.require("projectId");
const branchId = config.require("branchId");

// The branch's primary (read-write) compute. A project's default branch already has one: the
// resource takes it over (and applies these settings) instead of failing; on another branch it is
// created. `pulumi destroy` leaves an adopted compute in place.
const primary = new Compute("primary", {
  projectId,
  branchId,
  cu: 1,
  suspendTimeoutSeconds: 300,
  name: "primary",
  adoptExistingPrimary: true,
});

// Two read replicas on the same branch; they start once the primary is ready.
const replicas = [1, 2].map(
  (n) =>
    new Compute(
      `replica-${n}`,
      { projectId, branchId, type: "read_only", minCu: 0.25, maxCu: 2, name: `replica-${n}` },
      { dependsOn: [primary] },
    ),
);

export const primaryHost = primary.host;
export const primaryAdopted = primary.adopted;
export const primarySizing = {
  ramGb: primary.ramGb,
  lfcGb: primary.lfcGb,
  maxConnections: primary.maxConnections,
  tempDiskGiB: primary.tempDiskGiB,
};
export const replicaHosts = replicas.map((r) => r.host);
export const replicaRamGb = replicas.map((r) => r.ramGb);
