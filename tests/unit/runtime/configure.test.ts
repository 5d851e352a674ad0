import { reportedOnce, runtimeFromConfig } from "../../../provider/dynamic/host";
import { retryLine } from "../../../provider/resources/engine-log";
import { Runtime } from "../../../provider/resources/runtime";
import { closest } from "../../../provider/resources/settings";

/** The dynamic face's configure: makes the runtime, or throws what is wrong. */
const configure = async (r: ReturnType<typeof req>): Promise<void> => {
  runtimeFromConfig(r as never);
};

/** A ConfigureRequest as the dynamic provider host builds it: `get` plus the raw `namespace:key` map. */
function req(values: Record<string, string>) {
  return { config: { rawConfig: values, get: (k: string) => values[k], require: (k: string) => values[k] } };
}

const saved = { ...process.env };
beforeEach(() => {
  delete process.env.NEON_API_KEY;
  delete process.env.NEON_OPERATION_TIMEOUT_SECONDS;
  delete process.env.NEON_REQUEST_TIMEOUT_SECONDS;
});
afterAll(() => {
  process.env = saved;
});

describe("configure reports configuration mistakes at preview", () => {
  it("a missing API key, saying what works for refresh and destroy", async () => {
    await expect(configure(req({}))).rejects.toThrow(
      /no API key is set[\s\S]*neon:apiKey[\s\S]*NEON_API_KEY[\s\S]*--run-program/,
    );
  });

  it("accepts the key from the environment when the configuration has none", async () => {
    process.env.NEON_API_KEY = "k".repeat(64);
    await expect(configure(req({}))).resolves.toBeUndefined();
  });

  it.each([
    ["neon:apikey", "apiKey"],
    ["neon:apiURL", "apiUrl"],
    ["neon:operationTimeout", "operationTimeoutSeconds"],
    ["neon:requestTimeoutSecs", "requestTimeoutSeconds"],
  ])("an unknown key %p, naming the closest known one", async (key, suggestion) => {
    await expect(configure(req({ "neon:apiKey": "x".repeat(64), [key]: "1" }))).rejects.toThrow(
      new RegExp(`${key} is not a setting of the Neon provider; did you mean neon:${suggestion}\\?`),
    );
  });

  it("ignores other namespaces", async () => {
    await expect(
      configure(req({ "neon:apiKey": "x".repeat(64), "aws:region": "x", "myproj:size": "2" })),
    ).resolves.toBeUndefined();
  });

  it.each(["0", "-5", "soon"])("a request timeout of %p", async (value) => {
    await expect(
      configure(req({ "neon:apiKey": "x".repeat(64), "neon:requestTimeoutSeconds": value })),
    ).rejects.toThrow(/neon:requestTimeoutSeconds is ".*"; set it to a number of seconds greater than 0/);
  });

  it("reads the request timeout from the environment too", async () => {
    process.env.NEON_REQUEST_TIMEOUT_SECONDS = "nope";
    await expect(configure(req({ "neon:apiKey": "x".repeat(64) }))).rejects.toThrow(
      /the environment variable NEON_REQUEST_TIMEOUT_SECONDS \(read because neon:requestTimeoutSeconds is not set\) is "nope"/,
    );
  });
});

describe("a lookup without an API key", () => {
  it("says how to set one, without the provider's refresh/destroy advice", () => {
    const { lookupClient } =
      require("../../../provider/lookups/client") as typeof import("../../../provider/lookups/client");
    expect(() => lookupClient()).toThrow(
      /^Failed to run a Neon lookup: no API key is set\. Set it with .*neon:apiKey.*NEON_API_KEY/,
    );
    expect(() => lookupClient()).not.toThrow(/--run-program|Provider resource/);
  });
});

describe("closest", () => {
  it("finds the nearest name regardless of case", () => {
    expect(closest("APIKEY", ["apiKey", "apiUrl"])).toBe("apiKey");
    expect(closest("apiurl", ["apiKey", "apiUrl"])).toBe("apiUrl");
    // Only a close spelling is suggested (issue 25): not \`password\` → \`adopt\`, nor \`owner\` → \`name\`.
    expect(closest("password", ["adopt", "name", "noLogin"])).toBeUndefined();
    expect(closest("owner", ["name", "adopt"])).toBeUndefined();
    expect(closest("owner", ["name", "ownerName"])).toBe("ownerName");
    expect(closest("maxCU", ["cu", "minCu", "maxCu"])).toBe("maxCu");
  });
});

describe("retry progress lines", () => {
  const base = {
    method: "GET",
    path: "/projects/p/endpoints",
    route: "GET /projects/{project_id}/endpoints",
  };

  it("say when no answer came, how long was waited, and which attempt follows", () => {
    expect(
      retryLine({
        ...base,
        attempt: 1,
        reason: "network",
        delayMs: 400,
        timedOut: true,
        timeoutMs: 30_000,
        maxAttempts: 6,
      }),
    ).toBe("no answer from GET /projects/{project_id}/endpoints in 30 s; retrying 2/6 in 0.4 s");
  });

  it("name the status of a refused request, and say nothing for the project queue (423)", () => {
    expect(
      retryLine({ ...base, attempt: 2, reason: "unavailable", delayMs: 1000, status: 503, maxAttempts: 8 }),
    ).toBe("GET /projects/{project_id}/endpoints answered HTTP 503; retrying 3/8 in 1.0 s");
    expect(retryLine({ ...base, attempt: 1, reason: "locked", delayMs: 75, status: 423 })).toBeUndefined();
  });

  it("say a long wait for the project's lock once past 5 s, as a try or as a look again", () => {
    const lock = {
      ...base,
      attempt: 1,
      reason: "locked" as const,
      holder: "project p is running create_branch",
    };
    expect(retryLine({ ...lock, delayMs: 3_000, waitedMs: 0, status: 423 })).toBeUndefined();
    expect(retryLine({ ...lock, delayMs: 3_000, waitedMs: 3_000, status: 423 })).toBe(
      "project p is running create_branch; GET /projects/{project_id}/endpoints waits for it (one operation at a time) and is tried again in 3.0 s",
    );
    expect(retryLine({ ...lock, delayMs: 3_000, waitedMs: 3_000, look: true })).toBe(
      "project p is running create_branch; GET /projects/{project_id}/endpoints waits for it (one operation at a time) and looks again in 3.0 s",
    );
    expect(retryLine({ ...lock, delayMs: 3_000, waitedMs: 6_000, look: true })).toBeUndefined();
  });
});

describe("a resource's own operation timeout", () => {
  it("bounds the waits of the step it wraps, and only those", async () => {
    const rt = new Runtime({ settings: { operationTimeoutSeconds: 100 } });
    expect(rt.deadlineMs()).toBe(100_000);
    const inside = await rt.withOperationTimeout(7, async () => {
      await Promise.resolve();
      return rt.deadlineMs();
    });
    expect(inside).toBe(7_000);
    expect(rt.deadlineMs()).toBe(100_000);
    expect(await rt.withOperationTimeout(undefined, async () => rt.deadlineMs())).toBe(100_000);
    // Another instance's deadline is its own.
    expect(new Runtime({ settings: { operationTimeoutSeconds: 5 } }).deadlineMs()).toBe(5_000);
  });
});

describe("expected errors of read and delete are reported once", () => {
  it("drops the host's stderr echo of an expected error, and keeps everything else", async () => {
    const printed: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => printed.push(args);
    try {
      const expected = new Error("Failed to read compute ep-1: gone");
      await expect(reportedOnce(() => Promise.reject(expected))).rejects.toBe(expected);
      const bug = new TypeError("x is undefined");
      await expect(reportedOnce(() => Promise.reject(bug))).rejects.toBe(bug);
      // What the dynamic provider host prints for each, as it does in its read/delete handlers.
      console.error(`${String(expected)}: ${expected.stack}`);
      console.error(`${String(bug)}: ${bug.stack}`);
      console.error("unrelated");
    } finally {
      console.error = original;
    }
    expect(printed.map((a) => String(a[0]).split("\n")[0])).toEqual([
      `TypeError: x is undefined: TypeError: x is undefined`,
      "unrelated",
    ]);
  });
});
