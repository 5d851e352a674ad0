import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Compute, plugin } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const face = config.require("face");
const projectId = config.require("projectId");
const branchId = config.require("branchId");
const cu = config.requireNumber("cu");

const computeArgs = { projectId, branchId, type: "read_only" as const, cu };
const keyArgs = { name: "ci", projectId };
// Same names, new types: the plugin classes carry the dynamic type tokens as aliases.
const db = face === "plugin" ? new plugin.Compute("db", computeArgs) : new Compute("db", computeArgs);
const key = face === "plugin" ? new plugin.ApiKey("ci", keyArgs) : new ApiKey("ci", keyArgs);

export const endpointId = db.endpointId;
export const host = db.host;
export const maxCu = db.maxCu;
export const keyId = key.keyId;
export const token = key.token;
export const onBranch =
  face === "plugin"
    ? db.endpointId.apply(async () =>
        (await plugin.getComputes({ projectId, branchId })).map((c) => c.endpointId),
      )
    : [];
