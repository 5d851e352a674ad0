/** The conformance validator itself: it must refuse what the API schema refuses. */
import { conformanceErrors } from "./openapi";

const op = {
  id: "d8ac46eb-a757-42b1-9907-f78322ee394e",
  project_id: "spring-example-302709",
  action: "start_compute",
  status: "finished",
  failures_count: 0,
  created_at: "2022-11-15T20:02:00Z",
  updated_at: "2022-11-15T20:02:02Z",
  total_duration_ms: 200,
};
const GET_OP = ["GET", "/projects/{project_id}/operations/{operation_id}", 200] as const;

describe("OpenAPI conformance validator", () => {
  it("accepts a valid operation", () => {
    expect(conformanceErrors(...GET_OP, { operation: op })).toBeUndefined();
  });

  it("refuses a missing required field", () => {
    const { total_duration_ms: _t, ...rest } = op;
    expect(conformanceErrors(...GET_OP, { operation: rest })).toMatch(/total_duration_ms/);
  });

  it("refuses a wrong type, a bad enum value, a bad format and null where not nullable", () => {
    expect(conformanceErrors(...GET_OP, { operation: { ...op, failures_count: "0" } })).toMatch(/integer/);
    expect(conformanceErrors(...GET_OP, { operation: { ...op, status: "done" } })).toMatch(/allowed values/);
    expect(conformanceErrors(...GET_OP, { operation: { ...op, id: "not-a-uuid" } })).toMatch(/uuid/);
    expect(conformanceErrors(...GET_OP, { operation: { ...op, created_at: "yesterday" } })).toMatch(
      /date-time/,
    );
    expect(conformanceErrors(...GET_OP, { operation: { ...op, error: null } })).toMatch(/string/);
  });

  it("refuses a field the schema does not declare", () => {
    expect(conformanceErrors(...GET_OP, { operation: { ...op, colour: "red" } })).toMatch(
      /additional properties/,
    );
  });

  it("merges allOf: EndpointOperations needs both endpoint and operations, and nothing else", () => {
    const route = ["PATCH", "/projects/{project_id}/endpoints/{endpoint_id}", 200] as const;
    expect(conformanceErrors(...route, { operations: [op] })).toMatch(/endpoint/);
    const endpoint = {
      host: "ep-a-b-1.us-east-2.aws.neon.tech",
      id: "ep-a-b-1",
      project_id: "p-1",
      branch_id: "br-1",
      autoscaling_limit_min_cu: 0.25,
      autoscaling_limit_max_cu: 1,
      region_id: "aws-us-east-2",
      type: "read_write",
      current_state: "idle",
      settings: { pg_settings: {} },
      pooler_enabled: false,
      pooler_mode: "transaction",
      disabled: false,
      passwordless_access: true,
      creation_source: "api",
      created_at: op.created_at,
      updated_at: op.created_at,
      proxy_host: "us-east-2.aws.neon.tech",
      suspend_timeout_seconds: 0,
      provisioner: "k8s-neonvm",
    };
    expect(conformanceErrors(...route, { endpoint, operations: [op] })).toBeUndefined();
    expect(conformanceErrors(...route, { endpoint, operations: [op], extra: 1 })).toMatch(
      /additional properties/,
    );
    expect(
      conformanceErrors(...route, { endpoint: { ...endpoint, type: "read_replica" }, operations: [] }),
    ).toMatch(/allowed values/);
    expect(
      conformanceErrors(...route, {
        endpoint: { ...endpoint, autoscaling_limit_min_cu: 0.1 },
        operations: [],
      }),
    ).toMatch(/>= 0.25/);
  });

  it("RoleOperations takes a role with its password and authentication_method; RolePasswordResponse only a password", () => {
    const route = [
      "POST",
      "/projects/{project_id}/branches/{branch_id}/roles/{role_name}/reset_password",
      200,
    ] as const;
    const role = {
      branch_id: "br-1",
      name: "alice",
      protected: false,
      authentication_method: "password",
      password: "Onf1AjayKwe0",
      created_at: op.created_at,
      updated_at: op.created_at,
    };
    expect(conformanceErrors(...route, { role, operations: [op] })).toBeUndefined();
    expect(conformanceErrors(...route, { role: { ...role, no_login: true }, operations: [] })).toMatch(
      /additional properties/,
    );
    expect(conformanceErrors(...route, { role })).toMatch(/operations/);
    const reveal = [
      "GET",
      "/projects/{project_id}/branches/{branch_id}/roles/{role_name}/reveal_password",
    ] as const;
    expect(conformanceErrors(...reveal, 200, { password: "x" })).toBeUndefined();
    expect(conformanceErrors(...reveal, 200, { password: "x", role })).toMatch(/additional properties/);
    expect(conformanceErrors(...reveal, 412, { code: "PRECONDITION_FAILED", message: "m" })).toBeUndefined();
    const db = [
      "PATCH",
      "/projects/{project_id}/branches/{branch_id}/databases/{database_name}",
      200,
    ] as const;
    const database = {
      id: 1,
      branch_id: "br-1",
      name: "app",
      owner_name: "alice",
      created_at: op.created_at,
      updated_at: op.created_at,
    };
    expect(conformanceErrors(...db, { database, operations: [] })).toBeUndefined();
    expect(conformanceErrors(...db, { database: { ...database, id: "1" }, operations: [] })).toMatch(
      /integer/,
    );
  });

  it("handles nullable: last_used_at may be null, but not a number", () => {
    const route = ["GET", "/api_keys", 200] as const;
    const item = {
      id: 1,
      name: "k",
      created_at: "2022-11-15T20:02:00Z",
      created_by: { id: op.id, name: "A", image: "" },
      last_used_at: null,
      last_used_from_addr: "",
    };
    expect(conformanceErrors(...route, [item])).toBeUndefined();
    expect(conformanceErrors(...route, [{ ...item, last_used_at: 5 }])).toBeDefined();
    expect(conformanceErrors(...route, [{ ...item, created_by: op.id }])).toMatch(/object/);
  });

  it("validates error bodies against GeneralError", () => {
    expect(
      conformanceErrors("GET", "/projects", 500, { code: "X", message: "m", request_id: "r" }),
    ).toBeUndefined();
    expect(conformanceErrors("GET", "/projects", 500, { message: "m" })).toMatch(/code/);
  });
});
