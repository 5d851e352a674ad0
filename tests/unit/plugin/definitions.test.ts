/**
 * One source of truth: the definitions (provider/resources/*\/definition.ts, provider/lookups/
 * definitions.ts) against what the code does — the key lists, the diff's property lists, the
 * outputs the mapping produces — and against what is generated from them: the plugin schema,
 * docs/api and each resource's `types.ts` with its TSDoc (which must be up to date).
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { APIKEY_DEFINITION } from "../../../provider/resources/apikey/definition";
import { toOutputs as apiKeyOutputs } from "../../../provider/resources/apikey/mapping";
import { COMPUTE_DEFINITION } from "../../../provider/resources/compute/definition";
import {
  COMPUTE_INPUT_KEYS,
  REPLACE_PROPERTIES,
  UPDATE_PROPERTIES,
} from "../../../provider/resources/compute/diff";
import { toOutputs as computeOutputs } from "../../../provider/resources/compute/mapping";
import { inputNames, type PropertyDef, type ResourceDef } from "../../../provider/resources/definition";
import {
  BRANCH_INFO_TYPE,
  COMPUTE_INFO_TYPE,
  LOOKUPS,
  OPERATION_TYPE,
  PROJECT_TYPE,
} from "../../../provider/lookups/definitions";
import { branchInfo, computeInfo, operationInfo, projectInfo } from "../../../provider/lookups/types";
import { schemaObject } from "../../../provider/plugin/schema";
import { RESOURCES } from "../../../provider/registry";
import { apiDocs } from "../../../scripts/lib/api-docs";
import { registryDocs } from "../../../scripts/lib/registry-docs";
import { PROGRAM_ENVIRONMENT, SETTINGS } from "../../../provider/resources/settings";
import { faceClasses, lookupTypes, resourceTypes } from "../../../scripts/lib/resource-types";
import { formatted } from "../../../scripts/lib/formatted";

const names = (props: readonly PropertyDef[], keep: (p: PropertyDef) => boolean) =>
  props.filter(keep).map((p) => p.name);
const repo = path.resolve(__dirname, "../../..");

// A full endpoint as the API returns it (every optional field set), for the mapping's outputs.
const endpoint = {
  id: "ep-a-1",
  project_id: "p-1",
  branch_id: "br-a-1",
  type: "read_write",
  host: "ep-a-1.example",
  proxy_host: "example",
  region_id: "aws-us-east-2",
  current_state: "active",
  pending_state: "idle",
  autoscaling_limit_min_cu: 1,
  autoscaling_limit_max_cu: 1,
  suspend_timeout_seconds: 300,
  settings: { pg_settings: { a: "1" } },
  pooler_enabled: false,
  pooler_mode: "transaction",
  disabled: false,
  name: "n",
  provisioner: "k8s-neonvm",
  creation_source: "api",
  created_at: "t",
  updated_at: "t",
  last_active: "t",
  started_at: "t",
  suspended_at: "t",
  compute_release_version: "1",
} as never;

describe("Compute's definition", () => {
  const props: readonly PropertyDef[] = COMPUTE_DEFINITION.properties;

  // diff's lists are derived from the definition: these pin what the definition says.
  it("replaces on exactly projectId, type and regionId; compares cu through minCu/maxCu", () => {
    expect([...REPLACE_PROPERTIES]).toEqual(["projectId", "type", "regionId"]);
    // `cu` is compared through minCu/maxCu; the order is the order diffs list changes in.
    expect([...UPDATE_PROPERTIES]).toEqual([
      "branchId",
      "minCu",
      "maxCu",
      "suspendTimeoutSeconds",
      "pgSettings",
      "disabled",
      "name",
      "provisioner",
      "restartTrigger",
    ]);
    // Read at create only, or shaping only the provider: never an update.
    for (const k of ["importId", "adoptExistingPrimary", "operationTimeoutSeconds"]) {
      expect(UPDATE_PROPERTIES).not.toContain(k);
      expect(COMPUTE_INPUT_KEYS).toContain(k);
    }
  });

  it("declares every output the mapping produces", () => {
    const outs = Object.keys(computeOutputs({ adopted: true, restartTrigger: "1", importId: "x" }, endpoint));
    // `__…` keys are the provider's own bookkeeping (e.g. which inputs the program gave), not outputs.
    expect(outs.filter((k) => !k.startsWith("__") && !props.some((p) => p.name === k && p.output))).toEqual(
      [],
    );
  });
});

describe("ApiKey's definition", () => {
  const props: readonly PropertyDef[] = APIKEY_DEFINITION.properties;

  it("replaces on every input but importId, and keeps the token secret", () => {
    expect(names(props, (p) => p.change === "replace")).toEqual([
      "name",
      "orgId",
      "projectId",
      "rotationTrigger",
    ]);
    expect(names(props, (p) => Boolean(p.secret))).toEqual(["token"]);
  });

  it("declares every output the mapping produces", () => {
    const key = {
      id: 1,
      name: "n",
      created_at: "t",
      created_by: "u",
      last_used_at: "t",
      last_used_from_addr: "a",
      project_id: "p",
    };
    const outs = Object.keys(apiKeyOutputs({ rotationTrigger: "1", importId: "1" }, key, "org", "tok"));
    // `__…` keys are the provider's own bookkeeping (e.g. which inputs the program gave), not outputs.
    expect(outs.filter((k) => !k.startsWith("__") && !props.some((p) => p.name === k && p.output))).toEqual(
      [],
    );
  });
});

describe("the lookups' definitions", () => {
  it("declare every field the lookups return", () => {
    const project = projectInfo({
      id: "p",
      name: "n",
      region_id: "r",
      org_id: "o",
      pg_version: 17,
      platform_id: "aws",
      provisioner: "k",
      proxy_host: "h",
      created_at: "t",
      updated_at: "t",
    } as never);
    const operation = operationInfo({
      id: "o",
      project_id: "p",
      branch_id: "b",
      endpoint_id: "e",
      action: "a",
      status: "s",
      failures_count: 0,
      error: "x",
      created_at: "t",
      updated_at: "t",
      total_duration_ms: 1,
    } as never);
    for (const [value, type] of [
      [project, PROJECT_TYPE],
      [operation, OPERATION_TYPE],
      [computeInfo(endpoint), COMPUTE_INFO_TYPE],
      [
        branchInfo(
          {
            id: "br-a-1",
            project_id: "p",
            name: "n",
            parent_id: "br-p-1",
            current_state: "ready",
            default: false,
            protected: false,
            expires_at: "t",
            created_at: "t",
          } as never,
          { "pulumi-project": "a", "pulumi-stack": "s" },
        ),
        BRANCH_INFO_TYPE,
      ],
    ] as const) {
      expect(Object.keys(value).sort()).toEqual(type.properties.map((p) => p.name).sort());
    }
  });

  it("name the lookups the package exports", async () => {
    const lookups = (await import("../../../provider/lookups")) as Record<string, unknown>;
    for (const l of LOOKUPS) expect(typeof lookups[l.name]).toBe("function");
  });
});

/** The TSDoc of each member of an interface or class in a source file, whitespace collapsed. */
function tsdoc(file: string, container: string): Record<string, string> {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(path.join(repo, file), "utf8"),
    ts.ScriptTarget.ES2022,
    true,
  );
  const out: Record<string, string> = {};
  source.forEachChild((node) => {
    if ((ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) && node.name?.text === container) {
      for (const member of node.members) {
        const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
        const name = member.name && ts.isIdentifier(member.name) ? member.name.text : undefined;
        if (name && docs.length > 0) {
          out[name] = docs
            .map((d) => ts.getTextOfJSDocComment(d.comment) ?? "")
            .join(" ")
            .replace(/\s+/g, " ")
            .trim();
        }
      }
    }
  });
  return out;
}

describe.each(
  RESOURCES.map(
    (r) => [`provider/resources/${r.definition.name.toLowerCase()}/types.ts`, r.definition] as const,
  ),
)("the TypeScript types' TSDoc in %s", (file, def: ResourceDef) => {
  const described = (name: string) => def.properties.find((p) => p.name === name)!.description;
  const docText = (name: string) => described(name).replace(/\s+/g, " ").trim();

  it("documents each input exactly as the definition does, in the args and the checked inputs", () => {
    for (const container of [`${def.name}Args`, `${def.name}Inputs`]) {
      const docs = tsdoc(file, container);
      expect(Object.keys(docs).sort()).toEqual(inputNames(def.properties).sort());
      for (const [name, text] of Object.entries(docs)) expect([name, text]).toEqual([name, docText(name)]);
    }
  });

  it("documents each output exactly as the definition does", () => {
    const docs = tsdoc(file, `${def.name}Outputs`);
    expect(Object.keys(docs).sort()).toEqual(
      def.properties
        .filter((p) => p.output)
        .map((p) => p.name)
        .sort(),
    );
    for (const [name, text] of Object.entries(docs)) expect([name, text]).toEqual([name, docText(name)]);
  });
});

describe("the generated types files", () => {
  const generated = { ...resourceTypes(), ...lookupTypes(), ...faceClasses() };
  it.each(Object.keys(generated))(
    "%s is generated from the current definitions (run `npm run types:gen`)",
    (file) => {
      const onDisk = fs.readFileSync(path.join(repo, file), "utf8");
      expect(onDisk).toBe(formatted(generated[file], file));
    },
  );

  it("the lookups' argument and result types are generated, not written by hand", () => {
    expect(Object.keys(lookupTypes())).toEqual(["provider/lookups/shapes.ts"]);
    const shapes = lookupTypes()["provider/lookups/shapes.ts"];
    for (const l of LOOKUPS)
      expect(shapes).toContain(`export interface ${l.name[0].toUpperCase()}${l.name.slice(1)}Args {`);
    for (const file of ["provider/lookups/index.ts", "provider/lookups/types.ts"]) {
      expect([file, fs.readFileSync(path.join(repo, file), "utf8").match(/export interface \w+/g)]).toEqual([
        file,
        null,
      ]);
    }
  });
});

describe("the plugin schema", () => {
  const schema = schemaObject("1.2.3") as {
    name: string;
    resources: Record<
      string,
      {
        inputProperties: Record<
          string,
          { default?: unknown; secret?: boolean; willReplaceOnChanges?: boolean }
        >;
        properties: Record<string, { secret?: boolean }>;
        requiredInputs: string[];
        aliases: { type: string }[];
      }
    >;
    functions: Record<string, unknown>;
    config: { variables: Record<string, { secret?: boolean }> };
  };

  it("has the package's tokens for every resource and lookup", () => {
    expect(schema.name).toBe("neoncompute");
    expect(Object.keys(schema.resources)).toEqual(
      RESOURCES.map((r) => `neoncompute:index:${r.definition.name}`),
    );
    expect(Object.keys(schema.resources)).toEqual([
      "neoncompute:index:Compute",
      "neoncompute:index:ApiKey",
      "neoncompute:index:Project",
      "neoncompute:index:Branch",
      "neoncompute:index:Role",
      "neoncompute:index:Database",
      "neoncompute:index:ProjectPermission",
      "neoncompute:index:Snapshot",
      "neoncompute:index:SnapshotSchedule",
      "neoncompute:index:VpcEndpoint",
      "neoncompute:index:ProjectVpcEndpoint",
      "neoncompute:index:SpendingLimit",
      "neoncompute:index:NeonAuth",
      "neoncompute:index:DataApi",
      "neoncompute:index:ProjectJwks",
    ]);
    expect(Object.keys(schema.functions)).toEqual(LOOKUPS.map((l) => `neoncompute:index:${l.name}`));
  });

  it("carries inputs, required inputs, defaults, replacements, secrets and aliases from the definitions", () => {
    const compute = schema.resources["neoncompute:index:Compute"];
    expect(Object.keys(compute.inputProperties)).toEqual([...COMPUTE_INPUT_KEYS]);
    expect(compute.requiredInputs).toEqual(["projectId", "branchId"]);
    expect(compute.inputProperties.type.default).toBe("read_write");
    expect(
      Object.keys(compute.inputProperties).filter((k) => compute.inputProperties[k].willReplaceOnChanges),
    ).toEqual([...REPLACE_PROPERTIES]);
    expect(compute.aliases).toEqual([{ type: "pulumi-nodejs:dynamic/neon:Compute" }]);
    const key = schema.resources["neoncompute:index:ApiKey"];
    expect(key.properties.token.secret).toBe(true);
    expect(schema.resources["neoncompute:index:Role"].properties.password.secret).toBe(true);
    const fn = schema.functions["neoncompute:index:getConnectionUri"] as {
      outputs: { properties: Record<string, { secret?: boolean }> };
    };
    expect(fn.outputs.properties.uri.secret).toBe(true);
    const password = schema.functions["neoncompute:index:getRolePassword"] as typeof fn;
    expect(password.outputs.properties.password.secret).toBe(true);
    expect(schema.config.variables.apiKey.secret).toBe(true);
    // The name of the key's variable is no secret: it is what keeps the key out of the state.
    expect(schema.config.variables.apiKeyEnv.secret).toBeUndefined();
    expect(Object.keys(schema.config.variables)).toEqual([
      "apiKey",
      "apiKeyEnv",
      "apiUrl",
      "operationTimeoutSeconds",
      "requestTimeoutSeconds",
    ]);
  });
});

describe("docs/api", () => {
  it.each(Object.keys(apiDocs()))(
    "%s is generated from the current definitions (run `npm run docs:api`)",
    async (name) => {
      const onDisk = fs.readFileSync(path.join(repo, "docs/api", name), "utf8");
      expect(onDisk).toBe(formatted(apiDocs()[name], `docs/api/${name}`));
    },
  );
});

describe("the Registry's pages (docs/_index.md, docs/installation-configuration.md)", () => {
  it.each(Object.keys(registryDocs()))(
    "docs/%s is generated from the current definitions and settings (run `npm run docs:api`)",
    (name) => {
      const onDisk = fs.readFileSync(path.join(repo, "docs", name), "utf8");
      expect(onDisk).toBe(formatted(registryDocs()[name], `docs/${name}`));
    },
  );

  it("installation-configuration.md names every setting and every NEON_ variable the provider reads", () => {
    const page = fs.readFileSync(path.join(repo, "docs/installation-configuration.md"), "utf8");
    const sources = fs
      .readdirSync(path.join(repo, "provider"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => fs.readFileSync(path.join(repo, "provider", f), "utf8"))
      .join("\n");
    const read = new Set([...sources.matchAll(/process\.env\.(NEON_\w+)/g)].map((m) => m[1]));
    for (const s of SETTINGS) if (s.env) read.add(s.env);
    expect(read.size).toBeGreaterThanOrEqual(SETTINGS.filter((s) => s.env).length + 1);
    expect([...read].filter((v) => !page.includes(`\`${v}\``))).toEqual([]);
    expect(SETTINGS.filter((s) => !page.includes(`\`neoncompute:${s.name}\``))).toEqual([]);
    expect(PROGRAM_ENVIRONMENT.map((e) => e.name).filter((v) => !read.has(v))).toEqual([]);
  });
});
