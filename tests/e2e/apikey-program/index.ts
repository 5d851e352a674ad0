import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Provider, type ApiKeyArgs } from "@neon-labs-unofficial/pulumi-neon-compute";

// `viaKeyEnv`: made through an explicit provider whose key is in the environment variable the stack's
// `keyEnv` names (the state keeps only that name).
type Spec = { resource: string; viaKeyEnv?: boolean } & ApiKeyArgs;

const config = new pulumi.Config();
const specs = config.requireObject<Spec[]>("keys");
const keyEnv = config.get("keyEnv");
const fromEnv = keyEnv
  ? new Provider("key-from-env", { apiKeyEnv: keyEnv, apiUrl: new pulumi.Config("neon").require("apiUrl") })
  : undefined;

const keys = specs.map(
  ({ resource, viaKeyEnv, ...args }) =>
    new ApiKey(resource, args, viaKeyEnv ? { provider: fromEnv } : undefined),
);

export const ids = Object.fromEntries(keys.map((k, i) => [specs[i].resource, k.id]));
export const tokens = Object.fromEntries(keys.map((k, i) => [specs[i].resource, k.token]));
