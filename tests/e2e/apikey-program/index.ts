import * as pulumi from "@pulumi/pulumi";
import { ApiKey, type ApiKeyArgs } from "@neon-labs-unofficial/pulumi-neon-compute";

type Spec = { resource: string } & ApiKeyArgs;

const specs = new pulumi.Config().requireObject<Spec[]>("keys");

const keys = specs.map(({ resource, ...args }) => new ApiKey(resource, args));

export const ids = Object.fromEntries(keys.map((k, i) => [specs[i].resource, k.id]));
export const tokens = Object.fromEntries(keys.map((k, i) => [specs[i].resource, k.token]));
