import * as pulumi from "@pulumi/pulumi";
import { Compute } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();

// Resize by changing these (e.g. `pulumi config set maxCu 8`): the compute is updated in place,
// and the preview warns that the restart drops open connections.
const minCu = config.getNumber("minCu") ?? 0.5;
const maxCu = config.getNumber("maxCu") ?? 4;

const compute = new Compute("analytics", {
  projectId: config.require("projectId"),
  branchId: config.require("branchId"),
  minCu,
  maxCu,
  suspendTimeoutSeconds: 600,
  pgSettings: { work_mem: "65536", statement_timeout: "60000" },
});

export const host = compute.host;
export const bounds = pulumi.interpolate`${compute.minCu}–${compute.maxCu} CU`;
export const ramGb = compute.ramGb;
export const tempDiskGiB = compute.tempDiskGiB;
