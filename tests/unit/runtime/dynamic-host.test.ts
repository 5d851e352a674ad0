/**
 * The dynamic host's process-wide parts: a configuration that failed stays failed for every later
 * step of the process (Pulumi's host keeps the provider object it could not configure and calls it
 * anyway), and a step's outputs keep the request's `__urn` (the shared shim's dispatch).
 */
import type * as Host from "../../../provider/dynamic/host";
import { InitError } from "../../../provider/resources/steps";

/** A ConfigureRequest as the dynamic provider host builds it. */
function req(values: Record<string, string>) {
  return { config: { rawConfig: values, get: (k: string) => values[k] } } as never;
}

const URN = "urn:pulumi:pr-1::preview::pulumi-nodejs:dynamic/neon:Role::app";
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe("a configuration that failed", () => {
  let host: typeof Host;
  beforeEach(() => {
    jest.resetModules(); // the binding of process to runtime is the module's
    host = require("../../../provider/dynamic/host");
  });

  it("fails every later step of the process with its error, not a runtime of defaults", async () => {
    // A key in the environment that a runtime of defaults would use (another account's, say).
    process.env.NEON_API_KEY = "k".repeat(64);
    const bad = req({ "neon:apiKey": "x".repeat(64), "neon:requestTimeoutSeconds": "soon" });
    await expect(host.dynamicImpl("Role").configure(bad)).rejects.toThrow(
      /neon:requestTimeoutSeconds is "soon"/,
    );
    const news = { projectId: "proj-1", branchId: "br-1", name: "app", __urn: URN };
    await expect(host.dynamicImpl("Database").check({}, news)).rejects.toThrow(
      /neon:requestTimeoutSeconds is "soon"/,
    );
    await expect(host.dynamicImpl("Role").delete("proj-1/br-1/app", news)).rejects.toThrow(
      /neon:requestTimeoutSeconds is "soon"/,
    );
  });

  it("is cleared by one that succeeds", async () => {
    const bad = req({ "neon:apiKey": "x".repeat(64), "neon:requestTimeoutSeconds": "soon" });
    await expect(host.configureProcess(bad)).rejects.toThrow(/requestTimeoutSeconds/);
    await host.configureProcess(
      req({ "neon:apiKey": "x".repeat(64), "neon:apiUrl": "http://127.0.0.1:1/api/v2" }),
    );
    // A check with a name the service refuses fails on its own, before any request.
    const result = await host
      .dynamicImpl("Role")
      .check({}, { projectId: "proj-1", branchId: "br-1", name: "", __urn: URN });
    expect(JSON.stringify(result.failures)).toMatch(/name/);
  });
});

describe("keepUrn", () => {
  const { keepUrn } = require("../../../provider/dynamic/host") as typeof Host;

  it("adds the request's URN to outputs without one", () => {
    expect(keepUrn({ id: "x" }, { __urn: URN })).toEqual({ id: "x", __urn: URN });
  });
  it("keeps the outputs' own URN for a read, and puts the request's for a create or an update", () => {
    const old = "urn:pulumi:pr-1::preview::pulumi-nodejs:dynamic/neon:Role::before-rename";
    expect(keepUrn({ __urn: old }, { __urn: URN })).toEqual({ __urn: old });
    expect(keepUrn({ __urn: old }, { __urn: URN }, true)).toEqual({ __urn: URN });
  });
  it("leaves outputs alone when the request has no URN, and no outputs alone", () => {
    expect(keepUrn({ id: "x" }, {})).toEqual({ id: "x" });
    expect(keepUrn(undefined, { __urn: URN })).toBeUndefined();
  });
});

describe("urnKeptOnError", () => {
  const { urnKeptOnError } = require("../../../provider/dynamic/host") as typeof Host;

  it("puts the request's URN into what an InitError keeps in the stack", async () => {
    const failing = () =>
      Promise.reject(new InitError("Failed to finish creating x.", "br-1", { id: "br-1" }, ["r"]));
    const err = (await urnKeptOnError({ __urn: URN }, failing).catch((e: unknown) => e)) as InitError;
    expect(err).toBeInstanceOf(InitError);
    expect([err.message, err.id, err.properties, err.reasons]).toEqual([
      "Failed to finish creating x.",
      "br-1",
      { id: "br-1", __urn: URN },
      ["r"],
    ]);
  });
  it("passes any other error, and a result, through", async () => {
    const other = new Error("Failed to create x.");
    await expect(urnKeptOnError({ __urn: URN }, () => Promise.reject(other))).rejects.toBe(other);
    await expect(urnKeptOnError({ __urn: URN }, async () => 7)).resolves.toBe(7);
  });
});
