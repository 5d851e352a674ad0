/**
 * The create of `ProjectPermission`: once (a lost answer is reconciled by the address, which had no
 * access before the grant was sent), or the take-over of the grant `importId` names.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, isNotFound } from "../../api";
import { createOnce, type Checked } from "../kit";
import type { Runtime } from "../runtime";

import type { ProjectPermissionInputs } from "./types";
import { describeGrant, parseGrantRef, resourceId, toOutputs } from "./mapping";
import { PROJECT_PERMISSION_NOUN } from "./definition";
import { grantOf, heldMessage, importProblem } from "./rules";

/** Grants the declared address access, once; or, given `importId`, takes over that grant. */
export async function create(
  rt: Runtime,
  inputs: Checked<ProjectPermissionInputs>,
): Promise<pulumi.dynamic.CreateResult> {
  const api = rt.client();
  const { projectId, email } = inputs;
  const log = rt.logger(inputs);
  if (inputs.importId !== undefined) return importGrant(rt, inputs, inputs.importId);
  const held = await grantOf(api, projectId, email);
  if (held)
    throw new Error(`Failed to grant access to project ${projectId}: ${heldMessage(projectId, held)}`);
  const find = () => grantOf(api, projectId, email);
  const g = await createOnce({
    log,
    send: () => api.permissions.grant(projectId, email),
    find,
    finish: async (found) => found,
    describe: (found) => describeGrant(projectId, email, found.id),
    refused: async (err) => {
      // 409: the address was given access since it was found without (by someone else).
      const now = err instanceof ApiError && err.kind === "conflict" ? await find() : undefined;
      if (now)
        throw new Error(`Failed to grant access to project ${projectId}: ${heldMessage(projectId, now)}`);
      throw err;
    },
  });
  log.info(`granted ${describeGrant(projectId, email, g.id)}`);
  return { id: resourceId({ projectId, permissionId: g.id }), outs: toOutputs(inputs, projectId, g) };
}

/**
 * Takes over the grant `importId` names, which must be the declared address's. A delete of this run
 * (the resource it was declared under before, renamed without an alias) leaves it.
 */
async function importGrant(rt: Runtime, inputs: Checked<ProjectPermissionInputs>, importId: string) {
  const ref = parseGrantRef(importId);
  const grants = await rt
    .client()
    .permissions.list(ref.projectId)
    .catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
      throw err.withRemedy(
        `Project ${ref.projectId} of importId ${importId} does not exist (or the API key cannot see it). Check ` +
          "projectId and importId, or remove importId to grant access anew.",
      );
    });
  const g = grants.find((x) => x.id === ref.permissionId);
  const problem = importProblem(importId, inputs.email, g);
  if (problem || !g) throw new Error(`Failed to import project access: ${problem}.`);
  rt.ledger.noteTakenOver(PROJECT_PERMISSION_NOUN, importId);
  rt.logger(inputs).info(`took over ${describeGrant(ref.projectId, g.granted_to_email, g.id)}`);
  return { id: importId, outs: toOutputs(inputs, ref.projectId, g) };
}
