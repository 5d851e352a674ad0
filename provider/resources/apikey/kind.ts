/** `ApiKey`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { ApiKeyInputs } from "./types";
import { APIKEY_DEFINITION } from "./definition";
import { apiKeySteps } from "./lifecycle";

export const apiKey: ResourceKind<ApiKeyInputs> = {
  definition: APIKEY_DEFINITION,
  steps: apiKeySteps,
  noun: "API key",
  releasedDynamic: {
    module: "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/apikey/impl",
    label: "API key",
  },
  // No deleteBeforeReplace: a rotation creates the new key before the old one is revoked.
};
