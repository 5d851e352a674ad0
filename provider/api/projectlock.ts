/**
 * The wait of a change answered 423 on a project, from one reading of the project's operations
 * (`estimateLock`); the HTTP client asks for it as its `lockWait`. The rule and its constants:
 * docs/decisions/0014-requests-at-the-control-planes-pace.md.
 */
import type { Clock, LockWait, Route } from "../http";
import { estimateLock, FAR_WAKE_SPREAD_MS, holderGraceMs, lockWaitMs } from "../operations/lock";
import type { Operation } from "./schemas";

/** What the lock's reading needs of the client (`NeonClient` has it). */
export interface OperationsReader {
  operations: {
    listPage(projectId: string, opts: { limit: number }): Promise<{ operations: Operation[] }>;
  };
  serviceNow(): number;
}

/** How many of a project's latest operations a 423 reads: what is pending, and enough history to time it. */
const LOCK_PAGE = 20;
/**
 * How long one reading of a project's operations may answer the 423s of this process (ms), at most;
 * and about the least time between two readings of one project by this process (at least this less
 * {@link LOCK_READING_SLACK_MS}): the operations route also carries every process's polls, the account
 * allows 40 requests per rolling second per route, and thirty waiters that each look about once a
 * second stay under it. A 423 asked within that second gets a wait until it has passed (no reading),
 * at whose end the change is looked for.
 */
const LOCK_READING_MS = 1_000;
/**
 * How early within that second a reading is still taken rather than waited for: a timer measures its
 * wait from the event loop's time, which lags the wall clock by what the loop was doing when the timer
 * was set (tens of ms on a busy machine), so a wait until the second's end may end a little before it
 * on the wall clock — and another wait of a few ms, one more retry reported, would follow.
 */
const LOCK_READING_SLACK_MS = 50;

/**
 * The wait of a 423 on a project: one page of its operations says what holds the lock and until when
 * (`estimateLock`). A reading — even one under way, or one that failed — serves every 423 of this
 * process on that project that it can explain: those asked with a `since` at or before its start (the
 * HTTP client passes the time the 423 arrived, or the end of a wait), and for a second those
 * asked with none. A route outside a project, or a page with nothing pending, gets no wait (the
 * backoff applies, or the change is tried).
 */
export function projectLockWait(client: OperationsReader, clock: Pick<Clock, "now" | "random">) {
  const readings = new Map<
    string,
    { at: number; page: Promise<{ ops: Operation[]; nowMs: number } | undefined> }
  >();
  return async (route: Route, since?: number): Promise<LockWait | undefined> => {
    const encoded = /^\/projects\/([^/]+)(?:\/|$)/.exec(route.path)?.[1];
    if (!encoded) return undefined;
    const projectId = decodeURIComponent(encoded);
    let reading = readings.get(projectId);
    if (!reading || reading.at < (since ?? clock.now() - LOCK_READING_MS)) {
      // Not within a second of this client's last reading of the project: a change refused just after
      // a look (another pipeline took the lock first) waits, then looks a second after that one. A
      // wait like any other, so that the call's deadline cuts it (no progress line: no holder).
      const soonest = reading ? reading.at + LOCK_READING_MS - clock.now() : 0;
      if (soonest > LOCK_READING_SLACK_MS) return { delayMs: Math.min(soonest, LOCK_READING_MS) };
      for (const [p, r] of readings) if (clock.now() - r.at > LOCK_READING_MS) readings.delete(p);
      const page = client.operations
        .listPage(projectId, { limit: LOCK_PAGE })
        .then((answer) => ({ ops: answer.operations, nowMs: client.serviceNow() }))
        .catch(() => undefined);
      reading = { at: clock.now(), page };
      readings.set(projectId, reading);
    }
    const read = await reading.page;
    if (!read) return undefined;
    // The change's own branch: the one its route names, none for a branch's create (runs of other
    // branches apply), unknown (`null`: no run rule) for a change on a branch its route does not name.
    const branch = /\/branches\/([^/]+)/.exec(route.path)?.[1];
    const own =
      branch !== undefined
        ? decodeURIComponent(branch)
        : route.template === "POST /projects/{project_id}/branches"
          ? undefined
          : null;
    const e = estimateLock(read.ops, read.nowMs, own);
    if (!e) {
      const grace = holderGraceMs(read.ops, client.serviceNow(), own);
      return grace > 0
        ? {
            // No operation holds it: the lock is passing from one change to the next. At the
            // grace's end the change is tried, not looked for: a look within a second of this one
            // would have to wait for that second (two looks of every waiter in one second would
            // crowd the route), and the project would idle meanwhile. Spread as a far wake is, as
            // the waiters of a grace all wait for the same moment; those a faster waiter beat to the
            // lock meet one 423 each, and look a second after this look (see docs/decisions/0014).
            delayMs: grace + clock.random() * FAR_WAKE_SPREAD_MS,
            thenTry: true,
            holder: `project ${projectId} is free; the branch that held it is expected to go on`,
          }
        : undefined;
    }
    // The estimate is on the service's clock; the wait is a duration, the same on both.
    const now = client.serviceNow();
    return {
      delayMs: lockWaitMs(e, now, clock.random),
      operationId: e.running.id,
      holder:
        `project ${projectId} is running ${e.running.action} (operation ${e.running.id}, ` +
        `${e.running.status} for ${Math.max(0, Math.round((now - e.startedMs) / 1000))} s` +
        `${e.pending > 1 ? `; ${e.pending} operations pending` : ""}` +
        `${e.followingChanges > 0 ? `; its branch is expected to send ${e.followingChanges} more` : ""})`,
    };
  };
}
