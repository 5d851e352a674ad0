/**
 * Route templates, written as octokit writes them: `"GET /projects/{project_id}/endpoints"`. One
 * string names a call's method and path; {@link route} fills in its parameters, URI-encoded, and
 * keeps the template to name the call wherever it is reported (retry info, rate limits, errors).
 */
import type { HttpMethod } from "./retry";

/** A method, one space, and a path whose parameters are `{name}` placeholders. */
export type RouteTemplate = `${HttpMethod} /${string}`;

/** The placeholder names of a template: `"GET /a/{x}/b/{y}"` gives `"x" | "y"`. */
type ParamNames<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** The parameters a template needs: a value for each of its placeholders, and nothing else. */
export type RouteParams<T extends string> = { [K in ParamNames<T>]: string | number };

/** A template with its parameters filled in: what to send, and how to name it. */
export interface Route {
  /** The template as written, e.g. `GET /projects/{project_id}/endpoints`. */
  readonly template: RouteTemplate;
  readonly method: HttpMethod;
  /** The path with every parameter URI-encoded, e.g. `/projects/p%2F1/endpoints`. */
  readonly path: string;
}

const TEMPLATE = /^(GET|POST|PATCH|DELETE|PUT) (\/\S*)$/;
const PLACEHOLDER = /\{([^{}/]+)\}/g;

/**
 * Fills in a route template: `route("GET /projects/{project_id}", { project_id: "p-1" })`. The
 * parameters are checked against the template's placeholders at compile time, and again here,
 * where a missing or unknown one throws (that is a bug in the caller, not in its input).
 */
export function route<T extends RouteTemplate>(
  template: T,
  ...[params]: [ParamNames<T>] extends [never] ? [] : [RouteParams<T>]
): Route {
  const m = TEMPLATE.exec(template);
  if (!m) {
    throw new Error(
      `Failed to build a request: "${template}" is not a route template ("GET /path/{param}").`,
    );
  }
  const given: Record<string, string | number> = params ?? {};
  const used = new Set<string>();
  const path = m[2].replace(PLACEHOLDER, (_, name: string) => {
    const value = given[name];
    if (value === undefined) {
      throw new Error(`Failed to build a request: ${template} needs the parameter ${name}.`);
    }
    used.add(name);
    return encodeURIComponent(String(value));
  });
  const unknown = Object.keys(given).filter((k) => !used.has(k));
  if (unknown.length > 0) {
    throw new Error(`Failed to build a request: ${template} has no parameter ${unknown.join(", ")}.`);
  }
  return { template, method: m[1] as HttpMethod, path };
}
