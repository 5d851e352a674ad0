/**
 * The lifecycle of `Project`: check, diff (a change that would need a new project is refused at
 * preview: a project is never replaced), create (reconciling a killed run or a lost answer by the
 * project's name: never a second, billed project), read, update (name, history retention, default
 * compute settings) and delete (the whole project; refused before any request while a branch is
 * protected). Every change waits for its operations.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type NeonClient, type Operation, type Project, type ProjectUpdateBody } from "../../api";
import {
  createOnce,
  keptInStack,
  pendingOperations,
  refreshInputs,
  UNKNOWN,
  waitingLine,
  type Checked,
  type ResourceSteps,
} from "../kit";
import { changedInput, definedDiff } from "../compare";
import type { Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import { PROJECT_DEFINITION } from "./definition";
import { checkInputs } from "./inputs";
import type { ProjectInputs } from "./types";
import { autoName, createBody, describeProject, settingsBody, toOutputs, type ProjectParts } from "./mapping";

type Props = Record<string, unknown>;

/** Inputs set at creation whose change would need a new project: refused at preview. */
export const REFUSED = PROJECT_DEFINITION.properties
  .filter((p) => "change" in p && p.change === "refused")
  .map((p) => p.name);
/** Whether input `key` differs between the old outputs and the new inputs, as the definition compares it. */
const changed = (key: string, olds: Props, news: Props) => changedInput(PROJECT_DEFINITION, key, olds, news);

export const diffProject = (olds: Props, news: Props) => definedDiff(PROJECT_DEFINITION, olds, news);

/** The error of a change that would need a new project: what to set back, and how to move instead. */
export function refusal(id: string, olds: Props, news: Props, keys: string[]): Error {
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

async function check(_rt: Runtime, _olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const { inputs, failures } = checkInputs(news);
  return failures.length > 0 ? { inputs: news, failures } : { inputs };
}

async function diff(rt: Runtime, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const d = diffProject(olds, news);
  const known = d.refused.filter((k) => news[k] !== UNKNOWN);
  if (known.length > 0 && rt.isPlanning(news)) throw refusal(id, olds, news, known);
  return {
    changes: d.changes,
    replaces: [],
    stables: ["defaultBranchId", "createdAt", "regionId", "pgVersion"],
    deleteBeforeReplace: false,
  };
}

// --- reads ---------------------------------------------------------------------------------

/** A 404 that a project-scoped key gets for another project: a refusal, not "deleted". */
function isScopeRefusal(err: ApiError): boolean {
  return /outside the project this key is scoped to/.test(err.apiMessage);
}

/** The project's default branch, primary compute, owner role and database, and a connection URI. */
async function readParts(api: NeonClient, p: Project, old: Props): Promise<ProjectParts> {
  const branches = await api.branches.list(p.id);
  const def = branches.find((b) => b.default) ?? branches.find((b) => !b.parent_id);
  if (!def) throw new Error(`Failed to read ${describeProject(p)}: it has no default branch`);
  const primary = (await api.endpoints.listByBranch(p.id, def.id)).find((e) => e.type === "read_write");
  let databaseName = typeof old.databaseName === "string" ? old.databaseName : undefined;
  let roleName = typeof old.roleName === "string" ? old.roleName : undefined;
  if (!databaseName || !roleName) {
    const db = (await api.databases.list(p.id, def.id))[0];
    databaseName ??= db?.name;
    roleName ??= db?.owner_name;
  }
  let connectionUri = typeof old.connectionUri === "string" ? old.connectionUri : undefined;
  if (databaseName && roleName && primary) {
    try {
      connectionUri = await api.projects.connectionUri(p.id, { branchId: def.id, databaseName, roleName });
    } catch (err) {
      // 412 when the project does not store passwords, 404 when the role or database went away:
      // the URI is only a convenience, the project is there.
      if (!(err instanceof ApiError)) throw err;
    }
  }
  return {
    defaultBranchId: def.id,
    defaultBranchName: def.name,
    primaryComputeId: primary?.id,
    host: primary?.host,
    databaseName,
    roleName,
    connectionUri,
  };
}

// --- create --------------------------------------------------------------------------------

/** Projects visible to the key with exactly this name (names are not unique in Neon). */
async function projectsNamed(api: NeonClient, name: string, orgId: string | undefined): Promise<Project[]> {
  const found: Project[] = [];
  for await (const p of api.projects.list({ search: name, orgId })) if (p.name === name) found.push(p);
  return found;
}

/** Unfinished operations of a project (a killed run's, when its create is finished by this one). */
async function pendingOps(api: NeonClient, projectId: string): Promise<Operation[]> {
  return pendingOperations(api, projectId, () => true, { includeFailed: false });
}

/**
 * How young a project carrying this resource's auto-name must be for create to take it over as a
 * killed run's: an older one (another stack with the same URN, or the project a forced replacement
 * would delete) is refused with its importId instead.
 */
export const TAKEOVER_WINDOW_MS = 60 * 60 * 1000;

/** Projects a create of this instance took over: a delete in the same run must leave them. */
function claimedByCreate(rt: Runtime): Set<string> {
  return rt.store("project.claimedByCreate", () => new Set<string>());
}

function refuseStranger(name: string, found: Project[]): Error {
  const ids = found.map((p) => p.id);
  return new Error(
    `Failed to create project "${name}": ${ids.length === 1 ? `project ${ids[0]} already has` : `projects ${ids.join(", ")} already have`} ` +
      "this name. Neon allows two projects with one name, but this provider does not create a second one, so " +
      "that an interrupted run never leaves a billed duplicate behind. If an earlier run of this stack created " +
      `it, set importId: "${ids[0]}" on this resource and run \`pulumi up\` again to manage it; otherwise give this ` +
      "project another name (or leave name out: the provider then derives a name of its own). Nothing was changed.",
  );
}

interface Started {
  project: Project;
  operations: Operation[];
  /** From the create answer, when this run got it. */
  parts?: ProjectParts;
}

/** Sends the create; a lost answer is reconciled by the name (no project had it before), never resent blindly. */
function createOrReconcile(
  api: NeonClient,
  i: ProjectInputs,
  name: string,
  log: ResourceLogger,
): Promise<Started> {
  return createOnce<Started, Project>({
    log,
    send: async () => {
      const r = await api.projects.create(createBody(i, name));
      const rw = r.endpoints.find((e) => e.type === "read_write");
      const db = r.databases[0];
      return {
        project: r.project,
        operations: r.operations,
        parts: {
          defaultBranchId: r.branch.id,
          defaultBranchName: r.branch.name,
          primaryComputeId: rw?.id,
          host: rw?.host,
          databaseName: db?.name,
          roleName: db?.owner_name ?? r.roles[0]?.name,
          connectionUri: r.connection_uris?.[0]?.connection_uri,
        },
      };
    },
    find: async () => {
      const found = await projectsNamed(api, name, i.orgId);
      if (found.length > 1) throw refuseStranger(name, found);
      return found[0];
    },
    finish: async (p) => ({ project: p, operations: await pendingOps(api, p.id) }),
    describe: describeProject,
    // An answer that did not arrive, or arrived in a shape not understood: the project may exist.
    mayHaveMade: (err) =>
      err instanceof ApiError && (err.mayHaveReachedServer || err.kind === "invalid_response"),
  });
}

async function create(rt: Runtime, i: Checked<ProjectInputs>): Promise<pulumi.dynamic.CreateResult> {
  const inputs: Props = i;
  if (i.importId) return importExisting(rt, inputs, i.importId);
  const api = rt.client();
  const log = rt.logger(inputs);
  const urn = typeof inputs.__urn === "string" ? inputs.__urn : undefined;
  const name = i.name ?? (urn ? autoName(urn) : undefined);
  if (!name) throw new Error("Failed to create a project: it has no name and no URN to derive one from");
  const before = await projectsNamed(api, name, i.orgId);
  const young = (p: Project) => Date.now() - Date.parse(p.created_at) < TAKEOVER_WINDOW_MS;
  if (before.length > 0 && (i.name !== undefined || before.length > 1 || !young(before[0])))
    throw refuseStranger(name, before);
  let started: Started;
  if (before.length === 1) {
    log.info(
      `found ${describeProject(before[0])}, created for this resource by an interrupted run; finishing it`,
    );
    claimedByCreate(rt).add(before[0].id);
    started = { project: before[0], operations: await pendingOps(api, before[0].id) };
  } else {
    started = await createOrReconcile(api, i, name, log);
  }
  const p = started.project;
  try {
    log.progress(waitingLine(`created ${describeProject(p)}`, started.operations));
    await rt.serialized(p.id, () => rt.waitFor(p.id, started.operations, log));
    const parts = started.parts ?? (await readParts(api, p, inputs));
    return { id: p.id, outs: toOutputs(inputs, p, parts) };
  } catch (err) {
    throw keptInStack(
      describeProject(p),
      err,
      p.id,
      toOutputs(inputs, p, started.parts ?? { defaultBranchId: "" }),
    );
  }
}

/** Adopts the project `importId` names; the declared inputs must describe it as it is. */
async function importExisting(rt: Runtime, inputs: Props, id: string): Promise<pulumi.dynamic.CreateResult> {
  const api = rt.client();
  let p: Project;
  try {
    p = await api.projects.get(id);
  } catch (err) {
    if (err instanceof ApiError && err.kind === "not_found") {
      throw err.withRemedy(
        `Project ${id} does not exist (or the API key cannot see it). Check importId, or remove it to create a new project.`,
      );
    }
    throw err;
  }
  const actual = toOutputs({}, p, await readParts(api, p, {}));
  const differences = [
    "name",
    "regionId",
    "pgVersion",
    "databaseName",
    "roleName",
    "historyRetentionSeconds",
  ].filter((k) => changed(k, actual, inputs));
  if (differences.length > 0) {
    const detail = differences
      .map((k) => `${k}: declared ${JSON.stringify(inputs[k])}, actual ${JSON.stringify(actual[k])}`)
      .join("; ");
    throw new Error(
      `Failed to import ${describeProject(p)}: the declared inputs differ from the project (${detail}). Import changes nothing: make the program match the project, import, then change it in a later update.`,
    );
  }
  rt.logger(inputs).info(`imported ${describeProject(p)}; deleting this resource will delete the project`);
  return { id: p.id, outs: toOutputs(inputs, p, await readParts(api, p, inputs)) };
}

// --- read / update / delete ------------------------------------------------------------------

async function read(rt: Runtime, id: string, props?: Props): Promise<pulumi.dynamic.ReadResult> {
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
  olds: Props,
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
    const r = await api.projects.update(id, body);
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
  const parts: ProjectParts = olds.defaultBranchId
    ? ({
        defaultBranchId: String(olds.defaultBranchId),
        ...Object.fromEntries(carried.map((k) => [k, olds[k]])),
      } as ProjectParts)
    : await readParts(api, p, olds);
  return { outs: toOutputs(news, p, parts) };
}

async function remove(rt: Runtime, id: string, props: Props): Promise<void> {
  const log = rt.logger(props);
  if (claimedByCreate(rt).has(id)) {
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
export const projectSteps: ResourceSteps<ProjectInputs> = {
  check,
  diff,
  create,
  read,
  importInputs: (outs) => {
    const inputs: Props = {};
    for (const k of ["name", "regionId", "pgVersion", "historyRetentionSeconds"])
      if (outs[k] !== undefined) inputs[k] = outs[k];
    return inputs;
  },
  update,
  delete: remove,
};
