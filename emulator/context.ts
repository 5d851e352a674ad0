/**
 * What a route handler sees of a request: the caller ({@link Principal}), its body and parameters, and
 * the checks every route shares (visibility of a project, the project's lock, a compute in transition,
 * a branch not ready yet), plus the creation of the request's operations.
 */
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import {
  ApiFault,
  Codes,
  PROJECT_BUSY_MESSAGE,
  branchNotReady,
  notFound,
  outOfScope,
  transitive,
} from "./errors";
import type { RequestFault } from "./faults";
import { createOperations, hasPending, materialize, type OpSpec } from "./engine";
import type { Store } from "./store";
import type { ApiKey, Branch, Endpoint, Operation, Org, Project, User } from "./state";
import { parseBody } from "./validation";
import type { Emulator, ServerSettings } from "./server";

/** Who is calling: the key and, for personal keys, its user. */
export interface Principal {
  key: ApiKey;
  user?: User;
}

/** What a handler returns: a status (default 200) and a JSON body (none for 204). */
export interface Reply {
  status?: number;
  body?: unknown;
}

/** Per-request context handed to route handlers. */
export class Ctx {
  constructor(
    readonly emu: Emulator,
    readonly req: FastifyRequest,
    readonly principal: Principal,
    readonly fault: RequestFault | undefined,
  ) {}

  get store(): Store {
    return this.emu.store;
  }

  get settings(): ServerSettings {
    return this.emu.settings;
  }

  now(): number {
    return this.emu.store.now();
  }

  params(): Record<string, string> {
    return this.req.params as Record<string, string>;
  }

  query(): Record<string, unknown> {
    return this.req.query as Record<string, unknown>;
  }

  body<T>(schema: z.ZodType<T>, what: string): T {
    return parseBody(schema, this.req.body, what);
  }

  canSee(project: Project): boolean {
    const { key, user } = this.principal;
    if (key.kind === "project") return key.project_id === project.id;
    if (key.kind === "organization") return project.org_id === key.org_id;
    if (!user) return false;
    if (project.org_id)
      return this.store.state.orgs[project.org_id]?.members.some((m) => m.user_id === user.id) ?? false;
    return project.owner_id === user.id;
  }

  /** A project this key may see, brought up to date; 404 otherwise. */
  project(id: string, what: string): Project {
    const { key } = this.principal;
    // The service refuses a project-scoped key outside its project before it looks the project up,
    // with a 404 whose `code` is empty and whose message names the project asked for (not "not found").
    if (key.kind === "project" && key.project_id !== id) throw outOfScope(id);
    const p = this.store.project(id);
    if (!p || !this.canSee(p)) {
      throw notFound(
        `Failed to ${what}: project ${id} not found. It does not exist or this API key cannot access it`,
      );
    }
    materialize(this.store, this.emu.settings.engine, p.id, this.now());
    return p;
  }

  /**
   * An organization this key belongs to (a member's personal key, or a key of the organization); 404
   * otherwise, as `GET /organizations/{org_id}` answers.
   */
  org(id: string, what: string): Org {
    const { key, user } = this.principal;
    const orgs = this.store.state.orgs;
    const org = Object.prototype.hasOwnProperty.call(orgs, id) ? orgs[id] : undefined;
    const mine =
      org !== undefined &&
      (key.kind === "organization"
        ? key.org_id === id
        : key.kind === "personal" && !!user && org.members.some((m) => m.user_id === user.id));
    if (!org || !mine) {
      throw notFound(`Failed to ${what}: organization ${id} not found or not accessible with this API key`);
    }
    return org;
  }

  /**
   * Refuses a state-changing request while an operation of the project is not terminal: 423 with the
   * service's own message (which names neither the request nor the operation).
   */
  lock(project: Project): void {
    if (!hasPending(this.store, project.id)) return;
    throw new ApiFault(423, Codes.locked, PROJECT_BUSY_MESSAGE);
  }

  /** Refuses work on a compute whose own operation is not terminal yet (`pending_state` set): 423. */
  transition(ep: Endpoint, verb: string): void {
    if (ep.pending_state !== undefined) throw transitive(verb);
  }

  /** Refuses work against a branch whose creation has not finished: 422 "branch not ready yet". */
  ready(branch: Branch): void {
    if (branch.current_state !== "ready") throw branchNotReady();
  }

  /** Creates this request's operations and returns them as the API shows them right after creation. */
  operations(projectId: string, specs: OpSpec[]): Operation[] {
    if (specs.length === 0) return [];
    const now = this.now();
    const recs = createOperations(
      this.store,
      this.emu.settings.engine,
      projectId,
      specs,
      this.fault?.op,
      now,
    );
    materialize(this.store, this.emu.settings.engine, projectId, now);
    return recs.map((r) => r.op);
  }
}

/** A route's handler; only a route that reads real Postgres answers asynchronously. */
export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

/** Registers API routes; each route module receives one. */
/**
 * A request to a service a branch runs beside the API (Neon Auth's endpoints, the Data API's URL):
 * public paths outside `/api/v2`, authorized by their own tokens, not by an API key.
 */
export interface ServiceRequest {
  readonly emu: Emulator;
  readonly params: Record<string, string>;
  readonly body: unknown;
  /** The `Authorization` header's bearer token, if any. */
  readonly bearer?: string;
}

/** Registers the routes of a service (see {@link ServiceRequest}); paths are whole (`/data-api/…`). */
export interface ServiceRouter {
  get(path: string, h: (req: ServiceRequest) => Promise<Reply> | Reply): void;
  post(path: string, h: (req: ServiceRequest) => Promise<Reply> | Reply): void;
}

/** The origin (`http://host:port`) a request reached the emulator at: the URLs it hands out start so. */
export function originOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.headers.host ?? "127.0.0.1"}`;
}

export interface Router {
  get(path: string, h: Handler): void;
  post(path: string, h: Handler): void;
  patch(path: string, h: Handler): void;
  put(path: string, h: Handler): void;
  delete(path: string, h: Handler): void;
}
