import { checkInputs, UNKNOWN } from "../../../provider/resources/apikey/inputs";

function failuresOf(news: Record<string, unknown>) {
  return checkInputs(news).failures;
}

describe("ApiKey check", () => {
  it("accepts each key type", () => {
    expect(failuresOf({ name: "ci" })).toEqual([]);
    expect(failuresOf({ name: "ci", orgId: "org-cool-breeze-12345678" })).toEqual([]);
    expect(failuresOf({ name: "ci", projectId: "shiny-wind-123456" })).toEqual([]);
    expect(failuresOf({ name: "ci", projectId: "shiny-wind-123456", rotationTrigger: "2025-q1" })).toEqual(
      [],
    );
  });

  it("requires a name of 1 to 64 characters", () => {
    expect(failuresOf({})).toEqual([{ property: "name", reason: expect.stringMatching(/name is required/) }]);
    expect(failuresOf({ name: "" })).toEqual([{ property: "name", reason: "name must not be empty" }]);
    expect(failuresOf({ name: "x".repeat(64) })).toEqual([]);
    expect(failuresOf({ name: "x".repeat(65) })).toEqual([
      { property: "name", reason: "name must be at most 64 characters" },
    ]);
  });

  it("names the property and the remedy for bad ids and unknown inputs", () => {
    expect(failuresOf({ name: "k", projectId: "Not A Project" })).toEqual([
      { property: "projectId", reason: expect.stringMatching(/projectId must be a project id/) },
    ]);
    expect(failuresOf({ name: "k", orgId: 7 })).toEqual([
      { property: "orgId", reason: "orgId must be a string" },
    ]);
    expect(failuresOf({ name: "k", token: "x" })).toEqual([
      {
        property: "token",
        reason: expect.stringMatching(/^token is not an input of ApiKey \(the inputs are name/),
      },
    ]);
    expect(failuresOf({ name: "k", rotationTrigger: 3 })).toEqual([
      { property: "rotationTrigger", reason: expect.stringMatching(/change it to rotate the key/) },
    ]);
  });

  it("never fails on values unknown during preview, and leaves them unknown", () => {
    const r = checkInputs({ name: UNKNOWN, projectId: UNKNOWN, orgId: UNKNOWN });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({ name: UNKNOWN, projectId: UNKNOWN, orgId: UNKNOWN });
  });

  it("ignores the properties the class adds", () => {
    expect(failuresOf({ name: "k", __provider: "shim", __urn: "urn:x" })).toEqual([]);
  });

  describe("importId", () => {
    it('accepts "<keyId>" and "<orgId>/<keyId>", filling orgId from the latter', () => {
      expect(checkInputs({ name: "k", importId: "42" })).toEqual({
        inputs: { name: "k", importId: "42" },
        failures: [],
      });
      const org = checkInputs({ name: "k", importId: "org-a-1/42", projectId: "p-1" });
      expect(org.failures).toEqual([]);
      expect(org.inputs.orgId).toBe("org-a-1");
    });

    it("rejects malformed ids and contradictions with orgId/projectId", () => {
      expect(failuresOf({ name: "k", importId: "org-a-1/abc" })).toEqual([
        { property: "importId", reason: expect.stringMatching(/"<orgId>\/<keyId>" for an organization/) },
      ]);
      expect(failuresOf({ name: "k", importId: "org-a-1/4", orgId: "org-b-2" })).toEqual([
        {
          property: "importId",
          reason: "importId names organization org-a-1 but orgId is org-b-2; make them the same",
        },
      ]);
      expect(failuresOf({ name: "k", importId: "4", projectId: "p-1" })).toEqual([
        {
          property: "importId",
          reason: expect.stringMatching(/names a personal key.*remove orgId and projectId/),
        },
      ]);
    });
  });
});
