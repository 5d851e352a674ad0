/**
 * ProjectJwks's pure rules: the URL it takes, the add's body, the outputs of the service's answer and
 * why an importId cannot be taken.
 */
import type { Jwks } from "../../../provider/api";
import { jwksUrlProblem } from "../../../provider/resources/projectjwks/inputs";
import { addBody, toOutputs } from "../../../provider/resources/projectjwks/mapping";
import { importProblem, missingRoles } from "../../../provider/resources/projectjwks/rules";

const URL1 = "https://auth.example.com/.well-known/jwks.json";
const jwks = (over: Partial<Jwks> = {}): Jwks => ({
  id: "j-1",
  project_id: "p-1",
  jwks_url: URL1,
  provider_name: "Clerk",
  created_at: "2026-11-29T10:00:00Z",
  updated_at: "2026-11-29T10:00:00Z",
  role_names: ["authenticator", "authenticated", "anonymous"],
  ...over,
});

it("takes an https URL only, without credentials", () => {
  expect(jwksUrlProblem(URL1)).toBeUndefined();
  expect(jwksUrlProblem("http://auth.example.com/k")).toMatch(/https:\/\/ URL .* not http:/);
  expect(jwksUrlProblem("https://user:pw@auth.example.com/k")).toMatch(/user name or password/);
  expect(jwksUrlProblem("not a url")).toMatch(/must be a URL/);
});

it("asks the service not to create roles only when roles are declared", () => {
  const base = { projectId: "p-1", providerName: "Clerk", jwksUrl: URL1 };
  expect(addBody(base)).toEqual({ jwks_url: URL1, provider_name: "Clerk" });
  expect(addBody({ ...base, branchId: "br-1", roleNames: ["app"] })).toEqual({
    jwks_url: URL1,
    provider_name: "Clerk",
    branch_id: "br-1",
    role_names: ["app"],
    skip_role_creation: true,
  });
});

it("leaves the service's default roles and an empty audience out of the outputs", () => {
  const outs = toOutputs({ projectId: "p-1" }, "p-1", jwks({ jwt_audience: "" }));
  expect(outs.roleNames).toBeUndefined();
  expect(outs.jwtAudience).toBeUndefined();
  // The roles a JWKS made elsewhere applies to, as an import reads them.
  expect(toOutputs({}, "p-1", jwks({ role_names: ["app"] })).roleNames).toEqual(["app"]);
  // Declared ones as declared.
  expect(toOutputs({ roleNames: ["b", "a"] }, "p-1", jwks({ role_names: ["a", "b"] })).roleNames).toEqual([
    "b",
    "a",
  ]);
});

it("an importId must name a JWKS as the inputs declare it", () => {
  const i = { projectId: "p-1", providerName: "Clerk", jwksUrl: URL1 };
  expect(importProblem("p-1/j-1", i, jwks())).toBeUndefined();
  expect(importProblem("p-1/j-1", i, undefined)?.property).toBe("importId");
  expect(importProblem("p-1/j-1", { ...i, branchId: "br-1" }, jwks())).toMatchObject({
    property: "branchId",
    reason: expect.stringContaining("the JWKS's branchId is (every branch)"),
  });
  expect(importProblem("p-1/j-1", { ...i, jwtAudience: "app" }, jwks())?.property).toBe("jwtAudience");
  expect(
    importProblem("p-1/j-1", { ...i, roleNames: ["a", "b"] }, jwks({ role_names: ["b", "a"] })),
  ).toBeUndefined();
  expect(importProblem("p-1/j-1", { ...i, roleNames: ["a"] }, jwks())?.property).toBe("roleNames");
});

it("names the declared roles a branch lacks", () => {
  expect(missingRoles(["a", "b", "c"], ["b"])).toEqual(["a", "c"]);
  expect(missingRoles(undefined, [])).toEqual([]);
});
