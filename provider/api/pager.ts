/**
 * Cursor pagination as an `AsyncIterable`, and a bounded "collect all".
 */

/** One fetched page: its items and the cursor of the next one. */
export interface Page<T> {
  items: T[];
  cursor?: string;
}

/**
 * Iterates every item of a cursor-paginated list, fetching a page only when
 * the previous one is used up. The API does not mark the last page, so the
 * pager stops at the first of: a page without a cursor, an empty page, or a
 * cursor equal to the previous one (a server that repeats itself would
 * otherwise loop forever).
 */
export function paginate<T>(
  limit: number,
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncIterable<T> {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`Failed to list: the page size must be a positive integer, got ${limit}.`);
  }
  return {
    async *[Symbol.asyncIterator]() {
      let cursor: string | undefined;
      for (;;) {
        const page = await fetchPage(cursor);
        yield* page.items;
        if (!page.cursor || page.items.length === 0 || page.cursor === cursor) return;
        cursor = page.cursor;
      }
    },
  };
}

/**
 * Collects at most `limit` items of an async iterable and stops fetching
 * there. The limit is required: an unbounded "collect everything" on an
 * account with years of operations is how clients fall over.
 */
export async function collectAll<T>(items: AsyncIterable<T>, opts: { limit: number }): Promise<T[]> {
  if (!opts || !Number.isInteger(opts.limit) || opts.limit < 0) {
    throw new RangeError("Failed to collect items: a non-negative integer `limit` is required.");
  }
  const out: T[] = [];
  if (opts.limit === 0) return out;
  for await (const item of items) {
    out.push(item);
    if (out.length >= opts.limit) break;
  }
  return out;
}
