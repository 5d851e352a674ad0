import { diffApiKey, propertyChanged } from "../../../provider/resources/apikey/diff";
import { UNKNOWN } from "../../../provider/resources/apikey/inputs";

// Old outputs as create returns them: the inputs plus what the API reported.
const olds = {
  name: "ci",
  projectId: "p-1",
  orgId: "org-a-1",
  keyId: 7,
  token: "t".repeat(64),
  createdAt: "2025-01-01T00:00:00Z",
  createdBy: "u-1",
  __provider: "shim",
};

describe("ApiKey diff", () => {
  it("sees no change when the inputs are the same, even with a new provider", () => {
    const d = diffApiKey(olds, { name: "ci", projectId: "p-1", __provider: "other" });
    expect(d).toMatchObject({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(d.stables).toContain("token");
  });

  it.each([
    ["name", { name: "ci-2", projectId: "p-1" }],
    ["projectId", { name: "ci", projectId: "p-2" }],
    ["orgId", { name: "ci", projectId: "p-1", orgId: "org-b-2" }],
    ["rotationTrigger", { name: "ci", projectId: "p-1", rotationTrigger: "2025-q2" }],
  ])("replaces on a change of %s, creating the new key before revoking the old one", (prop, news) => {
    const d = diffApiKey(olds, news);
    expect(d).toEqual({ changes: true, replaces: [prop], stables: [], deleteBeforeReplace: false });
  });

  it("does not compare an orgId the provider found from projectId", () => {
    expect(propertyChanged("orgId", olds, { name: "ci", projectId: "p-1" })).toBe(false);
    // Without projectId, leaving orgId out asks for a personal key: a different key.
    expect(propertyChanged("orgId", olds, { name: "ci" })).toBe(true);
  });

  it("does not rotate when rotationTrigger is removed, and rotates on every new value", () => {
    const rotated = { ...olds, rotationTrigger: "a" };
    expect(propertyChanged("rotationTrigger", rotated, { name: "ci", projectId: "p-1" })).toBe(false);
    expect(
      propertyChanged("rotationTrigger", rotated, { name: "ci", projectId: "p-1", rotationTrigger: "b" }),
    ).toBe(true);
  });

  it("treats a value unknown during preview as a change", () => {
    expect(diffApiKey(olds, { name: UNKNOWN, projectId: "p-1" }).replaces).toEqual(["name"]);
  });

  it("ignores importId, which only matters at create", () => {
    expect(diffApiKey(olds, { name: "ci", projectId: "p-1", importId: "org-a-1/7" }).changes).toBe(false);
  });
});
