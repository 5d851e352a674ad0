/** `ApiKey`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { ApiKeyInputs } from "./types";
import { APIKEY_DEFINITION } from "./definition";
import type * as lifecycle from "./lifecycle";

export const apiKey: ResourceKind<ApiKeyInputs> = {
  definition: APIKEY_DEFINITION,
  // Loaded at the first step: a program's process only makes classes (and the steps load the API client).
  get steps() {
    return (require("./lifecycle") as typeof lifecycle).apiKeySteps;
  },
  noun: "API key",
  releasedDynamic: {
    module: "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/apikey/impl",
    label: "API key",
  },
  // No deleteBeforeReplace: a rotation creates the new key before the old one is revoked.
};
