/**
 * The anonymized-branch calls of the client (`AnonymizedCalls`, Beta in Neon's document): a branch made
 * with masking rules (`POST /projects/{project_id}/branch_anonymized`), its rules (read, replace), its
 * anonymization status, a run of its rules, and a wait for a run to end.
 *
 * A run is no operation: the document's start answers the branch's status, which a client polls
 * (`created`, `initialized`, `anonymizing`, then `anonymized`, `error` or `initialization_error`).
 *
 * The document marks every field of a rule sensitive (`x-sensitive`): no call puts a rule's names or
 * values in the texts of its errors, and a rule's values never reach a message of this client.
 */
import { z } from "zod";
import { route, type HttpClient } from "../http";
import type { Call } from "./call";
import { BranchOperationsSchema, type BranchCreateBody, type BranchOperations } from "./schemas";

/** `MaskingRule`: a column of a table and what masks it (a function or a literal, not both). */
export const MaskingRuleSchema = z.object({
  database_name: z.string(),
  schema_name: z.string(),
  table_name: z.string(),
  column_name: z.string(),
  /** A PostgreSQL Anonymizer expression: `anon.fake_email()`, `anon.random_string(10)`, `anon.hash(email)`. */
  masking_function: z.string().optional(),
  /** An SQL literal written into the column: `'REDACTED'`, `0`, `NULL`. */
  masking_value: z.string().optional(),
});
export type MaskingRule = z.infer<typeof MaskingRuleSchema>;

/** The fields of a rule the document marks sensitive (`MaskingRule`'s `x-sensitive`): all of them. */
export const MASKING_RULE_SENSITIVE_FIELDS = [
  "database_name",
  "schema_name",
  "table_name",
  "column_name",
  "masking_function",
  "masking_value",
] as const satisfies readonly (keyof MaskingRule)[];

/** `AnonymizationRunMetadata`: the latest run. */
export const AnonymizationRunSchema = z.object({
  started_at: z.string().optional(),
  /** Set also when the run failed. */
  completed_at: z.string().optional(),
  triggered_by: z.string().optional(),
  triggered_by_username: z.string().optional(),
  masked_columns: z.number().optional(),
});

/**
 * `AnonymizedBranchStatusResponse`. `state` is a string in the document (values `created`,
 * `initialized`, `initialization_error`, `anonymizing`, `anonymized`, `error`): an unknown one is read,
 * not refused. `status_message` may name the tables being masked (the document's example does): a
 * caller does not log it.
 */
export const AnonymizedStatusSchema = z.object({
  project_id: z.string(),
  branch_id: z.string(),
  state: z.string(),
  status_message: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  failed_at: z.string().optional(),
  last_run: AnonymizationRunSchema.optional(),
});
export type AnonymizedStatus = z.infer<typeof AnonymizedStatusSchema>;

const MaskingRulesSchema = z.object({ masking_rules: z.array(MaskingRuleSchema) });

/** `BranchAnonymizedCreateRequest`: the branch create's body under `branch_create`, the rules, the start. */
export interface AnonymizedBranchCreateBody {
  branch_create?: Omit<BranchCreateBody, "annotation_value">;
  masking_rules?: MaskingRule[];
  /** Start a run of the rules once the branch is made (the document's default: false). */
  start_anonymization?: boolean;
  annotation_value?: Record<string, string>;
}

/**
 * Where a branch's anonymization stands, for a caller that waits: `waiting` (the branch is being made,
 * a run is going on, or one asked for has not started), `anonymized`, or `failed` (`error`,
 * `initialization_error`, or a state the document does not name).
 */
export type AnonymizationPhase = "waiting" | "anonymized" | "failed";

/** The phase of a status; `runAsked`: a run was asked for, so `initialized` means it has not started. */
export function anonymizationPhase(state: string, runAsked: boolean): AnonymizationPhase {
  if (state === "created" || state === "anonymizing") return "waiting";
  if (state === "initialized") return runAsked ? "waiting" : "anonymized";
  if (state === "anonymized") return "anonymized";
  return "failed";
}

/** How {@link AnonymizedCalls.waitForRun} waits. */
export interface AnonymizationWaitOptions {
  /** The start's answer: a status older than it is the previous run's, waited past. */
  startedBy?: AnonymizedStatus;
  /** The longest wait (default 30 minutes: masking rewrites every row of a masked table). */
  timeoutMs?: number;
  /** Ends the wait early (the latest status is returned). */
  signal?: AbortSignal;
  /** Told each status read. */
  onStatus?(status: AnonymizedStatus): void;
}

/** The first wait between two reads of the status, and the longest. */
const POLL_FIRST_MS = 1000;
const POLL_MAX_MS = 10_000;
const WAIT_DEFAULT_MS = 30 * 60_000;

/** The anonymized-branch calls of the client. */
export interface AnonymizedCalls {
  /** Creates an anonymized branch (and its computes, as a branch create does). */
  create(projectId: string, body: AnonymizedBranchCreateBody): Promise<BranchOperations>;
  /** The branch's masking rules. */
  getRules(projectId: string, branchId: string): Promise<MaskingRule[]>;
  /** Replaces the branch's masking rules whole; starts no run. */
  setRules(projectId: string, branchId: string, rules: readonly MaskingRule[]): Promise<MaskingRule[]>;
  /** The branch's anonymization status. */
  status(projectId: string, branchId: string): Promise<AnonymizedStatus>;
  /** Starts a run of the branch's rules (in the `initialized`, `error` or `anonymized` state). */
  start(projectId: string, branchId: string): Promise<AnonymizedStatus>;
  /**
   * Reads the status until the run has ended (see {@link anonymizationPhase}), and returns the last
   * status read; a failed run is returned, not thrown. Throws when `timeoutMs` passes first.
   */
  waitForRun(projectId: string, branchId: string, opts?: AnonymizationWaitOptions): Promise<AnonymizedStatus>;
}

export function anonymizedCalls(call: Call, http: HttpClient): AnonymizedCalls {
  const of = (p: string, b: string) => `anonymized branch ${b} of project ${p}`;
  const params = (p: string, b: string) => ({ project_id: p, branch_id: b });
  const status: AnonymizedCalls["status"] = (p, b) =>
    call(
      route("GET /projects/{project_id}/branches/{branch_id}/anonymized_status", params(p, b)),
      "read the status of",
      of(p, b),
      AnonymizedStatusSchema,
    );
  return {
    create: (p, body) =>
      call(
        route("POST /projects/{project_id}/branch_anonymized", { project_id: p }),
        "create",
        body.branch_create?.branch.name !== undefined
          ? `anonymized branch "${body.branch_create.branch.name}" in project ${p}`
          : `an anonymized branch in project ${p}`,
        BranchOperationsSchema,
        { body },
      ),
    getRules: (p, b) =>
      call(
        route("GET /projects/{project_id}/branches/{branch_id}/masking_rules", params(p, b)),
        "read the masking rules of",
        of(p, b),
        MaskingRulesSchema,
        { map: (r) => r.masking_rules },
      ),
    setRules: (p, b, rules) =>
      call(
        route("PATCH /projects/{project_id}/branches/{branch_id}/masking_rules", params(p, b)),
        "update the masking rules of",
        of(p, b),
        MaskingRulesSchema,
        { body: { masking_rules: rules }, map: (r) => r.masking_rules },
      ),
    status,
    start: (p, b) =>
      call(
        route("POST /projects/{project_id}/branches/{branch_id}/anonymize", params(p, b)),
        "start the anonymization of",
        of(p, b),
        AnonymizedStatusSchema,
      ),
    waitForRun: async (p, b, o = {}) => {
      const clock = http.clock;
      const deadline = clock.now() + (o.timeoutMs ?? WAIT_DEFAULT_MS);
      let pause = POLL_FIRST_MS;
      for (;;) {
        const s = await status(p, b);
        o.onStatus?.(s);
        // Until the service shows the run a start began, an older status (the last run's end) is no answer.
        const stale =
          o.startedBy !== undefined && Date.parse(s.updated_at) < Date.parse(o.startedBy.updated_at);
        if ((!stale && anonymizationPhase(s.state, true) !== "waiting") || o.signal?.aborted) return s;
        if (clock.now() + pause > deadline) {
          throw new Error(
            `Failed to wait for the anonymization of ${of(p, b)}: it was still ${s.state} after ` +
              `${Math.round((o.timeoutMs ?? WAIT_DEFAULT_MS) / 1000)} s. Read its anonymized_status, then run again.`,
          );
        }
        await clock.sleep(pause, o.signal);
        pause = Math.min(POLL_MAX_MS, pause * 2);
      }
    },
  };
}
