/**
 * `Branch` at check. The nested compute's failures are reported against `compute` (the engine prints
 * only a top-level input's value) with "did you mean" for a close spelling. `expiresAt` (issue 25): judged ("in the future", "at most 30 days ahead") only when
 * it is new or changed, so that a stack whose expiry passed still previews; any RFC 3339 spelling of
 * one instant becomes the service's UTC form. The clock is injected.
 */
import { checkInputs, normalizedTime, UNKNOWN as U } from "../../../provider/resources/branch/inputs";
import { diffBranch } from "../../../provider/resources/branch/mapping";

const NOW = Date.parse("2026-11-25T12:00:00Z");
const base = { projectId: "shiny-wind-123456" };

describe("expiresAt", () => {
  it("is normalised to UTC in the service's form, an offset included", () => {
    expect(normalizedTime("2026-12-01T00:00:00+01:00")).toBe("2026-11-30T23:00:00Z");
    expect(normalizedTime("2026-12-01T00:00:00.000Z")).toBe("2026-12-01T00:00:00Z");
    expect(normalizedTime("2026-12-01T00:00:00.250Z")).toBe("2026-12-01T00:00:00.250Z");
    const r = checkInputs({ ...base, expiresAt: "2026-12-01T00:00:00+01:00" }, NOW);
    expect(r.failures).toEqual([]);
    expect(r.inputs.expiresAt).toBe("2026-11-30T23:00:00Z");
  });

  it("a past or too distant expiry is refused when it is new or changed", () => {
    const past = checkInputs({ ...base, expiresAt: "2026-11-20T00:00:00Z" }, NOW);
    expect(past.failures).toEqual([
      expect.objectContaining({ property: "expiresAt", reason: expect.stringMatching(/not in the future/) }),
    ]);
    const far = checkInputs({ ...base, expiresAt: "2027-01-20T00:00:00Z" }, NOW, {
      ...base,
      expiresAt: "2026-12-01T00:00:00Z",
    });
    expect(far.failures).toEqual([
      expect.objectContaining({
        property: "expiresAt",
        reason: expect.stringMatching(/more than 30 days ahead/),
      }),
    ]);
  });

  it("an expiry that passed since it was set is not judged again, however it is spelt", () => {
    const olds = { ...base, expiresAt: "2026-11-20T00:00:00.000Z" };
    const r = checkInputs({ ...base, expiresAt: "2026-11-20T01:00:00+01:00" }, NOW, olds);
    expect(r.failures).toEqual([]);
    expect(r.inputs.expiresAt).toBe("2026-11-20T00:00:00Z");
  });
});

describe("compute", () => {
  it("a misspelt setting is reported against compute, naming the setting and the close spelling", () => {
    const r = checkInputs({ ...base, compute: { maxCU: 2 } }, NOW);
    expect(r.failures).toEqual([
      {
        property: "compute",
        reason: expect.stringMatching(
          /^compute\.maxCU is not a setting of .*; did you mean compute\.maxCu\?/,
        ),
      },
    ]);
    const far = checkInputs({ ...base, compute: { sizeOfIt: 2 } }, NOW);
    expect(far.failures[0].reason).not.toMatch(/did you mean/);
  });
});

describe("initSource in a state written before it was recorded", () => {
  const olds = { projectId: "p", name: "pr-1", currentState: "ready" };
  it("declaring it replaces nothing until the branch's own is read; once recorded, a change replaces", () => {
    expect(diffBranch(olds, { projectId: "p", name: "pr-1", initSource: "schema-only" }).replaces).toEqual(
      [],
    );
    expect(
      diffBranch(
        { ...olds, initSource: "parent-data" },
        { projectId: "p", name: "pr-1", initSource: "schema-only" },
      ).replaces,
    ).toEqual(["initSource"]);
  });
});

describe("masking rules made of outputs of other resources (unknown at preview)", () => {
  const rule = {
    databaseName: "app",
    schemaName: "public",
    tableName: "users",
    columnName: "email",
    maskingFunction: "anon.fake_email()",
  };

  it("pass the preview, a whole rule or one field unknown; judged at up", () => {
    const r = checkInputs(
      { ...base, parentId: "br-main-1", maskingRules: [U, { ...rule, databaseName: U }] },
      NOW,
    );
    expect(r.failures).toEqual([]);
    expect(r.inputs.maskingRules).toEqual([U, { ...rule, databaseName: U }]);
  });

  it("a known rule's problem beside them is still refused", () => {
    const r = checkInputs({ ...base, maskingRules: [U, { ...rule, tableName: "" }] }, NOW);
    expect(r.failures).toEqual([expect.objectContaining({ property: "maskingRules.1.tableName" })]);
  });
});
