/**
 * The lifecycle of `Project`: check, diff (a change that would need a new project is refused at
 * preview: a project is never replaced), read, update (name, history retention, default compute
 * settings) and delete (the whole project; refused before any request while a branch is protected);
 * create (reconciling a killed run or a lost answer by the project's name: never a second, billed
 * project) is in `create.ts`. Every change waits for its operations.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type Project, type ProjectUpdateBody } from "../../api";
import {
  diffResult,
  isNewResource,
  refreshInputs,
  UNKNOWN,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import { definedDiff } from "../compare";
import type { Runtime } from "../runtime";
import { PROJECT_DEFINITION } from "./definition";
import { checkInputs } from "./inputs";
import type { ProjectInputs, ProjectOutputs } from "./types";
import { describeProject, settingsBody, toOutputs, type ProjectParts } from "./mapping";
import { create, isScopeRefusal, readParts } from "./create";

type State = Stated<ProjectOutputs>;

const diffProject = (olds: Bag, news: Bag) => definedDiff(PROJECT_DEFINITION, olds, news);

/** The error of a change that would need a new project: what to set back, and how to move instead. */
export function refusal(id: string, olds: Bag, news: Bag, keys: string[]): Error {
  const detail = keys
    .map(
      (k) =>
        `${k} ${JSON.stringify(olds[k])} → ${news[k] === UNKNOWN ? "(unknown)" : JSON.stringify(news[k])}`,
    )
    .join(", ");
  return new Error(
    `Failed to change ${describeProject({ id, name: olds.name as string | undefined })}: ${detail} cannot be ` +
      "changed on an existing project, and this provider never replaces a project (its branches, computes and " +
      `databases would be deleted with it). Set ${keys.join(" and ")} back to the value above. To move, declare a ` +
      "second Project beside this one, move the data and the branches to it, then remove this one from the " +
      "program. Nothing was changed.",
  );
}

async function check(
  rt: Runtime,
  olds: Stated<ProjectInputs>,
  news: Bag,
): Promise<CheckResult<ProjectInputs>> {
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) return { inputs: news, failures };
  // An imported project that does not store passwords: its URI could never be read outside the state.
  if (news.passwordInState === false && typeof news.importId === "string" && news.importId !== UNKNOWN) {
    const stores = await rt.projectFacts(news.importId).then(
      (p) => p.store_passwords,
      () => undefined,
    );
    if (stores === false) {
      const reason =
        `project ${news.importId} does not store role passwords (store_passwords is off), so a connection string ` +
        "kept out of the state could never be read (the service answers 412); remove passwordInState: false";
      return { inputs: news, failures: [{ property: "passwordInState", reason }] };
    }
  }
  // A project made in this run has no id at preview: what depends on it is judged by this record.
  if (isNewResource(olds) && typeof news.__urn === "string") {
    rt.ledger.projectsComing.add(news.__urn);
  }
  return { inputs };
}

async function diff(
  rt: Runtime,
  id: string,
  olds: State,
  news: Checked<ProjectInputs>,
): Promise<pulumi.dynamic.DiffResult> {
  const d = diffProject(olds, news);
  const known = d.refused.filter((k) => news[k] !== UNKNOWN);
  if (known.length > 0 && rt.ledger.isPlanning(news)) throw refusal(id, olds, news, known);
  return diffResult(d, false);
}

// --- read / update / delete ------------------------------------------------------------------

async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const api = rt.client();
  let p: Project;
  try {
    p = await api.projects.get(id);
  } catch (err) {
    if (err instanceof ApiError && err.kind === "not_found") {
      if (!isScopeRefusal(err)) return {};
      throw err.withRemedy(
        `The API key cannot see project ${id}, so it is not known whether it still exists; the stack keeps it ` +
          "unchanged. Run the refresh with a key that can see the project (neon:apiKey or NEON_API_KEY).",
      );
    }
    throw err;
  }
  const old = props ?? {};
  const outs = toOutputs(old, p, await readParts(api, p, old));
  return { id: p.id, props: outs, inputs: refreshInputs(PROJECT_DEFINITION, old, outs) };
}

async function update(
  rt: Runtime,
  id: string,
  olds: State,
  news: Checked<ProjectInputs>,
): Promise<pulumi.dynamic.UpdateResult> {
  const d = diffProject(olds, news);
  if (d.refused.length > 0) throw refusal(id, olds, news, d.refused);
  const body: ProjectUpdateBody = {
    ...(d.updates.includes("name") && news.name !== undefined ? { name: news.name } : {}),
    ...(d.updates.includes("historyRetentionSeconds")
      ? { history_retention_seconds: news.historyRetentionSeconds }
      : {}),
    ...(d.updates.includes("defaultCompute") && news.defaultCompute
      ? { default_endpoint_settings: settingsBody(news.defaultCompute) }
      : {}),
  };
  const api = rt.client();
  const log = rt.logger(news);
  const p = await rt.serialized(id, async () => {
    if (Object.keys(body).length === 0) return api.projects.get(id);
    if (body.default_endpoint_settings) {
      // Settings the program does not declare (set elsewhere) stay: the service replaces the object.
      const current = (await api.projects.get(id)).default_endpoint_settings ?? {};
      body.default_endpoint_settings = { ...current, ...body.default_endpoint_settings };
    }
    // Its retention or plan-bound settings as a later check in this run judges them: read again
    // (also when the answer to the change is lost).
    rt.forgetProject(id);
    const r = await api.projects.update(id, body).finally(() => rt.forgetProject(id));
    await rt.waitFor(id, r.operations, log);
    return r.project;
  });
  // An interrupted create left its parts out: read them now; otherwise carry them.
  const carried = [
    "defaultBranchName",
    "primaryComputeId",
    "host",
    "databaseName",
    "roleName",
    "connectionUri",
  ];
  // A switch back to passwordInState reads the connection URI again (the carried one was left out).
  const regained = olds.passwordInState === false && news.passwordInState !== false;
  const parts: ProjectParts =
    olds.defaultBranchId && !regained
      ? ({
          defaultBranchId: String(olds.defaultBranchId),
          ...Object.fromEntries(carried.map((k) => [k, olds[k]])),
        } as ProjectParts)
      : await readParts(api, p, { ...olds, passwordInState: news.passwordInState });
  return { outs: toOutputs(news, p, parts) };
}

async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  const log = rt.logger(props);
  if (rt.ledger.projectsClaimed.has(id)) {
    log.info(`left project ${id} in place: this run's create took it over`);
    return;
  }
  const api = rt.client();
  await rt.serialized(id, async () => {
    let branches;
    try {
      branches = await api.branches.list(id);
    } catch (err) {
      if (err instanceof ApiError && err.kind === "not_found" && !isScopeRefusal(err)) return; // already gone
      throw err;
    }
    const locked = branches.filter((b) => b.protected);
    if (locked.length > 0) {
      throw new Error(
        `Failed to delete project ${id}: its branches ${locked.map((b) => `${b.id} ("${b.name}")`).join(", ")} are ` +
          "protected, and the service deletes no project that has a protected branch. Set protected: false on " +
          "them first (or remove the protection in the console). Nothing was deleted.",
      );
    }
    log.warn(
      `deleting project ${id} with its ${branches.length} branch${branches.length === 1 ? "" : "es"} ` +
        `(${branches.map((b) => b.name).join(", ")}) and every compute, role and database in them`,
    );
    await api.projects.delete(id).catch((err: unknown) => {
      if (err instanceof ApiError && err.kind === "not_found" && !isScopeRefusal(err)) return;
      throw err;
    });
  });
}

/** `Project`'s own steps (see `../kit.ts`). */
export const projectSteps: ResourceSteps<ProjectInputs, ProjectOutputs> = {
  check,
  diff,
  create,
  read,
  importInputs: (outs) => {
    const inputs: Bag = {};
    for (const k of ["name", "regionId", "pgVersion", "historyRetentionSeconds"])
      if (outs[k] !== undefined) inputs[k] = outs[k];
    return inputs;
  },
  update,
  delete: remove,
};
