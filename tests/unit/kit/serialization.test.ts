import { createHash } from "crypto";
import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../../provider/registry";
import { DYNAMIC_ENTRY, dynamicProvider, dynamicTypeToken } from "../../../provider/dynamic/class";
import { runtimeFromConfig } from "../../../provider/dynamic/host";

// Pulumi stores this text in the state of every dynamic resource of the type.
async function serialized(name: string): Promise<string> {
  const kind = RESOURCES.find((r) => r.definition.name === name)!;
  // Serialized as the SDK does (`() => provider`): the captured variable's name is part of the text.
  const provider = dynamicProvider(kind);
  return (await pulumi.runtime.serializeFunction(() => provider)).text;
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

describe("serialized dynamic providers", () => {
  const key = "neon-test-key-0123456789abcdef";

  beforeAll(() => {
    process.env.NEON_API_KEY = key;
    // A process runtime made and used in this process (with a client holding the key): the shims are
    // serialized after it exists, and must capture neither it nor the key.
    const values: Record<string, string> = { "neon:apiKey": key, "neon:apiUrl": "http://127.0.0.1:1/api/v2" };
    runtimeFromConfig({ config: { rawConfig: values, get: (k: string) => values[k] } } as never).client();
  });
  afterAll(() => {
    delete process.env.NEON_API_KEY;
  });

  it.each(RESOURCES.map((r) => r.definition.name))(
    "%s: captures no key, client or large module, only its implementation's package path",
    async (name) => {
      const text = await serialized(name);
      expect(text).not.toContain(key);
      expect(text).not.toMatch(/axios|zod|Bearer|apiKey"/i);
      expect(text).toMatch(/loadImpl|entry\(\)\.resourceOf/);
      expect(text).toContain("@neon-labs-unofficial/pulumi-neon-compute/dist/provider/");
      // Bytes per resource in state.
      expect(Buffer.byteLength(text)).toBeLessThan(8 * 1024);
    },
  );

  // Every existing stack stores these texts: a change shows as a diff on each of their resources.
  it.each([
    ["Compute", "e224491dc25cc1ca"],
    ["ApiKey", "7151efc009c6db6c"],
  ])("%s: the text states already hold is unchanged", async (name, digest) => {
    expect(sha(await serialized(name))).toBe(digest);
  });
});

// The module paths states hold (in the serialized shim) must keep loading from the installed package
// (in this repository: the build linked into node_modules, which `npm test` makes first).
describe("the dynamic modules states name", () => {
  const methods = ["configure", "check", "diff", "create", "read", "update", "delete"];
  const released = RESOURCES.filter((r) => r.releasedDynamic);

  it("are Compute's and ApiKey's own modules (released in 0.1.0) and the one entry for the others", async () => {
    expect(released.map((r) => [r.definition.name, r.releasedDynamic!.module])).toEqual([
      ["Compute", "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/compute/impl"],
      ["ApiKey", "@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/apikey/impl"],
    ]);
    const later = RESOURCES.filter((k) => !k.releasedDynamic);
    expect(later.length).toBeGreaterThan(3);
    // One object for all of them: Pulumi serializes it once per program (its cache is by object).
    expect(new Set(later.map((r) => dynamicProvider(r))).size).toBe(1);
    const text = await serialized(later[0].definition.name);
    expect(text).toContain(DYNAMIC_ENTRY);
    expect(text).toContain("resourceOf");
    expect(text).not.toContain(`"${later[0].definition.name}"`);
  });

  it.each(released.map((r) => [r.definition.name, r.releasedDynamic!.module]))(
    "%s: %s loads and has every method",
    (_, module) => {
      const impl = require(module) as Record<string, unknown>;
      expect(methods.filter((m) => typeof impl[m] !== "function")).toEqual([]);
    },
  );

  it("the one entry loads and gives every resource of the registry its methods", () => {
    const entry = require(DYNAMIC_ENTRY) as { resource(name: string): Record<string, unknown> };
    for (const r of RESOURCES) {
      const impl = entry.resource(r.definition.name);
      expect([r.definition.name, methods.filter((m) => typeof impl[m] !== "function")]).toEqual([
        r.definition.name,
        [],
      ]);
    }
    expect(() => entry.resource("Bucket")).toThrow(
      /Failed to find resource Bucket: the package's resources are Compute, ApiKey/,
    );
  });

  it("the one entry finds each resource by the type in its URN, under a parent too", () => {
    const entry = require(DYNAMIC_ENTRY) as {
      resource(name: string): unknown;
      resourceOf(props: Record<string, unknown> | undefined): unknown;
      configure: unknown;
    };
    expect(typeof entry.configure).toBe("function");
    for (const r of RESOURCES) {
      const token = dynamicTypeToken(r.definition);
      const urn = `urn:pulumi:pr-1::preview::${token}::pr-1`;
      expect(entry.resourceOf({ __urn: urn, name: "x" })).toBe(entry.resource(r.definition.name));
      const child = `urn:pulumi:pr-1::preview::my:component:Env$${token}::a::b`;
      expect(entry.resourceOf({ __urn: child })).toBe(entry.resource(r.definition.name));
    }
  });

  it.each([
    [undefined, /its properties have no __urn/],
    [{ name: "app" }, /its properties have no __urn/],
    [
      { __urn: "urn:pulumi:s::p::aws:s3/bucket:Bucket::b" },
      /the URN urn:pulumi:s::p::aws:s3\/bucket:Bucket::b, not one/,
    ],
  ])("the one entry refuses a request it cannot place (%j), saying what to do", (props, message) => {
    const entry = require(DYNAMIC_ENTRY) as { resourceOf(props: unknown): unknown };
    expect(() => entry.resourceOf(props)).toThrow(message);
    expect(() => entry.resourceOf(props)).toThrow(/pulumi state delete/);
  });
});
