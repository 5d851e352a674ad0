import * as pulumi from "@pulumi/pulumi";
import { Compute, type ComputeArgs } from "@neon-labs-unofficial/pulumi-neon-compute";

type Spec = { name: string } & Omit<ComputeArgs, "projectId">;

const config = new pulumi.Config();
const projectId = config.require("projectId");
const specs = config.requireObject<Spec[]>("computes");

const computes = specs.map(({ name, ...args }) => new Compute(name, { projectId, ...args }));

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
