/**
 * The kit's own rules, on a made-up resource: `bind` (check marks the URN checked, create/update run
 * under the resource's own wait deadline, an adopted object is left in place at delete), refresh
 * returning only the program's inputs, a 404 read as "gone" only when the key can see the project,
 * and the input schema derived from a definition.
 */
import { z } from "zod";
import { ApiError } from "../../../provider/api";
import { stableNames, type ResourceDef } from "../../../provider/resources/definition";
import { checkAgainst, inputSchema } from "../../../provider/resources/check";
import {
  bind,
  confirmGone,
  definedImportInputs,
  givenInputNames,
  refreshInputs,
  requiredInputNames,
  UNKNOWN,
  type ResourceKind,
  type ResourceSteps,
} from "../../../provider/resources/kit";
import { Runtime } from "../../../provider/resources/runtime";
import { fakeApi, notFound } from "../../support/fake-api";

const DEF: ResourceDef = {
  name: "Widget",
  description: "A made-up resource.",
  properties: [
    {
      name: "projectId",
      type: "string",
      input: "required",
      output: "always",
      change: "replace",
      description: "p",
    },
    {
      name: "label",
      type: "string",
      input: "optional",
      output: "optional",
      change: "update",
      description: "l",
    },
    {
      name: "size",
      type: "integer",
      input: "optional",
      output: "optional",
      change: "update",
      description: "s",
    },
    {
      name: "tags",
      type: { map: "string" },
      input: "optional",
      output: "optional",
      change: "update",
      description: "t",
    },
    { name: "widgetId", type: "string", output: "always", description: "the id" },
  ],
} as unknown as ResourceDef;

function kindWith(calls: string[], deadlines: number[], rt: Runtime): ResourceKind {
  const steps: ResourceSteps = {
    check: async (_rt, _olds, news) => ({ inputs: news }),
    diff: async () => ({ changes: false }),
    changedKeys: () => [],
    create: async (_rt, inputs) => {
      calls.push("create");
      deadlines.push(rt.deadlineMs());
      return { id: "w-1", outs: inputs };
    },
    read: async (_rt, id) => ({ id, props: {} }),
    importInputs: () => ({}),
    update: async (_rt, _id, _olds, news) => {
      calls.push("update");
      deadlines.push(rt.deadlineMs());
      return { outs: news };
    },
    delete: async (_rt, id) => {
      calls.push(`delete ${id}`);
    },
  };
  return {
    definition: DEF,
    steps,
    noun: "widget",
    adoptInput: "adoptIt",
  };
}

describe("bind: the kit's rules around a resource's steps", () => {
  const urn = "urn:pulumi:s::p::pulumi-nodejs:dynamic:Resource::w";

  it("marks a checked URN as being planned, and runs create and update under the resource's own deadline", async () => {
    const rt = new Runtime({ settings: { apiKey: "k", operationTimeoutSeconds: 60 }, logSink: () => {} });
    const calls: string[] = [];
    const deadlines: number[] = [];
    const w = bind(kindWith(calls, deadlines, rt), rt);
    expect(rt.ledger.isPlanning({ __urn: urn })).toBe(false);
    await w.check({}, { __urn: urn, projectId: "p" });
    expect(rt.ledger.isPlanning({ __urn: urn })).toBe(true);
    await w.create({ __urn: urn, projectId: "p", operationTimeoutSeconds: 5 });
    await w.update("w-1", {}, { __urn: urn, projectId: "p" });
    // The resource's own 5 s for its create; the instance's 60 s otherwise.
    expect(deadlines).toEqual([5_000, 60_000]);
  });

  it("hands a number given for a string input (YAML's number-like config) to check as its text", async () => {
    const rt = new Runtime({ settings: { apiKey: "k" }, logSink: () => {} });
    const w = bind(kindWith([], [], rt), rt);
    const r = await w.check({}, { __urn: urn, projectId: 2026, label: 1.5, size: 3 });
    // Strings where the definition says string; a number input stays a number.
    expect(r.inputs).toEqual({ __urn: urn, projectId: "2026", label: "1.5", size: 3 });
  });

  it("leaves an adopted object in place at delete, and says so; deletes anything else", async () => {
    const lines: string[] = [];
    const rt = new Runtime({ settings: { apiKey: "k" }, logSink: (l) => lines.push(l) });
    const calls: string[] = [];
    const w = bind(kindWith(calls, [], rt), rt);
    await w.delete("w-1", { __urn: urn, adopted: true });
    expect(calls).toEqual([]);
    expect(lines.join("\n")).toMatch(
      /left widget w-1 in place: it existed before this stack adopted it \(adoptIt\)/,
    );
    await w.delete("w-2", { __urn: urn, adopted: false });
    expect(calls).toEqual(["delete w-2"]);
  });
});

describe("refreshInputs: what a refresh reports as the program's inputs", () => {
  const outs = { projectId: "p", label: "chosen by the platform", size: 3, widgetId: "w-1", __urn: "u" };

  it("reports the inputs the program gave (as recorded at the last write), as they now are", () => {
    const old = { projectId: "p", size: 2, __inputNames: ["projectId", "size"] };
    expect(refreshInputs(DEF, old, outs)).toEqual({ projectId: "p", size: 3, __urn: "u" });
  });

  it("without a record, falls back to the inputs present in the old state; identity always", () => {
    // The required inputs are the identity unless the resource names its own.
    expect(refreshInputs(DEF, { size: 2 }, outs)).toEqual({ projectId: "p", size: 3, __urn: "u" });
    expect(refreshInputs(DEF, { size: 2 }, outs, ["label"])).toEqual({
      label: "chosen by the platform",
      size: 3,
      __urn: "u",
    });
    expect(refreshInputs(DEF, { size: 2 }, outs, ["projectId"])).toEqual({
      projectId: "p",
      size: 3,
      __urn: "u",
    });
    expect(givenInputNames(DEF, { projectId: "p", label: undefined, tags: {} })).toEqual([
      "projectId",
      "tags",
    ]);
  });
});

describe("what the definition implies for import, identity and stable outputs", () => {
  const IMPORTED: ResourceDef = {
    ...DEF,
    properties: [
      ...DEF.properties,
      {
        name: "adopt",
        type: "boolean",
        input: "optional",
        output: "optional",
        change: "create-only",
        description: "a",
      },
      {
        name: "kick",
        type: "string",
        input: "optional",
        output: "optional",
        change: "update",
        compare: "trigger",
        description: "k",
      },
      {
        name: "locked",
        type: "boolean",
        input: "optional",
        output: "optional",
        change: "update",
        compare: "false-when-absent",
        description: "f",
      },
      {
        name: "wait",
        type: "number",
        input: "optional",
        output: "optional",
        change: "none",
        description: "w",
      },
      { name: "createdAt", type: "string", output: "optional", stable: true, description: "c" },
    ],
  };
  const outs = {
    projectId: "p",
    label: "x",
    size: 2,
    adopt: true,
    kick: "1",
    locked: false,
    wait: 5,
    widgetId: "w-1",
    createdAt: "t",
  };

  it("import: every input whose change does something and that the object has; a false flag left out", () => {
    expect(definedImportInputs(IMPORTED, outs)).toEqual({ projectId: "p", label: "x", size: 2 });
    expect(definedImportInputs(IMPORTED, { ...outs, locked: true })).toMatchObject({ locked: true });
  });

  it("identity: the required inputs", () => {
    expect(requiredInputNames(IMPORTED)).toEqual(["projectId"]);
  });

  it("stable: the outputs marked so and the inputs whose change replaces", () => {
    expect(stableNames(IMPORTED.properties)).toEqual(["projectId", "createdAt"]);
  });
});

describe("confirmGone: a 404 means gone only when the key can see the project", () => {
  const gone = notFound("widget w-1") as ApiError;

  it("returns when the project is readable", async () => {
    const f = fakeApi();
    f.projects.set("p", { id: "p", region_id: "r" });
    await expect(confirmGone(f.api, "p", "widget w-1", "refresh", gone)).resolves.toBeUndefined();
  });

  it("throws, keeping the object, when the project is not readable, and names the remedy", async () => {
    const f = fakeApi();
    const err = await confirmGone(f.api, "p", "widget w-1", "delete", gone).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toMatch(/not known whether widget w-1 still exists; the stack keeps it/);
    expect((err as Error).message).toMatch(/Run the delete with a key that can see the project/);
  });
});

describe("the input schema derived from a definition", () => {
  const schema = inputSchema(DEF);

  it("requires required inputs, types the rest, and names a misspelt one", () => {
    const r = checkAgainst(DEF, schema, { label: 1, sise: 2 });
    expect(r.failures.map((f) => f.property).sort()).toEqual(["label", "projectId", "sise"]);
    expect(r.failures.find((f) => f.property === "sise")?.reason).toMatch(/did you mean size\?/);
  });

  it("takes a map of strings, not a list, and sets unknown values and entries aside", () => {
    expect(checkAgainst(DEF, schema, { projectId: "p", tags: ["a", "b"] }).failures).toEqual([
      expect.objectContaining({ property: "tags" }),
    ]);
    const r = checkAgainst(DEF, schema, { projectId: UNKNOWN, tags: { a: UNKNOWN, b: "1" } });
    expect(r.failures).toEqual([]);
    expect(r.unknownKeys).toEqual(new Set(["projectId"]));
    expect(r.value.tags).toEqual({ b: "1" });
  });

  describe("unknown values inside a list or an object (an output of another resource)", () => {
    const nested = {
      ...DEF,
      properties: [
        ...DEF.properties,
        { name: "hosts", type: { arrayOf: "string" }, input: "optional", change: "update", description: "h" },
        { name: "shape", type: { object: "Shape" }, input: "optional", change: "update", description: "o" },
      ],
    } as unknown as ResourceDef;
    const url = z.string().refine((v) => v.startsWith("https://"), { error: "must be an https URL" });
    const schema = inputSchema(nested, {
      hosts: z.array(url).refine((l) => new Set(l).size === l.length, { error: "must not repeat" }),
      shape: z.strictObject({ kind: z.enum(["round", "flat"]), edge: url.optional() }),
    });

    it("pass the check, known values kept as given, unknown ones among them", () => {
      const r = checkAgainst(nested, schema, {
        projectId: "p",
        hosts: ["https://a.example.com", UNKNOWN, UNKNOWN],
        shape: { kind: UNKNOWN, edge: UNKNOWN },
      });
      expect(r.failures).toEqual([]);
      expect(r.parsed).toBe(true);
      expect(r.value.hosts).toEqual(["https://a.example.com", UNKNOWN, UNKNOWN]);
      expect(r.value.shape).toEqual({ kind: UNKNOWN, edge: UNKNOWN });
      expect(
        checkAgainst(nested, schema, { projectId: "p", hosts: [UNKNOWN], shape: UNKNOWN }).failures,
      ).toEqual([]);
    });

    it("do not hide a known value's problem beside them", () => {
      const r = checkAgainst(nested, schema, {
        projectId: "p",
        hosts: [UNKNOWN, "ftp://a.example.com"],
        shape: { kind: "square", edge: UNKNOWN },
      });
      expect(r.failures.map((f) => f.property).sort()).toEqual(["hosts.1", "shape.kind"]);
      expect(r.parsed).toBe(false);
      expect(checkAgainst(nested, schema, { projectId: "p", shape: { edge: UNKNOWN } }).failures).toEqual([
        expect.objectContaining({ property: "shape.kind" }),
      ]);
    });
  });

  it("refuses an object input without a rule of its own, and a rule for a name that is no input", () => {
    const withObject = {
      ...DEF,
      properties: [
        ...DEF.properties,
        { name: "shape", type: { object: "Shape" }, input: "optional", change: "update", description: "o" },
      ],
    } as unknown as ResourceDef;
    expect(() => inputSchema(withObject)).toThrow(/Widget: the input shape .*give a check rule for it/);
    expect(() => inputSchema(DEF, {})).not.toThrow();
    expect(() => inputSchema(DEF, { nope: schema })).toThrow(/a check rule for nope, which is not an input/);
  });
});
