/** `Compute`'s registry entry: its definition, its steps and how its classes are made. */
import type { ResourceKind } from "../kit";
import type { ComputeInputs } from "./types";
import { admit } from "./admission";
import { COMPUTE_DEFINITION } from "./definition";
import type * as lifecycle from "./lifecycle";

export const compute: ResourceKind<ComputeInputs> = {
  definition: COMPUTE_DEFINITION,
  // Loaded at the first step: a program's process only makes classes (and the steps load the API client).
  get steps() {
    return (require("./lifecycle") as typeof lifecycle).computeSteps;
  },
  noun: "compute",
  adoptInput: "adoptExistingPrimary",
  releasedDynamic: {
    module: "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/compute/impl",
    label: "Compute",
  },
  classes: {
    // A branch holds one read_write compute: replacements delete first, also when forced
    // (`--replace`, `replaceOnChanges`), where the engine does not ask diff (docs/decisions/0005).
    deleteBeforeReplace: true,
    // During `up`, a fair share of the engine's parallel steps per project (admission.ts).
    admit,
  },
};
