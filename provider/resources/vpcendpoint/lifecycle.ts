/**
 * The lifecycle of `VpcEndpoint`: an AWS VPC endpoint registered with an organization in a region. An
 * assignment (`POST`) registers it or sets its label, so a create whose answer was lost is looked for
 * and, not found, sent again without harm. An endpoint registered that no resource of the program
 * declares is refused at preview with its `importId` (the service keeps no mark of who registered it: a
 * killed run's reads the same). A delete removes it from the organization for good (Neon's document).
 * Nothing waits: no operation starts.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isNotFound, type NeonClient, type VpcEndpointRef } from "../../api";
import { definedDiff } from "../compare";
import {
  UNKNOWN,
  createOnce,
  diffResult,
  isNewResource,
  readImported,
  refreshInputs,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import { organizationFor, PRIVATE_NETWORKING } from "../organizations";
import type { Runtime } from "../runtime";
import { VPC_ENDPOINT_DEFINITION as DEF, VPC_ENDPOINT_NOUN } from "./definition";
import { checkInputs } from "./inputs";
import { describeVpcEndpoint, parseVpcEndpointRef, resourceId, toOutputs } from "./mapping";
import type { VpcEndpointInputs, VpcEndpointOutputs } from "./types";

type Inputs = VpcEndpointInputs;
type State = Stated<VpcEndpointOutputs>;

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;

/** The ledger's key of an organization's endpoint (a ProjectVpcEndpoint's check reads it). */
export const declaredKey = (orgId: string, vpcEndpointId: string): string =>
  `vpc endpoint:${orgId}/${vpcEndpointId}`;

/** What an endpoint registered outside the stack is told, with the `importId` that takes it. */
function heldMessage(ref: VpcEndpointRef, heldIn: string): string {
  if (heldIn !== ref.regionId) {
    return (
      `VPC endpoint ${ref.vpcEndpointId} is registered with organization ${ref.orgId} in region ${heldIn}, not ` +
      `${ref.regionId}; an endpoint lives in the AWS region it was made in: set regionId: ${heldIn}`
    );
  }
  return (
    `${describeVpcEndpoint(ref)} is already registered, and no resource of this stack manages it (the service ` +
    `keeps no mark of who registered it). To manage it here, set importId: "${resourceId(ref)}"; or leave it ` +
    "out of the program (removing it from the organization is for good)"
  );
}

/** The endpoint's details; `undefined` when it is not registered there (the organization visible or not). */
async function detailsOf(api: NeonClient, ref: VpcEndpointRef) {
  return api.organizations.vpcEndpoint(ref).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
}

// --- check / diff ----------------------------------------------------------------------------

/**
 * Every rule a create would refuse by, so that the preview fails where `up` would: one resource per
 * endpoint in the program; a region that cannot change; for a resource that is new or moves, an
 * organization the key sees, on a plan with private networking, a region open to it, and an endpoint
 * not registered yet (without `importId`) or registered there (with it).
 */
async function check(rt: Runtime, olds: Stated<Inputs>, news: Bag): Promise<CheckResult<Inputs>> {
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) return { inputs: news, failures };
  const { orgId, regionId, vpcEndpointId, importId } = inputs;
  const fail = (property: string, reason: string) => ({ inputs: news, failures: [{ property, reason }] });
  if (!known(orgId) || !known(vpcEndpointId)) return { inputs };
  const isNew = isNewResource(olds);
  if (!isNew && known(regionId) && olds.regionId !== regionId && olds.vpcEndpointId === vpcEndpointId) {
    return fail(
      "regionId",
      `regionId cannot change (${String(olds.regionId)} → ${regionId}): an endpoint lives in the AWS region it was ` +
        "made in, and one removed from the organization cannot be added back; declare another VpcEndpoint",
    );
  }
  const other =
    typeof news.__urn === "string"
      ? rt.ledger.declare(declaredKey(orgId, vpcEndpointId), news.__urn)
      : undefined;
  if (other) {
    return fail(
      "vpcEndpointId",
      `VPC endpoint ${vpcEndpointId} of organization ${orgId} is already declared by another resource of this ` +
        `program (${other.slice(other.lastIndexOf("::") + 2)}); remove one of them`,
    );
  }
  if (!isNew && olds.orgId === orgId && olds.vpcEndpointId === vpcEndpointId) return { inputs };
  if (!known(regionId) || (importId !== undefined && !known(importId))) return { inputs };
  const api = rt.client();
  const { failure } = await organizationFor(api, orgId, "orgId", PRIVATE_NETWORKING);
  if (failure) return { inputs: news, failures: [failure] };
  const regions = (await api.organizations.regions(orgId)).map((r) => r.region_id);
  if (!regions.includes(regionId)) {
    const aws = regions.filter((r) => r.startsWith("aws-"));
    return fail(
      "regionId",
      `region ${regionId} is not open to organization ${orgId}; its AWS regions are ${aws.join(", ")}`,
    );
  }
  const held = (await api.organizations.vpcEndpoints(orgId)).find((e) => e.vpc_endpoint_id === vpcEndpointId);
  const ref = { orgId, regionId, vpcEndpointId };
  if (importId !== undefined) {
    return held?.region_id === regionId
      ? { inputs }
      : fail("importId", `${describeVpcEndpoint(ref)} is not registered; remove importId to register it`);
  }
  return held ? fail("vpcEndpointId", heldMessage(ref, held.region_id ?? regionId)) : { inputs };
}

async function diff(
  _rt: Runtime,
  id: string,
  olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.DiffResult> {
  const d = definedDiff(DEF, olds, news);
  if (d.refused.some((k) => news[k] !== UNKNOWN)) {
    throw new Error(
      `Failed to change ${describeVpcEndpoint(parseVpcEndpointRef(id))}: regionId cannot change. Declare another VpcEndpoint.`,
    );
  }
  // A new endpoint is registered before the old one is removed (which is for good): no delete first.
  return diffResult(d, false);
}

// --- create / read / update ------------------------------------------------------------------

/** Registers the endpoint, once; or, given `importId`, takes it over and sets the declared label. */
async function create(rt: Runtime, i: Checked<Inputs>): Promise<pulumi.dynamic.CreateResult> {
  const api = rt.client();
  const ref = { orgId: i.orgId, regionId: i.regionId, vpcEndpointId: i.vpcEndpointId };
  const what = describeVpcEndpoint(ref);
  const log = rt.logger(i);
  if (i.importId !== undefined) {
    await readImported(VPC_ENDPOINT_NOUN, i.importId, () => api.organizations.vpcEndpoint(ref));
    rt.ledger.noteTakenOver(VPC_ENDPOINT_NOUN, resourceId(ref));
    log.info(`took over ${what}`);
  } else {
    const held = (await api.organizations.vpcEndpoints(ref.orgId)).find(
      (e) => e.vpc_endpoint_id === ref.vpcEndpointId,
    );
    if (held)
      throw new Error(`Failed to register ${what}: ${heldMessage(ref, held.region_id ?? ref.regionId)}.`);
  }
  const e = await createOnce({
    log,
    send: async () => {
      await api.organizations.assignVpcEndpoint(ref, i.label);
      return api.organizations.vpcEndpoint(ref);
    },
    find: () => detailsOf(api, ref),
    // What a lost answer's assignment made carries the label it was sent with.
    finish: async (found) => found,
    describe: () => what,
  });
  log.info(`registered ${what} (${e.state})`);
  return { id: resourceId(ref), outs: toOutputs(i, ref, e) };
}

/**
 * Reads the endpoint. One the service no longer has (the organization visible) was removed outside the
 * stack: no id drops it from the stack. An organization the key cannot see fails instead.
 */
async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const old: State = props ?? {};
  const ref = parseVpcEndpointRef(id);
  const api = rt.client();
  const e = await detailsOf(api, ref);
  if (!e) {
    await api.organizations.get(ref.orgId); // a 404 here: the key cannot see the organization
    rt.logger(old).info(
      `${describeVpcEndpoint(ref)} was removed outside the stack; dropping it from the stack`,
    );
    return {};
  }
  const outs = toOutputs(old, ref, e);
  return { id, props: outs, inputs: refreshInputs(DEF, old, outs) };
}

/** Sets the declared label. */
async function update(
  rt: Runtime,
  id: string,
  _olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  const ref = parseVpcEndpointRef(id);
  const api = rt.client();
  await api.organizations.assignVpcEndpoint(ref, news.label);
  rt.logger(news).info(`labelled ${describeVpcEndpoint(ref)} "${news.label}"`);
  return { outs: toOutputs(news, ref, await api.organizations.vpcEndpoint(ref)) };
}

// --- delete ------------------------------------------------------------------------------------

/**
 * Removes the endpoint from the organization (for good). One already gone (404, the organization
 * visible) is deleted.
 */
async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  const ref = parseVpcEndpointRef(id);
  const log = rt.logger(props);
  const what = describeVpcEndpoint(ref);
  const api = rt.client();
  try {
    await api.organizations.deleteVpcEndpoint(ref);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await api.organizations.get(ref.orgId); // a 404 here: the key cannot see the organization
  }
  log.info(`removed ${what} from the organization`);
}

/** `VpcEndpoint`'s own steps (see `../kit.ts`). */
export const vpcEndpointSteps: ResourceSteps<Inputs, VpcEndpointOutputs> = {
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
};
