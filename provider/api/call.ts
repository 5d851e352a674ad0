/** The typed call the client's areas are built on (`buildClient` makes it over its HTTP client). */
import type { z } from "zod";
import type { Route } from "../http";

/** One typed call: a route, what it does (for messages), the answer's schema. */
export type Call = <S extends z.ZodType, T = z.infer<S>>(
  to: Route,
  verb: string,
  thing: string,
  schema: S,
  extra?: {
    query?: Record<string, string | number | boolean | undefined>;
    body?: unknown;
    map?: (v: z.infer<S>) => T;
  },
) => Promise<T>;
