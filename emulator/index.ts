/**
 * A local emulator of the control API v2 (computes, operations, API keys):
 * a real HTTP server for tests, demos and benchmarks. See emulator/README.md.
 */
import { randomInt } from "node:crypto";
import { newToken } from "./ids";
import { Emulator, applyOpFaults } from "./server";
import { Store } from "./store";
import { seededDurations, type EngineConfig } from "./engine";
import { AnswerHold, FaultOptionsSchema, type FaultOptions } from "./faults";
import { RESOURCES } from "./resources";
import type { Resource } from "./collection";
import type { Plan } from "./sizes";
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimitOptions } from "./ratelimit";
import { RealPostgres, type RealPostgresOptions } from "./postgres";

export type { FaultOptions } from "./faults";
export type { AnswerHold } from "./faults";
export type { RateLimitOptions } from "./ratelimit";
export {
  collection,
  resource,
  type Collection,
  type CollectionSpec,
  type Records,
  type Resource,
  type Scoped,
} from "./collection";

export interface EmulatorOptions {
  /** Port to listen on; default 0 (ephemeral). */
  port?: number;
  /** Interface to listen on; default "127.0.0.1". */
  host?: string;
  /** Token of the bootstrap personal key; random 64 characters if absent. */
  apiKey?: string;
  /** Persist the whole state to this JSON file (atomically); loaded at start when it exists. */
  statePath?: string;
  /** Seed for ids, faults and jitter; random if absent. */
  seed?: number;
  /** Default duration of each operation in ms (default 300). */
  opMs?: number;
  /** Per-action duration overrides in ms, e.g. `{ start_compute: 500 }`. */
  opDurations?: Partial<Record<string, number>>;
  /** Seeded jitter of durations, e.g. 0.3 = ±30 %. */
  opJitter?: number;
  /** Plan of the seeded main project's organization (default "launch", paid; "scale" adds private networking). */
  plan?: Plan;
  /** Server-wide faults. */
  faults?: FaultOptions;
  /** Background check_availability operations (default false). */
  checkAvailability?: boolean;
  /** Fastify request logging (default false). */
  logger?: boolean;
  /**
   * Rate limits (default off): `true` for the service's documented ones (700/min per account, 40/s per
   * route, 10/s for creating organization keys), or an object overriding some of them. Beyond them: 429
   * with `Retry-After`. Counted on the emulator clock.
   */
  rateLimit?: boolean | RateLimitOptions;
  /**
   * Leave out of every response the fields the OpenAPI document marks deprecated (default true, as
   * the service may drop them; `false` brings them back): `pooler_enabled`, `pooler_mode`,
   * `proxy_host` of computes; `cpu_used_sec` of projects and branches.
   */
  omitDeprecatedFields?: boolean;
  /**
   * Freeze the emulator clock (default false): it stands still except for `clock.advance`, so tests
   * that count requests per second, or watch an operation run, never race real time.
   */
  frozenClock?: boolean;
  /**
   * The most branches one page of the branch listing holds, whatever `limit` the client asks (default
   * the spec's maximum, 10000): a smaller cap makes a client follow `pagination.next` with few branches.
   */
  branchPageCap?: number;
  /**
   * The projects one account (personal projects) or organization may hold (default: its plan's, 100 on
   * Free and Launch); one more is refused with 422 `PROJECTS_LIMIT_EXCEEDED`, as the service does.
   */
  projectsLimit?: number;
  /**
   * Real Postgres behind the computes (default false: computes, roles and databases are records only).
   * `true`, or the folder for the clusters' data: every active compute is a real server over its
   * branch's data, listening on its own loopback address at port 5432, so the API's connection URIs
   * connect. Needs PostgreSQL's server programs (Debian's `postgresql`); see emulator/README.md.
   */
  postgres?: boolean | RealPostgresOptions;
  /**
   * More resources to serve beside the built-in ones (`emulator/resources.ts`), e.g. a test's own: their
   * routes, and their collections kept, persisted, seeded and removed with their projects or branches
   * like the built-in ones'. See `emulator/collection.ts`.
   */
  resources?: readonly Resource[];
}

/** A running emulator. */
export interface EmulatorHandle {
  /** Base URL ending in /api/v2, e.g. http://127.0.0.1:54321/api/v2 */
  url: string;
  /** Token of the bootstrap personal key. */
  apiKey: string;
  /** Identifiers of the seeded data. */
  seed: {
    orgId: string;
    projectId: string;
    /** The main project's default branch (`main`) = `branchIds[0]`; it has the primary compute. */
    defaultBranchId: string;
    /** `main`, then `dev-01` … `dev-24`: the non-default ones have no compute. */
    branchIds: string[];
    /** The primary read_write compute of the main project's default branch (seeded idle). */
    primaryEndpointId: string;
    freeProjectId: string;
    /** The free project's default branch = `freeProjectBranchIds[0]`; it has the primary compute. */
    freeProjectBranchId: string;
    /** `main`, then `dev-01` (no compute) of the free project. */
    freeProjectBranchIds: string[];
    /** The primary read_write compute of the free project's default branch (seeded idle). */
    freeProjectPrimaryEndpointId: string;
  };
  /** Emulator time = real time + offset; `advance` moves it forward. */
  clock: { now(): number; advance(ms: number): void };
  /** Replaces the server-wide faults. */
  setFaults(f: FaultOptions): void;
  /**
   * Carries out every request of `route` (`POST /projects/:project_id/endpoints`) but holds its answer
   * back until the hold's `release()`; `received()` resolves when one was carried out. One hold per route.
   */
  holdAnswers(route: string): AnswerHold;
  /** API requests (under /api/v2) served so far. */
  requestCount(): number;
  /** API requests served so far, per method and route template (`GET /projects/:project_id`). */
  requestsByRoute(): Record<string, number>;
  /** Requests whose body carried a retired field (`pooler_enabled`, `pooler_mode`), per route. */
  retiredFieldsReceived(): Record<string, number>;
  /** Requests refused with 429 by the rate limits (`rateLimit` option) so far. */
  rateLimitedCount(): number;
  /** A new personal key of the seeded admin or (non-admin) member user; returns its token. */
  createPersonalKey(role?: "admin" | "member"): string;
  stop(): Promise<void>;
  /** Real Postgres behind the computes, when started with `postgres` (its data and servers). */
  postgres?: RealPostgres;
  /** Back to the seeded state (same seed, same bootstrap key); the clock keeps its offset. */
  reset(): void;
}

/** Interval of background availability checks, in emulator time. */
const CHECK_INTERVAL_MS = 60_000;

/** Starts an emulator; resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const faults = FaultOptionsSchema.parse(options.faults ?? {});
  const seed = options.seed ?? randomInt(0, 2 ** 31);
  const plan = options.plan ?? "launch";
  const bootstrapToken = options.apiKey ?? newToken();
  const engine: EngineConfig = {
    opMs: options.opMs ?? 300,
    opDurations: options.opDurations ?? {},
    opJitter: options.opJitter ?? 0,
    opFailRate: 0,
    opErrorRate: 0,
    opCancelRate: 0,
    checkAvailability: options.checkAvailability ?? false,
    checkIntervalMs: CHECK_INTERVAL_MS,
  };
  applyOpFaults(engine, faults);
  const resources = [...RESOURCES, ...(options.resources ?? [])];
  const collections = resources.flatMap((r) => r.collections ?? []);
  const store =
    options.statePath && Store.exists(options.statePath)
      ? Store.load(options.statePath, collections)
      : Store.seeded(seed, plan, options.statePath, 0, undefined, seededDurations(engine), collections);
  if (options.frozenClock) store.frozenRealMs = Date.now();
  store.ensureBootstrapKey(bootstrapToken);
  store.save();
  const rateLimit = options.rateLimit === true ? {} : options.rateLimit || undefined;
  const emu = new Emulator(
    {
      seed: store.state.seed,
      plan,
      bootstrapToken,
      statePath: options.statePath,
      faults,
      engine,
      logger: options.logger ?? false,
      omitDeprecatedFields: options.omitDeprecatedFields ?? true,
      branchPageCap: options.branchPageCap ?? 10_000,
      ...(options.projectsLimit !== undefined ? { projectsLimit: options.projectsLimit } : {}),
      ...(rateLimit ? { rateLimiter: new RateLimiter({ ...DEFAULT_RATE_LIMITS, ...rateLimit }) } : {}),
    },
    store,
    (r) => {
      for (const res of resources) res.routes(r);
    },
    (s) => {
      for (const res of resources) res.service?.(s);
    },
  );
  if (options.postgres) {
    emu.realPg = RealPostgres.start(
      {
        get store() {
          return emu.store;
        },
        get engine() {
          return emu.settings.engine;
        },
      },
      options.postgres === true ? {} : options.postgres,
    );
  }
  const host = options.host ?? "127.0.0.1";
  try {
    await emu.app.listen({ port: options.port ?? 0, host });
  } catch (e) {
    await emu.realPg?.stop();
    throw e;
  }
  const addr = emu.app.server.address();
  const port = typeof addr === "object" && addr ? addr.port : options.port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const info = () => emu.store.state.seed_info;
  return {
    url: `http://${urlHost}:${port}/api/v2`,
    apiKey: bootstrapToken,
    get seed() {
      const s = info();
      return {
        orgId: s.orgId,
        projectId: s.projectId,
        defaultBranchId: s.defaultBranchId,
        branchIds: [...s.branchIds],
        primaryEndpointId: s.primaryEndpointId,
        freeProjectId: s.freeProjectId,
        freeProjectBranchId: s.freeProjectBranchId,
        freeProjectBranchIds: [...s.freeProjectBranchIds],
        freeProjectPrimaryEndpointId: s.freeProjectPrimaryEndpointId,
      };
    },
    clock: { now: () => emu.store.now(), advance: (ms: number) => emu.advance(ms) },
    setFaults: (f) => emu.setFaults(f),
    holdAnswers: (route) => {
      const hold = new AnswerHold(route);
      emu.holds.get(route)?.release();
      emu.holds.set(route, hold);
      return hold;
    },
    requestCount: () => emu.requests,
    rateLimitedCount: () => emu.rateLimited,
    requestsByRoute: () => Object.fromEntries(emu.requestsByRoute),
    retiredFieldsReceived: () => Object.fromEntries(emu.retiredFieldsReceived),
    createPersonalKey: (role = "admin") => emu.createPersonalKey(role).token,
    stop: async () => {
      for (const hold of emu.holds.values()) hold.release();
      // Requests first (one may still be reading a schema), then the servers behind the computes.
      await emu.app.close();
      await emu.realPg?.stop();
    },
    reset: () => emu.reset(),
    get postgres() {
      return emu.realPg;
    },
  };
}
