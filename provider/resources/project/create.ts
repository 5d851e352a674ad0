/**
 * `Project`'s create and the reads it shares with refresh: a project made once (a lost answer or a
 * killed run reconciled by its name, within an hour and only one this stack's create could have made),
 * an existing project imported by `importId` as it is, and the parts of a project (its default branch,
 * compute, role and database) read back.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, type NeonClient, type Operation, type Project } from "../../api";
import {
  createOnce,
  keptInStack,
  pendingOperations,
  readImported,
  waitingLine,
  type Checked,
  type TakeOverStep,
  type Bag,
} from "../kit";
import type { Runtime } from "../runtime";
import type { ResourceLogger } from "../engine-log";
import type { ProjectInputs } from "./types";
import { changedInput } from "../compare";
import { PROJECT_DEFINITION } from "./definition";
import { autoName, createBody, describeProject, toOutputs, type ProjectParts } from "./mapping";

/** Whether input `key` differs between the old outputs and the new inputs, as the definition compares it. */
const changed = (key: string, olds: Bag, news: Bag) => changedInput(PROJECT_DEFINITION, key, olds, news);

/** A 404 that a project-scoped key gets for another project: a refusal, not "deleted". */
export function isScopeRefusal(err: ApiError): boolean {
  return /outside the project this key is scoped to/.test(err.apiMessage);
}

/** The project's default branch, primary compute, owner role and database, and a connection URI. */
export async function readParts(api: NeonClient, p: Project, old: Bag): Promise<ProjectParts> {
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
  // A URI kept out of the state (passwordInState) is not even read: it carries the password.
  if (databaseName && roleName && primary && old.passwordInState !== false) {
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

/** Projects visible to the key with exactly this name (names are not unique in Neon). */
export async function projectsNamed(
  api: NeonClient,
  name: string,
  orgId: string | undefined,
): Promise<Project[]> {
  const found: Project[] = [];
  for await (const p of api.projects.list({ search: name, orgId })) if (p.name === name) found.push(p);
  return found;
}

/** Unfinished operations of a project (a killed run's, when its create is finished by this one). */
export async function pendingOps(api: NeonClient, projectId: string): Promise<Operation[]> {
  return pendingOperations(api, projectId, () => true, { includeFailed: false });
}

/**
 * How young a project carrying this resource's auto-name must be for create to take it over as a
 * killed run's: an older one (another stack with the same URN, or the project a forced replacement
 * would delete) is refused with its importId instead.
 */
const TAKEOVER_WINDOW_MS = 60 * 60 * 1000;

export function refuseStranger(name: string, found: Project[]): Error {
  const ids = found.map((p) => p.id);
  return new Error(
    `Failed to create project "${name}": ${ids.length === 1 ? `project ${ids[0]} already has` : `projects ${ids.join(", ")} already have`} ` +
      "this name. Neon allows two projects with one name, but this provider does not create a second one, so " +
      "that an interrupted run never leaves a billed duplicate behind. If an earlier run of this stack created " +
      `it, set importId: "${ids[0]}" on this resource and run \`pulumi up\` again to manage it; otherwise give this ` +
      "project another name (or leave name out: the provider then derives a name of its own). Nothing was changed.",
  );
}

/**
 * A 400 or 422 to a project of Postgres 19, which is rolling out and accepted only in the regions
 * where it is enabled (Neon's API document): what to do if that is the cause. Keyed by the status and
 * the version asked for, never by the answer's words; the plan's limit keeps its own remedy, and any
 * other error stays as it is.
 */
function versionRefused(err: unknown, i: ProjectInputs): unknown {
  if (!(err instanceof ApiError && (err.status === 400 || err.status === 422) && i.pgVersion === 19))
    return err;
  if (err.code === "PROJECTS_LIMIT_EXCEEDED") return err;
  return err.withRemedy(
    "If it is Postgres 19 the service refused: 19 is rolling out and accepted only in the regions where it is " +
      `enabled${i.regionId ? ` (perhaps not ${i.regionId})` : ""}; choose pgVersion 18, or a region that offers 19, ` +
      "then run `pulumi up` again. Nothing was created.",
  );
}

interface Started {
  project: Project;
  operations: Operation[];
  /** From the create answer, when this run got it. */
  parts?: ProjectParts;
}

/**
 * The service's refusal of a project beyond the plan's limit (422 `PROJECTS_LIMIT_EXCEEDED`), with what
 * to do; any other error as it is.
 */
function limitReached(err: unknown, orgId: string | undefined): unknown {
  if (!(err instanceof ApiError && err.code === "PROJECTS_LIMIT_EXCEEDED")) return err;
  return err.withRemedy(
    `The ${orgId ? `organization ${orgId}` : "account (its personal projects)"} holds as many projects as its ` +
      "plan allows. Delete a project it no longer needs, or create this one in an organization (orgId) or on " +
      "a plan with room, then run `pulumi up` again. Nothing was created.",
  );
}

/** Sends the create; a lost answer is reconciled by the name (no project had it before), never resent blindly. */
export function createOrReconcile(
  api: NeonClient,
  i: ProjectInputs,
  name: string,
  log: ResourceLogger,
): Promise<Started> {
  return createOnce<Started, Project>({
    log,
    send: async () => {
      const r = await api.projects.create(createBody(i, name)).catch((err: unknown) => {
        throw limitReached(versionRefused(err, i), i.orgId);
      });
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

export async function create(rt: Runtime, i: Checked<ProjectInputs>): Promise<pulumi.dynamic.CreateResult> {
  const inputs: Bag = i;
  if (i.importId) return importExisting(rt, i, i.importId);
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
    rt.ledger.projectsClaimed.add(before[0].id);
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
export const importExisting: TakeOverStep<ProjectInputs, string> = async (rt, inputs, id) => {
  const api = rt.client();
  const p = await readImported("project", id, () => api.projects.get(id));
  // Only the names are compared: a URI kept out of the state (passwordInState) is not read for it.
  const parts = await readParts(api, p, { passwordInState: inputs.passwordInState });
  const actual = toOutputs({}, p, parts);
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
  return { id: p.id, outs: toOutputs(inputs, p, parts) };
};
