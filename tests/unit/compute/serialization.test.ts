import * as pulumi from "@pulumi/pulumi";
import { computeProvider } from "../../../provider/resources/compute/provider";
import { setSettings } from "../../../provider/resources/compute/impl";

// Pulumi stores this text in the state of every Compute resource.
async function serializedProvider(): Promise<string> {
  const fn = await pulumi.runtime.serializeFunction(() => computeProvider);
  return fn.text;
}

describe("serialized provider", () => {
  const key = "neon-test-key-0123456789abcdef";

  beforeAll(() => {
    process.env.NEON_API_KEY = key;
    // Even a configured provider process must not leak into the serialized closure.
    setSettings({ apiKey: key, apiUrl: "http://127.0.0.1:1/api/v2" });
  });
  afterAll(() => {
    delete process.env.NEON_API_KEY;
    setSettings({});
  });

  it("captures no key, client or large module", async () => {
    const text = await serializedProvider();
    expect(text).not.toContain(key);
    expect(text).not.toMatch(/axios|zod|Bearer|apiKey/i);
    expect(text).toContain("loadImpl");
  });

  it("stays small (bytes per resource in state)", async () => {
    const text = await serializedProvider();
    expect(Buffer.byteLength(text)).toBeLessThan(8 * 1024);
  });
});
