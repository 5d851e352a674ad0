/**
 * The plugin's face of each resource: the same lifecycle functions the dynamic provider calls
 * (`provider/resources/<resource>/lifecycle.ts`), adapted to the plugin protocol. What differs is
 * only transport: the URN comes with each request instead of an `__urn` input, secrets arrive and
 * leave wrapped, and `pulumi import` (a read without state) needs the inputs to write into code.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as apikey from "../resources/apikey/lifecycle";
import { diffApiKey } from "../resources/apikey/diff";
import { APIKEY_DEFINITION } from "../resources/apikey/definition";
import * as compute from "../resources/compute/lifecycle";
import { diffCompute, propertyChanged } from "../resources/compute/diff";
import { COMPUTE_DEFINITION } from "../resources/compute/definition";
import type { ResourceDef } from "../resources/definition";

type Props = Record<string, unknown>;

/** One resource as the plugin serves it. */
export interface ResourceFace {
  definition: ResourceDef;
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  /** The inputs that differ, for the engine's detailed diff. */
  changedKeys(olds: Props, news: Props): string[];
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props?: Props): Promise<pulumi.dynamic.ReadResult>;
  /** The inputs that describe a resource read by `pulumi import` as it is (they become its code). */
  importInputs(outs: Props): Props;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Props): Promise<void>;
}

const inputNames = (d: ResourceDef) =>
  d.properties.filter((p) => p.input && p.change !== "create-only" && p.change !== "none").map((p) => p.name);

const computeFace: ResourceFace = {
  definition: COMPUTE_DEFINITION,
  check: (olds, news) => compute.check(olds, news),
  diff: (id, olds, news) => compute.diff(id, olds, news),
  changedKeys: (olds, news) => {
    const d = diffCompute(olds, news);
    return [...d.replaces, ...d.updates];
  },
  create: (inputs) => compute.create(inputs),
  read: (id, props) => compute.read(id, props),
  importInputs: (outs) => {
    // Every setting the compute has that differs from leaving the input out: the generated code then
    // describes the compute exactly, and its first preview shows no change.
    const inputs: Props = {};
    for (const k of inputNames(COMPUTE_DEFINITION)) {
      if (k === "cu" || outs[k] === undefined) continue;
      if (["projectId", "branchId", "type"].includes(k) || propertyChanged(k, { [k]: undefined }, outs)) {
        inputs[k] = outs[k];
      }
    }
    return inputs;
  },
  update: (id, olds, news) => compute.update(id, olds, news),
  delete: (id, props) => compute.remove(id, props),
};

const apiKeyFace: ResourceFace = {
  definition: APIKEY_DEFINITION,
  check: (olds, news) => apikey.check(olds, news),
  diff: (id, olds, news) => apikey.diff(id, olds, news),
  changedKeys: (olds, news) => diffApiKey(olds, news).replaces,
  create: (inputs) => apikey.create(inputs),
  read: (id, props) => apikey.read(id, props),
  importInputs: (outs) =>
    Object.fromEntries(
      ["name", "orgId", "projectId"].filter((k) => outs[k] !== undefined).map((k) => [k, outs[k]]),
    ),
  update: (id, olds, news) => apikey.update(id, olds, news),
  delete: (id, props) => apikey.remove(id, props),
};

/** The faces by type name (`Compute`, `ApiKey`). */
export const FACES: Record<string, ResourceFace> = {
  [COMPUTE_DEFINITION.name]: computeFace,
  [APIKEY_DEFINITION.name]: apiKeyFace,
};
