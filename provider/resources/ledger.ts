/**
 * What one provider instance remembers between the steps of a run, in one place. A step of one
 * resource often relies on what a step of another resource (or an earlier step of its own) learned:
 * a check that found a name held, a create that took over a killed run's object, a delete that
 * removed the first half of a replacement. Each fact is a typed field below with the step that writes
 * it and the steps that read it; a resource that needs a new fact adds a field here, so who relies on
 * what stays on one page.
 *
 * Reads of the service that are kept for the run (the project's facts, a project's computes) live
 * here too: what they hold is as much a memory of the run as what a step recorded.
 *
 * It lives only in the provider process, one per {@link Runtime}; nothing here is serialized into
 * state. Keys of objects are `noun:id` (`branch:br-…`) unless a field says otherwise.
 */
import type { NeonClient, ProjectDetails } from "../api";
import type { Bag } from "./definition";
import { KnownComputes } from "./compute/known";

/** What a branch made by this run held when its create answered (its parent's roles and databases). */
export interface MadeWith {
  readonly roles: readonly string[];
  readonly databases: readonly string[];
}

/** A read_write compute a program declares on a branch (see {@link RunLedger.expectCompute}). */
export interface ComputeComing {
  /** Settles when its create (or move) has ended, made or failed. */
  readonly done: Promise<void>;
  settle: () => void;
  /** Its create (or move) has begun. */
  started: boolean;
  /** Its create (or move) has ended. */
  settled: boolean;
}

/** One provider instance's memory of its run; see the module comment. */
export class RunLedger {
  /**
   * URNs whose inputs the engine checked. Writer: the kit's check. Readers: the diffs that warn or
   * read to vet a change (Branch, Compute, Database, Project, Role), through {@link isPlanning}: a
   * refresh diffs without a check, and those are for plans only.
   */
  private readonly checked = new Set<string>();

  /**
   * Objects this run created (`noun:id`). Writers: the kit's create (every resource), Branch's create
   * (`branch-in:<projectId>/<branchId>`, and `compute-on:<branchId>` for a branch made with its
   * compute). Readers: Role's check (a branch made now holds no stranger's role), Database's owner rule
   * (a role made now), the needs-compute rule of Role's and Database's checks and diffs (`compute-on`),
   * the kit's target check (`branch-in`).
   */
  private readonly made = new Set<string>();

  /**
   * Objects a create of this run took over instead of creating (a killed run's). Writers: the creates
   * of Branch, Role, Database, ProjectPermission. Reader: the kit's delete, which leaves them (the
   * delete of a replacement's old half, or of a resource renamed without an alias).
   */
  private readonly takenOver = new Set<string>();

  /**
   * Projects (by id) a Project create took over. Writer: Project's create. Reader: Project's delete.
   */
  readonly projectsClaimed = new Set<string>();

  /**
   * Computes a Compute create took over (key `endpointId@createdAt`, from `claimKey`). Writer:
   * Compute's create. Reader: Compute's delete.
   */
  readonly computesClaimed = new Set<string>();

  /**
   * What this run deleted for a resource (URN → a description of the object). Writer: the kit's
   * delete. Reader: the kit's create, which names it when the replacement's create fails.
   */
  private readonly deleted = new Map<string, string>();

  /**
   * Objects a refresh of this run found deleted by the service at their expiry (key → the expiry).
   * Writer: Branch's read (a refresh). Reader: Branch's check (its expiry rules).
   */
  private readonly expired = new Map<string, string>();

  /**
   * Which resource of the program declares an object (key → URN): two resources cannot manage one.
   * Writers: the checks of Branch, Role, Database, ProjectPermission, and Role's check for a role it
   * deletes (`deleting-role:`). Readers: those checks, and Database's owner rules at check and diff
   * (is the owner role declared here, or being deleted?).
   */
  private readonly declared = new Map<string, string>();

  /**
   * The read_write compute a program declares on a branch (branch id → its coming). Writers:
   * Compute's check (expects it), create and update (started, settled). Readers: the needs-compute
   * wait of Role's and Database's creates and updates, and the same rule at their checks and diffs
   * (a warning, a refused delete-first move).
   */
  private readonly computesComing = new Map<string, ComputeComing>();

  /** Lines said once per run (a warning not repeated at every check). Writer and reader: {@link firstTime}. */
  private readonly said = new Set<string>();

  /**
   * Names (`<projectId>/<name>`) a Branch check found held. Writer: Branch's check. Reader: Branch's
   * create, which looks such a name up before sending.
   */
  readonly branchNamesHeld = new Set<string>();

  /**
   * Branches this run's creates made anew (not adopted, imported or taken over). Writer: Branch's
   * create. Reader: Branch's check (the branch budget counts them once).
   */
  readonly branchesMadeAnew = new Set<string>();

  /**
   * The new branches the program declares, per project (project id → URNs). Writer and reader:
   * Branch's check (the budget counts them all).
   */
  readonly branchesPlanned = new Map<string, Set<string>>();

  /**
   * Databases this run gave a new owner (the owner role's id `<projectId>/<branchId>/<name>` → the
   * databases' names). Writer: Database's update. Reader: Role's delete, whose refusal (the role owns
   * a database) then says the program itself handed the database over.
   */
  readonly ownershipsGiven = new Map<string, string[]>();

  /**
   * The Projects this run makes (URNs), whose ids a preview does not know. Writer: Project's check.
   * Reader: ProjectPermission's check (two grants of one address to the one project this run makes).
   */
  readonly projectsComing = new Set<string>();

  /**
   * The expiry the program gives each existing branch it declares (`<projectId>/<branchId>` → its
   * expiresAt, null for none). Writer: Branch's diff. Reader: Branch's check, whose parent must not
   * expire (`parentExpiryFailures`).
   */
  readonly expiryPlanned = new Map<string, string | null>();

  /**
   * Branches this run's diffs replace (URN → the old branch's id). Writer: Branch's diff. Reader:
   * Branch's check, which the engine runs again without olds for the replacement: the old branch,
   * deleted first, neither holds the name nor counts against the budget.
   */
  readonly branchesReplaced = new Map<string, string>();

  /**
   * Branches this run restored from a snapshot (the replaced branch's id → the restored branch's id, and
   * what became of the replaced one; docs/decisions/0021). Writer: Branch's create (a restore). Readers:
   * the diffs and deletes of Role and Database (the old objects stay with the original; their creates ask
   * the service whether an object came with the snapshot), Compute's update (the finalize moved it
   * already), the diffs of Snapshot and of a child Branch (their branch's new id is no change).
   */
  readonly branchesRestored = new Map<string, { id: string; original: "delete" | "keep" }>();

  /**
   * The Branches this run's diffs replace by a restore (URN → the replaced branch's id): `restoreFrom`
   * names another snapshot. Writer: Branch's diff. Readers: Branch's delete (which leaves the original to
   * the restore), its check and create (the branch to restore onto), and the diffs and deletes of what
   * depends on the branch ({@link restoring}), which the engine runs before the Branch's own delete.
   */
  readonly branchesToRestore = new Map<string, string>();

  /**
   * Restores an earlier, interrupted run made (the replaced branch's id → the restored branch's), as the
   * restored branch's `restored_as` says. Writers: the diffs of Role, Database and a child Branch.
   * Readers: as {@link branchesRestored}'s.
   */
  readonly restoredEarlier = new Map<string, string>();

  /** True when branch `newId` is the restore of branch `oldId` (this run's, or an earlier run's). */
  restoredAs(oldId: unknown, newId: unknown): boolean {
    if (typeof oldId !== "string") return false;
    return this.branchesRestored.get(oldId)?.id === newId || this.restoredEarlier.get(oldId) === newId;
  }

  /** True when a diff of this run planned a restore of branch `oldId` (its new id unknown at preview). */
  restoring(oldId: unknown): boolean {
    for (const id of this.branchesToRestore.values()) if (id === oldId) return true;
    return false;
  }

  /**
   * Snapshots this run's diffs replace (URN → the old snapshot's id). Writer: Snapshot's diff. Readers:
   * Snapshot's check, which the engine runs again without olds for the replacement, and its create:
   * the old snapshot, deleted first, neither holds the name nor is this resource's to take over.
   */
  readonly snapshotsReplaced = new Map<string, string>();

  /**
   * JWKS this run's diffs replace (URN → the old JWKS's id). Writer: ProjectJwks's diff. Reader: its
   * check, which the engine runs again without olds for the replacement: the old JWKS of the same URL and
   * scope, removed first, holds nothing.
   */
  readonly jwksReplaced = new Map<string, string>();

  /**
   * The branches this run makes anew — new resources and replacements, whose ids a preview does not
   * know (URN → project and expiresAt, null for none). Writers: Branch's check (a new resource) and
   * diff (a replacement). Reader: Branch's check, for a parent given as an unknown id.
   */
  readonly branchesComing = new Map<string, { projectId: string; expiresAt: string | null }>();

  /**
   * What each branch this run made held when its create answered (`<projectId>/<branchId>`).
   * Writer: Branch's create. Reader: Role's and Database's creates (a name the answer did not hold
   * needs no look first).
   */
  readonly branchHeld = new Map<string, MadeWith>();

  /**
   * The project as this process first read it (project id → the read). Writer and reader: the
   * runtime's `projectFacts` and `primeServiceClock`, for the checks of Branch and Compute and the
   * kit's target check; dropped by Project's update (`forgetProject`).
   */
  readonly projectReads = new Map<string, Promise<ProjectDetails>>();

  /**
   * The computes of each project as this instance knows them, per API client. Writers and readers:
   * Compute's create, update and delete (see `compute/known.ts`).
   */
  private readonly computeListings = new WeakMap<NeonClient, KnownComputes>();

  /** Records that the engine checked these inputs (they carry their resource's `__urn`). */
  markChecked(news: Bag): void {
    if (typeof news.__urn === "string") this.checked.add(news.__urn);
  }

  /** True once a check ran in this run (a destroy checks nothing; `up` deletes what a killed run left first). */
  anyChecked(): boolean {
    return this.checked.size > 0;
  }

  /** True when `diff` runs for a preview or an update (its inputs were checked), not for a refresh. */
  isPlanning(news: Bag): boolean {
    return typeof news.__urn === "string" && this.checked.has(news.__urn);
  }

  /** Records that this run created the `noun` (a branch, a role …) `id`. */
  noteMade(noun: string, id: string): void {
    this.made.add(`${noun}:${id}`);
  }

  /** True when this run created the `noun` `id` (e.g. a branch a role is declared on). */
  madeThisRun(noun: string, id: string): boolean {
    return this.made.has(`${noun}:${id}`);
  }

  /** Records that a create of this run took over the existing `noun` `id`: no delete of this run removes it. */
  noteTakenOver(noun: string, id: string): void {
    this.takenOver.add(`${noun}:${id}`);
  }

  /** True when a create of this run took over the `noun` `id`. */
  takenOverThisRun(noun: string, id: string): boolean {
    return this.takenOver.has(`${noun}:${id}`);
  }

  /** Records that this run deleted the object (`what`) of the resource `urn` (a replacement's first half). */
  noteDeleted(urn: string, what: string): void {
    this.deleted.set(urn, what);
  }

  /** The object this run deleted for the resource `urn`, if it did. */
  deletedThisRun(urn: string): string | undefined {
    return this.deleted.get(urn);
  }

  /** Records that a refresh of this run found `key` deleted by the service at its expiry `at`. */
  noteExpired(key: string, at: string): void {
    this.expired.set(key, at);
  }

  /** The expiry at which a refresh of this run found `key` deleted by the service, if it did. */
  expiredThisRun(key: string): string | undefined {
    return this.expired.get(key);
  }

  /**
   * Records that resource `urn` declares the object `key` (e.g. a role's importId) and returns the
   * URN of another resource of this program that already declared it, if one did.
   */
  declare(key: string, urn: string): string | undefined {
    const other = this.declared.get(key);
    if (other !== undefined && other !== urn) return other;
    this.declared.set(key, urn);
    return undefined;
  }

  /** The URN of the resource of this program that declared the object `key` (see {@link declare}). */
  declaredBy(key: string): string | undefined {
    return this.declared.get(key);
  }

  /**
   * A read_write compute this program declares on `branchId` and has not made yet (its check ran for a
   * new resource, or one that moves there): a role or database of that branch refused for want of one
   * waits for it ({@link computeComing}) instead of failing, once its create has started.
   */
  expectCompute(branchId: string): ComputeComing {
    let c = this.computesComing.get(branchId);
    // A second compute coming to the branch in one run (the first one's create ended) is waited for anew.
    if (!c || c.settled) {
      let settle!: () => void;
      const done = new Promise<void>((resolve) => (settle = resolve));
      c = { done, settle, started: false, settled: false };
      this.computesComing.set(branchId, c);
    }
    return c;
  }

  /** The create (or move) of the expected compute of `branchId` has begun. */
  computeStarted(branchId: string): void {
    const c = this.computesComing.get(branchId);
    (c && !c.started ? c : this.expectCompute(branchId)).started = true;
  }

  /** The expected compute of `branchId` was made, or its create failed: what waits for it goes on. */
  computeSettled(branchId: string): void {
    const c = this.computesComing.get(branchId) ?? this.expectCompute(branchId);
    c.started = true;
    c.settled = true;
    // Kept, settled: a change refused just before may look for it only after it was made.
    c.settle();
  }

  /** The read_write compute this program declares on `branchId`, if any: whether its create began, and its end. */
  computeComing(branchId: string): ComputeComing | undefined {
    return this.computesComing.get(branchId);
  }

  /** True the first time `line` is asked about in this run: a warning shown once, not at every check. */
  firstTime(line: string): boolean {
    if (this.said.has(line)) return false;
    this.said.add(line);
    return true;
  }

  /** The computes this instance knows through `api` (one listing per project; see `compute/known.ts`). */
  knownComputes(api: NeonClient): KnownComputes {
    let known = this.computeListings.get(api);
    if (!known) this.computeListings.set(api, (known = new KnownComputes(api)));
    return known;
  }
}
