import { route } from "../../../provider/http";

describe("route", () => {
  test("splits a template into method and path and keeps the template", () => {
    expect(route("GET /projects/{project_id}/endpoints", { project_id: "p-1" })).toEqual({
      template: "GET /projects/{project_id}/endpoints",
      method: "GET",
      path: "/projects/p-1/endpoints",
    });
  });

  test("encodes every parameter as one path segment", () => {
    const r = route("PATCH /projects/{project_id}/endpoints/{endpoint_id}", {
      project_id: "a/b c",
      endpoint_id: "x?y#z%",
    });
    expect(r.method).toBe("PATCH");
    expect(r.path).toBe("/projects/a%2Fb%20c/endpoints/x%3Fy%23z%25");
  });

  test("takes numbers, and no parameters for a template without placeholders", () => {
    expect(route("DELETE /api_keys/{key_id}", { key_id: 7 }).path).toBe("/api_keys/7");
    expect(route("GET /users/me")).toEqual({ template: "GET /users/me", method: "GET", path: "/users/me" });
  });

  test("fills a parameter used twice in both places", () => {
    expect(route("GET /a/{id}/b/{id}", { id: "x" }).path).toBe("/a/x/b/x");
  });

  test("refuses a missing parameter, an unknown one, and a malformed template", () => {
    // @ts-expect-error: endpoint_id is missing
    expect(() => route("GET /projects/{project_id}/endpoints/{endpoint_id}", { project_id: "p" })).toThrow(
      "Failed to build a request: GET /projects/{project_id}/endpoints/{endpoint_id} needs the parameter endpoint_id.",
    );
    // @ts-expect-error: the template has no projectId
    expect(() => route("GET /projects/{project_id}", { project_id: "p", projectId: "p" })).toThrow(
      "Failed to build a request: GET /projects/{project_id} has no parameter projectId.",
    );
    // @ts-expect-error: not a method
    expect(() => route("FETCH /projects")).toThrow(/"FETCH \/projects" is not a route template/);
    // @ts-expect-error: no leading slash
    expect(() => route("GET projects")).toThrow(/is not a route template/);
  });
});
