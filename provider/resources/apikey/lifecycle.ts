/**
 * The lifecycle of `ApiKey`: check, diff, create (`create.ts`), read and delete (update is the kit's
 * `keepOutputs`: every input change replaces the key).
 *
 * The token is returned by the API once, at creation; it goes into the outputs (which the class
 * marks secret) and nowhere else: never into a log line or an error message.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError } from "../../api";
import {
  keepOutputs,
  refreshInputs,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import type { Runtime } from "../runtime";
import { APIKEY_DEFINITION } from "./definition";
import { diffApiKey } from "./diff";
import { checkInputs } from "./inputs";
import type { ApiKeyInputs, ApiKeyOutputs } from "./types";
import { describeKey, parseKeyRef, toOutputs } from "./mapping";
import { create } from "./create";
import { ensureOwnList, findKey, revoke } from "./listing";

type State = Stated<ApiKeyOutputs>;

// --- check / diff ----------------------------------------------------------------------------

async function check(
  _rt: Runtime,
  _olds: Stated<ApiKeyInputs>,
  news: Bag,
): Promise<CheckResult<ApiKeyInputs>> {
  const { inputs, failures } = checkInputs(news);
  return failures.length > 0 ? { inputs: news, failures } : { inputs };
}

async function diff(
  _rt: Runtime,
  _id: string,
  olds: State,
  news: Checked<ApiKeyInputs>,
): Promise<pulumi.dynamic.DiffResult> {
  const d = diffApiKey(olds, news);
  return { changes: d.changes, replaces: d.replaces, stables: d.stables, deleteBeforeReplace: false };
}

// --- read ----------------------------------------------------------------------------------

/**
 * Reads the key by id from the list where it lives (names are not unique). A key missing from a
 * list the provider could read was revoked: no id drops it from the stack. A list the provider
 * cannot read (its key lacks the scope) fails instead: that says nothing about the key.
 */
async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const old: State = props ?? {};
  const ref = parseKeyRef(id);
  const api = rt.client();
  const found = await findKey(api, ref, "read");
  if (!found) {
    await ensureOwnList(api, ref, old, "read");
    rt.logger(old).info(`${describeKey(ref)} no longer exists (revoked); dropping it from the stack`);
    return {};
  }
  const outs = toOutputs(old, found, ref.orgId, old.token);
  return { id, props: outs, inputs: refreshInputs(APIKEY_DEFINITION, old, outs) };
}

// --- delete --------------------------------------------------------------------------------

/** Revokes the key. A key already revoked, or one the service no longer knows, is success. */
async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  const ref = parseKeyRef(id);
  const api = rt.client();
  const what = describeKey({ ...ref, projectId: props?.projectId });
  try {
    await revoke(api, ref);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.kind === "forbidden") {
      throw err.withRemedy(
        (ref.orgId
          ? `Organization and project-scoped keys are revoked by administrators of ${ref.orgId} ` +
            "(their personal key, or an organization key of it)"
          : "A personal key is revoked with a personal key of its owner") +
          "; set neon:apiKey to such a key, or keep the key with `pulumi state delete` and revoke it in the console.",
      );
    }
    if (err.kind !== "not_found") throw err;
    // The service answers 404 for an unknown key, but also when the provider's key may not look
    // into this organization (scope): only a list that lacks the key proves it gone.
    if (await findKey(api, ref, "revoke")) throw err;
    await ensureOwnList(api, ref, props ?? {}, "revoke");
  }
  rt.logger(props ?? {}).info(`revoked ${what}`);
}

/** `ApiKey`'s own steps (see `../kit.ts`). */
export const apiKeySteps: ResourceSteps<ApiKeyInputs, ApiKeyOutputs> = {
  check,
  diff,
  changedKeys: (olds, news) => diffApiKey(olds, news).replaces,
  create,
  read,
  update: keepOutputs, // every input change replaces (see diff)
  delete: remove,
};
