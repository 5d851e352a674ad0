import * as pulumi from "@pulumi/pulumi";
import { Compute, type ComputeArgs } from "@neon-labs-unofficial/pulumi-neon-compute";

// `name` is the resource's name; `displayName`, when given, is the compute's own `name` input.
type Spec = { name: string; displayName?: string } & Omit<ComputeArgs, "projectId" | "name">;

const config = new pulumi.Config();
const projectId = config.require("projectId");
const specs = config.requireObject<Spec[]>("computes");

const computes = specs.map(
  ({ name, displayName, ...args }) =>
    new Compute(name, { projectId, ...args, ...(displayName ? { name: displayName } : {}) }),
);

export const endpoints = Object.fromEntries(
  computes.map((c, i) => [
    specs[i].name,
    {
      endpointId: c.endpointId,
      host: c.host,
      branchId: c.branchId,
      type: c.type,
      minCu: c.minCu,
      maxCu: c.maxCu,
    },
  ]),
);
