/**
 * `Project` at check: Postgres 14–19 pass (the service judges 19 by region); the nested
 * `defaultCompute` is checked as `Branch.compute` is, and its failures are reported against
 * `defaultCompute` itself (the engine prints only a top-level input's value: a failure on
 * `defaultCompute.maxCU` printed `{<nil>}`).
 */
import { checkInputs } from "../../../provider/resources/project/inputs";

describe("defaultCompute", () => {
  it("a misspelt setting is reported against defaultCompute, naming the setting and the close spelling", () => {
    const r = checkInputs({ defaultCompute: { maxCU: 2 } });
    expect(r.failures).toEqual([
      {
        property: "defaultCompute",
        reason: expect.stringMatching(
          /^defaultCompute\.maxCU is not a setting of a project's default compute; did you mean defaultCompute\.maxCu\?/,
        ),
      },
    ]);
  });

  it("a size out of range names the nested setting", () => {
    const r = checkInputs({ defaultCompute: { minCu: 0.25, maxCu: 99 } });
    expect(r.failures.map((f) => f.property)).toEqual(["defaultCompute"]);
    expect(r.failures[0].reason).toMatch(/^defaultCompute\.maxCu/);
  });

  it("a fixed size becomes equal bounds", () => {
    const r = checkInputs({ defaultCompute: { cu: 1, suspendTimeoutSeconds: 300 } });
    expect(r.failures).toEqual([]);
    expect(r.inputs.defaultCompute).toEqual({ minCu: 1, maxCu: 1, suspendTimeoutSeconds: 300 });
  });
});

describe("pgVersion", () => {
  it("19 passes the preview: the service decides where it is enabled", () => {
    expect(checkInputs({ pgVersion: 19 }).failures).toEqual([]);
    expect(checkInputs({ pgVersion: 14 }).failures).toEqual([]);
  });

  it.each([13, 20])("%s is refused naming the versions the service offers", (v) => {
    const r = checkInputs({ pgVersion: v });
    expect(r.failures.map((f) => f.property)).toEqual(["pgVersion"]);
    expect(r.failures[0].reason).toMatch(/14, 15, 16, 17, 18 or 19/);
  });

  it("17.5 is refused as not a whole number", () => {
    expect(checkInputs({ pgVersion: 17.5 }).failures).toEqual([
      { property: "pgVersion", reason: "pgVersion must be a whole number" },
    ]);
  });
});
