/** The API's DELETEs whose 204 means "does not exist or already deleted". */
import type { z } from "zod";
import { ResponseShapeError, type HttpClient, type Route } from "../http";
import { describeIssues } from "./schemas";

/** A DELETE whose 204 means "already gone" (`undefined`); any other answer is parsed with `schema`. */
export function deleteOr204<S extends z.ZodType>(http: HttpClient, to: Route, thing: string, schema: S) {
  return http.request<z.infer<S> | undefined>({
    route: to,
    verb: "delete",
    thing,
    parse: (data, status) => {
      if (status === 204 || data === undefined) return undefined;
      const r = schema.safeParse(data);
      if (!r.success) throw new ResponseShapeError(describeIssues(r.error));
      return r.data;
    },
  });
}
