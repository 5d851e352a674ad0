/**
 * The seeded state: an organization with its admin and member users, a paid main project with its
 * default branch (and primary compute) and 24 more branches (4 on the Free plan), and the admin's
 * personal free project.
 * See emulator/README.md ("Seeded data") for what it holds and why.
 */
import { Rng, deriveSeed } from "./rng";
import { branchId, endpointId, iso, newPassword, orgId, projectId, proxyHostFor } from "./ids";
import { DEFAULT_HISTORY_RETENTION_SECONDS, type State } from "./state";
import { DEFAULT_DATABASE_NAME, ownerRoleName } from "./roles";
import type { Plan } from "./sizes";

/**
 * Number of branches the main project gets besides its default branch: 24, or 4 on the Free plan,
 * whose projects hold at most 10 (half of them left for the user's own).
 */
export function extraBranches(plan: Plan): number {
  return plan === "free" ? 4 : 24;
}
const REGION = "aws-us-east-2";
/** Duration of each operation in the seeded history, unless the emulator's own durations are given. */
const SEED_OP_MS = 1000;
/** The default scale-to-zero period (suspend_timeout_seconds 0 = 300 s). */
const SCALE_TO_ZERO_MS = 300_000;
/** Size of the seeded primary computes: 0.25–2 CU, within the free plan's limit. */
const PRIMARY_MIN_CU = 0.25;
const PRIMARY_MAX_CU = 2;

/** Builds the seeded state: see emulator/README.md for what it holds. */
export function seedState(
  seed: number,
  plan: Plan,
  nowMs: number,
  clockOffsetMs = 0,
  opMsOf: (action: string) => number = () => SEED_OP_MS,
): State {
  const rng = new Rng(deriveSeed(seed, 0));
  // One operation at a time: each branch's operations end before the next branch is created.
  const spacing = Math.max(
    10_000,
    opMsOf("create_timeline") + opMsOf("start_compute") + 1000,
    opMsOf("create_branch") + 1000,
  );
  // An hour ago, or earlier when the history would not fit (long operations).
  const historyMs = (extraBranches(plan) + 2) * spacing + SCALE_TO_ZERO_MS + opMsOf("suspend_compute");
  const createdMs = nowMs - Math.max(3_600_000, historyMs + 60_000);
  const created = iso(createdMs);
  const adminUserId = rng.uuid();
  const memberUserId = rng.uuid();
  const org = orgId(rng);
  const state: State = {
    version: 2,
    seed,
    rng: { ids: 0, faults: deriveSeed(seed, 1), jitter: deriveSeed(seed, 2) },
    clock_offset_ms: clockOffsetMs,
    next_key_id: 1,
    last_created_us: 0,
    seed_info: {
      orgId: org,
      projectId: "",
      defaultBranchId: "",
      branchIds: [],
      primaryEndpointId: "",
      freeProjectId: "",
      freeProjectBranchId: "",
      freeProjectBranchIds: [],
      freeProjectPrimaryEndpointId: "",
      adminUserId,
      memberUserId,
    },
    users: {
      [adminUserId]: {
        id: adminUserId,
        name: "Ada",
        last_name: "Admin",
        email: "ada@example.com",
        image: "",
        plan: "free",
      },
      [memberUserId]: {
        id: memberUserId,
        name: "Max",
        last_name: "Member",
        email: "max@example.com",
        image: "",
        plan: "free",
      },
    },
    orgs: {
      [org]: {
        id: org,
        name: "Emulator Org",
        handle: `emulator-org-${org}`,
        plan,
        created_at: created,
        updated_at: created,
        members: [
          { user_id: adminUserId, role: "admin" },
          { user_id: memberUserId, role: "member" },
        ],
      },
    },
    projects: {},
    branches: {},
    endpoints: {},
    operations: {},
    sim: {},
    api_keys: {},
    roles: {},
    databases: {},
    annotations: {},
    next_database_id: 1,
  };
  const taken = (id: string) => id in state.projects || id in state.branches || id in state.endpoints;
  let us = 0;
  /** A finished operation of the seeded history; they are pushed in creation order. */
  const finishedOp = (
    p: string,
    b: string,
    action: "create_timeline" | "create_branch" | "start_compute" | "suspend_compute",
    atMs: number,
    endpointId?: string,
  ) => {
    us = Math.max(atMs * 1000, us + 1);
    const ms = opMsOf(action);
    state.operations[p].push({
      op: {
        id: rng.uuid(),
        project_id: p,
        branch_id: b,
        ...(endpointId ? { endpoint_id: endpointId } : {}),
        action,
        status: "finished",
        failures_count: 0,
        created_at: iso(atMs),
        updated_at: iso(atMs + ms),
        total_duration_ms: ms,
      },
      sim: { created_us: us, duration_ms: ms, fault: "none" },
    });
    state.sim[p] = { pending: state.operations[p].length, last_end_ms: atMs + ms };
  };
  const makeProject = (name: string, ownerOrg: string | undefined, branchNames: string[]) => {
    const pid = projectId(rng, taken);
    const branchIds: string[] = [];
    let suspendAt = 0;
    state.operations[pid] = [];
    const host = proxyHostFor(REGION);
    state.projects[pid] = {
      id: pid,
      name,
      ...(ownerOrg ? { org_id: ownerOrg } : {}),
      owner_id: adminUserId,
      region_id: REGION,
      platform_id: "aws",
      pg_version: 17,
      proxy_host: host,
      provisioner: "k8s-neonvm",
      created_at: created,
      updated_at: created,
      default_branch_id: "",
      history_retention_seconds: DEFAULT_HISTORY_RETENTION_SECONDS,
      store_passwords: true,
      settings: {},
    };
    // The project's owner role and database; every later branch inherits them (same password).
    const owner = ownerRoleName(DEFAULT_DATABASE_NAME);
    const password = newPassword();
    const lastBranchEnd = createdMs + (branchNames.length - 1) * spacing + opMsOf("create_branch");
    branchNames.forEach((bname, i) => {
      const bid = branchId(rng, taken);
      const atMs = createdMs + i * spacing;
      const createdOpMs = opMsOf(i === 0 ? "create_timeline" : "create_branch");
      const at = iso(atMs);
      state.branches[bid] = {
        id: bid,
        project_id: pid,
        ...(i === 0 ? {} : { parent_id: branchIds[0] }),
        name: bname,
        current_state: "ready",
        state_changed_at: iso(atMs + createdOpMs),
        creation_source: "console",
        default: i === 0,
        protected: false,
        cpu_used_sec: 0,
        active_time_seconds: 0,
        compute_time_seconds: 0,
        written_data_bytes: 0,
        data_transfer_bytes: 0,
        logical_size: 30_000_000,
        init_source: "parent-data",
        created_at: at,
        updated_at: iso(atMs + createdOpMs),
      };
      branchIds.push(bid);
      state.roles[bid] = [
        {
          branch_id: bid,
          name: owner,
          protected: false,
          password,
          no_login: false,
          created_at: at,
          updated_at: at,
        },
      ];
      state.databases[bid] = [
        {
          id: state.next_database_id++,
          branch_id: bid,
          name: DEFAULT_DATABASE_NAME,
          owner_name: owner,
          created_at: at,
          updated_at: at,
        },
      ];
      finishedOp(pid, bid, i === 0 ? "create_timeline" : "create_branch", atMs);
      if (i === 0) {
        // Project creation also creates the primary read_write compute of the default branch and starts
        // it (create_timeline, then start_compute, as the service returns them).
        const eid = endpointId(rng, taken);
        const startAt = atMs + createdOpMs;
        const startedMs = startAt + opMsOf("start_compute");
        // Nobody connects: scale to zero suspends it 300 s after the start (at the earliest; the
        // later branches' creations come first, so it is the last operation of the history).
        suspendAt = Math.max(startedMs + SCALE_TO_ZERO_MS, lastBranchEnd + 1000);
        const suspendedMs = suspendAt + opMsOf("suspend_compute");
        state.endpoints[eid] = {
          host: `${eid}.${host}`,
          id: eid,
          project_id: pid,
          branch_id: bid,
          autoscaling_limit_min_cu: PRIMARY_MIN_CU,
          autoscaling_limit_max_cu: PRIMARY_MAX_CU,
          region_id: REGION,
          type: "read_write",
          current_state: "idle",
          settings: { pg_settings: {} },
          pooler_enabled: false,
          pooler_mode: "transaction",
          disabled: false,
          passwordless_access: true,
          last_active: iso(startedMs),
          creation_source: "console",
          created_at: at,
          updated_at: iso(suspendedMs),
          started_at: iso(startedMs),
          suspended_at: iso(suspendedMs),
          proxy_host: host,
          suspend_timeout_seconds: 0,
          provisioner: "k8s-neonvm",
        };
        primaries.set(pid, eid);
        finishedOp(pid, bid, "start_compute", startAt, eid);
      }
    });
    state.projects[pid].default_branch_id = branchIds[0];
    // Nobody connected after the start: scale to zero suspended the primary compute 300 s later.
    // (The later branches were created meanwhile, so this comes last in the history.)
    const eid = primaries.get(pid)!;
    finishedOp(pid, branchIds[0], "suspend_compute", suspendAt, eid);
    return { pid, branchIds, primaryEndpointId: eid };
  };
  const primaries = new Map<string, string>();
  const main = makeProject("emulator-main", org, [
    "main",
    ...Array.from({ length: extraBranches(plan) }, (_, i) => `dev-${String(i + 1).padStart(2, "0")}`),
  ]);
  const free = makeProject("emulator-free", undefined, ["main", "dev-01"]);
  state.seed_info.projectId = main.pid;
  state.seed_info.defaultBranchId = main.branchIds[0];
  state.seed_info.branchIds = main.branchIds;
  state.seed_info.primaryEndpointId = main.primaryEndpointId;
  state.seed_info.freeProjectId = free.pid;
  state.seed_info.freeProjectBranchId = free.branchIds[0];
  state.seed_info.freeProjectBranchIds = free.branchIds;
  state.seed_info.freeProjectPrimaryEndpointId = free.primaryEndpointId;
  state.last_created_us = us;
  state.rng.ids = rng.state;
  return state;
}
