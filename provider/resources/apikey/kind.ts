/** `ApiKey`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import { APIKEY_DEFINITION } from "./definition";
import { apiKeySteps } from "./lifecycle";

export const apiKey: ResourceKind = {
  definition: APIKEY_DEFINITION,
  steps: apiKeySteps,
  noun: "API key",
  dynamic: {
    module: "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/apikey/impl",
    label: "API key",
  },
  // No deleteBeforeReplace: a rotation creates the new key before the old one is revoked.
};
