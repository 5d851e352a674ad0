/**
 * Nothing is lost: replacements that cannot succeed delete nothing, a key's scope is never read as
 * "deleted", every declared compute ends started, a killed explicitly named create never blocks the
 * branch, and a branch's existing primary compute is adopted only on request. Against the emulator
 * over real HTTP, calling the provider's methods as the engine does.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { boundResource, urnOf } from "../../support/provider";
import { InitError as ComputeInitError } from "../../../provider/resources/kit";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let logs: string[] = [];
let projectId: string;
let branches: string[];

const urn = (name: string) => urnOf("Compute", name);

async function checked(name: string, inputs: Props): Promise<Props> {
  const r = await impl.check({}, { projectId, __provider: "shim", __urn: urn(name), ...inputs });
  expect(r.failures ?? []).toEqual([]);
  return r.inputs;
}

interface Created {
  id: string;
  outs: Props;
  /** The program's inputs (before check). */
  given: Props;
}

async function createCompute(name: string, inputs: Props): Promise<Created> {
  const given = { projectId, __provider: "shim", __urn: urn(name), ...inputs };
  const created = await impl.create(await checked(name, inputs));
  return { id: created.id, outs: created.outs as Props, given };
}

/** The program's inputs with a change, checked as the engine does before diff. */
async function next(c: Created, change: Props): Promise<Props> {
  const news = { ...c.given, ...change };
  for (const k of Object.keys(news)) if (news[k] === undefined) delete news[k];
  const r = await impl.check(c.outs, news);
  expect(r.failures ?? []).toEqual([]);
  return r.inputs;
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(Error);
  return e as Error;
}

let impl: ReturnType<typeof boundResource>;

withEmulator(
  { opMs: 40, seed: 11 },
  (e, client) => {
    emulator = e;
    api = client;
    projectId = emulator.seed.projectId;
    // The default branch (index 0) holds the project's primary compute on the real service.
    branches = emulator.seed.branchIds.slice(1);
  },
  { resetEach: true },
);

beforeEach(() => {
  emulator.setFaults({});
  logs = [];
  impl = boundResource("Compute", { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));
});

describe("a replacement never deletes the compute it cannot replace", () => {
  it("refuses, before anything is deleted, a project the key cannot see", async () => {
    const c = await createCompute("moved-project", { branchId: branches[0], cu: 1 });
    const news = await next(c, { projectId: "no-such-project-123" });
    const err = await rejection(impl.diff(c.id, c.outs, news));
    expect(err.message).toMatch(/projectId no-such-project-123: the API key cannot see this project/);
    expect(err.message).toMatch(/Nothing was deleted or changed/);
    expect((await api.endpoints.get(projectId, c.id)).id).toBe(c.id);
  });

  it("refuses a region other than the project's, naming the project's region", async () => {
    const c = await createCompute("regional", { branchId: branches[1], cu: 1 });
    const news = await next(c, { regionId: "aws-eu-central-1" });
    const err = await rejection(impl.diff(c.id, c.outs, news));
    expect(err.message).toMatch(
      /regionId aws-eu-central-1: project .* is in aws-us-east-2.*; remove regionId or set it to aws-us-east-2/,
    );
  });

  it("refuses a size above a free-plan project's limit", async () => {
    const free = emulator.seed.freeProjectId;
    const c = await createCompute("free", {
      projectId: free,
      branchId: emulator.seed.freeProjectBranchId,
      cu: 1,
      type: "read_only",
    });
    // Refused by check already (a size change reads the plan), and by the replacement's preflight.
    const raw = { ...c.given, type: "read_write", cu: 4 };
    const checkedNews = await impl.check(c.outs, raw);
    expect(checkedNews.failures).toEqual([
      expect.objectContaining({
        property: "maxCu",
        reason: expect.stringMatching(/above the free plan's 2 CU/),
      }),
    ]);
    const err = await rejection(impl.diff(c.id, c.outs, checkedNews.inputs));
    expect(err.message).toMatch(/above the free plan's 2 CU/);
    expect((await api.endpoints.get(free, c.id)).type).toBe("read_only");
  });

  it("refuses a read_write replacement onto a branch whose read_write slot is taken", async () => {
    await createCompute("primary", { branchId: branches[2], cu: 1 });
    const replica = await createCompute("replica", { branchId: branches[2], cu: 1, type: "read_only" });
    const news = await next(replica, { type: "read_write" });
    const err = await rejection(impl.diff(replica.id, replica.outs, news));
    expect(err.message).toMatch(new RegExp(`branch ${branches[2]} already has a read_write compute`));
    expect((await api.endpoints.get(projectId, replica.id)).type).toBe("read_only");
  });

  it("refuses a branch move onto a taken read_write slot before sending the PATCH", async () => {
    await createCompute("holder", { branchId: branches[3], cu: 1 });
    const mover = await createCompute("mover", { branchId: branches[4], cu: 1 });
    const news = await next(mover, { branchId: branches[3] });
    const before = emulator.requestCount();
    const err = await rejection(impl.diff(mover.id, mover.outs, news));
    expect(err.message).toMatch(/Failed to move compute/);
    // Reads only: project, branch, the branch's computes.
    expect(emulator.requestCount() - before).toBe(3);
    const missing = await next(mover, { branchId: "br-does-not-exist-1" });
    expect((await rejection(impl.diff(mover.id, mover.outs, missing))).message).toMatch(
      /branchId br-does-not-exist-1: project .* has no such branch/,
    );
  });

  it("refuses a replacement onto an explicit name another compute of that type carries, before the delete", async () => {
    const c = await createCompute("renamed-rw", { branchId: branches[6], cu: 1, name: "dup" });
    // Someone else's read_only compute named "dup" on the same branch.
    const stranger = await api.endpoints.create(projectId, {
      branch_id: branches[6],
      type: "read_only",
      name: "dup",
    });
    await api.waitForOperations(projectId, stranger.operations);
    const news = await next(c, { type: "read_only" });
    const before = emulator.requestCount();
    const err = await rejection(impl.diff(c.id, c.outs, news));
    expect(err.message).toMatch(/Failed to replace compute/);
    expect(err.message).toMatch(
      new RegExp(`name dup: compute ${stranger.endpoint.id} .*already carries this name`),
    );
    expect(err.message).toMatch(/Nothing was deleted or changed/);
    expect(emulator.requestCount() - before).toBe(3);
    expect((await api.endpoints.get(projectId, c.id)).type).toBe("read_write");
  });

  it("lets a replacement that can succeed go ahead", async () => {
    const c = await createCompute("retyped", { branchId: branches[5], cu: 1, type: "read_only" });
    await createCompute("other-replica", { branchId: branches[5], cu: 1, type: "read_only" });
    // read_only → read_write on a branch with no read_write compute: the slot is free.
    const d = await impl.diff(c.id, c.outs, await next(c, { type: "read_write" }));
    expect(d).toMatchObject({ replaces: ["type"], deleteBeforeReplace: true });
  });
});

describe("a 404 caused by the key's scope is not 'deleted'", () => {
  async function scopedKeyForMainProject(): Promise<string> {
    const key = await api.apiKeys.createOrg(emulator.seed.orgId, "scoped", projectId);
    return key.key;
  }

  it("refresh with a key scoped to another project fails and keeps the compute", async () => {
    const free = emulator.seed.freeProjectId;
    const c = await createCompute("elsewhere", {
      projectId: free,
      branchId: emulator.seed.freeProjectBranchId,
      cu: 1,
      type: "read_only",
    });
    impl = boundResource("Compute", { apiKey: await scopedKeyForMainProject(), apiUrl: emulator.url });
    const err = await rejection(impl.read(c.id, c.outs));
    expect(err.message).toMatch(new RegExp(`cannot see project ${free}`));
    expect(err.message).toMatch(/the stack keeps it unchanged/);
    const del = await rejection(impl.delete(c.id, c.outs));
    expect(del.message).toMatch(new RegExp(`cannot see project ${free}`));
    expect((await api.endpoints.get(free, c.id)).id).toBe(c.id);
  });

  it("drops a compute deleted out of band when the key can read its project", async () => {
    const c = await createCompute("gone", { branchId: branches[6], cu: 1 });
    const key = await scopedKeyForMainProject();
    await api.endpoints.delete(projectId, c.id);
    impl = boundResource("Compute", { apiKey: key, apiUrl: emulator.url });
    expect(await impl.read(c.id, c.outs)).toEqual({});
    await impl.delete(c.id, c.outs);
  });
});

describe("every declared compute ends started", () => {
  it("an up after a refresh of a compute whose start failed starts it", async () => {
    emulator.setFaults({ opErrorRate: 1 });
    const inputs = await checked("stuck", { branchId: branches[7], cu: 0.5 });
    const init = (await impl.create(inputs).catch((e: unknown) => e)) as ComputeInitError;
    expect(init).toBeInstanceOf(ComputeInitError);
    emulator.setFaults({});
    // `pulumi refresh`: the state now records what the API reports.
    const refreshed = await impl.read(init.id, init.properties);
    const outs = refreshed.props as Props;
    expect(outs.currentState).toBe("init");
    // `pulumi up` with the same program: no input differs, yet there must be an update.
    const d = await impl.diff(init.id, outs, inputs);
    expect(d.changes).toBe(true);
    expect(d.replaces).toEqual([]);
    expect(logs.join("\n")).toMatch(/has never started .* this update starts it/);
    const updated = await impl.update(init.id, outs, inputs);
    expect(updated.outs?.currentState).toBe("active");
    // Converged: the next up has nothing to do.
    expect((await impl.diff(init.id, updated.outs as Props, inputs)).changes).toBe(false);
  });

  it("a disabled compute that never started is left alone", async () => {
    const c = await createCompute("off", { branchId: branches[8], cu: 0.5, disabled: true });
    expect((await impl.diff(c.id, c.outs, await next(c, {}))).changes).toBe(false);
  });
});

describe("a killed run never leaves a compute that blocks the branch", () => {
  it("an explicitly named compute left by a killed run fails once with the command to adopt it, then converges", async () => {
    // What the killed run left: the create reached the control plane, the stack never heard back.
    const left = await api.endpoints.create(projectId, {
      branch_id: branches[9],
      type: "read_write",
      name: "orders-db",
    });
    const inputs = await checked("orders", { branchId: branches[9], name: "orders-db" });
    const err = await rejection(impl.create(inputs));
    const importId = `${projectId}/${left.endpoint.id}`;
    expect(err.message).toContain(`importId: "${importId}"`);
    expect(err.message).toContain(`neonctl endpoints delete ${left.endpoint.id}`);
    expect(await api.endpoints.listByBranch(projectId, branches[9])).toHaveLength(1);
    // Following the message converges: the compute is adopted, started, and nothing else is made.
    const adopted = await impl.create(
      await checked("orders", { branchId: branches[9], name: "orders-db", importId }),
    );
    expect(adopted.id).toBe(left.endpoint.id);
    expect(["active", "idle"]).toContain((adopted.outs as Props).currentState);
    expect(await api.endpoints.listByBranch(projectId, branches[9])).toHaveLength(1);
  });

  it("says at preview that an importId set on an existing resource is ignored", async () => {
    const c = await createCompute("managed", { branchId: branches[10], cu: 0.5 });
    const other = `${projectId}/ep-other-123456`;
    const d = await impl.diff(c.id, c.outs, await next(c, { importId: other }));
    expect(d.changes).toBe(false);
    expect(logs.join("\n")).toMatch(
      new RegExp(`warning: importId ${other} is ignored: this resource already manages compute ${c.id}`),
    );
  });
});

describe("adopting a branch's existing primary compute", () => {
  async function primaryOn(branchId: string) {
    const r = await api.endpoints.create(projectId, {
      branch_id: branchId,
      type: "read_write",
      autoscaling_limit_min_cu: 1,
      autoscaling_limit_max_cu: 1,
    });
    await api.waitForOperations(
      projectId,
      r.operations.map((o) => o.id),
    );
    return r.endpoint;
  }

  it("without the opt-in, fails before sending a create and says how to opt in", async () => {
    await primaryOn(branches[11]);
    const err = await rejection(createCompute("second", { branchId: branches[11], cu: 1 }));
    expect(err.message).toMatch(/already has read_write compute ep-[\s\S]*adoptExistingPrimary: true/);
    expect(await api.endpoints.listByBranch(projectId, branches[11])).toHaveLength(1);
  });

  it("takes the compute over, applies the declared settings, and destroy leaves it in place", async () => {
    const primary = await primaryOn(branches[12]);
    // The preview (check) says which compute will be taken over.
    await checked("adopter", { branchId: branches[12], cu: 2, adoptExistingPrimary: true });
    expect(logs.join("\n")).toMatch(new RegExp(`will adopt compute ${primary.id} on branch ${branches[12]}`));
    const c = await createCompute("adopter", {
      branchId: branches[12],
      cu: 2,
      pgSettings: { work_mem: "4096" },
      adoptExistingPrimary: true,
    });
    expect(c.id).toBe(primary.id);
    expect(c.outs).toMatchObject({ adopted: true, minCu: 2, maxCu: 2, pgSettings: { work_mem: "4096" } });
    expect(c.outs.name).toBe(primary.name);
    expect(logs.join("\n")).toMatch(new RegExp(`adopting compute ${primary.id}`));
    // An update keeps the record that the compute was adopted: destroy must still leave it.
    const resized = await impl.update(c.id, c.outs, await next(c, { cu: 1 }));
    expect(resized.outs).toMatchObject({ adopted: true, minCu: 1 });
    await impl.delete(c.id, resized.outs as Props);
    expect((await api.endpoints.get(projectId, primary.id)).autoscaling_limit_max_cu).toBe(1);
    expect(logs.join("\n")).toMatch(/left compute .* in place/);
  });

  it("lets a replacement go ahead when it will adopt the primary compute of the target branch", async () => {
    await primaryOn(branches[17]);
    const replica = await createCompute("to-primary", { branchId: branches[17], cu: 1, type: "read_only" });
    const d = await impl.diff(
      replica.id,
      replica.outs,
      await next(replica, { type: "read_write", adoptExistingPrimary: true }),
    );
    expect(d.replaces).toEqual(["type"]);
  });

  it("decides on a fresh listing, not on one this process read before another process changed the branch", async () => {
    const holder = await primaryOn(branches[18]);
    // This process reads (and keeps) the project's listing, which now shows the branch's compute.
    await createCompute("warm-up", { branchId: branches[19], cu: 1, type: "read_only" });
    // Another process (another provider instance) deletes it.
    await api.endpoints.delete(projectId, holder.id);
    const c = await createCompute("after", { branchId: branches[18], cu: 1 });
    expect(c.id).not.toBe(holder.id);
    expect((await api.endpoints.listByBranch(projectId, branches[18])).map((e) => e.id)).toEqual([c.id]);
  });

  it("creates a compute as usual when the branch has none", async () => {
    const c = await createCompute("fresh", { branchId: branches[13], cu: 1, adoptExistingPrimary: true });
    expect(c.outs.adopted).toBeUndefined();
    await impl.delete(c.id, c.outs);
    expect(await api.endpoints.listByBranch(projectId, branches[13])).toHaveLength(0);
  });
});

describe("a refresh reports back only the inputs the program gave", () => {
  it("leaves platform-chosen values out of the refreshed inputs, so the next preview shows no removals", async () => {
    const c = await createCompute("plain", { branchId: branches[15], cu: 1 });
    expect(c.outs).toMatchObject({ regionId: "aws-us-east-2", disabled: false });
    const refreshed = await impl.read(c.id, c.outs);
    const inputs = refreshed.inputs as Props;
    expect(Object.keys(inputs).sort()).toEqual(
      ["__provider", "__urn", "branchId", "cu", "maxCu", "minCu", "projectId", "type"].sort(),
    );
    // A second refresh keeps the record.
    expect(Object.keys((await impl.read(c.id, refreshed.props as Props)).inputs as Props).sort()).toEqual(
      Object.keys(inputs).sort(),
    );
  });
});

describe("a refresh's diff warns about nothing and reads nothing", () => {
  it("shows drift without the restart warning, the replacement checks or a start", async () => {
    const c = await createCompute("drifted", { branchId: branches[16], cu: 1 });
    // What a refresh diffs: the state against what was read, for a URN the engine did not check.
    const olds = { ...c.outs, __urn: urn("refreshed-only") };
    const news = { ...olds, minCu: 2, maxCu: 2, projectId: "another-project-1", currentState: "init" };
    const before = emulator.requestCount();
    const d = await impl.diff(c.id, olds, news);
    expect(d).toMatchObject({ changes: true, replaces: ["projectId"] });
    expect(emulator.requestCount() - before).toBe(0);
    expect(logs.join("\n")).not.toMatch(/restarts the compute|never started/);
  });
});

describe("a create-before-delete replacement never deletes the compute its create took over", () => {
  it("forced replacement of an auto-named compute without deleteBeforeReplace keeps the compute", async () => {
    const old = await createCompute("forced", { branchId: branches[20], cu: 1 });
    // `pulumi up --replace` with deleteBeforeReplace false: the engine creates the replacement first,
    // with the same inputs (so the same auto-name), then deletes the old resource.
    const replacement = await impl.create(await checked("forced", { branchId: branches[20], cu: 1 }));
    expect(replacement.id).toBe(old.id);
    await impl.delete(old.id, old.outs);
    expect((await api.endpoints.get(projectId, old.id)).id).toBe(old.id);
    expect(logs.join("\n")).toMatch(/this run's replacement of the resource took it over/);
  });
});
