/**
 * The create of `ProjectJwks`: once (a lost answer is reconciled by the JWKS's URL, scope and provider
 * name), or the take-over of the JWKS `importId` names. A JWKS of the declared URL and scope that no
 * resource manages is refused with its `importId` (nothing marks who added it).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ApiError, isNotFound, type Jwks, type NeonClient, type Operation } from "../../api";
import { createOnce, keptInStack, pendingOperations, waitingLine, type Checked } from "../kit";
import type { Runtime } from "../runtime";
import { PROJECT_JWKS_NOUN } from "./definition";
import { addBody, describeJwks, isAt, isDeclared, parseJwksRef, resourceId, toOutputs } from "./mapping";
import { heldMessage, importProblem, isThisStacks } from "./rules";
import type { ProjectJwksInputs } from "./types";

type Inputs = Checked<ProjectJwksInputs>;

/** Adds the declared JWKS, once; or, given `importId`, takes over that JWKS. */
export async function create(rt: Runtime, i: Inputs): Promise<pulumi.dynamic.CreateResult> {
  if (i.importId !== undefined) return importJwks(rt, i, i.importId);
  const api = rt.client();
  const log = rt.logger(i);
  const { projectId } = i;
  const refuse = (j: Jwks) =>
    new Error(`Failed to add a JWKS to project ${projectId}: ${heldMessage(projectId, j)}.`);
  const made = await rt.serialized(projectId, async () => {
    const held = (await api.jwks.list(projectId)).find((j) => isAt(j, i));
    if (held && !(await isThisStacks(api, held, i, i.__urn))) throw refuse(held);
    if (held) {
      // The stack's own (a `--replace`, whose old JWKS the engine removes only after this create, or a
      // killed run's): removed first, as a replacement of the same URL and scope is, since the service
      // holds one; the engine's delete of the old resource then finds it gone.
      await api.jwks.delete(projectId, held.id);
      log.info(`removed ${describeJwks(held)} first: this stack's own, of the same URL and scope`);
    }
    return createOnce({
      log,
      send: () => api.jwks.add(projectId, addBody(i)),
      find: async () => (await api.jwks.list(projectId)).find((j) => isDeclared(j, i)),
      finish: async (found) => ({ jwks: found, operations: await operationsOf(api, projectId, found) }),
      describe: (found) => describeJwks(found),
      refused: async (err) => {
        // 409: a JWKS of the URL and scope was added since it was found absent (by someone else).
        const now =
          err instanceof ApiError && err.kind === "conflict"
            ? (await api.jwks.list(projectId)).find((j) => isAt(j, i))
            : undefined;
        throw now ? refuse(now) : err;
      },
    });
  });
  const { jwks } = made;
  const id = resourceId({ projectId, jwksId: jwks.id });
  log.progress(waitingLine(`added ${describeJwks(jwks)}`, made.operations));
  try {
    await rt.waitFor(projectId, made.operations, log);
  } catch (err) {
    throw keptInStack(describeJwks(jwks), err, id, toOutputs(i, projectId, jwks));
  }
  return { id, outs: toOutputs(i, projectId, jwks) };
}

/** The operations a JWKS found after a lost answer may still have running: its branch's since it was added. */
function operationsOf(api: NeonClient, projectId: string, j: Jwks): Promise<Operation[]> {
  const match = (o: Operation) => j.branch_id === undefined || o.branch_id === j.branch_id;
  return pendingOperations(api, projectId, match, { includeFailed: true, since: j.created_at });
}

/**
 * Takes over the JWKS `importId` names, which must be what the inputs declare. A delete of this run
 * (the resource it was declared under before, renamed without an alias) leaves it.
 */
async function importJwks(rt: Runtime, i: Inputs, importId: string) {
  const ref = parseJwksRef(importId);
  const all = await rt
    .client()
    .jwks.list(ref.projectId)
    .catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
      throw err.withRemedy(
        `Project ${ref.projectId} of importId ${importId} does not exist (or the API key cannot see it). Check ` +
          "projectId and importId, or remove importId to add a new JWKS.",
      );
    });
  const j = all.find((x) => x.id === ref.jwksId);
  const problem = importProblem(importId, i, j);
  if (problem || !j) throw new Error(`Failed to import a JWKS: ${problem?.reason}.`);
  rt.ledger.noteTakenOver(PROJECT_JWKS_NOUN, importId);
  rt.logger(i).info(`took over ${describeJwks(j)}`);
  return { id: importId, outs: toOutputs(i, ref.projectId, j) };
}
