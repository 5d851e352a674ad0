/**
 * The create of a role or database (objects of a branch, addressed by their name), once for both:
 * a name this stack did not create is refused with its importId, one a killed run of this stack left
 * is taken over, a lost answer is reconciled by the name (it was free before the create was sent, so
 * an object of that name now is this create's), a refusal for want of a compute waits for the one the
 * program declares, and an object made but not finished stays in the stack. Each resource gives only
 * its own calls and rules ({@link BranchObjectCreate}).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { NeonClient, Operation } from "../../api";
import type { ResourceLogger } from "../engine-log";
import { createOnce, keptInStack, waitingLine, type Bag } from "../kit";
import type { Runtime } from "../runtime";
import {
  knownAbsent,
  leftByThisStack,
  fromSnapshot,
  refOf,
  refuseTaken,
  type BranchObjectRef,
} from "./objects";
import { throughCompute } from "./needs-compute";

/** An object a create made or found, and the operations still to wait for. */
export interface Made<O> {
  object: O;
  operations: Operation[];
}

/** What one kind of branch object gives {@link createOnBranch}. */
export interface BranchObjectCreate<O extends { created_at?: string }> {
  noun: "role" | "database";
  /** The object as messages name it; without one, the declared object. */
  describe(o?: O): string;
  /** The resource's id for the object. */
  id(o: O): string;
  /** The resource's outputs for the object. */
  outputs(o: O): Bag;
  /** The object of the declared name on the branch, if there is one (one look). */
  find(): Promise<O | undefined>;
  /** The names of this kind of object on a branch (its parent's tell an inherited one from a made one). */
  names(projectId: string, branchId: string): Promise<string[]>;
  /** The error when an existing object of the name is unlike the declared one in what create cannot change. */
  unlike(existing: O): Error | undefined;
  /** An existing object of this stack's: what is left to wait for (`takenOver`: a killed run left it). */
  finishFound(existing: O, takenOver: ResourceLogger | undefined): Promise<Made<O>>;
  /** Sends the create request; sent once more only after a lost answer that made nothing (`createOnce`). */
  send(): Promise<Made<O>>;
  /**
   * The error for a create refused before it could make anything (a 409: the name was taken since it
   * was found free).
   */
  refused(err: unknown): Promise<never>;
}

/**
 * Creates the object of the resource whose inputs are `inputs` (its project, branch and name), as
 * `steps` (given the client and where the object is) describe it.
 */
export async function createOnBranch<O extends { created_at?: string }>(
  rt: Runtime,
  inputs: Bag,
  steps: (api: NeonClient, ref: BranchObjectRef) => BranchObjectCreate<O>,
): Promise<pulumi.dynamic.CreateResult> {
  const log = rt.logger(inputs);
  const ref = refOf(inputs);
  const c = steps(rt.client(), ref);
  const noun = c.noun;
  let made: O | undefined;
  try {
    await throughCompute(rt, ref, `create ${c.describe()}`, log, attempt);
  } catch (err) {
    if (!made) throw err;
    throw keptInStack(c.describe(made), err, c.id(made), c.outputs(made));
  }
  const o = made as O;
  return { id: c.id(o), outs: c.outputs(o) };

  function attempt(): Promise<void> {
    return rt.serialized(ref.projectId, async () => {
      // A branch this run made holds only what its create's answer named: no look needed then.
      // A retry after a refusal for want of a compute (throughCompute) may find the object its first
      // try made: this run's own, finished as a lost answer's would be.
      const ownFirstTry = made !== undefined;
      const existing = !made && knownAbsent(rt, `${noun}s`, ref) ? undefined : await c.find();
      // A branch this run restored from a snapshot holds the snapshot's objects: the stack's own, as they
      // were when it was taken (docs/decisions/0021).
      const restored =
        existing !== undefined && !ownFirstTry && (await fromSnapshot(rt, ref, existing.created_at));
      if (
        existing &&
        !ownFirstTry &&
        !restored &&
        !(await leftByThisStack(rt.client(), ref, inputs.__urn, c.names, existing.created_at))
      ) {
        throw refuseTaken(noun, ref);
      }
      const unlike = existing && c.unlike(existing);
      if (unlike) throw unlike;
      if (existing && restored) {
        log.info(
          `found ${c.describe(existing)} on branch ${ref.branchId}, which this run restored from a snapshot that ` +
            `held it; taking it over`,
        );
        made = existing;
        rt.ledger.noteTakenOver(noun, c.id(existing));
      } else if (existing && !ownFirstTry) {
        log.info(
          `found ${c.describe(existing)}: this stack created the branch (its annotation names the stack) and ` +
            `the branch did not inherit the ${noun}, so an interrupted run of this stack created it; taking it over`,
        );
        made = existing;
        rt.ledger.noteTakenOver(noun, c.id(existing));
      }
      // A restored object's password is read, or reset where the project does not store passwords: the
      // output must be one that logs in.
      const r = existing
        ? await c.finishFound(existing, ownFirstTry || restored ? undefined : log)
        : await createOnce<Made<O>, O>({
            log,
            send: () => c.send(),
            find: () => c.find(),
            describe: (found) => c.describe(found),
            refused: (err) => c.refused(err),
            finish: (found) => {
              // From here on it is this stack's object: a failure keeps it in the stack.
              made = found;
              return c.finishFound(found, undefined);
            },
          });
      const verb = existing && !ownFirstTry ? "took over" : "created";
      made = r.object;
      log.progress(waitingLine(`${verb} ${c.describe(made)}`, r.operations));
      await rt.waitFor(ref.projectId, r.operations, log);
    });
  }
}
