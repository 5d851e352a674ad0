import * as pulumi from "@pulumi/pulumi";

// An `…Output` lookup loads the API client when its first argument that waits on something resolves
// (plus a short delay for what waited on that value), not when the last one does at the update's end.
describe("loadClientEarly", () => {
  type Client = typeof import("../../../provider/lookups/client");
  type Api = typeof import("../../../provider/api/client");
  let client: Client;
  let created: jest.SpyInstance;

  beforeEach(() => {
    jest.useFakeTimers();
    process.env.NEON_API_KEY = "neon-test-key-early-load";
    process.env.NEON_API_URL = "http://127.0.0.1:1/api/v2";
    // A fresh registry per test (the module keeps its state); the client module's later require of
    // the API shares it with the spy, set where the function is defined (the API's index re-exports
    // it through a getter).
    jest.resetModules();
    client = require("../../../provider/lookups/client");
    created = jest.spyOn(require("../../../provider/api/client") as Api, "createNeonClient");
  });
  afterEach(() => {
    jest.useRealTimers();
    delete process.env.NEON_API_KEY;
    delete process.env.NEON_API_URL;
    (pulumi.runtime as unknown as { _setIsDryRun(v: boolean): void })._setIsDryRun(false);
  });

  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };

  it("loads the client the delay after the first waiting argument resolves, once", async () => {
    let resolveBranch!: (id: string) => void;
    let resolveDatabase!: (name: string) => void;
    const branchId = pulumi.output(new Promise<string>((r) => (resolveBranch = r)));
    const databaseName = pulumi.output(new Promise<string>((r) => (resolveDatabase = r)));
    client.loadClientEarly({ projectId: "proj-1", branchId, databaseName, roleName: "app" });
    client.loadClientEarly({ projectId: "proj-1", branchId });

    await jest.advanceTimersByTimeAsync(5_000);
    expect(created).not.toHaveBeenCalled();

    resolveBranch("br-1");
    await settle();
    await jest.advanceTimersByTimeAsync(client.EARLY_LOAD_DELAY_MS - 1);
    expect(created).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(created).toHaveBeenCalledTimes(1);

    resolveDatabase("app");
    await settle();
    await jest.advanceTimersByTimeAsync(5_000);
    // The lookup itself then finds it made.
    client.lookupClient();
    expect(created).toHaveBeenCalledTimes(1);
  });

  it("waits on a promise argument too", async () => {
    let resolve!: (id: string) => void;
    client.loadClientEarly({ branchId: new Promise<string>((r) => (resolve = r)) });
    resolve("br-1");
    await settle();
    await jest.advanceTimersByTimeAsync(client.EARLY_LOAD_DELAY_MS);
    expect(created).toHaveBeenCalledTimes(1);
  });

  it("loads nothing for arguments known at once: the lookup runs at once then", async () => {
    client.loadClientEarly({ projectId: "proj-1", branchId: "br-1", databaseName: "app", roleName: "app" });
    await jest.advanceTimersByTimeAsync(5_000);
    expect(created).not.toHaveBeenCalled();
  });

  it("loads nothing in a preview: the lookup runs there only with every argument known", async () => {
    // As a preview's language host sets it (the SDK's settings are one store per process).
    (pulumi.runtime as unknown as { _setIsDryRun(v: boolean): void })._setIsDryRun(true);
    let resolve!: (id: string) => void;
    client.loadClientEarly({ branchId: pulumi.output(new Promise<string>((r) => (resolve = r))) });
    resolve("br-1");
    await settle();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(created).not.toHaveBeenCalled();
  });

  it("leaves a missing key for the lookup to report", async () => {
    delete process.env.NEON_API_KEY;
    let resolve!: (id: string) => void;
    client.loadClientEarly({ branchId: pulumi.output(new Promise<string>((r) => (resolve = r))) });
    resolve("br-1");
    await settle();
    await expect(jest.advanceTimersByTimeAsync(client.EARLY_LOAD_DELAY_MS)).resolves.toBeUndefined();
    expect(created).not.toHaveBeenCalled();
    expect(() => client.lookupClient()).toThrow(/no API key is set/);
  });

  it("takes the key from the variable neon:apiKeyEnv names, never NEON_API_KEY, and names it when unset", () => {
    const runtime = (require("@pulumi/pulumi") as typeof pulumi).runtime;
    runtime.setConfig("neon:apiKeyEnv", "STAGING_NEON_KEY");
    try {
      expect(() => client.lookupClient()).toThrow(
        /neon:apiKeyEnv names the environment variable STAGING_NEON_KEY, which is not set or is empty/,
      );
      process.env.STAGING_NEON_KEY = "neon-test-key-staging";
      client.lookupClient();
      expect(created).toHaveBeenCalledWith(expect.objectContaining({ apiKey: "neon-test-key-staging" }));
    } finally {
      runtime.setConfig("neon:apiKeyEnv", "");
      delete process.env.STAGING_NEON_KEY;
    }
  });

  it("never repeats a key pasted into neon:apiKeyEnv in place of a variable's name", () => {
    const runtime = (require("@pulumi/pulumi") as typeof pulumi).runtime;
    const pasted = "napi0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0u1v2w3x4y5z6a7b8c9d0";
    runtime.setConfig("neon:apiKeyEnv", pasted);
    try {
      let message = "";
      try {
        client.lookupClient();
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(
        /neon:apiKeyEnv is not the name of an environment variable \(it looks like an API key\)/,
      );
      expect(message).not.toContain(pasted);
      expect(created).not.toHaveBeenCalled();
    } finally {
      runtime.setConfig("neon:apiKeyEnv", "");
    }
  });
});
