/**
 * What `Role` and `Database` share: both are objects of a branch, addressed by their name, that a
 * killed run or a lost answer may have created and the service may have made itself (a project's
 * owner role and database, the ones a child branch inherits).
 */
import { z } from "zod";
import { type NeonClient, type Operation, isNotFound } from "../../api";
import { displayName, type CheckFailure } from "../check";
import { createdByStack, pendingOperations, UNKNOWN, type Bag } from "../kit";
import type { Runtime } from "../runtime";

/** Where an object of a branch is. */
export interface BranchObjectRef {
  projectId: string;
  branchId: string;
  name: string;
}

/** `<projectId>/<branchId>/<name>`: the importId of a role or database. */
export const importIdOf = (r: BranchObjectRef): string => `${r.projectId}/${r.branchId}/${r.name}`;

/** Reads an importId (`<projectId>/<branchId>/<name>`; the name may itself contain `/`). */
export function parseImportId(id: string): BranchObjectRef | undefined {
  const [projectId, branchId, ...rest] = id.split("/");
  const name = rest.join("/");
  return projectId && branchId && name ? { projectId, branchId, name } : undefined;
}

/** Where the object of these inputs or outputs is. */
export const refOf = (p: Bag): BranchObjectRef => ({
  projectId: String(p.projectId),
  branchId: String(p.branchId),
  name: String(p.name),
});

/** The unfinished operations of a branch (those a lost answer started, among others; not old failures). */
export async function pendingBranchOps(
  api: NeonClient,
  projectId: string,
  branchId: string,
): Promise<Operation[]> {
  return pendingOperations(api, projectId, (o) => o.branch_id === branchId, { includeFailed: false });
}

/**
 * The error for a name a stack did not create (it existed before this create was sent): it names
 * the exact importId and the `adopt` flag, and says nothing was changed.
 */
export function refuseTaken(noun: "role" | "database", ref: BranchObjectRef): Error {
  return new Error(
    `Failed to create ${noun} "${ref.name}" on branch ${ref.branchId}: the branch already has a ${noun} of ` +
      `that name (the service made it, the branch inherited it from its parent, or another stack or an ` +
      `interrupted run created it), and this stack did not create it. To manage it, set adopt: true (destroy ` +
      `leaves it in place) or importId: "${importIdOf(ref)}" (destroy deletes it) on this resource and run ` +
      `\`pulumi up\` again; otherwise choose another name. Nothing was changed.`,
  );
}

/** The longest role (and database) name Postgres takes, in bytes. */
export const MAX_NAME_BYTES = 63;

/**
 * The rules an importId shares across Role and Database: it names the declared project, branch and
 * name, and excludes `adopt`.
 */
export function importIdFailures(v: {
  projectId?: unknown;
  branchId?: unknown;
  name?: unknown;
  importId?: unknown;
  adopt?: unknown;
}): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (v.adopt === true && v.importId !== undefined) {
    failures.push({
      property: "adopt",
      reason:
        "adopt and importId both take over an existing object; keep one (adopt leaves it in place on destroy)",
    });
  }
  if (typeof v.importId === "string") {
    const [p, b, ...rest] = v.importId.split("/");
    const declared = { projectId: p, branchId: b, name: rest.join("/") };
    for (const [k, actual] of Object.entries(declared)) {
      const given = (v as Bag)[k];
      if (typeof given === "string" && given !== actual) {
        failures.push({
          property: "importId",
          reason: `importId names ${k} ${JSON.stringify(actual)} but ${k} is ${JSON.stringify(given)}; make them the same`,
        });
      }
    }
  }
  return failures;
}

/** A project or branch id rule: 1–60 lower-case letters, digits and dashes. */
export const apiId = (what: string) =>
  z.string({ error: "must be a string" }).regex(/^[a-z0-9-]{1,60}$/, { error: `must be ${what}` });

/**
 * A branch id rule (`br-…`): a branch's name (`main`), a compute's id (`ep-…`) or a project id is a
 * likely mistake, refused before anything is read or sent. `required` is the message when it is missing.
 */
export const branchIdRule = (required: string) =>
  z
    .string({ error: required })
    .refine((b) => b.startsWith("br-"), {
      error: 'must be a branch id, which starts with "br-" (e.g. "br-small-sun-123456"), not a branch name',
      abort: true,
    })
    .refine((b) => b.length > 3, {
      error: 'has nothing after "br-": give the whole branch id (e.g. "br-small-sun-123456")',
      abort: true,
    })
    .refine((b) => /^br-[a-z0-9-]+$/.test(b), {
      error:
        'may hold only lower-case letters, digits and dashes after "br-" (branch ids are lower-case; ' +
        "copy the id, not the branch's name)",
      abort: true,
    })
    .refine((b) => b.length <= 60, { error: "must be at most 60 characters" });

/** A Postgres object name: 1–63 bytes (UTF-8). */
export const pgName = (what: string) =>
  displayName(MAX_NAME_BYTES).refine((s) => Buffer.byteLength(s, "utf8") <= MAX_NAME_BYTES, {
    error: `must be at most ${MAX_NAME_BYTES} bytes (Postgres truncates longer ${what} names)`,
  });

/**
 * Role names a new role cannot have: Postgres reserves `pg_…` and the pseudo-roles (`public`, `none`,
 * `current_user` …), and the service keeps `neon_superuser` (and its `cloud_admin`) for itself.
 */
export function reservedRoleName(name: string): string | undefined {
  // As Postgres compares them: case-sensitively (a quoted "PG_x" is an ordinary name).
  const n = name;
  if (n.startsWith("pg_")) return 'Postgres reserves role names that begin with "pg_"';
  if (["public", "none", "current_role", "current_user", "session_user"].includes(n))
    return `Postgres reserves the name "${n}"`;
  if (["neon_superuser", "cloud_admin"].includes(n)) return `the service keeps the role "${n}" for itself`;
  return undefined;
}

/** `"<projectId>/<branchId>/<name>"` as an importId rule, with an example naming what it imports. */
export const threePartImportId = (what: string, example: string) =>
  z.string({ error: "must be a string" }).regex(/^[a-z0-9-]{1,60}\/br-[a-z0-9-]{1,60}\/.+$/, {
    error: `must name an existing ${what} as "<projectId>/<branchId>/<${what}Name>", e.g. "${example}"`,
  });

/**
 * At preview, for a replacement that creates the object under another project, branch or name:
 * refuses when that name is already taken there, before the old object is deleted (the create that
 * follows the delete would be refused). Values not known yet are not judged.
 */
export async function refuseTakenTarget(
  noun: "role" | "database",
  olds: { projectId?: unknown; branchId?: unknown; name?: unknown },
  news: { projectId?: unknown; branchId?: unknown; name?: unknown },
  names: (projectId: string, branchId: string) => Promise<string[]>,
  deletesFirst = true,
): Promise<void> {
  const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;
  if (!known(news.projectId) || !known(news.branchId) || !known(news.name)) return;
  const same =
    olds.projectId === news.projectId && olds.branchId === news.branchId && olds.name === news.name;
  if (same) return;
  let taken: string[];
  try {
    taken = await names(news.projectId, news.branchId);
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
  if (!taken.includes(news.name)) return;
  const ref = { projectId: news.projectId, branchId: news.branchId, name: news.name };
  throw new Error(
    `Failed to replace ${noun} "${String(olds.name)}" of branch ${String(olds.branchId)}: its replacement would be ` +
      `${noun} "${ref.name}" of branch ${ref.branchId}, which already exists (the branch inherited it, or someone ` +
      `created it), so ${deletesFirst ? `the old ${noun} would be deleted and ` : ""}the new one would be refused. Choose another name, or manage ` +
      `the existing one with importId: "${importIdOf(ref)}" on a new resource. Nothing was changed.`,
  );
}

/**
 * Whether an object of this name on the branch is this stack's own, left by a killed run of it: the
 * branch carries the annotation of this stack (which created it), the object was made after the
 * branch (`createdAt`, not copied with it) and the parent has no object of the name. Anything else
 * stays refused ({@link refuseTaken}).
 */
export async function leftByThisStack(
  api: NeonClient,
  ref: BranchObjectRef,
  urn: unknown,
  namesOf: (projectId: string, branchId: string) => Promise<string[]>,
  createdAt?: string,
): Promise<boolean> {
  if (typeof urn !== "string") return false;
  let got: Awaited<ReturnType<NeonClient["branches"]["getAnnotated"]>>;
  try {
    got = await api.branches.getAnnotated(ref.projectId, ref.branchId);
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
  const parent = got.branch.parent_id;
  if (!createdByStack(got.annotation, urn) || !parent) return false;
  // Made after the branch, not copied with it: an inherited object carries the branch's creation time
  // (or an earlier one), also when the parent has since renamed or dropped its own.
  const made = createdAt ? Date.parse(createdAt) : NaN;
  const born = got.branch.created_at ? Date.parse(got.branch.created_at) : NaN;
  if (!(made > born)) return false;
  try {
    return !(await namesOf(ref.projectId, parent)).includes(ref.name);
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/**
 * A check failure when another resource of this program already declares the same object (the same
 * project, branch and name): two resources would own one object. Values not known yet are not judged.
 */
export function duplicateFailure(rt: Runtime, noun: "role" | "database", news: Bag): CheckFailure[] {
  const known = (v: unknown): v is string => typeof v === "string" && v !== UNKNOWN;
  if (!known(news.projectId) || !known(news.branchId) || !known(news.name) || typeof news.__urn !== "string")
    return [];
  const ref = refOf(news);
  const other = rt.ledger.declare(`${noun}:${importIdOf(ref)}`, news.__urn);
  if (!other) return [];
  return [
    {
      property: "name",
      reason:
        `${noun} "${ref.name}" of branch ${ref.branchId} is already declared by another resource of this program ` +
        `(${other.slice(other.lastIndexOf("::") + 2)}); two resources cannot manage one ${noun}: remove one of them`,
    },
  ];
}

/**
 * True when `ref`'s branch was made by this run and its create's answer did not name a `noun` of
 * that name: nothing else can have made one since (no earlier run saw the branch; two resources of
 * this program cannot declare one object), so a create needs no look first. A create's 409 or lost
 * answer is still reconciled.
 */
export function knownAbsent(rt: Runtime, noun: "roles" | "databases", ref: BranchObjectRef): boolean {
  const held = rt.ledger.branchHeld.get(`${ref.projectId}/${ref.branchId}`);
  return held !== undefined && !held[noun].includes(ref.name);
}

/**
 * True when the object's branch moved from `olds` to `news` because this run restored it
 * (docs/decisions/0021): the restored branch holds the snapshot's object of the same name, which the
 * create takes over, and the old one goes with the original branch (deleted or kept with it).
 */
export function followsRestore(rt: Runtime, olds: Bag, news: Bag): boolean {
  return (
    olds.projectId === news.projectId &&
    olds.name === news.name &&
    rt.ledger.restoredAs(olds.branchId, news.branchId)
  );
}

/**
 * At preview, true when the object's branch is being restored (its new id unknown yet) and nothing else
 * of it changes: its replacement is a take-over, said by the Branch's warning.
 */
export function restoreComing(rt: Runtime, olds: Bag, news: Bag): boolean {
  return (
    news.branchId === UNKNOWN &&
    olds.projectId === news.projectId &&
    olds.name === news.name &&
    rt.ledger.restoring(olds.branchId)
  );
}

/**
 * The inputs a dependent of a branch this run restores will have. At preview, and when the engine
 * deletes first what depends on a replaced resource, every input taken from the Branch is unknown; a
 * restore changes only the branch's id (its project, name and computes stay), so the other unknowns
 * read as their old values. `key` names the input that holds the branch (a child Branch's `parentId`).
 */
export function asAfterRestore<T extends Bag>(rt: Runtime, olds: Bag, news: T, key = "branchId"): T {
  if (news[key] !== UNKNOWN || !rt.ledger.restoring(olds[key])) return news;
  const out: Bag = { ...news };
  for (const [k, v] of Object.entries(news)) {
    if (v === UNKNOWN && k !== key && olds[k] !== undefined) out[k] = olds[k];
  }
  return out as T;
}

/**
 * The delete of an object whose branch this run restores (or restored): left with the original branch,
 * which the restore deletes or keeps as a whole. The engine deletes what depends on the Branch before
 * the Branch's own delete, which leaves the original to the restore. Returns true when left.
 */
export function leftWithRestoredBranch(rt: Runtime, noun: "role" | "database", props: Bag): boolean {
  const from = String(props.branchId);
  const restored = rt.ledger.branchesRestored.get(from);
  const earlier = rt.ledger.restoredEarlier.get(from);
  if (!restored && !earlier && !rt.ledger.restoring(from)) return false;
  rt.logger(props).info(
    `${noun} "${String(props.name)}" of branch ${from} stays with that branch, which a restore replaces ` +
      `(the restored branch holds the snapshot's ${noun} of the name); the original is deleted or kept as ` +
      "restoreFrom.original says",
  );
  return true;
}

/**
 * Whether an object found on `ref`'s branch came with the snapshot the branch was made from (this run's
 * restore, an earlier, interrupted one's, or a branch made anew from a snapshot): the branch names a
 * snapshot, and the object is no younger than the branch. One made there since is not the stack's.
 */
export async function fromSnapshot(
  rt: Runtime,
  ref: BranchObjectRef,
  createdAt: string | undefined,
): Promise<boolean> {
  const b = await rt
    .client()
    .branches.get(ref.projectId, ref.branchId)
    .catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
  if (typeof b?.restored_from !== "string") return false;
  return !createdAt || !b.created_at || Date.parse(createdAt) <= Date.parse(b.created_at);
}

/**
 * Before a Role's or Database's diff judges a move to another branch: when this run did not restore, the
 * new branch may be an earlier, interrupted run's restore of the old one (its `restored_as` names the
 * branch it replaced). Recorded so that the object is taken over there as this run's restore would.
 */
export async function noteEarlierRestore(rt: Runtime, olds: Bag, news: Bag): Promise<void> {
  const [from, to, projectId] = [olds.branchId, news.branchId, news.projectId];
  if (typeof from !== "string" || typeof to !== "string" || typeof projectId !== "string") return;
  if (from === to || to === UNKNOWN || projectId !== olds.projectId || rt.ledger.restoredAs(from, to)) return;
  if (await replacedBy(rt, projectId, from, to)) rt.ledger.restoredEarlier.set(from, to);
}

/** The name a restore's finalize gives the branch it replaces (`restoreNames` in branch/restore.ts). */
export const REPLACED_BY_RESTORE = /-before-restore-[0-9a-f]{7}$/;

/**
 * True when branch `to` is the restore that replaced branch `from`: it names `from` as the branch it
 * replaced, and `from` is gone or carries the name the finalize gave it (a restore that replaced
 * nothing still names its snapshot's branch).
 */
export async function replacedBy(rt: Runtime, projectId: string, from: string, to: string): Promise<boolean> {
  const get = (id: string) =>
    rt
      .client()
      .branches.get(projectId, id)
      .catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
  if ((await get(to))?.restored_as !== from) return false;
  const original = await get(from);
  return !original || REPLACED_BY_RESTORE.test(original.name);
}
