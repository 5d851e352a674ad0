/**
 * The HTTP layer: a Fastify app under `/api/v2`, one request wrapper that does
 * faults → authentication → handler → persistence → (optional) dropped
 * connection or 502 after the commit, the error and not-found handlers, and the loopback-only admin
 * routes under `/_emulator`.
 */
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { ApiFault, Codes, badRequest } from "./errors";
import {
  FaultOptionsSchema,
  parseFaultHeader,
  rollStatusFault,
  statusFault,
  type AnswerHold,
  type FaultOptions,
} from "./faults";
import { materialize, seededDurations, type EngineConfig } from "./engine";
import { Store, iso } from "./store";
import { newToken } from "./ids";
import type { ApiKey } from "./state";
import type { Plan } from "./sizes";
import type { RateLimiter } from "./ratelimit";
import type { RealPostgres } from "./postgres";
import { carriesRetired, omitDeprecated } from "./deprecated";
import { tryLogin } from "./roles";
import { LoginBody, parseBody } from "./validation";
import { Ctx, type Handler, type Principal, type Reply, type Router, type ServiceRouter } from "./context";

export { Ctx, type Handler, type Principal, type Reply, type Router, type ServiceRouter } from "./context";

export const API_PREFIX = "/api/v2";

export interface ServerSettings {
  seed: number;
  plan: Plan;
  bootstrapToken: string;
  statePath?: string;
  faults: FaultOptions;
  engine: EngineConfig;
  logger: boolean;
  /** Leave deprecated fields out of responses (`omitDeprecatedFields` option). */
  omitDeprecatedFields: boolean;
  /** Rate limits when enabled (`rateLimit` option). */
  rateLimiter?: RateLimiter;
  /** The most branches one page of `GET …/branches` holds, whatever `limit` asks (`branchPageCap` option). */
  branchPageCap: number;
  /** The projects an account or organization may hold, whatever its plan (`projectsLimit` option). */
  projectsLimit?: number;
}

/** The answer of `POST /_emulator/login`. */
export interface LoginResult {
  ok: boolean;
  reason?: string;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const MUTATING = new Set(["POST", "PATCH", "DELETE", "PUT"]);
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** True for a loopback peer address (IPv4, IPv6 or IPv4-mapped); admin routes answer only these. */
export function isLoopback(address: string | undefined): boolean {
  return LOOPBACK.test(address ?? "");
}

export class Emulator {
  readonly app: FastifyInstance;
  store: Store;
  requests = 0;
  /** Requests served per route ("GET /projects/:project_id/operations"), for benchmarks. */
  readonly requestsByRoute = new Map<string, number>();
  /** Requests whose body carried a retired field, per route (see `deprecated.ts`). */
  readonly retiredFieldsReceived = new Map<string, number>();
  /** Requests refused with 429 by the rate limits (not by injected faults). */
  rateLimited = 0;
  /** Routes whose answers are held (`holdAnswers`), by `METHOD /template`. */
  readonly holds = new Map<string, AnswerHold>();
  /** Real Postgres behind the records, when enabled (`postgres` option). */
  realPg?: RealPostgres;

  constructor(
    readonly settings: ServerSettings,
    store: Store,
    registerRoutes: (r: Router) => void,
    registerServices: (s: ServiceRouter) => void = () => undefined,
  ) {
    this.store = store;
    this.app = Fastify({
      logger: settings.logger,
      requestIdHeader: "x-request-id",
      genReqId: () => randomUUID(),
      forceCloseConnections: true,
      bodyLimit: 1 << 20,
    });
    const app = this.app;
    app.addHook("onRequest", (req, reply, done) => {
      reply.header("x-request-id", req.id);
      // The service's clock, as its answers carry it: the emulator's (which tests move forward).
      reply.header("date", new Date(this.store.now()).toUTCString());
      if (req.url.startsWith(API_PREFIX)) {
        this.requests++;
        // Unmatched paths share one key, so that the tally stays small.
        const key = `${req.method} ${req.routeOptions.url?.slice(API_PREFIX.length) ?? "(no route)"}`;
        this.requestsByRoute.set(key, (this.requestsByRoute.get(key) ?? 0) + 1);
      }
      done();
    });
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
      const text = String(body);
      if (text.trim() === "") return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch (e) {
        done(
          badRequest(`Failed to parse the request body: malformed JSON (${(e as Error).message})`),
          undefined,
        );
      }
    });
    app.setErrorHandler((err, req, reply) => this.sendError(err, req, reply));
    app.setNotFoundHandler((req, reply) => {
      const path = req.url.split("?")[0];
      this.sendError(
        new ApiFault(
          404,
          Codes.notFound,
          `No route for ${req.method} ${path}: the emulator does not serve it (unknown path or method). See emulator/README.md for the routes it serves`,
        ),
        req,
        reply,
      );
    });
    const route = (method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE") => (path: string, h: Handler) =>
      app.route({ method, url: API_PREFIX + path, handler: (req, reply) => this.handle(req, reply, h) });
    registerRoutes({
      get: route("GET"),
      post: route("POST"),
      patch: route("PATCH"),
      put: route("PUT"),
      delete: route("DELETE"),
    });
    // The services' public routes: no API key, no fault injection; the state is saved after each.
    const service = (method: "GET" | "POST") => (url: string, h: Parameters<ServiceRouter["get"]>[1]) =>
      app.route({
        method,
        url,
        handler: async (req, reply) => {
          const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
          let out: Reply;
          try {
            out = await h({
              emu: this,
              params: req.params as Record<string, string>,
              body: req.body,
              ...(m ? { bearer: m[1] } : {}),
            });
          } finally {
            this.store.saveIfDirty();
          }
          reply.code(out.status ?? 200);
          return out.body === undefined ? reply.send() : out.body;
        },
      });
    registerServices({ get: service("GET"), post: service("POST") });
    this.registerAdmin();
  }

  private sendError(err: unknown, req: FastifyRequest, reply: FastifyReply): void {
    let status = 500;
    let code: string = Codes.internal;
    let message: string;
    if (err instanceof ApiFault) {
      status = err.status;
      code = err.code;
      message =
        status === 412 && this.settings.faults.rewordPreconditions
          ? "The request's precondition does not hold (reworded by the emulator's rewordPreconditions fault)"
          : err.message;
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
    } else {
      const e = err as { statusCode?: number; message?: string };
      if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
        status = e.statusCode;
        code = status === 415 ? Codes.unsupportedMediaType : Codes.badRequest;
        message = `Failed to read the request: ${e.message}`;
      } else {
        message = `Internal emulator error while serving ${req.method} ${req.url.split("?")[0]}: ${e.message ?? String(err)}`;
      }
    }
    reply.code(status).send({ code, message, request_id: req.id });
  }

  private authenticate(req: FastifyRequest): Principal {
    const h = req.headers.authorization;
    const m = typeof h === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
    if (!m) {
      throw new ApiFault(
        401,
        Codes.unauthorized,
        "Unauthorized: send the header Authorization: Bearer <API key>",
      );
    }
    const key = this.store.keyByToken(m[1]);
    if (!key)
      throw new ApiFault(401, Codes.unauthorized, "Unauthorized: the API key is invalid or has been revoked");
    key.last_used_at = iso(Date.now());
    key.last_used_from_addr = req.ip;
    return { key, user: key.kind === "personal" ? this.store.state.users[key.created_by] : undefined };
  }

  private async handle(req: FastifyRequest, reply: FastifyReply, h: Handler): Promise<unknown> {
    const fault = parseFaultHeader(req.headers["x-emulator-fault"]);
    const server = this.settings.faults;
    const latency = fault?.latencyMs ?? server.latencyMs;
    if (latency) await sleep(latency);
    const retryAfter = fault?.retryAfter ?? server.retryAfterSeconds ?? 1;
    if (fault?.status) throw statusFault(fault.status, retryAfter, "X-Emulator-Fault header");
    const rolled = rollStatusFault(server, this.store.rngFaults);
    if (rolled) throw statusFault(rolled, retryAfter, "server-wide fault rate");
    const principal = this.authenticate(req);
    this.limitRate(principal, req);
    if (carriesRetired(req.body)) {
      const key = `${req.method} ${req.routeOptions.url?.slice(API_PREFIX.length) ?? "(no route)"}`;
      this.retiredFieldsReceived.set(key, (this.retiredFieldsReceived.get(key) ?? 0) + 1);
    }
    const ctx = new Ctx(this, req, principal, fault);
    let out: Reply;
    try {
      out = await h(ctx);
    } finally {
      this.store.saveIfDirty();
    }
    // With real Postgres, the answer leaves once the machine holds what it says.
    if (this.realPg) await this.realPg.reconcile();
    if (MUTATING.has(req.method)) {
      const drop =
        fault?.dropAfterCommit ||
        (server.dropAfterCommitRate ? this.store.rngFaults.next() < server.dropAfterCommitRate : false);
      if (drop) {
        reply.hijack();
        req.raw.socket.destroy();
        return reply;
      }
      const gatewayError =
        fault?.errorAfterCommit ||
        (server.errorAfterCommitRate ? this.store.rngFaults.next() < server.errorAfterCommitRate : false);
      if (gatewayError) {
        // The change is committed; a gateway in front of the service lost the answer.
        throw new ApiFault(
          502,
          Codes.internal,
          "Bad gateway: the upstream answer was lost (emulated fault error-after-commit; the change was applied)",
        );
      }
    }
    const hold = this.holds.get(`${req.method} ${req.routeOptions.url?.slice(API_PREFIX.length) ?? ""}`);
    if (hold) await hold.hold();
    reply.code(out.status ?? 200);
    if (out.body === undefined) return reply.send();
    return this.settings.omitDeprecatedFields ? omitDeprecated(out.body) : out.body;
  }

  /**
   * Applies the rate limits, when enabled. The account is the key owner's: a personal key counts for its
   * user; organization and project-scoped keys count for their organization (all keys of one account
   * share its budget). Routes are counted by template, e.g. `GET /projects/:project_id/operations/:operation_id`.
   */
  private limitRate(principal: Principal, req: FastifyRequest): void {
    const limiter = this.settings.rateLimiter;
    if (!limiter) return;
    const { key } = principal;
    const account = key.kind === "personal" ? `user ${key.created_by}` : `organization ${key.org_id ?? ""}`;
    const route = `${req.method} ${req.routeOptions.url?.slice(API_PREFIX.length) ?? ""}`;
    const refused = limiter.admit(account, route, this.store.now());
    if (!refused) return;
    this.rateLimited++;
    // The service's 429 headers are not documented; a well-behaved server says when to come back.
    throw new ApiFault(
      429,
      Codes.tooMany,
      `Too many requests: over the limit of ${refused.limit}; retry after ${refused.retryAfterSeconds} s`,
      { "retry-after": String(refused.retryAfterSeconds) },
    );
  }

  // ---- admin routes (no API key; loopback only) ---------------------------

  private registerAdmin(): void {
    const app = this.app;
    const guard = (req: FastifyRequest) => {
      if (!isLoopback(req.socket.remoteAddress)) {
        throw new ApiFault(403, Codes.forbidden, "Admin routes under /_emulator answer only on loopback");
      }
    };
    app.get("/_emulator/state", async (req) => {
      guard(req);
      return this.summary();
    });
    app.put("/_emulator/faults", async (req) => {
      guard(req);
      const r = FaultOptionsSchema.safeParse(req.body ?? {});
      if (!r.success) {
        throw badRequest(
          `Failed to set faults: ${r.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ")}`,
        );
      }
      this.settings.faults = r.data;
      applyOpFaults(this.settings.engine, r.data);
      return { faults: this.settings.faults };
    });
    app.post("/_emulator/reset", async (req) => {
      guard(req);
      this.reset();
      return { ok: true, seed: this.store.state.seed_info };
    });
    app.post("/_emulator/advance", async (req) => {
      guard(req);
      const ms = (req.body as { ms?: unknown } | undefined)?.ms;
      if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) {
        throw badRequest('Failed to advance the clock: body must be {"ms": <non-negative number>}');
      }
      this.advance(ms);
      return { now: iso(this.store.now()) };
    });
    // A client connecting as a role with a password (stands for a Postgres login; never logs it).
    app.post("/_emulator/login", async (req) => {
      guard(req);
      const body = parseBody(LoginBody, req.body, "log in");
      return this.login(body.project_id, body.branch_id, body.role_name, body.password);
    });
    app.post("/_emulator/api_keys", async (req) => {
      guard(req);
      const role = (req.body as { role?: unknown } | undefined)?.role ?? "admin";
      if (role !== "admin" && role !== "member") {
        throw badRequest('Failed to create a personal key: role must be "admin" or "member"');
      }
      const { key, token } = this.createPersonalKey(role);
      return { id: key.id, key: token, user_id: key.created_by, role };
    });
  }

  /**
   * Whether a client connecting to a branch as a role with a password gets in: the role exists, may log
   * in, and the password is its current one or the one a reset replaced while the reset's operations
   * run (on the emulator clock). `reason` says why not; it never contains a password.
   */
  login(projectId: string, branchId: string, roleName: string, password: string): LoginResult {
    const p = this.store.project(projectId);
    if (!p) return { ok: false, reason: `project ${projectId} not found` };
    materialize(this.store, this.settings.engine, p.id, this.store.now());
    try {
      const b = this.store.branch(p.id, branchId);
      if (!b) return { ok: false, reason: `branch ${branchId} not found in project ${p.id}` };
      const role = this.store.rolesOf(b.id).find((x) => x.name === roleName);
      if (!role) return { ok: false, reason: `role "${roleName}" does not exist` };
      return tryLogin(this.store, p.id, role, password);
    } finally {
      this.store.saveIfDirty();
    }
  }

  /** A new personal key of the seeded admin or (non-admin) member user. */
  createPersonalKey(role: "admin" | "member"): { key: ApiKey; token: string } {
    const info = this.store.state.seed_info;
    const token = newToken();
    const key = this.store.addKey(
      {
        name: `emulator-${role}`,
        kind: "personal",
        created_by: role === "admin" ? info.adminUserId : info.memberUserId,
      },
      token,
    );
    this.store.saveIfDirty();
    return { key, token };
  }

  advance(ms: number): void {
    this.store.advance(ms);
    this.store.saveIfDirty();
  }

  reset(): void {
    const offset = this.store.state.clock_offset_ms;
    this.store = Store.seeded(
      this.settings.seed,
      this.settings.plan,
      this.settings.statePath,
      offset,
      this.store.frozenRealMs,
      seededDurations(this.settings.engine),
      this.store.collections,
    );
    this.settings.rateLimiter?.clear();
    this.store.ensureBootstrapKey(this.settings.bootstrapToken);
    this.store.save();
    this.realPg?.wiped();
  }

  setFaults(f: FaultOptions): void {
    const parsed = FaultOptionsSchema.parse(f);
    this.settings.faults = parsed;
    applyOpFaults(this.settings.engine, parsed);
  }

  /** A summary for out-of-process users (demo, e2e tests); brings every project up to date first. */
  summary(): unknown {
    const s = this.store.state;
    const now = this.store.now();
    const projects = Object.values(s.projects).map((p) => {
      materialize(this.store, this.settings.engine, p.id, now);
      const ops = this.store.opsOf(p.id);
      return {
        id: p.id,
        plan: this.store.plan(p),
        endpoints: this.store.endpointList(p.id).map((e) => ({
          id: e.id,
          branch_id: e.branch_id,
          type: e.type,
          current_state: e.current_state,
          ...(e.pending_state ? { pending_state: e.pending_state } : {}),
          autoscaling_limit_min_cu: e.autoscaling_limit_min_cu,
          autoscaling_limit_max_cu: e.autoscaling_limit_max_cu,
        })),
        operations: ops.length,
        pending_operations: ops.length - this.store.sim(p.id).pending,
      };
    });
    this.store.saveIfDirty();
    return {
      now: iso(now),
      requests: this.requests,
      seed: s.seed_info,
      faults: this.settings.faults,
      projects,
    };
  }
}

/** Copies the operation fault rates into the engine settings. */
export function applyOpFaults(engine: EngineConfig, f: FaultOptions): void {
  engine.opFailRate = f.opFailRate ?? 0;
  engine.opErrorRate = f.opErrorRate ?? 0;
  engine.opCancelRate = f.opCancelRate ?? 0;
}
