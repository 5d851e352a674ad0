/**
 * The lifecycle of `ProjectJwks`: check (two resources of the program declaring one JWKS, roles the
 * branch lacks, a JWKS of the URL and scope that no resource manages, an `importId` that is not what
 * the inputs declare — each refused at preview with nothing sent; the project and branch by the kit's
 * target rule), diff (every change replaces: the order by what changed), read (from the project's
 * list: the document has no read of one JWKS) and delete here; create in `create.ts`, the rules check
 * and create share in `rules.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { isNotFound, type Jwks } from "../../api";
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
import { importIdOf } from "../branch-objects/objects";
import { JWKS_PLACE_KEYS, PROJECT_JWKS_DEFINITION as DEF } from "./definition";
import { checkInputs } from "./inputs";
import { describeJwks, isAt, parseJwksRef, toOutputs } from "./mapping";
import { create } from "./create";
import { heldMessage, importProblem, isThisStacks, missingRoles } from "./rules";
import type { ProjectJwksInputs, ProjectJwksOutputs } from "./types";

type Inputs = ProjectJwksInputs;
type State = Stated<ProjectJwksOutputs>;

const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;
const shortName = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

// --- check / diff ----------------------------------------------------------------------------

/**
 * Every rule an add would refuse by, so that the preview fails where `up` would: one resource per JWKS
 * (URL and scope) in the program; for a JWKS to be added (a new resource or a replacement) declared
 * roles that the branch has or a Role of this program declares, and an `importId` that names a JWKS as
 * the inputs declare it, or else no JWKS of the URL and scope that no resource manages. The project
 * and branch that are not there: the kit's target rule names them.
 */
async function check(rt: Runtime, olds: Stated<Inputs>, news: Bag): Promise<CheckResult<Inputs>> {
  const { inputs, failures } = checkInputs(news);
  if (failures.length > 0) return { inputs: news, failures };
  const { projectId, branchId, jwksUrl, importId } = inputs;
  const fail = (property: string, reason: string) => ({ inputs: news, failures: [{ property, reason }] });
  const scopeKnown = branchId === undefined || known(branchId);
  if (known(projectId) && known(jwksUrl) && scopeKnown && typeof news.__urn === "string") {
    const other = rt.ledger.declare(`jwks:${projectId}/${branchId ?? "*"}/${jwksUrl}`, news.__urn);
    if (other) {
      return fail(
        "jwksUrl",
        `${jwksUrl} ${branchId ? `on branch ${branchId}` : "for every branch"} is already declared by another ` +
          `resource of this program (${shortName(other)}); two resources cannot manage one JWKS: remove one of them`,
      );
    }
  }
  const isNew = isNewResource(olds);
  if (!isNew && definedDiff(DEF, olds, inputs).replaces.length === 0) return { inputs };
  if (!known(projectId) || !scopeKnown) return { inputs };
  if (importId !== undefined && !isNew && olds.importId === importId) {
    return fail(
      "importId",
      `importId ${importId} names the JWKS this resource took over, which is read at creation only; remove ` +
        "importId so that the replacement adds a new JWKS",
    );
  }
  const roles = await roleFailures(rt, inputs);
  if (roles.length > 0) return { inputs: news, failures: roles };
  const all = await listed(rt, projectId);
  if (!all) return { inputs };
  if (importId !== undefined) {
    if (!isNew || !known(importId)) return { inputs };
    const id = parseJwksRef(importId).jwksId;
    const problem = importProblem(
      importId,
      inputs,
      all.find((j) => j.id === id),
    );
    return problem ? fail(problem.property, problem.reason) : { inputs };
  }
  if (!known(jwksUrl)) return { inputs };
  // A replacement's own JWKS is no holder: the one of a changed URL or scope goes after the add, and
  // one of the same URL and scope before it. Check's olds are the old inputs (no id): this resource's
  // JWKS is the one at its old URL and scope; the engine's second check of the replacement has none,
  // and the diff recorded the id.
  const urn = typeof news.__urn === "string" ? news.__urn : undefined;
  const own = (j: Jwks) =>
    (urn !== undefined && rt.ledger.jwksReplaced.get(urn) === j.id) ||
    (!isNew && olds.jwksUrl !== undefined && isAt(j, { jwksUrl: olds.jwksUrl, branchId: olds.branchId }));
  const held = all.find((j) => isAt(j, { jwksUrl, branchId }) && !own(j));
  if (!held || (await isThisStacks(rt.client(), held, inputs, urn))) return { inputs };
  return fail("jwksUrl", heldMessage(projectId, held));
}

/**
 * Declared roles that the branch lacks and no Role of this program declares. A branch that cannot be
 * read is left to the kit's target rule.
 */
async function roleFailures(rt: Runtime, i: Checked<Inputs>) {
  if (i.roleNames === undefined || !known(i.branchId)) return [];
  const { projectId, branchId } = i;
  const has = await rt
    .client()
    .roles.list(projectId, branchId)
    .then((rs) => rs.map((r) => r.name))
    .catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
  if (!has) return [];
  const declaredHere = (name: string) =>
    rt.ledger.declaredBy(`role:${importIdOf({ projectId, branchId, name })}`);
  const missing = missingRoles(i.roleNames, has).filter((r) => !declaredHere(r));
  if (missing.length === 0) return [];
  return [
    {
      property: "roleNames",
      reason:
        `branch ${branchId} has no role ${missing.map((r) => `"${r}"`).join(", ")} (it has ${has.join(", ") || "none"}); ` +
        "the provider asks the service not to create roles: declare each as a Role resource of the branch and " +
        "use its name (`${role.name}`), or leave roleNames out for the service's default roles",
    },
  ];
}

/** The project's JWKS; `undefined` for a project that cannot be found (the kit's target rule names it). */
async function listed(rt: Runtime, projectId: string): Promise<Jwks[] | undefined> {
  return rt
    .client()
    .jwks.list(projectId)
    .catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
}

async function diff(
  rt: Runtime,
  id: string,
  olds: State,
  news: Checked<Inputs>,
): Promise<pulumi.dynamic.DiffResult> {
  const d = definedDiff(DEF, olds, news);
  // A new URL or scope is added before the old JWKS goes, so tokens are accepted throughout; the same
  // URL and scope is removed first, since the service may hold it once (its document is silent).
  const moves = d.replaces.some((k) => (JWKS_PLACE_KEYS as readonly string[]).includes(k));
  if (d.replaces.length > 0 && typeof news.__urn === "string" && typeof olds.jwksId === "string") {
    rt.ledger.jwksReplaced.set(news.__urn, olds.jwksId);
  }
  if (d.replaces.length > 0 && rt.ledger.isPlanning(news)) {
    rt.logger(news).info(
      `${d.replaces.join(", ")} changed: JWKS ${String(olds.jwksId ?? id)} will be replaced ` +
        (moves ? "(the new one added first)" : "(removed first: the new one has the same URL and scope)"),
    );
  }
  return diffResult(d, d.replaces.length > 0 && !moves);
}

// --- read -----------------------------------------------------------------------------------

/**
 * Reads the JWKS by its id from the project's list. A JWKS missing from a list the provider could
 * read was deleted: no id drops it from the stack. A project the key cannot see fails instead.
 */
async function read(rt: Runtime, id: string, props?: State): Promise<pulumi.dynamic.ReadResult> {
  const old: State = props ?? {};
  const ref = parseJwksRef(id);
  const api = rt.client();
  const what = `JWKS ${ref.jwksId} of project ${ref.projectId}`;
  const all = await api.jwks.list(ref.projectId).catch(async (err: unknown) => {
    if (!isNotFound(err)) throw err;
    await confirmGone(api, ref.projectId, what, "refresh", err);
    return [];
  });
  const j = all.find((x) => x.id === ref.jwksId);
  if (!j) {
    rt.logger(old).info(`${what} was deleted outside the stack; dropping it from the stack`);
    return {};
  }
  const outs = toOutputs(old, ref.projectId, j);
  return { id, props: outs, inputs: refreshInputs(DEF, old, outs) };
}

// --- delete ------------------------------------------------------------------------------------

/**
 * Removes the JWKS (its delete starts no operation, as the document answers it); one the service no
 * longer has (404, the project visible) is deleted.
 */
async function remove(rt: Runtime, id: string, props: State): Promise<void> {
  const ref = parseJwksRef(id);
  const log = rt.logger(props);
  const what = describeJwks({
    id: ref.jwksId,
    provider_name: props.providerName,
    jwks_url: props.jwksUrl,
    branch_id: props.branchId,
  });
  // The answer is the deleted JWKS, with no operations: nothing to wait for.
  const send = () =>
    rt
      .client()
      .jwks.delete(ref.projectId, ref.jwksId)
      .then(() => undefined);
  await deleteAndWait(rt, ref.projectId, what, send, log);
  log.info(`removed ${what}`);
}

/** `ProjectJwks`'s own steps (see `../kit.ts`). */
export const projectJwksSteps: ResourceSteps<Inputs, ProjectJwksOutputs> = {
  check,
  diff,
  create,
  read,
  update: keepOutputs, // every input change replaces (see diff)
  delete: remove,
};
