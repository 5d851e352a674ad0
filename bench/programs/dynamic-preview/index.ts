import * as pulumi from "@pulumi/pulumi";
import { Compute, plugin } from "@neon-labs-unofficial/pulumi-neon-compute";

const config = new pulumi.Config();
const plugged = config.require("face") === "plugin";
const args = {
  projectId: config.require("projectId"),
  branchId: config.require("branchId"),
  type: "read_only" as const,
  cu: 0.25,
};
for (let i = 0; i < config.requireNumber("count"); i++) {
  if (plugged) new plugin.Compute(`c${i}`, args);
  else new Compute(`c${i}`, args);
}
