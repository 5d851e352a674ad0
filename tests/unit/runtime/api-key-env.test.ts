/**
 * `apiKeyEnv`: a provider instance names the environment variable its key is in, instead of holding
 * the key. Parsed by the one `parseSettings` of both faces (the environment injected), and read by the
 * runtime when it makes its client.
 */
import { runtimeFromConfig } from "../../../provider/dynamic/host";
import { checkConfig, settingsFrom } from "../../../provider/plugin/config";
import { UNKNOWN } from "../../../provider/resources/definition";
import { Runtime } from "../../../provider/resources/runtime";
import { apiKeyOf, parseSettings } from "../../../provider/resources/settings";

const KEY = "k".repeat(20) + "0123456789" + "Z".repeat(34);
const OTHER = "o".repeat(64);

/** The failures of parsing `values` (the settings as one face reads them) in `env`. */
function failures(values: Record<string, unknown>, env: NodeJS.ProcessEnv, namespace = "neoncompute") {
  return parseSettings(namespace, (n) => values[n], Object.keys(values), env).failures;
}

describe("parsing apiKeyEnv", () => {
  it("takes the name of a set variable: the settings hold the name, never the key", () => {
    const parsed = parseSettings("neon", (n) => ({ apiKeyEnv: "STAGING_NEON_KEY" })[n], ["apiKeyEnv"], {
      STAGING_NEON_KEY: KEY,
    });
    expect(parsed.failures).toEqual([]);
    expect(parsed.settings).toEqual({ apiKeyEnv: "STAGING_NEON_KEY" });
    expect(JSON.stringify(parsed.settings)).not.toContain(KEY);
  });

  it("refuses apiKey and apiKeyEnv together, even with the variable set", () => {
    const f = failures({ apiKey: KEY, apiKeyEnv: "STAGING_NEON_KEY" }, { STAGING_NEON_KEY: KEY });
    expect(f).toEqual([
      {
        property: "apiKeyEnv",
        reason: expect.stringMatching(/^neoncompute:apiKey and neoncompute:apiKeyEnv are both set; keep one/),
      },
    ]);
    expect(JSON.stringify(f)).not.toContain(KEY);
  });

  it("refuses apiKeyEnv beside an apiKey not known yet (another resource's output)", () => {
    expect(failures({ apiKey: UNKNOWN, apiKeyEnv: "K" }, { K: KEY }).map((f) => f.property)).toEqual([
      "apiKeyEnv",
    ]);
  });

  it.each(["1KEY", "STAGING-KEY", "MY KEY", "$KEY", "KEY="])(
    "refuses %p, which is not a variable's name, without repeating it",
    (name) => {
      const [f, ...rest] = failures({ apiKeyEnv: name }, { [name]: KEY });
      expect(rest).toEqual([]);
      expect(f.property).toBe("apiKeyEnv");
      expect(f.reason).toMatch(/^neoncompute:apiKeyEnv is not the name of an environment variable; give/);
      expect(f.reason).not.toContain(name);
    },
  );

  it("refuses a key pasted where the variable's name belongs, without repeating it", () => {
    const [f] = failures({ apiKeyEnv: KEY }, {});
    expect(f.reason).toMatch(/not the name of an environment variable \(it looks like an API key\)/);
    expect(f.reason).not.toContain(KEY);
  });

  it.each([
    ["unset", {}],
    ["empty", { STAGING_NEON_KEY: "" }],
  ])("refuses a variable that is %s, naming it and the remedy", (_, env) => {
    expect(failures({ apiKeyEnv: "STAGING_NEON_KEY" }, env, "neon")).toEqual([
      {
        property: "apiKeyEnv",
        reason:
          "neon:apiKeyEnv names the environment variable STAGING_NEON_KEY, which is not set or is empty. " +
          "Set STAGING_NEON_KEY to the API key in the environment of the `pulumi` command (preview, up, " +
          "refresh and destroy each read it when the provider starts), or name the variable that holds the key",
      },
    ]);
  });

  it("does not fall back to NEON_API_KEY when the named variable is unset", () => {
    expect(
      failures({ apiKeyEnv: "STAGING_NEON_KEY" }, { NEON_API_KEY: OTHER }).map((f) => f.property),
    ).toEqual(["apiKeyEnv"]);
  });

  it("does not judge a name not known yet, nor ask for a key meanwhile", () => {
    expect(failures({ apiKeyEnv: UNKNOWN }, {})).toEqual([]);
  });
});

describe("the key is read when the client is made", () => {
  it("from the named variable, as it is then (not as it was at configure)", () => {
    const env: NodeJS.ProcessEnv = { STAGING_NEON_KEY: KEY, NEON_API_KEY: OTHER };
    expect(apiKeyOf({ apiKeyEnv: "STAGING_NEON_KEY" }, "neon", env)).toBe(KEY);
    env.STAGING_NEON_KEY = "changed";
    expect(apiKeyOf({ apiKeyEnv: "STAGING_NEON_KEY" }, "neon", env)).toBe("changed");
    expect(apiKeyOf({ apiKey: "given" }, "neon", env)).toBe("given");
    expect(apiKeyOf({}, "neon", env)).toBe(OTHER);
  });

  it("a variable gone by then is an error naming it, not NEON_API_KEY's account", () => {
    const rt = new Runtime({ settings: { apiKeyEnv: "STAGING_NEON_KEY" }, env: { NEON_API_KEY: OTHER } });
    expect(() => rt.client()).toThrow(
      /^Failed to configure the Neon provider: neon:apiKeyEnv names the environment variable STAGING_NEON_KEY, which is not set or is empty\./,
    );
  });
});

describe("both faces", () => {
  it("the dynamic face's configure refuses an unset variable at preview", () => {
    const values: Record<string, string> = { "neon:apiKeyEnv": "STAGING_NEON_KEY" };
    const req = { config: { rawConfig: values, get: (k: string) => values[k] } };
    expect(() => runtimeFromConfig(req as never, { env: {} })).toThrow(
      /^Failed to configure the Neon provider: neon:apiKeyEnv names the environment variable STAGING_NEON_KEY, which is not set/,
    );
    expect(runtimeFromConfig(req as never, { env: { STAGING_NEON_KEY: KEY } }).settings).toEqual({
      apiKeyEnv: "STAGING_NEON_KEY",
    });
  });

  it("the plugin's CheckConfig and Configure read the same setting", () => {
    expect(checkConfig({ apiKeyEnv: "STAGING_NEON_KEY" }, { STAGING_NEON_KEY: KEY })).toEqual([]);
    expect(
      checkConfig({ apiKeyEnv: "STAGING_NEON_KEY", apiKey: KEY }, { STAGING_NEON_KEY: KEY }),
    ).toHaveLength(1);
    expect(settingsFrom({ apiKeyEnv: "STAGING_NEON_KEY" }, {}, { STAGING_NEON_KEY: KEY })).toEqual({
      apiKeyEnv: "STAGING_NEON_KEY",
    });
    // The default provider's stack config (`neoncompute:apiKeyEnv`) too.
    expect(settingsFrom(undefined, { "neoncompute:config:apiKeyEnv": "K" }, { K: KEY })).toEqual({
      apiKeyEnv: "K",
    });
  });
});
