/**
 * The computes of each project as this provider instance knows them — the one owner of that cache:
 * one listing of the project, read by the first create in it, kept current with the changes this
 * instance makes, and dropped whenever a change fails.
 *
 * A create looks at its branch's computes before it POSTs: to finish the compute an interrupted run
 * created for this very resource (its auto-name), to refuse an explicit name's leftover, to adopt a
 * primary, and to tell the compute a lost answer made from those that were there. The listing per
 * project and instance, taken inside the project's queue and updated with every compute this instance
 * creates, changes or deletes, answers the common case — nothing on the branch stands in the way —
 * for one request per project instead of one per compute (docs/decisions/0014). Other processes
 * (other provider instances, the plugin, people) may change the branch meanwhile, so whenever the
 * listing shows something to finish, adopt or refuse, the create reads the branch again before
 * deciding ({@link KnownComputes.fresh}).
 */
import type { Endpoint, NeonClient } from "../../api";

type Listing = Map<string, Endpoint>;

/** The listings of one API client (a runtime may change its client when its key changes). */
export class KnownComputes {
  private readonly listings = new Map<string, Promise<Listing>>();

  constructor(readonly api: NeonClient) {}

  /** The branch's computes: from the project's listing, read once (call it inside the project's queue). */
  async branch(projectId: string, branchId: string): Promise<Endpoint[]> {
    let listing = this.listings.get(projectId);
    if (!listing) {
      const read = this.api.endpoints.list(projectId).then((eps) => new Map(eps.map((e) => [e.id, e])));
      listing = read;
      this.listings.set(projectId, read);
      // A failed read is not kept: the next create tries again.
      read.catch(() => {
        if (this.listings.get(projectId) === read) this.listings.delete(projectId);
      });
    }
    return [...(await listing).values()].filter((e) => e.branch_id === branchId);
  }

  /** The branch's computes read now; the project's listing is dropped (it may be stale). */
  async fresh(projectId: string, branchId: string): Promise<Endpoint[]> {
    this.invalidate(projectId);
    return this.api.endpoints.listByBranch(projectId, branchId);
  }

  /** Records a compute this instance created or changed, as the API answered it. */
  async remember(ep: Endpoint): Promise<void> {
    const listing = this.listings.get(ep.project_id);
    if (!listing) return;
    try {
      (await listing).set(ep.id, ep);
    } catch {
      // No listing to update.
    }
  }

  /** Records that a compute this instance deleted is gone. */
  async forget(projectId: string, endpointId: string): Promise<void> {
    const listing = this.listings.get(projectId);
    if (!listing) return;
    try {
      (await listing).delete(endpointId);
    } catch {
      // No listing to update.
    }
  }

  /** Drops the project's listing: something happened that this instance cannot account for. */
  invalidate(projectId: string): void {
    this.listings.delete(projectId);
  }

  /** Runs a change of the project; when it fails, the listing is dropped (the outcome is unknown). */
  async changing<T>(projectId: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      this.invalidate(projectId);
      throw err;
    }
  }
}
