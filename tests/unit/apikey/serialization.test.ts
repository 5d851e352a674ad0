import * as pulumi from "@pulumi/pulumi";
import { apiKeyProvider } from "../../../provider/resources/apikey/provider";
import { setSettings } from "../../../provider/resources/apikey/impl";

describe("serialized ApiKey provider", () => {
  const key = "neon-test-key-0123456789abcdef";

  beforeAll(() => {
    process.env.NEON_API_KEY = key;
    setSettings({ apiKey: key, apiUrl: "http://127.0.0.1:1/api/v2" });
  });
  afterAll(() => {
    delete process.env.NEON_API_KEY;
    setSettings({});
  });

  it("captures no key, client or large module, only the implementation's package path", async () => {
    const text = (await pulumi.runtime.serializeFunction(() => apiKeyProvider)).text;
    expect(text).not.toContain(key);
    expect(text).not.toMatch(/axios|zod|Bearer|apiKey"/i);
    expect(text).toContain("@neon-labs-unofficial/pulumi-neon-compute/dist/provider/resources/apikey/impl");
    expect(Buffer.byteLength(text)).toBeLessThan(8 * 1024);
  });
});
