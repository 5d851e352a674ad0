/**
 * The VpcEndpoint and ProjectVpcEndpoint provider methods against the emulator over real HTTP (no Pulumi
 * engine), on the Scale plan: an endpoint registered and a project restricted to it, each once (a lost
 * answer reconciled), relabelled in place, read back, imported, and removed; what a read-only request can
 * know refused at preview with nothing sent (an organization the key cannot see, a plan without private
 * networking, a region closed or of Azure, an endpoint registered outside the stack, a restriction to an
 * endpoint the organization does not have).
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { boundProgram, urnOf } from "../../support/provider";
import type { BoundResource } from "../../../provider/resources/kit";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let vpc: BoundResource;
let restriction: BoundResource;
let logs: string[] = [];

const REGION = "aws-us-east-2";
const VPCE = "vpce-0123456789abcdef0";
const OTHER = "vpce-0fedcba9876543210";
const mutations = () => mutationCount(emulator);

withEmulator(
  { opMs: 40, seed: 31, plan: "scale" },
  (e, client) => {
    emulator = e;
    api = client;
  },
  { resetEach: true },
);

beforeEach(() => {
  emulator.setFaults({});
  logs = [];
  const program = boundProgram(
    ["VpcEndpoint", "ProjectVpcEndpoint"],
    { apiKey: emulator.apiKey, apiUrl: emulator.url },
    (l) => logs.push(l),
  );
  vpc = program.VpcEndpoint;
  restriction = program.ProjectVpcEndpoint;
});

const endpointInputs = (name: string, inputs: Props = {}): Props => ({
  orgId: emulator.seed.orgId,
  regionId: REGION,
  vpcEndpointId: VPCE,
  label: "app-vpc",
  __provider: "shim",
  __urn: urnOf("VpcEndpoint", name),
  ...inputs,
});

const restrictionInputs = (name: string, inputs: Props = {}): Props => ({
  projectId: emulator.seed.projectId,
  vpcEndpointId: VPCE,
  label: "app only",
  __provider: "shim",
  __urn: urnOf("ProjectVpcEndpoint", name),
  ...inputs,
});

/** check then create, as the engine does. */
async function make(impl: BoundResource, inputs: Props) {
  const checked = await impl.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const made = await impl.create(checked.inputs as Props);
  return { id: made.id, outs: made.outs as Props, inputs: checked.inputs as Props };
}

const registered = () => api.organizations.vpcEndpoints(emulator.seed.orgId);
const restrictions = () => api.organizations.projectVpcEndpoints(emulator.seed.projectId);

it("registers an endpoint and restricts a project to it; relabels both in place; lifts and removes them", async () => {
  const e = await make(vpc, endpointInputs("app"));
  expect(e.id).toBe(`${emulator.seed.orgId}/${REGION}/${VPCE}`);
  expect(e.outs).toMatchObject({ vpcEndpointId: VPCE, label: "app-vpc", endpointState: "new" });
  // The endpoint the program declares but has not registered yet is taken at preview.
  const r = await make(restriction, restrictionInputs("only"));
  expect(r.id).toBe(`${emulator.seed.projectId}/${VPCE}`);
  expect(await restrictions()).toEqual([{ vpc_endpoint_id: VPCE, label: "app only" }]);

  const relabel = { ...e.inputs, label: "app-vpc-2" };
  const d = await vpc.diff(e.id, e.outs, relabel);
  expect([d.changes, d.replaces]).toEqual([true, []]);
  const updated = await vpc.update(e.id, e.outs, relabel);
  expect(updated.outs).toMatchObject({ label: "app-vpc-2" });
  const rd = await restriction.diff(r.id, r.outs, { ...r.inputs, label: "x" });
  expect(rd.replaces).toEqual([]);
  await restriction.update(r.id, r.outs, { ...r.inputs, label: "x" });
  expect(await restrictions()).toEqual([{ vpc_endpoint_id: VPCE, label: "x" }]);

  emulator.clock.advance(100);
  const read = await vpc.read(e.id, updated.outs as Props);
  expect(read).toMatchObject({ id: e.id, props: { label: "app-vpc-2", endpointState: "accepted" } });
  expect(read.inputs).toMatchObject({ orgId: emulator.seed.orgId, regionId: REGION, vpcEndpointId: VPCE });

  // A changed region is refused at preview: the endpoint lives in one region and cannot come back.
  const moved = await vpc.check(e.outs, endpointInputs("app", { regionId: "aws-us-west-2" }));
  expect(moved.failures).toEqual([{ property: "regionId", reason: expect.stringMatching(/cannot change/) }]);

  await restriction.delete(r.id, r.outs);
  expect(await restrictions()).toEqual([]);
  await restriction.delete(r.id, r.outs); // lifted already: success
  expect(await restriction.read(r.id, r.outs)).toEqual({});
  await vpc.delete(e.id, e.outs);
  expect(await registered()).toEqual([]);
  await vpc.delete(e.id, e.outs); // gone already: success
  expect(await vpc.read(e.id, e.outs)).toEqual({});
  expect(logs.join("\n")).toMatch(/was removed outside the stack; dropping it from the stack/);
});

it("lost answers to the registration and the restriction are reconciled: one of each", async () => {
  const checked = await vpc.check({}, endpointInputs("lost"));
  expect(checked.failures ?? []).toEqual([]);
  emulator.setFaults({ dropAfterCommitRate: 1 });
  const e = await vpc.create(checked.inputs as Props);
  expect(e.id).toBe(`${emulator.seed.orgId}/${REGION}/${VPCE}`);
  expect(await registered()).toEqual([{ vpc_endpoint_id: VPCE, label: "app-vpc", region_id: REGION }]);
  expect(logs.join("\n")).toMatch(/the answer to the create request was lost; found VPC endpoint/);

  const rc = await restriction.check({}, restrictionInputs("lost"));
  expect(rc.failures ?? []).toEqual([]);
  emulator.setFaults({ dropAfterCommitRate: 1 });
  const made = await restriction.create(rc.inputs as Props);
  emulator.setFaults({});
  expect(made.id).toBe(`${emulator.seed.projectId}/${VPCE}`);
  expect(await restrictions()).toHaveLength(1);
  expect(logs.join("\n")).toMatch(/the answer to the create request was lost; found the restriction/);
});

it("refuses at preview, sending nothing: an endpoint or a restriction made outside the stack (with its importId), an unknown endpoint, a closed or Azure region, an unseen organization", async () => {
  await api.organizations.assignVpcEndpoint(
    { orgId: emulator.seed.orgId, regionId: REGION, vpcEndpointId: VPCE },
    "x",
  );
  await api.organizations.restrictProject(emulator.seed.projectId, VPCE, "y");
  const before = mutations();
  const held = await vpc.check({}, endpointInputs("held"));
  expect(held.failures).toEqual([
    {
      property: "vpcEndpointId",
      reason: expect.stringContaining(`set importId: "${emulator.seed.orgId}/${REGION}/${VPCE}"`),
    },
  ]);
  // Two resources of one program cannot declare one endpoint.
  const twice = await vpc.check({}, endpointInputs("twice", { regionId: "aws-us-west-2" }));
  expect(twice.failures?.[0].reason).toMatch(/already declared by another resource of this program \(held\)/);
  // Another program: the endpoint lives in its region.
  const fresh = boundProgram(["VpcEndpoint"], { apiKey: emulator.apiKey, apiUrl: emulator.url });
  const elsewhere = await fresh.VpcEndpoint.check({}, endpointInputs("west", { regionId: "aws-us-west-2" }));
  expect(elsewhere.failures?.[0].reason).toMatch(/in region aws-us-east-2, not aws-us-west-2/);
  const restricted = await restriction.check({}, restrictionInputs("held"));
  expect(restricted.failures?.[0]).toEqual({
    property: "vpcEndpointId",
    reason: expect.stringContaining(`set importId: "${emulator.seed.projectId}/${VPCE}"`),
  });
  const unknown = await restriction.check({}, restrictionInputs("unknown", { vpcEndpointId: OTHER }));
  expect(unknown.failures?.[0].reason).toMatch(/is not registered with organization .*declare a VpcEndpoint/);
  const azure = await vpc.check(
    {},
    endpointInputs("azure", { regionId: "azure-eastus2", vpcEndpointId: OTHER }),
  );
  expect(azure.failures?.[0]).toEqual({
    property: "regionId",
    reason: expect.stringMatching(/AWS regions only/),
  });
  const closed = await vpc.check(
    {},
    endpointInputs("moon", { regionId: "aws-moon-1", vpcEndpointId: OTHER }),
  );
  expect(closed.failures?.[0].reason).toMatch(/region aws-moon-1 is not open to organization/);
  const unseen = await vpc.check(
    {},
    endpointInputs("unseen", { orgId: "org-nobody-12345678", vpcEndpointId: OTHER }),
  );
  expect(unseen.failures?.[0]).toEqual({ property: "orgId", reason: expect.stringMatching(/cannot see it/) });
  const badId = await vpc.check({}, endpointInputs("bad", { vpcEndpointId: "vpc-123" }));
  expect(badId.failures?.[0].property).toBe("vpcEndpointId");
  expect(mutations()).toBe(before);

  // importId takes each over; the declared label replaces theirs.
  const e = await make(vpc, endpointInputs("held", { importId: `${emulator.seed.orgId}/${REGION}/${VPCE}` }));
  const r = await make(
    restriction,
    restrictionInputs("held", { importId: `${emulator.seed.projectId}/${VPCE}` }),
  );
  expect(await registered()).toEqual([{ vpc_endpoint_id: VPCE, label: "app-vpc", region_id: REGION }]);
  expect(await restrictions()).toEqual([{ vpc_endpoint_id: VPCE, label: "app only" }]);
  // A later run (a destroy) removes them: this run's delete leaves what its creates took over.
  const later = boundProgram(["VpcEndpoint", "ProjectVpcEndpoint"], {
    apiKey: emulator.apiKey,
    apiUrl: emulator.url,
  });
  await later.ProjectVpcEndpoint.delete(r.id, r.outs);
  await later.VpcEndpoint.delete(e.id, e.outs);
  expect(await registered()).toEqual([]);
});

it("refuses at preview an organization whose plan has no private networking (Launch), sending nothing", async () => {
  const launch = await startEmulator({ opMs: 40, seed: 32 });
  try {
    const program = boundProgram(["VpcEndpoint", "ProjectVpcEndpoint"], {
      apiKey: launch.apiKey,
      apiUrl: launch.url,
    });
    const before = mutationCount(launch);
    const e = await program.VpcEndpoint.check({}, { ...endpointInputs("launch"), orgId: launch.seed.orgId });
    expect(e.failures).toEqual([
      {
        property: "orgId",
        reason: expect.stringMatching(/is on the launch plan, which has no private networking/),
      },
    ]);
    const r = await program.ProjectVpcEndpoint.check(
      {},
      { ...restrictionInputs("launch"), projectId: launch.seed.projectId },
    );
    expect(r.failures?.[0]).toEqual({ property: "projectId", reason: expect.stringMatching(/launch plan/) });
    expect(mutationCount(launch)).toBe(before);
  } finally {
    await launch.stop();
  }
});
