/**
 * A resource added the way CONTRIBUTING.md says, nothing else: a definition, its steps, one registry
 * entry (`entry` of `provider/registry.ts`) and one emulator module (`tests/emulator/fixtures/widgets.ts`,
 * served with `startEmulator({ resources })`). No class template, no face edit: both faces serve it
 * from the entry — the plugin's provider (`createProvider` given the registry plus the entry) and the
 * dynamic provider (`dynamicImpl` of the entry) — and each runs check, create, refresh, update and
 * delete against the emulator over real HTTP.
 */
import * as pulumi from "@pulumi/pulumi";
import type { EmulatorHandle } from "../../../emulator";
import { dynamicImpl } from "../../../provider/dynamic/host";
import { createProvider } from "../../../provider/plugin/provider";
import { entry, RESOURCES } from "../../../provider/registry";
import { inputSchema, checkAgainst, inputsChecked } from "../../../provider/resources/check";
import { definedDiff } from "../../../provider/resources/compare";
import { fixedInput, type Bag, type ResourceDef } from "../../../provider/resources/definition";
import {
  diffResult,
  refreshInputs,
  stateOf,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../../../provider/resources/kit";
import { Runtime } from "../../../provider/resources/runtime";
import { widgetResource } from "../../emulator/fixtures/widgets";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

// --- the resource: its definition, its steps, its registry entry ---------------------------------

const WIDGET_DEFINITION = {
  name: "Widget",
  description: "A widget of a branch (a throwaway resource of the tests).",
  importId: { format: "<projectId>/<branchId>/<widgetId>", example: "p/br/w" },
  aliases: [],
  examples: { title: "A widget", yaml: "", typescript: "" },
  properties: [
    fixedInput("projectId", "The project."),
    fixedInput("branchId", "The branch."),
    {
      name: "name",
      type: "string",
      input: "required",
      output: "always",
      change: "update",
      description: "Its name.",
    },
    {
      name: "size",
      type: "integer",
      input: "optional",
      output: "always",
      change: "update",
      description: "Its size.",
    },
    { name: "widgetId", type: "string", output: "always", stable: true, description: "Its id." },
  ],
} as const satisfies ResourceDef;

interface WidgetInputs {
  projectId: string;
  branchId: string;
  name: string;
  size?: number;
}
interface WidgetOutputs extends WidgetInputs {
  widgetId: string;
}

interface ApiWidget {
  id: string;
  name: string;
  size: number;
}

/** One request of the widget routes, with the runtime's key and URL. */
async function send(rt: Runtime, method: string, path: string, body?: unknown): Promise<Bag | undefined> {
  const res = await fetch(`${rt.settings.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${rt.settings.apiKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`Failed to ${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Bag;
}

const path = (i: { projectId?: string; branchId?: string }, id = "") =>
  `/projects/${i.projectId}/branches/${i.branchId}/widgets${id ? `/${id}` : ""}`;

function outputs(inputs: Bag, w: ApiWidget): Bag {
  return stateOf(WIDGET_DEFINITION, inputs, { ...inputs, name: w.name, size: w.size, widgetId: w.id });
}

const schema = inputSchema(WIDGET_DEFINITION);

const widgetSteps: ResourceSteps<WidgetInputs, WidgetOutputs> = {
  check: async (_rt, _olds, news) => {
    const { failures } = checkAgainst(WIDGET_DEFINITION, schema, news);
    return failures.length > 0
      ? { inputs: news, failures }
      : { inputs: inputsChecked<WidgetInputs>(news, []).inputs };
  },
  diff: async (_rt, _id, olds, news) => diffResult(definedDiff(WIDGET_DEFINITION, olds, news), false),
  create: async (rt, i: Checked<WidgetInputs>) => {
    const r = (await send(rt, "POST", path(i), { widget: { name: i.name, size: i.size } }))!;
    await rt.waitFor(i.projectId, r.operations as never, rt.logger(i));
    const w = r.widget as ApiWidget;
    return { id: `${i.projectId}/${i.branchId}/${w.id}`, outs: outputs(i, w) };
  },
  read: async (rt, id, props?: Stated<WidgetOutputs>) => {
    const r = await send(rt, "GET", path(props ?? {}, props?.widgetId));
    if (!r) return {};
    const outs = outputs(props ?? {}, r.widget as ApiWidget);
    return { id, props: outs, inputs: refreshInputs(WIDGET_DEFINITION, props ?? {}, outs) };
  },
  update: async (rt, _id, olds, news) => {
    const r = (await send(rt, "PATCH", path(news, olds.widgetId), {
      widget: { name: news.name, size: news.size },
    }))!;
    await rt.waitFor(news.projectId, r.operations as never, rt.logger(news));
    return { outs: outputs(news, r.widget as ApiWidget) };
  },
  delete: async (rt, _id, props) => {
    await send(rt, "DELETE", path(props, props.widgetId));
  },
};

/** The one registry line a new resource adds. */
const widget = entry<WidgetInputs, WidgetOutputs>(() => widgetSteps, {
  definition: WIDGET_DEFINITION,
  noun: "widget",
});

// --- both faces against the emulator -----------------------------------------------------------

let emulator: EmulatorHandle;
let projectId: string;
let branchId: string;

withEmulator({ opMs: 30, seed: 52, resources: [widgetResource] }, (e) => {
  emulator = e;
  projectId = e.seed.projectId;
  branchId = e.seed.defaultBranchId;
});

async function widgetNames(): Promise<string[]> {
  const res = await fetch(`${emulator.url}${path({ projectId, branchId })}`, {
    headers: { authorization: `Bearer ${emulator.apiKey}` },
  });
  return ((await res.json()) as { widgets: ApiWidget[] }).widgets.map((w) => w.name);
}

/** What a face does with one widget: check, create, refresh, update (no replacement), delete. */
async function lifecycle(
  face: {
    check(news: Bag): Promise<{ inputs?: Bag; failures?: unknown[] }>;
    diff(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.DiffResult>;
    create(inputs: Bag): Promise<{ id: string; outs?: Bag }>;
    read(id: string, props: Bag): Promise<{ id?: string; props?: Bag }>;
    update(id: string, olds: Bag, news: Bag): Promise<{ outs?: Bag }>;
    delete(id: string, props: Bag): Promise<void>;
  },
  name: string,
): Promise<void> {
  const refused = await face.check({ projectId, branchId, name, size: "big" });
  expect(refused.failures).toEqual([expect.objectContaining({ property: "size" })]);

  const checked = await face.check({ projectId, branchId, name, size: 2 });
  expect(checked.failures ?? []).toEqual([]);
  const made = await face.create(checked.inputs!);
  expect(made.outs).toMatchObject({ name, size: 2, widgetId: expect.any(String) });
  expect(await widgetNames()).toContain(name);

  const read = await face.read(made.id, made.outs!);
  expect(read).toMatchObject({ id: made.id, props: { name, size: 2 } });

  const next = (await face.check({ projectId, branchId, name, size: 5 })).inputs!;
  const d = await face.diff(made.id, read.props!, next);
  expect(d).toMatchObject({ changes: true, replaces: [] });
  const updated = await face.update(made.id, read.props!, next);
  expect(updated.outs).toMatchObject({ size: 5, widgetId: made.outs!.widgetId });

  await face.delete(made.id, updated.outs!);
  expect(await widgetNames()).not.toContain(name);
  // A refresh of what is gone drops it.
  expect((await face.read(made.id, updated.outs!)).id).toBeUndefined();
}

it("the plugin's provider serves the registry's resources plus the new entry", async () => {
  const p = createProvider("0.0.0-test", [...RESOURCES, widget]);
  p.useRuntime(
    new Runtime({ settings: { apiKey: emulator.apiKey, apiUrl: emulator.url }, namespace: "neoncompute" }),
  );
  const urn = "urn:pulumi:dev::it::neoncompute:index:Widget::w";
  await lifecycle(
    {
      check: (news) => p.check!(urn, {}, news),
      diff: (id, olds, news) => p.diff!(id, urn, olds, news),
      create: (inputs) => p.create!(urn, inputs),
      read: (id, props) => p.read!(id, urn, props),
      update: (id, olds, news) => p.update!(id, urn, olds, news),
      delete: (id, props) => p.delete!(id, urn, props),
    },
    "plugin-widget",
  );
  // The plugin keeps refusing a type that is in no registry it was given.
  await expect(p.check!("urn:pulumi:dev::it::neoncompute:index:Gadget::g", {}, {})).rejects.toThrow(
    /neoncompute:index:Gadget is not a resource .*neoncompute:index:Widget/,
  );
});

it("the dynamic provider serves the new entry", async () => {
  const impl = dynamicImpl(widget);
  const values: Record<string, string> = { "neon:apiKey": emulator.apiKey, "neon:apiUrl": emulator.url };
  await impl.configure({ config: { rawConfig: values, get: (k: string) => values[k] } } as never);
  const urn = "urn:pulumi:dev::it::pulumi-nodejs:dynamic/neon:Widget::w";
  await lifecycle(
    {
      check: (news) => impl.check({}, { ...news, __urn: urn }),
      diff: (id, olds, news) => impl.diff(id, olds, news),
      create: (inputs) => impl.create(inputs),
      read: (id, props) => impl.read(id, props),
      update: (id, olds, news) => impl.update(id, olds, news),
      delete: (id, props) => impl.delete(id, props),
    },
    "dynamic-widget",
  );
});
