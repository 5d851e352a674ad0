/**
 * Serves the plugin through `@pulumi/pulumi/provider`'s `main`, with the handlers its stock server
 * lacks or gets wrong replaced (see docs/decisions/0012):
 *
 * - Configure: the stock one drops the request's values; here they become this process's settings
 *   (the engine starts one plugin process per provider instance, so per-process settings are
 *   per-instance settings: two `Provider` resources with two keys work in one stack).
 * - CheckConfig / DiffConfig: unimplemented upstream; here a missing or misspelled key fails preview,
 *   and a changed key or URL never replaces resources.
 * - Diff: the stock one drops `stables` and the detailed diff.
 * - Read: the stock one calls `getProperties().toJavaScript()`, which throws on `pulumi import` (no
 *   properties), and cannot answer "gone" (`Struct.fromJavaScript(undefined)` throws).
 * - Create / Update / Delete: never sent to the provider during preview (a preview's Create and Update
 *   are answered by {@link previewResponse}); the request's `timeout` (the resource's `customTimeouts`)
 *   bounds the waits, which the stock server never passes on.
 * - Invoke: the stock one drops the request's `preview` and prints each error's stack.
 * - Attach: progress lines follow the engine's address.
 */
import { PACKAGE } from "../resources/classes";
import { Runtime } from "../resources/runtime";
import { checkConfig, diffConfig, settingsFrom } from "./config";
import { conceal, isSecret, secret } from "./secrets";
import { createProvider } from "./provider";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Call = { request: any };
type Callback = (err: any, value?: any, metadata?: any) => void;
type Handler = (call: Call, callback: Callback) => unknown;
type Handlers = Record<string, Handler>;

function fromPulumi(id: string): any {
  return require(require.resolve(id, { paths: [require.resolve("@pulumi/pulumi")] }));
}

const provproto = require("@pulumi/pulumi/proto/provider_pb");
const structproto = fromPulumi("google-protobuf/google/protobuf/struct_pb");
const emptyproto = fromPulumi("google-protobuf/google/protobuf/empty_pb");

const toJs = (s: any): Record<string, unknown> => (s ? s.toJavaScript() : {});

type PluginProvider = ReturnType<typeof createProvider>;

/**
 * The stock server's handlers with this plugin's replacements (exported for the unit tests, which
 * call them with hand-made requests).
 */
export function decorate(stock: Handlers, provider: PluginProvider, engineAddress?: string): Handlers {
  // The engine's address (from the command line, or Attach), for the runtimes Configure makes.
  let address = engineAddress;
  const reply = (callback: Callback, work: () => Promise<unknown>) => {
    work().then(
      (resp) => callback(undefined, resp),
      (err) => callback(err, undefined),
    );
  };
  const bounded =
    (name: string): Handler =>
    (call, callback) => {
      if (call.request.getPreview?.()) {
        // A preview never reaches the provider (the stock server would really create or update).
        if (name === "delete") {
          callback(
            new Error("Failed to delete during preview: the neoncompute provider does not preview deletes"),
          );
          return;
        }
        reply(callback, async () => previewResponse(name, call.request, provider));
        return;
      }
      return provider
        .runtime()
        .withDeadline(call.request.getTimeout?.() || undefined, async () => stock[name](call, callback));
    };

  return {
    ...stock,

    attach(call, callback) {
      address = call.request.getAddress();
      const rt = provider.runtime();
      provider.useRuntime(new Runtime({ settings: rt.settings, namespace: PACKAGE, engineAddress: address }));
      return stock.attach(call, callback);
    },

    configure(call, callback) {
      reply(callback, async () => {
        const req = call.request;
        const variables = Object.fromEntries(req.getVariablesMap().entries()) as Record<string, string>;
        const settings = settingsFrom(req.getArgs() ? toJs(req.getArgs()) : undefined, variables);
        provider.useRuntime(new Runtime({ settings, namespace: PACKAGE, engineAddress: address }));
        const resp = new provproto.ConfigureResponse();
        resp.setAcceptsecrets(true);
        // Create and Update are asked during preview too, and answered here without the provider
        // (previewResponse): an update shows the inputs it changes as unknown, so that what reads
        // them — `${db.name}` in an invoke — waits for the update instead of using the new value early.
        resp.setSupportspreview(true);
        resp.setAcceptresources(false);
        resp.setAcceptoutputs(false);
        return resp;
      });
    },

    checkConfig(call, callback) {
      reply(callback, async () => {
        const news = call.request.getNews();
        const resp = new provproto.CheckResponse();
        // The key is a secret whatever its source (a plain config value, another resource's output):
        // the engine stores the provider's inputs in the state.
        resp.setInputs(structproto.Struct.fromJavaScript(conceal(toJs(news), ["apiKey"])));
        resp.setFailuresList(
          checkConfig(toJs(news)).map((f) => {
            const failure = new provproto.CheckFailure();
            failure.setProperty(f.property);
            failure.setReason(f.reason);
            return failure;
          }),
        );
        return resp;
      });
    },

    diffConfig(call, callback) {
      reply(callback, async () => {
        const req = call.request;
        const olds = req.getOldInputs?.() ?? req.getOlds();
        const changed = diffConfig(toJs(olds), toJs(req.getNews()));
        const resp = new provproto.DiffResponse();
        resp.setChanges(
          changed.length > 0
            ? provproto.DiffResponse.DiffChanges.DIFF_SOME
            : provproto.DiffResponse.DiffChanges.DIFF_NONE,
        );
        resp.setDiffsList(changed);
        return resp;
      });
    },

    diff(call, callback) {
      reply(callback, async () => {
        const req = call.request;
        const d = await provider.diffDetailed(
          req.getId(),
          req.getUrn(),
          toJs(req.getOlds()),
          toJs(req.getNews()),
        );
        const resp = new provproto.DiffResponse();
        const { DIFF_SOME, DIFF_NONE } = provproto.DiffResponse.DiffChanges;
        resp.setChanges(d.changes ? DIFF_SOME : DIFF_NONE);
        resp.setReplacesList(d.replaces ?? []);
        resp.setStablesList(d.stables ?? []);
        resp.setDeletebeforereplace(Boolean(d.deleteBeforeReplace));
        resp.setDiffsList(d.diffs);
        if (d.diffs.length > 0) {
          const map = resp.getDetaileddiffMap();
          for (const key of d.diffs) {
            const pd = new provproto.PropertyDiff();
            pd.setKind(
              d.replaces?.includes(key)
                ? provproto.PropertyDiff.Kind.UPDATE_REPLACE
                : provproto.PropertyDiff.Kind.UPDATE,
            );
            // A replacement no input asks for (a branch's unfinished creation) names an output.
            pd.setInputdiff(d.inputs.includes(key));
            map.set(key, pd);
          }
          resp.setHasdetaileddiff(true);
        }
        return resp;
      });
    },

    read(call, callback) {
      reply(callback, async () => {
        const req = call.request;
        // The guard: `pulumi import` reads with no properties at all.
        const props = req.hasProperties() ? toJs(req.getProperties()) : {};
        const result = await provider.read!(req.getId(), req.getUrn(), props);
        const resp = new provproto.ReadResponse();
        if (!result.id) return resp; // gone: no id, no properties
        resp.setId(result.id);
        resp.setProperties(structproto.Struct.fromJavaScript(result.props ?? {}));
        if (result.inputs !== undefined) resp.setInputs(structproto.Struct.fromJavaScript(result.inputs));
        return resp;
      });
    },

    invoke(call, callback) {
      // The stock handler drops the request's `preview`, and prints each error with its stack.
      reply(callback, async () => {
        const req = call.request;
        const result = await provider.invokeAt(
          req.getTok(),
          toJs(req.getArgs()),
          Boolean(req.getPreview?.()),
        );
        const resp = new provproto.InvokeResponse();
        resp.setReturn(structproto.Struct.fromJavaScript(result.outputs));
        return resp;
      });
    },

    create: bounded("create"),
    update: bounded("update"),
    delete: bounded("delete"),
  };
}

/** The value the engine reads as "unknown until the update" (a computed value). */
const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * The answer to a Create or Update asked during preview, made without calling the provider: a create
 * shows its inputs (its other outputs are unknown); an update shows its new inputs, each one it
 * changes unknown — what the update makes of it (a renamed database's name, as the service has it)
 * is known only after the update.
 */
export function previewResponse(
  name: string,
  req: any,
  provider: Pick<PluginProvider, "changedKeys" | "unknownAtCreate">,
): any {
  // An unknown that stays secret when the value was.
  const unknownLike = (v: unknown) => (isSecret(v) ? secret(UNKNOWN_VALUE) : UNKNOWN_VALUE);
  if (name === "create") {
    // The inputs, but a name that exists only once the create has run (a role's, a database's):
    // an invoke given it waits for the create instead of asking the service for it.
    const props: Record<string, unknown> = toJs(req.getProperties());
    for (const k of provider.unknownAtCreate(req.getUrn())) if (k in props) props[k] = unknownLike(props[k]);
    const resp = new provproto.CreateResponse();
    resp.setProperties(structproto.Struct.fromJavaScript(props));
    return resp;
  }
  const olds = toJs(req.getOlds());
  const news = toJs(req.getNews());
  // The new inputs, as the engine shows an update it does not ask about (the outputs that are not
  // inputs are unknown), with each input the update changes unknown too.
  const props: Record<string, unknown> = { ...news };
  for (const k of provider.changedKeys(req.getUrn(), olds, news)) {
    if (k in props) props[k] = unknownLike(props[k]);
  }
  const resp = new provproto.UpdateResponse();
  resp.setProperties(structproto.Struct.fromJavaScript(props));
  return resp;
}

/** The empty response type, for tests. */
export const Empty = emptyproto.Empty;

/**
 * Starts the plugin: `main` from `@pulumi/pulumi/provider` serves the provider; its gRPC service is
 * decorated on the way in (the stock server class is not exported, its `addService` call is where
 * its handlers can be reached).
 */
export async function serve(args: string[], version: string): Promise<void> {
  const { main } = require("@pulumi/pulumi/provider") as typeof import("@pulumi/pulumi/provider");
  const { parseArgs } = require("@pulumi/pulumi/provider/internals");
  const grpc = fromPulumi("@grpc/grpc-js");
  const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
  const engineAddress: string | undefined = parseArgs(args)?.engineAddress;
  const provider = createProvider(version);
  provider.useRuntime(new Runtime({ namespace: PACKAGE, engineAddress }));
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service: unknown, impl: Handlers) {
    const handlers = service === provrpc.ResourceProviderService ? bindAll(impl) : impl;
    return addService.call(
      this,
      service,
      service === provrpc.ResourceProviderService ? decorate(handlers, provider, engineAddress) : impl,
    );
  };
  try {
    await main(provider, args);
  } finally {
    grpc.Server.prototype.addService = addService;
  }
}

/** The stock server's methods, bound to it (they use `this`). */
export function bindAll(impl: any): Handlers {
  const out: Handlers = {};
  let proto = impl;
  while (proto && proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== "constructor" && typeof impl[name] === "function" && !(name in out)) {
        out[name] = impl[name].bind(impl);
      }
    }
    proto = Object.getPrototypeOf(proto);
  }
  return out;
}
