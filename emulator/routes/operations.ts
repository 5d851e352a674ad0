/** Operations: list (newest first, keyset cursor) and get. */
import { badRequest, notFound } from "../errors";
import type { Router } from "../server";
import type { Operation } from "../state";
import { intQuery } from "../validation";

export const DEFAULT_OPERATIONS_LIMIT = 10;

/**
 * The list cursor is the creation time of the last operation returned, as an
 * ISO 8601 UTC timestamp with microseconds. Creation times are unique per
 * emulator (the engine bumps them by 1 µs when needed), so the microseconds are
 * the tiebreak and pages never skip or repeat.
 */
export function formatCursor(us: number): string {
  const secondsMs = Math.floor(us / 1_000_000) * 1000;
  const micros = String(us % 1_000_000).padStart(6, "0");
  return `${new Date(secondsMs).toISOString().slice(0, 19)}.${micros}Z`;
}

export function parseCursor(cursor: string): number | undefined {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?Z$/.exec(cursor);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}Z`);
  if (Number.isNaN(ms)) return undefined;
  return ms * 1000 + Number((m[2] ?? "").padEnd(6, "0"));
}

export function operationRoutes(r: Router): void {
  r.get("/projects/:project_id/operations", (ctx) => {
    const p = ctx.project(ctx.params().project_id, "list operations");
    const q = ctx.query();
    const limit = intQuery(q.limit, "limit", 1, 1000, DEFAULT_OPERATIONS_LIMIT);
    let before = Infinity;
    if (q.cursor !== undefined) {
      const c = typeof q.cursor === "string" ? parseCursor(q.cursor) : undefined;
      if (c === undefined) {
        throw badRequest(
          `Invalid query parameter cursor=${String(q.cursor)}: pass the pagination.cursor of the previous page unchanged (an ISO 8601 UTC timestamp with fractional seconds)`,
        );
      }
      before = c;
    }
    const ops = ctx.store.opsOf(p.id);
    const page: Operation[] = [];
    let lastUs = 0;
    for (let i = ops.length - 1; i >= 0 && page.length < limit; i--) {
      if (ops[i].sim.created_us >= before) continue;
      page.push(ops[i].op);
      lastUs = ops[i].sim.created_us;
    }
    // `pagination` is present exactly when the page is full; a cursor then may yield an empty page.
    return {
      body:
        page.length === limit
          ? { operations: page, pagination: { cursor: formatCursor(lastUs) } }
          : { operations: page },
    };
  });

  r.get("/projects/:project_id/operations/:operation_id", (ctx) => {
    const { project_id, operation_id } = ctx.params();
    const p = ctx.project(project_id, "get operation");
    const rec = ctx.store.operation(p.id, operation_id);
    if (!rec)
      throw notFound(`Failed to get operation: operation ${operation_id} not found in project ${p.id}`);
    return { body: { operation: rec.op } };
  });
}
