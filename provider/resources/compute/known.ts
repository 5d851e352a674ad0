/**
 * The computes of a project as this provider process knows them: one listing of the project, read
 * by the first create in it, kept current with the changes this process makes.
 *
 * A create looks at its branch's computes before it POSTs: to finish the compute an interrupted run
 * created for this very resource (its auto-name), to refuse an explicit name's leftover, to adopt a
 * primary, and to tell the compute a lost answer made from those that were there. The listing per
 * project and process, taken inside the project's queue and updated with every compute this process
 * creates, changes or deletes, answers the common case — nothing on the branch stands in the way —
 * for one request per project instead of one per compute (docs/decisions/0014). Other processes (other
 * provider instances, the plugin, people) may change the branch meanwhile, so whenever the listing
 * shows something to finish, adopt or refuse, the create reads the branch again before deciding; and
 * anything unexpected (a failed or unanswered change, a 409) drops the listing.
 */
import type { Endpoint, NeonClient } from "../../api";

type Listing = Map<string, Endpoint>;

const listings = new WeakMap<NeonClient, Map<string, Promise<Listing>>>();

function byProject(api: NeonClient): Map<string, Promise<Listing>> {
  let m = listings.get(api);
  if (!m) listings.set(api, (m = new Map()));
  return m;
}

/** The branch's computes: from the project's listing, read once (call it inside the project's queue). */
export async function branchComputes(
  api: NeonClient,
  projectId: string,
  branchId: string,
): Promise<Endpoint[]> {
  const m = byProject(api);
  let listing = m.get(projectId);
  if (!listing) {
    listing = api.endpoints.list(projectId).then((eps) => new Map(eps.map((e) => [e.id, e])));
    m.set(projectId, listing);
    // A failed read is not kept: the next create tries again.
    listing.catch(() => {
      if (m.get(projectId) === listing) m.delete(projectId);
    });
  }
  return [...(await listing).values()].filter((e) => e.branch_id === branchId);
}

/** Records a compute this process created or changed, as the API answered it. */
export async function remember(api: NeonClient, ep: Endpoint): Promise<void> {
  const listing = byProject(api).get(ep.project_id);
  if (!listing) return;
  try {
    (await listing).set(ep.id, ep);
  } catch {
    // No listing to update.
  }
}

/** Records that a compute this process deleted is gone. */
export async function forget(api: NeonClient, projectId: string, endpointId: string): Promise<void> {
  const listing = byProject(api).get(projectId);
  if (!listing) return;
  try {
    (await listing).delete(endpointId);
  } catch {
    // No listing to update.
  }
}

/** Drops the project's listing: something happened that this process cannot account for. */
export function invalidate(api: NeonClient, projectId: string): void {
  byProject(api).delete(projectId);
}
