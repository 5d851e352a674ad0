/**
 * The lifecycle of `ProjectPermission`: check (an address that has access through a grant no resource
 * of the stack manages fails at preview, with its `importId`), diff, read and delete (revoke; a grant
 * already revoked is deleted) here; create in `create.ts`, the rules check and create share in
 * `rules.ts`. A grant starts no operation: no step waits for the project's lock.
 */
import { isNotFound } from "../../api";
import type * as pulumi from "@pulumi/pulumi";
import { definedDiff } from "../compare";
import {
  UNKNOWN,
  confirmGone,
  deleteAndWait,
  diffResult,
  isNewResource,
  keepOutputs,
  refreshInputs,
  type Bag,
  type CheckResult,
  type Checked,
  type ResourceSteps,
  type Stated,
} from "../kit";
import type { Runtime } from "../runtime";

import { PROJECT_PERMISSION_DEFINITION as DEF } from "./definition";
import { checkInputs } from "./inputs";
import type { ProjectPermissionInputs, ProjectPermissionOutputs } from "./types";
import { describeGrant, isFor, parseGrantRef, toOutputs } from "./mapping";
import { create } from "./create";
import { heldMessage, importProblem } from "./rules";

type Inputs = ProjectPermissionInputs;
type State = Stated<ProjectPermissionOutputs>;

// --- check / diff ----------------------------------------------------------------------------

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;

/**
 * Every rule a create would refuse by, so that the preview fails where `up` would: one resource per
 * address and project in the program; an `importId` that names this address's grant (and is not the
 * one this resource already took over, on a replacement); without one, an address that has no access
 * through a grant no resource of the stack manages. The project's grants are read once, only for a
 * resource that is new or moves (a project that cannot be found: the kit's target rule names it).
 */
async function check(rt: Runtime, olds: Stated<Inputs>, news: Bag): Promise<CheckResult<Inputs>> {
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) return { inputs: news, failures };
  const { projectId, email, importId } = inputs;
  const fail = (property: string, reason: string) => ({ inputs: news, failures: [{ property, reason }] });
  if (!known(email)) return { inputs };
  // A project this run makes has no id at preview; when the run makes one project only, a grant
  // whose projectId is unknown is on that one (whichever grant is checked second, both projects were).
  const coming = rt.ledger.projectsComing;
  const project = known(projectId) ? projectId : coming.size === 1 ? `<${[...coming][0]}>` : undefined;
  if (project === undefined) return { inputs };
  const other =
    typeof news.__urn === "string"
      ? rt.ledger.declare(`project access:${project}/${email}`, news.__urn)
      : undefined;
  if (other) {
    const which = known(projectId)
      ? `project ${projectId}`
      : `the project this program makes (${project.slice(project.lastIndexOf("::") + 2, -1)})`;
    return fail(
      "email",
      `access of ${email} to ${which} is already declared by another resource of this program ` +
        `(${other.slice(other.lastIndexOf("::") + 2)}); two resources cannot manage one grant: remove one of them`,
    );
  }
  if (!known(projectId)) return { inputs };
  const isNew = isNewResource(olds);
  if (!isNew && olds.projectId === projectId && olds.email === email) return { inputs };
  if (importId !== undefined && !isNew && olds.importId === importId) {
    return fail(
      "importId",
      `importId ${String(importId)} names the grant this resource took over, which is read at creation only; ` +
        "remove importId so that the changed address is granted anew",
    );
  }
  if (importId !== undefined && !known(importId)) return { inputs };
  const grants = await rt
    .client()
    .permissions.list(projectId)
    .catch((err: unknown) => {
      // A project that cannot be found: the kit's target rule names it.
      if (isNotFound(err)) return undefined;
      throw err;
    });
  if (!grants) return { inputs };
  if (known(importId)) {
    const id = parseGrantRef(importId).permissionId;
    const problem = importProblem(
      importId,
      email,
      grants.find((g) => g.id === id),
    );
    return problem ? fail("importId", problem) : { inputs };
  }
  const held = grants.find((g) => isFor(g, email));
  return held ? fail("email", heldMessage(projectId, held)) : { inputs };
}

async function diff(
  _rt: Runtime,
  _id: string,
  olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.DiffResult> {
  // A changed address or project is granted before the old grant is revoked: no delete first.
  return diffResult(definedDiff(DEF, olds, news), false);
}

// --- read -----------------------------------------------------------------------------------

/**
 * Reads the grant by its id from the project's access list. A grant missing from a list the provider
 * could read was revoked: no id drops it from the stack. A project the key cannot see fails instead.
 */
async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const old: State = props ?? {};
  const ref = parseGrantRef(id);
  const api = rt.client();
  const what = describeGrant(ref.projectId, String(old.email ?? "an account"), ref.permissionId);
  const grants = await api.permissions.list(ref.projectId).catch(async (err: unknown) => {
    if (!isNotFound(err)) throw err;
    await confirmGone(api, ref.projectId, what, "refresh", err);
    return [];
  });
  const g = grants.find((x) => x.id === ref.permissionId);
  if (!g) {
    rt.logger(old).info(`${what} was revoked outside the stack; dropping it from the stack`);
    return {};
  }
  const outs = toOutputs(old, ref.projectId, g);
  return { id, props: outs, inputs: refreshInputs(DEF, old, outs) };
}

// --- delete ------------------------------------------------------------------------------------

/** Revokes the access; a grant the service no longer has (404, the project visible) is deleted. */
async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  const ref = parseGrantRef(id);
  const log = rt.logger(props);
  const what = describeGrant(ref.projectId, String(props.email), ref.permissionId);
  await deleteAndWait(
    rt,
    ref.projectId,
    what,
    async () => {
      await rt.client().permissions.revoke(ref.projectId, ref.permissionId);
      return { operations: [] };
    },
    log,
  );
  log.info(`revoked ${what}`);
}

/** `ProjectPermission`'s own steps (see `../kit.ts`). */
export const projectPermissionSteps: ResourceSteps<Inputs, ProjectPermissionOutputs> = {
  check,
  diff,
  create,
  read,
  update: keepOutputs, // every input change replaces (see diff)
  delete: remove,
};
