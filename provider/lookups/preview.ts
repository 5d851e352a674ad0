/**
 * A lookup that the service answers 404 during `pulumi preview`: an error, or a value the preview
 * cannot know. A preview fails on a wrong argument, as `up` would; but what it reads may be something
 * this run changes or that is going away, and then the value is unknown until `up`, with one warning:
 *
 * - The branch it names (or, for `getCompute`, the compute) comes from a resource of the program and is
 *   gone: the stack still holds an object the service deleted (a branch at its `expiresAt`, or one
 *   deleted outside the stack). A plain preview does not read it again; `up` fails on the same 404 until
 *   a refresh drops it.
 * - `getConnectionUri` and `getRolePassword`, whose project and branch exist: the database or role may
 *   be one this update creates or renames (a preview shows a rename under its new name before the
 *   service has it). A mistyped name shows the same way, and `up` fails on it.
 * - `getSchemaDiff` of a database whose name a resource of the program gives (an `Output` in the
 *   TypeScript face), on a branch that exists: the same rename or create.
 *
 * Everything else (`getSchemaDiff` of a database typed by hand that the branch lacks, an id typed by
 * hand that does not exist) fails the preview. Which object a 404 was about is found by reads, never by the answer's words.
 */
import type { NeonClient } from "../api";
import { isNotFound } from "../http/errors";
import { notFoundIn } from "./errors";

/** What the caller knows about where a lookup's arguments came from. */
export interface PreviewFacts {
  /** The client of the lookup (its reads here are GETs of what the arguments name). */
  readonly api: NeonClient;
  /**
   * Whether the argument `name` (`branchId`, `endpointId`) is an id a resource of the program gave: an
   * `Output` in the TypeScript face, a branch a `Branch` of this run declares in the plugin.
   */
  fromProgram(name: string, value: string): boolean;
  /** The `expiresAt` the program gives branch `branchId` (null: none), when the provider knows it. */
  expiryOf?(projectId: string, branchId: string): string | null | undefined;
}

/** An unknown at preview: the warning that says so, and the remedy a plugin's error names instead. */
export interface PreviewUnknown {
  /** `gone`: the object the stack holds was deleted; `not-yet`: a name this update may make. */
  readonly kind: "gone" | "not-yet";
  /** One line, for `pulumi.log.warn`: what is unknown, why, and when it fails. */
  readonly warning: string;
  /** Why, and what to do: the end of that line without the part about this preview. */
  readonly reason: string;
}

type Args = Record<string, unknown>;

const text = (v: unknown): v is string => typeof v === "string" && v !== "";

/**
 * For a lookup `name` whose call with `args` failed at preview with `err`: the unknown it is instead, or
 * undefined when it is an error. Reads the service only for a 404; a read that fails leaves the error.
 */
export async function unknownAtPreview(
  name: string,
  args: Args,
  err: unknown,
  facts: PreviewFacts,
): Promise<PreviewUnknown | undefined> {
  if (!notFoundIn(err)) return undefined;
  try {
    return (await goneObject(name, args, facts)) ?? (await notYetMade(name, args, err, facts));
  } catch {
    return undefined;
  }
}

/** The branch (or compute) of the program that the service no longer has. */
async function goneObject(
  name: string,
  args: Args,
  facts: PreviewFacts,
): Promise<PreviewUnknown | undefined> {
  const { projectId, branchId, endpointId } = args;
  if (!text(projectId)) return undefined;
  let what: string;
  if (text(branchId) && facts.fromProgram("branchId", branchId)) {
    if (!(await isGone(() => facts.api.branches.get(projectId, branchId)))) return undefined;
    const at = facts.expiryOf?.(projectId, branchId);
    // The service's clock (the 404's Date): has the expiry passed there?
    what =
      at && Date.parse(at) <= facts.api.serviceNow()
        ? `branch ${branchId} reached its expiry (${at}) and the service deleted it`
        : `branch ${branchId} is gone (the service deletes a branch at its expiresAt, or it was deleted ` +
          "outside this stack)";
  } else if (name === "getCompute" && text(endpointId) && facts.fromProgram("endpointId", endpointId)) {
    // getCompute's only request is the compute's own read: its 404 is the compute's.
    what =
      `compute ${endpointId} is gone (the service deletes a branch's computes with the branch, at its ` +
      "expiresAt; or it was deleted outside this stack)";
  } else {
    return undefined;
  }
  const reason =
    `${what}; the stack still holds it: \`pulumi refresh\` drops it, and the next \`pulumi up\` creates it ` +
    "again (given a later expiresAt, if it has one)";
  return {
    kind: "gone",
    reason,
    warning: `${name}: the result is unknown in this preview: ${reason}; \`pulumi up\` fails here until then`,
  };
}

/**
 * A database or role this update may make, on a project and branch that exist: getConnectionUri's
 * names, getRolePassword's role, and getSchemaDiff's database when a resource of the program gives its name (a literal name
 * that is not there is a mistake, and fails the preview).
 */
async function notYetMade(
  name: string,
  args: Args,
  err: unknown,
  facts: PreviewFacts,
): Promise<PreviewUnknown | undefined> {
  const { projectId, branchId, databaseName } = args;
  if (!text(projectId)) return undefined;
  const schemaOfProgram =
    name === "getSchemaDiff" &&
    text(branchId) &&
    text(databaseName) &&
    facts.fromProgram("databaseName", databaseName);
  const password = name === "getRolePassword";
  if (name !== "getConnectionUri" && !password && !schemaOfProgram) return undefined;
  const where = text(branchId)
    ? () => facts.api.branches.get(projectId, branchId)
    : () => facts.api.projects.get(projectId);
  if (await isGone(where)) return undefined;
  const said = (
    isNotFound(err) ? err.apiMessage : err instanceof Error ? err.message : "the service answered 404"
  ).replace(/[.\s]+$/, "");
  if (schemaOfProgram) {
    const reason = `${said}; right when this update creates or renames the database`;
    return {
      kind: "not-yet",
      reason,
      warning:
        `getSchemaDiff: ${said}; the schema difference is unknown in this preview (right when this update ` +
        "creates or renames the database, whose name a resource gives; otherwise `pulumi up` fails here)",
    };
  }
  if (password) {
    const reason = `${said}; right when this update creates the role; otherwise check roleName`;
    return {
      kind: "not-yet",
      reason,
      warning:
        `getRolePassword: ${said}; the password is unknown in this preview (right when this update creates ` +
        "the role; otherwise check roleName, or `pulumi up` fails here)",
    };
  }
  const reason =
    `${said}; right when this update creates or renames the database or role; otherwise check databaseName ` +
    "and roleName";
  return {
    kind: "not-yet",
    reason,
    warning:
      `getConnectionUri: ${said}; the connection string is unknown in this preview (right when this update ` +
      "creates or renames the database or role; otherwise check databaseName and roleName, or `pulumi up` " +
      "fails here)",
  };
}

/** True when `read` answers 404; its other failures are thrown. */
async function isGone(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (err) {
    if (isNotFound(err)) return true;
    throw err;
  }
}
