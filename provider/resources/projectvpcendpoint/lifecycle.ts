/**
 * The lifecycle of `ProjectVpcEndpoint`: a project's restriction to one of its organization's VPC
 * endpoints. Setting one (`POST`) restricts the project or sets the restriction's label, so a create whose
 * answer was lost is looked for and, not found, sent again without harm. A restriction no resource of the
 * program declares is refused at preview with its `importId` (the service keeps no mark of who set it: a
 * killed run's reads the same). Nothing waits: no operation starts.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isNotFound, type NeonClient } from "../../api";
import { definedDiff } from "../compare";
import {
  UNKNOWN,
  confirmGone,
  createOnce,
  deleteAndWait,
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
import { declaredKey } from "../vpcendpoint/lifecycle";
import { PROJECT_VPC_ENDPOINT_DEFINITION as DEF, PROJECT_VPC_ENDPOINT_NOUN } from "./definition";
import { checkInputs } from "./inputs";
import {
  describeRestriction,
  parseRestrictionRef,
  resourceId,
  toOutputs,
  type RestrictionRef,
} from "./mapping";
import type { ProjectVpcEndpointInputs, ProjectVpcEndpointOutputs } from "./types";

type Inputs = ProjectVpcEndpointInputs;
type State = Stated<ProjectVpcEndpointOutputs>;

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;

/** What a restriction no resource of the stack manages is told, with the `importId` that takes it. */
function heldMessage(ref: RestrictionRef): string {
  return (
    `project ${ref.projectId} is already restricted to VPC endpoint ${ref.vpcEndpointId}, and no resource of this ` +
    "stack manages the restriction (the service keeps no mark of who set it). To manage it here, set importId: " +
    `"${resourceId(ref)}"; or lift it in the console first`
  );
}

/** The project's restriction to the endpoint, if it has one. */
async function restrictionOf(api: NeonClient, ref: RestrictionRef) {
  const all = await api.organizations.projectVpcEndpoints(ref.projectId);
  return all.find((r) => r.vpc_endpoint_id === ref.vpcEndpointId);
}

// --- check / diff ----------------------------------------------------------------------------

/**
 * Every rule a create would refuse by, so that the preview fails where `up` would: one resource per
 * restriction in the program; for a resource that is new or moves, a project of an organization on a
 * plan with private networking, an endpoint registered with that organization (or declared by a
 * `VpcEndpoint` of this program), and no restriction of the project to it yet (without `importId`) or
 * one (with it). A project that cannot be found: the kit's target rule names it.
 */
async function check(rt: Runtime, olds: Stated<Inputs>, news: Bag): Promise<CheckResult<Inputs>> {
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) return { inputs: news, failures };
  const { projectId, vpcEndpointId, importId } = inputs;
  const fail = (property: string, reason: string) => ({ inputs: news, failures: [{ property, reason }] });
  if (!known(projectId) || !known(vpcEndpointId)) return { inputs };
  const ref = { projectId, vpcEndpointId };
  const other =
    typeof news.__urn === "string"
      ? rt.ledger.declare(`vpc restriction:${resourceId(ref)}`, news.__urn)
      : undefined;
  if (other) {
    return fail(
      "vpcEndpointId",
      `${describeRestriction(ref)} is already declared by another resource of this program ` +
        `(${other.slice(other.lastIndexOf("::") + 2)}); remove one of them`,
    );
  }
  if (!isNewResource(olds) && olds.projectId === projectId && olds.vpcEndpointId === vpcEndpointId)
    return { inputs };
  if (importId !== undefined && !known(importId)) return { inputs };
  const api = rt.client();
  const project = await rt.projectFacts(projectId).catch((err: unknown) => {
    if (isNotFound(err)) return undefined; // the kit's target rule names it
    throw err;
  });
  if (!project) return { inputs };
  const orgId = project.org_id;
  if (!orgId) {
    return fail(
      "projectId",
      `project ${projectId} is a personal project: private networking is for projects of an organization; ` +
        "move the project into an organization",
    );
  }
  const { failure } = await organizationFor(api, orgId, "projectId", PRIVATE_NETWORKING);
  if (failure) return { inputs: news, failures: [failure] };
  const registered = (await api.organizations.vpcEndpoints(orgId)).some(
    (e) => e.vpc_endpoint_id === vpcEndpointId,
  );
  if (!registered && rt.ledger.declaredBy(declaredKey(orgId, vpcEndpointId)) === undefined) {
    return fail(
      "vpcEndpointId",
      `VPC endpoint ${vpcEndpointId} is not registered with organization ${orgId}, the project's; declare a ` +
        "VpcEndpoint for it and pass its vpcEndpointId output, or register it in the console first",
    );
  }
  const held = registered ? await restrictionOf(api, ref) : undefined;
  if (importId !== undefined) {
    return held
      ? { inputs }
      : fail("importId", `${describeRestriction(ref)} does not exist; remove importId to set it`);
  }
  return held ? fail("vpcEndpointId", heldMessage(ref)) : { inputs };
}

async function diff(
  _rt: Runtime,
  _id: string,
  olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.DiffResult> {
  // A new restriction is set before the old one is lifted: the project never opens to the internet.
  return diffResult(definedDiff(DEF, olds, news), false);
}

// --- create / read / update ------------------------------------------------------------------

/** Restricts the project, once; or, given `importId`, takes the restriction over and sets the label. */
async function create(rt: Runtime, i: Checked<Inputs>): Promise<pulumi.dynamic.CreateResult> {
  const api = rt.client();
  const ref = { projectId: i.projectId, vpcEndpointId: i.vpcEndpointId };
  const what = describeRestriction(ref);
  const log = rt.logger(i);
  if (i.importId !== undefined) {
    const held = await readImported(PROJECT_VPC_ENDPOINT_NOUN, i.importId, () => restrictionOf(api, ref));
    if (!held)
      throw new Error(
        `Failed to import ${what}: the project has no such restriction. Remove importId to set it.`,
      );
    rt.ledger.noteTakenOver(PROJECT_VPC_ENDPOINT_NOUN, resourceId(ref));
    log.info(`took over ${what}`);
  } else if (await restrictionOf(api, ref)) {
    throw new Error(`Failed to set ${what}: ${heldMessage(ref)}.`);
  }
  const set = async () => {
    await api.organizations.restrictProject(ref.projectId, ref.vpcEndpointId, i.label);
    const r = await restrictionOf(api, ref);
    if (!r)
      throw new Error(
        `Failed to set ${what}: the project does not list it after it was set. Run \`pulumi up\` again.`,
      );
    return r;
  };
  // What a lost answer's request made carries the label it was sent with.
  const r = await createOnce({
    log,
    send: set,
    find: () => restrictionOf(api, ref),
    finish: async (found) => found,
    describe: () => what,
  });
  log.info(`set ${what}`);
  return { id: resourceId(ref), outs: toOutputs(i, ref, r) };
}

/**
 * Reads the restriction from the project's list. One missing from a list the provider could read was
 * lifted outside the stack (or went with its project): no id drops it from the stack. A project the key
 * cannot see fails instead.
 */
async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const old: State = props ?? {};
  const ref = parseRestrictionRef(id);
  const api = rt.client();
  const what = describeRestriction(ref);
  const r = await restrictionOf(api, ref).catch(async (err: unknown) => {
    if (!isNotFound(err)) throw err;
    await confirmGone(api, ref.projectId, what, "refresh", err);
    return undefined;
  });
  if (!r) {
    rt.logger(old).info(`${what} was lifted outside the stack; dropping it from the stack`);
    return {};
  }
  const outs = toOutputs(old, ref, r);
  return { id, props: outs, inputs: refreshInputs(DEF, old, outs) };
}

/** Sets the declared label. */
async function update(
  rt: Runtime,
  id: string,
  _olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  const ref = parseRestrictionRef(id);
  const api = rt.client();
  await api.organizations.restrictProject(ref.projectId, ref.vpcEndpointId, news.label);
  rt.logger(news).info(`labelled ${describeRestriction(ref)} "${news.label}"`);
  const r = await restrictionOf(api, ref);
  return { outs: toOutputs(news, ref, r ?? { vpc_endpoint_id: ref.vpcEndpointId, label: news.label }) };
}

// --- delete ------------------------------------------------------------------------------------

/** Lifts the restriction; one already lifted (404, the project visible) is deleted. */
async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  const ref = parseRestrictionRef(id);
  const log = rt.logger(props);
  const what = describeRestriction(ref);
  await deleteAndWait(
    rt,
    ref.projectId,
    what,
    async () => {
      await rt.client().organizations.unrestrictProject(ref.projectId, ref.vpcEndpointId);
      return { operations: [] };
    },
    log,
  );
  log.info(`lifted ${what}`);
}

/** `ProjectVpcEndpoint`'s own steps (see `../kit.ts`). */
export const projectVpcEndpointSteps: ResourceSteps<Inputs, ProjectVpcEndpointOutputs> = {
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
};
