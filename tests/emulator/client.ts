/**
 * A small HTTP client for the emulator tests. Every response of a route the
 * OpenAPI document describes is validated against it, so each test doubles as a
 * conformance test.
 */
import type { EmulatorHandle } from "../../emulator";
import { conformanceErrors, declaresNoBody, declaresStatus, hasRoute } from "./openapi";

/**
 * Response bodies are typed loosely on purpose: their shape is checked by the
 * OpenAPI validator on every call, and tests read fields directly.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;

export interface Res<T = Body> {
  status: number;
  body: T;
  headers: Headers;
}

export interface ReqOptions {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Sent as is (e.g. malformed JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** API key token; `null` sends no Authorization header. */
  key?: string | null;
}

/** Every response checked so far (the conformance suite asserts coverage of routes). */
export const checked = new Set<string>();

export class Client {
  constructor(
    readonly emu: EmulatorHandle,
    public key: string = emu.apiKey,
    /**
     * Validate with deprecated properties optional: the emulator leaves them out by default
     * (`omitDeprecatedFields`); `false` for one started with them.
     */
    readonly deprecatedOptional = true,
  ) {}

  async req<T = Body>(method: string, route: string, o: ReqOptions = {}): Promise<Res<T>> {
    const path = route.replace(/\{(\w+)\}/g, (_, k: string) => {
      const v = o.params?.[k];
      if (v === undefined) throw new Error(`missing path parameter ${k} for ${route}`);
      return encodeURIComponent(String(v));
    });
    const qs = o.query
      ? `?${new URLSearchParams(Object.entries(o.query).map(([k, v]): [string, string] => [k, String(v)]))}`
      : "";
    const headers: Record<string, string> = { accept: "application/json", ...(o.headers ?? {}) };
    const key = o.key === undefined ? this.key : o.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined) headers["content-type"] ??= "application/json";
    const r = await fetch(`${this.emu.url}${path}${qs}`, { method, headers, body });
    const text = await r.text();
    const json = text ? JSON.parse(text) : undefined;
    if (hasRoute(method, route)) {
      if (r.status === 204) {
        if (!declaresStatus(method, route, 204))
          throw new Error(`${method} ${route} answered 204, which the API does not declare`);
        if (text !== "") throw new Error(`${method} ${route} answered 204 with a body`);
      } else if (declaresNoBody(method, route, r.status)) {
        if (text !== "")
          throw new Error(`${method} ${route} answered ${r.status} with a body the API does not declare`);
      } else {
        const errors = conformanceErrors(method, route, r.status, json, this.deprecatedOptional);
        if (errors) {
          throw new Error(
            `${method} ${route} → ${r.status} does not conform to the OpenAPI schema:\n${errors}\n${text.slice(0, 2000)}`,
          );
        }
      }
      checked.add(`${method} ${route}`);
    }
    return { status: r.status, body: json as T, headers: r.headers };
  }

  get<T = Body>(route: string, o?: ReqOptions) {
    return this.req<T>("GET", route, o);
  }
  post<T = Body>(route: string, o?: ReqOptions) {
    return this.req<T>("POST", route, o);
  }
  patch<T = Body>(route: string, o?: ReqOptions) {
    return this.req<T>("PATCH", route, o);
  }
  del<T = Body>(route: string, o?: ReqOptions) {
    return this.req<T>("DELETE", route, o);
  }
}

export const EP = "/projects/{project_id}/endpoints";
export const EP1 = "/projects/{project_id}/endpoints/{endpoint_id}";
export const OPS = "/projects/{project_id}/operations";
export const OP1 = "/projects/{project_id}/operations/{operation_id}";

/**
 * Settles every operation of the project by moving the emulator clock in small
 * steps (so scale-to-zero timers are barely touched), without real waiting.
 */
export async function settle(c: Client, projectId: string, stepMs = 50): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    const r = await c.get(OPS, { params: { project_id: projectId }, query: { limit: 50 } });
    const busy = (r.body.operations as { status: string }[]).some((o) =>
      ["scheduling", "running", "failed", "cancelling"].includes(o.status),
    );
    if (!busy) return;
    c.emu.clock.advance(stepMs);
  }
  throw new Error(`operations of ${projectId} did not settle`);
}

/** Creates a compute and waits until it is active. */
export async function createActive(
  c: Client,
  projectId: string,
  endpoint: Record<string, unknown>,
): Promise<{ id: string; host: string; [k: string]: unknown }> {
  const r = await c.post(EP, { params: { project_id: projectId }, body: { endpoint } });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  await settle(c, projectId);
  return r.body.endpoint;
}

/** The connection URI of the seeded owner role and database on a branch (its read_write compute). */
export async function ownerUri(c: Client, projectId: string, branchId: string): Promise<string> {
  const r = await c.get("/projects/{project_id}/connection_uri", {
    params: { project_id: projectId },
    query: { branch_id: branchId, role_name: "neondb_owner", database_name: "neondb" },
  });
  if (r.status !== 200) throw new Error(`connection_uri failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.uri as string;
}
