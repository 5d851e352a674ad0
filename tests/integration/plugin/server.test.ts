/**
 * The plugin's gRPC handlers, called in-process with hand-made requests against the emulator: the
 * handlers that replace the stock server's (Configure, CheckConfig, DiffConfig, Diff, Read and the
 * timeout of Create), and the stock server's behaviour they work around.
 */
import { startEmulator, type EmulatorHandle } from "../../../emulator";
import { createNeonClient, type NeonClient } from "../../../provider/api";
import { secret } from "../../../provider/plugin/secrets";
import { createProvider } from "../../../provider/plugin/provider";
import { serve } from "../../../provider/plugin/server";

/* eslint-disable @typescript-eslint/no-explicit-any */
const pulumiDir = require.resolve("@pulumi/pulumi");
const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto = require("@pulumi/pulumi/proto/provider_pb");
const { Struct } = require(
  require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] }),
);

type Handler = (call: { request: any }, cb: (err: any, value?: any) => void) => unknown;
let handlers: Record<string, Handler>;
let stock: Record<string, Handler>;
let emulator: EmulatorHandle;
let api: NeonClient;

const URN = (type: string, name: string) => `urn:pulumi:dev::proj::neoncompute:index:${type}::${name}`;

function call(name: string, request: any, from = handlers): Promise<any> {
  return new Promise((resolve, reject) => {
    void from[name]({ request }, (err, value) => (err ? reject(err) : resolve(value)));
  });
}

async function configure(args: Record<string, unknown>): Promise<void> {
  const req = new provproto.ConfigureRequest();
  req.setArgs(Struct.fromJavaScript(args));
  await call("configure", req);
}

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 50, seed: 41, opDurations: { start_compute: 3_600_000 } });
  api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  // Capture what `main` registers, without listening on a port.
  const proto = grpc.Server.prototype;
  const original = { addService: proto.addService, bindAsync: proto.bindAsync };
  proto.addService = function (service: unknown, impl: any) {
    if (service === provrpc.ResourceProviderService) handlers = impl;
    return original.addService.call(this, service, impl);
  };
  proto.bindAsync = (_addr: string, _creds: unknown, cb: (e: null, port: number) => void) => cb(null, 1);
  const log = jest.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    await serve([], "9.9.9");
    // The stock server alone, from a fresh copy of the SDK's modules (its `main` serves once per process).
    jest.isolateModules(() => {
      const isolated = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
      isolated.Server.prototype.addService = (_service: unknown, impl: any) => {
        stock = { read: impl.read.bind(impl) };
      };
      isolated.Server.prototype.bindAsync = proto.bindAsync;
      void require("@pulumi/pulumi/provider").main(createProvider("9.9.9"), []);
    });
  } finally {
    Object.assign(proto, original);
    log.mockRestore();
  }
  await configure({ apiKey: secret(emulator.apiKey), apiUrl: emulator.url });
});

afterAll(async () => {
  await emulator?.stop();
});

describe("Configure", () => {
  it("takes the settings from the request (a secret key included): the next call uses them", async () => {
    const req = new provproto.InvokeRequest();
    req.setTok("neoncompute:index:getProjects");
    req.setArgs(Struct.fromJavaScript({ limit: 5 }));
    const resp = await call("invoke", req);
    expect(
      resp
        .getReturn()
        .toJavaScript()
        .projects.map((p: { id: string }) => p.id),
    ).toContain(emulator.seed.projectId);
  });

  it("with another key, acts as that key (a wrong one is refused by the API)", async () => {
    await configure({ apiKey: "not-a-key", apiUrl: emulator.url });
    const req = new provproto.InvokeRequest();
    req.setTok("neoncompute:index:getProjects");
    req.setArgs(Struct.fromJavaScript({}));
    await expect(call("invoke", req)).rejects.toThrow(/401|unauthori[sz]ed|API key/i);
    await configure({ apiKey: secret(emulator.apiKey), apiUrl: emulator.url });
  });
});

describe("apiKeyEnv: the key from a named environment variable", () => {
  const VARIABLE = "NEON_SERVER_TEST_KEY";
  afterEach(async () => {
    delete process.env[VARIABLE];
    await configure({ apiKey: secret(emulator.apiKey), apiUrl: emulator.url });
  });

  function getProjects(): Promise<any> {
    const req = new provproto.InvokeRequest();
    req.setTok("neoncompute:index:getProjects");
    req.setArgs(Struct.fromJavaScript({}));
    return call("invoke", req);
  }

  it("acts with the variable's key, read at each call: a changed value is used by the next call", async () => {
    process.env[VARIABLE] = emulator.apiKey;
    await configure({ apiKeyEnv: VARIABLE, apiUrl: emulator.url });
    const ids = (await getProjects())
      .getReturn()
      .toJavaScript()
      .projects.map((p: { id: string }) => p.id);
    expect(ids).toContain(emulator.seed.projectId);
    process.env[VARIABLE] = "not-a-key";
    await expect(getProjects()).rejects.toThrow(/401|unauthori[sz]ed|API key/i);
    delete process.env[VARIABLE];
    await expect(getProjects()).rejects.toThrow(
      new RegExp(`apiKeyEnv names the environment variable ${VARIABLE}, which is not set or is empty`),
    );
  });

  it("CheckConfig keeps the name as given (no secret to hide) and refuses an unset variable", async () => {
    const req = new provproto.CheckRequest();
    req.setNews(Struct.fromJavaScript({ apiUrl: emulator.url, apiKeyEnv: VARIABLE }));
    const resp = await call("checkConfig", req);
    expect(resp.getInputs().toJavaScript()).toEqual({ apiUrl: emulator.url, apiKeyEnv: VARIABLE });
    expect(resp.getFailuresList().map((f: any) => [f.getProperty(), f.getReason()])).toEqual([
      [
        "apiKeyEnv",
        expect.stringMatching(
          new RegExp(`^neoncompute:apiKeyEnv names the environment variable ${VARIABLE}, `),
        ),
      ],
    ]);
    process.env[VARIABLE] = emulator.apiKey;
    expect((await call("checkConfig", req)).getFailuresList()).toEqual([]);
  });
});

describe("CheckConfig and DiffConfig", () => {
  it("reports a misspelled key and a missing API key", async () => {
    const saved = process.env.NEON_API_KEY;
    delete process.env.NEON_API_KEY;
    try {
      const req = new provproto.CheckRequest();
      req.setNews(Struct.fromJavaScript({ apiUrl: emulator.url, apikey: secret("x"), version: "1.0.0" }));
      const resp = await call("checkConfig", req);
      const failures = resp.getFailuresList().map((f: any) => [f.getProperty(), f.getReason()]);
      expect(failures).toEqual([
        ["apikey", expect.stringMatching(/did you mean neoncompute:apiKey\?/)],
        ["apiKey", expect.stringMatching(/no API key is set/)],
      ]);
    } finally {
      if (saved !== undefined) process.env.NEON_API_KEY = saved;
    }
  });

  it("returns the API key as a secret even when it came as plain text (the inputs go to the state)", async () => {
    const req = new provproto.CheckRequest();
    req.setNews(Struct.fromJavaScript({ apiUrl: emulator.url, apiKey: "plain-key-0123456789" }));
    const resp = await call("checkConfig", req);
    expect(resp.getInputs().toJavaScript()).toEqual({
      apiUrl: emulator.url,
      apiKey: secret("plain-key-0123456789"),
    });
  });

  it("a changed key is a change, never a replacement", async () => {
    const req = new provproto.DiffRequest();
    req.setOlds(Struct.fromJavaScript({ apiKey: secret("a") }));
    req.setNews(Struct.fromJavaScript({ apiKey: secret("b") }));
    const resp = await call("diffConfig", req);
    expect(resp.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(resp.getReplacesList()).toEqual([]);
    expect(resp.getDiffsList()).toEqual(["apiKey"]);
  });
});

describe("Read (pulumi import)", () => {
  let endpointId: string;

  beforeAll(async () => {
    const created = await api.endpoints.create(emulator.seed.projectId, {
      branch_id: emulator.seed.branchIds[2],
      type: "read_only",
      autoscaling_limit_min_cu: 1,
      autoscaling_limit_max_cu: 1,
      disabled: true,
    });
    endpointId = created.endpoint.id;
  });

  function importRequest(): any {
    const req = new provproto.ReadRequest();
    req.setId(`${emulator.seed.projectId}/${endpointId}`);
    req.setUrn(URN("Compute", "imported"));
    return req; // no properties: what the engine sends for `pulumi import`
  }

  it("the stock server's read crashes on a request without properties (why the plugin has its own)", async () => {
    await expect(call("read", importRequest(), stock)).rejects.toThrow(/toJavaScript/);
  });

  it("the plugin's read answers it with the compute's outputs and the inputs that describe it", async () => {
    const resp = await call("read", importRequest());
    expect(resp.getId()).toBe(endpointId);
    expect(resp.getProperties().toJavaScript()).toMatchObject({
      endpointId,
      type: "read_only",
      disabled: true,
    });
    const inputs = resp.getInputs().toJavaScript();
    expect(inputs).toMatchObject({
      projectId: emulator.seed.projectId,
      branchId: emulator.seed.branchIds[2],
      type: "read_only",
      minCu: 1,
      maxCu: 1,
      disabled: true,
    });
    expect(Object.keys(inputs)).not.toContain("__urn");
  });

  it("answers a compute that is gone with no id (the engine drops it) instead of crashing", async () => {
    const req = new provproto.ReadRequest();
    req.setId("ep-gone-123456");
    req.setUrn(URN("Compute", "gone"));
    req.setProperties(Struct.fromJavaScript({ projectId: emulator.seed.projectId }));
    const resp = await call("read", req);
    expect(resp.getId()).toBe("");
    expect(resp.hasProperties()).toBe(false);
  });
});

describe("Diff", () => {
  it("keeps stables and names each changed input, marking replacements", async () => {
    const req = new provproto.DiffRequest();
    req.setId("ep-x-1");
    req.setUrn(URN("ApiKey", "k"));
    req.setOlds(Struct.fromJavaScript({ name: "a", keyId: 1 }));
    req.setNews(Struct.fromJavaScript({ name: "b" }));
    const resp = await call("diff", req);
    expect(resp.getReplacesList()).toEqual(["name"]);
    expect(resp.getHasdetaileddiff()).toBe(true);
    expect(resp.getDetaileddiffMap().get("name").getKind()).toBe(provproto.PropertyDiff.Kind.UPDATE_REPLACE);

    const same = new provproto.DiffRequest();
    same.setId("1");
    same.setUrn(URN("ApiKey", "k"));
    same.setOlds(Struct.fromJavaScript({ name: "a", keyId: 1 }));
    same.setNews(Struct.fromJavaScript({ name: "a" }));
    const none = await call("diff", same);
    expect(none.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
    expect(none.getStablesList()).toContain("token");
  });
});

describe("Create", () => {
  function createRequest(name: string): any {
    const req = new provproto.CreateRequest();
    req.setUrn(URN("Compute", name));
    req.setProperties(
      Struct.fromJavaScript({
        projectId: emulator.seed.projectId,
        branchId: emulator.seed.branchIds[3],
        type: "read_only",
        minCu: 0.25,
        maxCu: 0.25,
      }),
    );
    return req;
  }

  it("never runs during preview: a preview's create shows its inputs, an update the inputs it changes as unknown", async () => {
    const req = createRequest("previewed");
    req.setPreview(true);
    const resp = await call("create", req);
    expect(resp.getId()).toBe("");
    expect(resp.getProperties().toJavaScript()).toMatchObject({ type: "read_only", minCu: 0.25 });
    expect(await api.endpoints.listByBranch(emulator.seed.projectId, emulator.seed.branchIds[3])).toEqual([]);

    // A new role: its name is unknown until the create (an invoke given role.name waits for it).
    const role = new provproto.CreateRequest();
    role.setUrn(URN("Role", "r"));
    role.setPreview(true);
    role.setProperties(Struct.fromJavaScript({ projectId: "p-1", branchId: "br-1", name: "app" }));
    expect((await call("create", role)).getProperties().toJavaScript()).toEqual({
      projectId: "p-1",
      branchId: "br-1",
      name: "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
    });

    // A database renamed: its name is unknown until the update (so `${db.name}` in an invoke waits).
    const before = Object.values(emulator.requestsByRoute()).reduce((n, v) => n + v, 0);
    const update = new provproto.UpdateRequest();
    update.setId("7");
    update.setUrn(URN("Database", "db"));
    update.setPreview(true);
    const where = { projectId: emulator.seed.projectId, branchId: emulator.seed.branchIds[3] };
    update.setOlds(Struct.fromJavaScript({ ...where, name: "app", ownerName: "owner", databaseId: 7 }));
    update.setNews(Struct.fromJavaScript({ ...where, name: "app2", ownerName: "owner" }));
    const props = (await call("update", update)).getProperties().toJavaScript();
    expect(props).toEqual({ ...where, ownerName: "owner", name: expect.any(String) });
    expect(props.name).toBe("04da6b54-80e4-46f7-96ec-b56ff0331ba9");
    expect(Object.values(emulator.requestsByRoute()).reduce((n, v) => n + v, 0)).toBe(before);
  });

  it("bounds its wait by the request's timeout (customTimeouts) and keeps the compute it made", async () => {
    // The emulator's start takes an hour; a 1-second timeout must end the wait, not the setting's 20 minutes.
    const req = createRequest("bounded");
    req.setTimeout(1);
    const err = await call("create", req).then(
      () => undefined,
      (e: { message?: string; details?: string; metadata?: any }) => e,
    );
    expect(err).toBeDefined();
    expect(String(err?.message ?? err?.details)).toMatch(/Failed to finish creating compute ep-/);
    // Created-but-failed: the details carry the id, so the engine keeps the compute in the stack.
    expect(err?.metadata?.get("grpc-status-details-bin")).toHaveLength(1);
  });
});
