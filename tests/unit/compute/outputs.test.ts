/**
 * Every output a resource stores is typed on its class and documented there (TSDoc), so what a
 * program can read matches what the state holds.
 */
import * as fs from "fs";
import * as path from "path";
import { COMPUTE_OUTPUT_KEYS } from "../../../provider/dynamic/resources";
import { toOutputs } from "../../../provider/resources/compute/mapping";
import { outputNames } from "../../../provider/resources/definition";
import { RESOURCES } from "../../../provider/registry";
import type { Endpoint } from "../../../provider/api";

const endpoint: Endpoint = {
  id: "ep-a-1",
  host: "ep-a-1.example",
  project_id: "p-1",
  branch_id: "br-a-1",
  type: "read_write",
  autoscaling_limit_min_cu: 1,
  autoscaling_limit_max_cu: 1,
  region_id: "aws-us-east-2",
  current_state: "active",
  pending_state: "idle",
  settings: { pg_settings: {} },
  pooler_enabled: false,
  pooler_mode: "transaction",
  disabled: false,
  passwordless_access: true,
  last_active: "2026-01-01T00:00:00Z",
  started_at: "2026-01-01T00:00:00Z",
  suspended_at: "2026-01-01T00:00:00Z",
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
  proxy_host: "example",
  suspend_timeout_seconds: 0,
  provisioner: "k8s-neonvm",
  creation_source: "api",
  name: "a",
  compute_release_version: "1",
} as unknown as Endpoint;

/** The members of the `<Name>Outputs` interface of a file, each with whether TSDoc precedes it. */
function declared(file: string, iface: string): Map<string, boolean> {
  const text = fs.readFileSync(path.join(__dirname, "../../../provider/resources", file), "utf8");
  const body = text.slice(
    text.indexOf(`export interface ${iface} {`),
    text.indexOf("\n}\n", text.indexOf(iface)),
  );
  const lines = body.split("\n");
  const out = new Map<string, boolean>();
  lines.forEach((line, i) => {
    const m = /^ {2}(\w+)\??:/.exec(line);
    if (m) out.set(m[1], lines[i - 1].trim().endsWith("*/"));
  });
  return out;
}

describe.each(
  RESOURCES.map((r) => [
    `${r.definition.name.toLowerCase()}/types.ts`,
    `${r.definition.name}Outputs`,
    outputNames(r.definition.properties),
  ]),
)("%s", (file, iface, seeded) => {
  const members = declared(file, iface);

  it("types every seeded output on the class (its Outputs interface), each with TSDoc", () => {
    for (const key of seeded) expect({ key, declared: members.has(key) }).toEqual({ key, declared: true });
    for (const [key, documented] of members) expect({ key, documented }).toEqual({ key, documented: true });
  });
});

test("every output Compute stores is seeded (so it appears on the class), or internal", () => {
  const outs = toOutputs({ projectId: "p-1", branchId: "br-a-1", cu: 1 }, endpoint);
  const inputsOnly = ["projectId", "branchId", "type", "cu"];
  const missing = Object.keys(outs).filter(
    (k) => !k.startsWith("__") && !COMPUTE_OUTPUT_KEYS.includes(k) && !inputsOnly.includes(k),
  );
  expect(missing).toEqual([]);
});
