/**
 * `omitDeprecatedFields`: every field the OpenAPI document marks deprecated is left out of responses,
 * which still conform to the document once deprecated fields are optional.
 */
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { DEPRECATED_FIELDS } from "../../emulator/deprecated";
import { parseArgs } from "../../emulator/cli";
import { Client, EP, EP1 } from "./client";
import { deprecatedProperties } from "./openapi";

let plain: EmulatorHandle;
let omitting: EmulatorHandle;

beforeAll(async () => {
  // Frozen clocks: only `advance` ends an operation, so `samples` does not depend on how long a request takes.
  // The deprecated fields are left out by default; `false` brings them back.
  plain = await startEmulator({ seed: 61, opMs: 10, frozenClock: true, omitDeprecatedFields: false });
  omitting = await startEmulator({ seed: 61, opMs: 10, omitDeprecatedFields: true, frozenClock: true });
});
afterAll(async () => {
  await plain.stop();
  await omitting.stop();
});

/** One response object per schema that has deprecated properties, read from an emulator. */
async function samples(c: Client): Promise<Record<string, Record<string, unknown>>> {
  const s = c.emu.seed;
  const p = { project_id: s.projectId };
  const created = await c.post(EP, {
    params: p,
    body: { endpoint: { branch_id: s.branchIds[1], type: "read_write" } },
  });
  // The compute's start_compute over, or the branch create would be refused with 423 (the project's lock).
  c.emu.clock.advance(1000);
  const branch = await c.post("/projects/{project_id}/branches", {
    params: p,
    body: { branch: { name: `b-${Date.now()}` } },
  });
  const project = await c.post("/projects", { body: { project: { name: `p-${Date.now()}` } } });
  expect([created.status, branch.status, project.status]).toEqual([201, 201, 201]);
  c.emu.clock.advance(1000);
  return {
    "Project (create)": project.body.project,
    "Endpoint (project create)": project.body.endpoints[0],
    "Branch (project create)": project.body.branch,
    Endpoint: (await c.get(EP1, { params: { ...p, endpoint_id: s.primaryEndpointId } })).body.endpoint,
    "Endpoint (list)": (await c.get(EP, { params: p })).body.endpoints[0],
    "Endpoint (create)": created.body.endpoint,
    Project: (await c.get("/projects/{project_id}", { params: p })).body.project,
    ProjectListItem: (await c.get("/projects")).body.projects[0],
    Branch: (
      await c.get("/projects/{project_id}/branches/{branch_id}", {
        params: { ...p, branch_id: s.defaultBranchId },
      })
    ).body.branch,
    "Branch (list)": (await c.get("/projects/{project_id}/branches", { params: p })).body.branches[0],
    "Branch (create)": branch.body.branch,
  };
}

const schemaOf = (name: string) => name.split(" ")[0];

describe("deprecated response fields", () => {
  it("the emulator's list is exactly the deprecated fields it emits, per the OpenAPI document", async () => {
    const got = await samples(new Client(plain, plain.apiKey, false));
    const byKey: Record<string, string> = {
      Endpoint: "endpoint",
      Project: "project",
      ProjectListItem: "projects",
      Branch: "branch",
    };
    for (const [name, obj] of Object.entries(got)) {
      const schema = schemaOf(name);
      const emitted = deprecatedProperties(schema)
        .filter((f) => f in obj)
        .sort();
      expect([name, emitted]).toEqual([name, [...DEPRECATED_FIELDS[byKey[schema]]].sort()]);
    }
    expect(deprecatedProperties("Endpoint")).toEqual(
      expect.arrayContaining(["pooler_enabled", "pooler_mode", "proxy_host"]),
    );
  });

  it("are all left out with omitDeprecatedFields, and the answers still conform with them optional", async () => {
    const c = new Client(omitting, omitting.apiKey, true);
    const got = await samples(c);
    for (const [name, obj] of Object.entries(got)) {
      expect([name, deprecatedProperties(schemaOf(name)).filter((f) => f in obj)]).toEqual([name, []]);
    }
    // The stored records keep them: the plain emulator still sends them (and strictly conforms).
    const full = (
      await new Client(plain, plain.apiKey, false).get(EP1, {
        params: { project_id: plain.seed.projectId, endpoint_id: plain.seed.primaryEndpointId },
      })
    ).body.endpoint;
    expect(full).toMatchObject({
      pooler_enabled: false,
      pooler_mode: "transaction",
      proxy_host: expect.any(String),
    });
  });

  it("the CLI flags --with-deprecated-fields and --rate-limit set the options", () => {
    expect(parseArgs(["--with-deprecated-fields", "--rate-limit"])).toMatchObject({
      omitDeprecatedFields: false,
      rateLimit: true,
    });
    expect(parseArgs(["--omit-deprecated-fields"])).toMatchObject({ omitDeprecatedFields: true });
    expect(parseArgs([])).toEqual({ port: 4010 });
  });
});
