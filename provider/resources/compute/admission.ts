/**
 * Program-side admission of `Compute` registrations during `pulumi up`: a fair share of the engine's
 * parallelism for every project.
 *
 * The engine runs at most `parallel` resource steps at once (the CLI's default is 4 per CPU), and a
 * create waiting in its project's queue inside the provider (one operation per project at a time)
 * holds its step the whole time. Registered in declaration order, the first project's computes take
 * every step and the other projects wait for them: 100 computes over 5 projects took 3.1× their
 * floor with 8 steps (docs/decisions/0015). Admitting registrations so that at most `parallel` of them are
 * in the engine at once (or two per project, when that is more), each next one from the project with
 * the fewest in flight, keeps every project's queue busy with the same 8 steps.
 *
 * A registration whose end the program never learns (the engine failed its step and let the run go
 * on) would hold its share for good. So when registrations wait and none has ended for `stallMs`,
 * the admission opens for the rest of the run: every registration goes to the engine at once, as
 * without admission. Slow, not stuck.
 *
 * `Admission` is bookkeeping only (the timer is injected); `admit` ties it to a resource's inputs and
 * registration.
 */

import * as pulumi from "@pulumi/pulumi";

/** Starts a timer; returns its cancel function. */
export type Schedule = (fn: () => void, ms: number) => () => void;

export const realSchedule: Schedule = (fn, ms) => {
  // Not unref'd: while registrations wait, the timer is what guarantees the run goes on.
  const t = setTimeout(fn, ms);
  return () => clearTimeout(t);
};

/** Registrations per project worth having in flight (see `currentLimit`). */
const PER_PROJECT = 2;

/** No registration ended for this long while others wait: the admission opens (module's note). */
const STALL_MS = 120_000;

interface Waiting {
  project: string;
  grant: () => void;
}

export class Admission {
  private readonly inFlight = new Map<string, number>();
  private total = 0;
  private readonly waiting: Waiting[] = [];
  private open = false;
  private pumpQueued = false;
  private cancelStall?: () => void;

  private readonly perProject: number;
  private readonly stallMs: number;
  private readonly schedule: Schedule;

  /**
   * `limit`: registrations in flight at once, across projects (at least 1); `perProject`: at least
   * this many per project with work, also past the limit (default 2); `stallMs`: see the module's note.
   */
  constructor(
    readonly limit: number,
    opts: { perProject?: number; stallMs?: number; schedule?: Schedule } = {},
  ) {
    if (!(limit >= 1)) throw new Error(`admission limit must be at least 1, got ${limit}`);
    this.perProject = opts.perProject ?? PER_PROJECT;
    this.stallMs = opts.stallMs ?? STALL_MS;
    this.schedule = opts.schedule ?? realSchedule;
  }

  /** True once a stall opened the admission (see the module's note). */
  get opened(): boolean {
    return this.open;
  }

  /** Resolves when a registration of `project` may go to the engine; call {@link release} when it ends. */
  acquire(project: string): Promise<void> {
    return new Promise<void>((grant) => {
      this.waiting.push({ project, grant });
      // The program declares its computes in one go: let them all arrive, then choose among them.
      if (!this.pumpQueued) {
        this.pumpQueued = true;
        setImmediate(() => {
          this.pumpQueued = false;
          this.pump();
        });
      }
    });
  }

  /** A registration of `project` ended (created, updated, unchanged or failed). */
  release(project: string): void {
    const n = this.inFlight.get(project) ?? 0;
    if (n <= 0) throw new Error(`admission: release of ${project} without an acquire`);
    if (n === 1) this.inFlight.delete(project);
    else this.inFlight.set(project, n - 1);
    this.total--;
    this.cancelStall?.();
    this.cancelStall = undefined;
    this.pump();
  }

  /** Registrations in flight, per project (for tests). */
  snapshot(): Record<string, number> {
    return Object.fromEntries(this.inFlight);
  }

  /** Grants the next waiting registrations: each from the project with the fewest in flight, oldest first. */
  private pump(): void {
    while ((this.open || this.total < this.currentLimit()) && this.waiting.length > 0) {
      let best = 0;
      for (let i = 1; i < this.waiting.length; i++) {
        if (this.count(this.waiting[i].project) < this.count(this.waiting[best].project)) best = i;
      }
      const [next] = this.waiting.splice(best, 1);
      this.inFlight.set(next.project, this.count(next.project) + 1);
      this.total++;
      next.grant();
    }
    if (this.waiting.length === 0) {
      // Nothing waits (a new project raised the limit, say): no stall to watch for.
      this.cancelStall?.();
      this.cancelStall = undefined;
    } else if (!this.cancelStall) {
      this.cancelStall = this.schedule(() => {
        this.open = true;
        this.cancelStall = undefined;
        this.pump();
      }, this.stallMs);
    }
  }

  /**
   * The limit, or two per project with work when that is more: the second registration of a project
   * waits in the provider's queue and starts the moment the first one's operation ends; past the
   * engine's parallelism it waits in the engine's queue, which hands out steps in arrival order.
   */
  private currentLimit(): number {
    const projects = new Set([...this.inFlight.keys(), ...this.waiting.map((w) => w.project)]);
    return Math.max(this.limit, this.perProject * projects.size);
  }

  private count(project: string): number {
    return this.inFlight.get(project) ?? 0;
  }
}

// --- in a Pulumi program ------------------------------------------------------------------------

let shared: { key: string; admission: Admission | undefined } | undefined;

/** The engine's parallelism as the program knows it: the language host's variable, else the SDK's settings. */
function engineParallelism(): number {
  const fromEnv = Number(process.env.PULUMI_NODEJS_PARALLEL);
  if (Number.isInteger(fromEnv) && fromEnv !== 0) return fromEnv;
  try {
    // Inline programs (Automation API) get no variable; the SDK keeps the value in its settings.
    const state = require("@pulumi/pulumi/runtime/state") as {
      getStore?: () => { settings?: { options?: { parallel?: number } } };
    };
    return Number(state.getStore?.().settings?.options?.parallel ?? 0);
  } catch {
    return 0;
  }
}

/**
 * The run's admission during `pulumi up`: limited to the engine's parallelism. None at preview
 * (steps end at once), with no or unlimited parallelism, or with `NEON_COMPUTE_ADMISSION=off`. A
 * new one for each run of a process that runs several (Automation API inline programs).
 */
function programAdmission(): Admission | undefined {
  const parallel = engineParallelism();
  const dryRun = pulumi.runtime.isDryRun();
  let run = "";
  try {
    run = `${pulumi.getProject()}/${pulumi.getStack()}`;
  } catch {
    // Outside a configured run: one key for all.
  }
  const key = `${run}/${dryRun}/${parallel}`;
  if (shared?.key !== key) {
    const on =
      !dryRun && process.env.NEON_COMPUTE_ADMISSION !== "off" && Number.isInteger(parallel) && parallel > 1;
    shared = { key, admission: on ? new Admission(parallel) : undefined };
  }
  return shared.admission;
}

/** An output's value as a promise, settled also when it fails (Output's own `promise`, else `apply`). */
function settled(o: pulumi.Output<unknown>): Promise<unknown> {
  const own: unknown = Reflect.get(o, "promise");
  if (typeof own === "function") return (own as () => Promise<unknown>).call(o);
  return new Promise((resolve) => o.apply((v) => (resolve(v), v)));
}

/**
 * Resolves true once every input is known, false when one is unknown or failed (`pulumi up
 * --target` leaves untargeted resources' outputs unknown; `--continue-on-error` a failed one's):
 * such a registration goes to the engine as it would without admission, which decides what to do.
 */
function allKnown(args: object): Promise<boolean> {
  // Not in Output's public type: the SDK's own promise of whether every value is known.
  const isKnown: unknown = Reflect.get(pulumi.output(args), "isKnown");
  return isKnown instanceof Promise ? isKnown.catch(() => false) : Promise.resolve(false);
}

/**
 * Admits a `Compute` registration: returns the arguments to register with (their `projectId` holds
 * the registration until its turn) and `track`, to call with the resource so that its turn ends with
 * its registration. A turn is taken only once nothing else holds the registration: every input known,
 * the parent, `deletedWith` and provider registered. Resources with `dependsOn` are not held (what
 * they wait for could be waiting for them).
 */
export function admit<T extends { projectId: pulumi.Input<string> }>(
  args: T,
  opts: pulumi.CustomResourceOptions | undefined,
): { args: T; track: (resource: pulumi.Resource) => void } {
  const admission = programAdmission();
  if (!admission || opts?.dependsOn !== undefined) return { args, track: () => undefined };
  let project: string | undefined;
  const others = [opts?.parent, opts?.deletedWith, opts?.provider].filter((r) => r !== undefined);
  const ready = Promise.all([allKnown(args), ...others.map((r) => settled(r.urn).catch(() => undefined))]);
  const projectId = pulumi.output(args.projectId).apply(async (p) => {
    const [known] = await ready;
    if (!known) return p;
    await admission.acquire(p);
    project = p;
    return p;
  });
  const release = () => {
    if (project === undefined) return;
    const p = project;
    project = undefined;
    admission.release(p);
  };
  return {
    args: { ...args, projectId },
    track: (resource) => void settled(resource.urn).then(release, release),
  };
}
