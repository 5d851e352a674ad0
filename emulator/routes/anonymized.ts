/**
 * Anonymized branches (Beta in the OpenAPI document, PostgreSQL Anonymizer's static masking): a branch
 * made with masking rules (`POST /projects/{project_id}/branch_anonymized`), its rules
 * (`GET`/`PATCH …/branches/{branch_id}/masking_rules`), its status (`GET …/anonymized_status`) and a run
 * of its rules (`POST …/anonymize`).
 *
 * The branch itself is made as `POST …/branches` makes one (`createBranch`: its checks, computes,
 * operations, roles, databases and data). A run is no operation: the document's start answers the
 * status, and the client polls `anonymized_status` through the document's states — `created` until
 * the branch's `create_branch` ends (`initialization_error` when it ends in error), `initialized`, then
 * `anonymizing` for one operation's duration (`opDurations.anonymize`, else `opMs`) from when both the
 * run was asked for and the branch is ready, then `anonymized` or `error`. With real Postgres the rules
 * are applied to the branch's own copy of its parent's data (`postgres/anon.ts`); the parent keeps its
 * values.
 *
 * What the document leaves open, and the emulator's choice (a client must not lean on these):
 * - a rule's shape is checked when rules are given (400): the four names non-empty, exactly one of
 *   `masking_function` and `masking_value` (Neon's guide calls them mutually exclusive);
 * - what a rule names is checked when a run starts, as Postgres would when the masking is applied: a
 *   missing database, schema, table or column, a function outside the emulator's set
 *   (`anon.fake_email()`, `anon.random_string(n)`, `anon.hash(column)`) or a `masking_value` that is not
 *   an SQL literal (`'text'`, a number, `NULL`, `TRUE`, `FALSE`) ends the run in `error`, with
 *   `failed_at` and a `status_message` naming the rule by its position, and changes nothing;
 * - a start outside `initialized`, `error` and `anonymized` is refused: 422 "branch not ready yet" while
 *   the branch is being created, 409 while a run is going on or after the branch's creation failed;
 * - on a branch that is not anonymized, the reads answer 404 and the writes 400;
 * - rules may change while a run goes on: the run keeps the rules it started with.
 */
import { z } from "zod";
import { collection, resource } from "../collection";
import type { Ctx } from "../context";
import { badRequest, conflict, notFound } from "../errors";
import { iso } from "../ids";
import type { Branch } from "../state";
import { BranchCreateBody, parseBody } from "../validation";
import { ident, type MaskOutcome, type MaskSetter, type MaskTarget } from "../postgres/anon";
import { createBranch } from "./branches";

const name = z.string().min(1, "must not be empty");

/** `MaskingRule`. */
export const MaskingRuleSchema = z
  .object({
    database_name: name,
    schema_name: name,
    table_name: name,
    column_name: name,
    masking_function: name.optional(),
    masking_value: z.string().optional(),
  })
  .strict()
  .refine(
    (r) => (r.masking_function === undefined) !== (r.masking_value === undefined),
    "give exactly one of masking_function and masking_value",
  );
export type MaskingRule = z.infer<typeof MaskingRuleSchema>;

/** `MaskingRulesUpdateRequest`: the rules, replacing the branch's whole list. */
const MaskingRulesBody = z.object({ masking_rules: z.array(MaskingRuleSchema) }).strict();

/** `BranchAnonymizedCreateRequest`: `BranchCreateRequest` under `branch_create`, the rules, the start. */
const AnonymizedCreateBody = z
  .object({
    branch_create: BranchCreateBody.omit({ annotation_value: true }).optional(),
    masking_rules: z.array(MaskingRuleSchema).optional(),
    start_anonymization: z.boolean().optional(),
    annotation_value: BranchCreateBody.shape.annotation_value,
  })
  .strict();

/** One run of the rules: when it was asked for, by whom, its rules, and (once known) how it ended. */
const RunSchema = z.object({
  number: z.number().int(),
  requested_at: z.string(),
  triggered_by: z.string().optional(),
  triggered_by_username: z.string().optional(),
  rules: z.array(MaskingRuleSchema),
  outcome: z
    .union([
      z.object({ ok: z.literal(true), masked_columns: z.number().int() }),
      z.object({ ok: z.literal(false), message: z.string() }),
    ])
    .optional(),
});
type Run = z.infer<typeof RunSchema>;

/** What the emulator keeps of an anonymized branch. */
export const AnonymizedRecordSchema = z.object({
  created_at: z.string(),
  /** When the branch was first ready (kept: a later reset does not move a run's start). */
  ready_at: z.string().optional(),
  masking_rules: z.array(MaskingRuleSchema),
  run: RunSchema.optional(),
});
type AnonymizedRecord = z.infer<typeof AnonymizedRecordSchema>;

const RECORD_ID = "anonymized";

/** One record per anonymized branch (its delete removes it). */
export const anonymizedBranches = collection({
  name: "anonymized_branches",
  noun: "anonymized branch",
  scope: "branch",
  schema: AnonymizedRecordSchema,
  id: () => RECORD_ID,
});

/** The document's states of an anonymized branch. */
type AnonymizedState =
  "created" | "initialized" | "initialization_error" | "anonymizing" | "anonymized" | "error";

/** A run's duration on the emulator clock. */
function runMs(ctx: Ctx): number {
  const engine = ctx.settings.engine;
  return Math.max(0, engine.opDurations.anonymize ?? engine.opMs);
}

/** `AnonymizedBranchStatusResponse` of the branch at the emulator's now. */
function statusOf(ctx: Ctx, branch: Branch, rec: AnonymizedRecord) {
  const now = ctx.now();
  const base = { project_id: branch.project_id, branch_id: branch.id, created_at: rec.created_at };
  // Being created (a reset's `resetting` is not: the branch was made, and its run stands).
  if (branch.current_state === "init") {
    const failed = branch.pending_state === undefined;
    return {
      ...base,
      state: (failed ? "initialization_error" : "created") as AnonymizedState,
      status_message: failed ? "the branch could not be created" : "the branch is being created",
      updated_at: failed ? branch.state_changed_at : rec.created_at,
      ...(failed ? { failed_at: branch.state_changed_at } : {}),
    };
  }
  const readyAt = Date.parse(rec.ready_at ?? branch.state_changed_at);
  const run = rec.run;
  if (!run) {
    return {
      ...base,
      state: "initialized" as AnonymizedState,
      status_message: `ready to anonymize with ${plural(rec.masking_rules.length, "masking rule")}`,
      updated_at: iso(readyAt),
    };
  }
  const start = Math.max(Date.parse(run.requested_at), readyAt);
  const end = start + runMs(ctx);
  const who = {
    ...(run.triggered_by !== undefined ? { triggered_by: run.triggered_by } : {}),
    ...(run.triggered_by_username !== undefined ? { triggered_by_username: run.triggered_by_username } : {}),
  };
  if (now < end || !run.outcome) {
    return {
      ...base,
      state: "anonymizing" as AnonymizedState,
      status_message: `anonymizing with ${plural(run.rules.length, "masking rule")}`,
      updated_at: iso(start),
      last_run: { started_at: iso(start), ...who },
    };
  }
  const last_run = { started_at: iso(start), completed_at: iso(end), ...who };
  if (run.outcome.ok) {
    return {
      ...base,
      state: "anonymized" as AnonymizedState,
      status_message: `masked ${plural(run.outcome.masked_columns, "column")}`,
      updated_at: iso(end),
      last_run: { ...last_run, masked_columns: run.outcome.masked_columns },
    };
  }
  return {
    ...base,
    state: "error" as AnonymizedState,
    status_message: run.outcome.message,
    updated_at: iso(end),
    failed_at: iso(end),
    last_run,
  };
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** An identifier as written in an expression: quoted (`"Name"`) or folded to lower case. */
const IDENT = /^\s*("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)\s*$/;
function identName(raw: string): string | undefined {
  const m = IDENT.exec(raw);
  if (!m) return undefined;
  const id = m[1];
  return id.startsWith('"') ? id.slice(1, -1).replace(/""/g, '"') : id.toLowerCase();
}

/** What a `masking_function` writes, when it is one of the emulator's set. */
function functionSetter(expr: string): MaskSetter | undefined {
  const e = expr.trim();
  if (/^anon\.fake_email\(\s*\)$/.test(e)) return { kind: "function", sql: "anon.fake_email()" };
  const random = /^anon\.random_string\(\s*(\d{1,4})\s*\)$/.exec(e);
  if (random && Number(random[1]) >= 1 && Number(random[1]) <= 1000) {
    return { kind: "function", sql: `anon.random_string(${Number(random[1])})` };
  }
  const hash = /^anon\.hash\((.*)\)$/s.exec(e);
  const column = hash ? identName(hash[1]) : undefined;
  return column !== undefined ? { kind: "hash", column } : undefined;
}

/** What a `masking_value` writes, when it is an SQL literal (rebuilt, never passed through). */
function literalSetter(value: string): MaskSetter | undefined {
  const v = value.trim();
  const text = /^'((?:[^']|'')*)'$/s.exec(v);
  if (text) return { kind: "literal", sql: `'${text[1].replace(/''/g, "'").replace(/'/g, "''")}'` };
  if (/^-?\d+(\.\d+)?$/.test(v)) return { kind: "literal", sql: v };
  if (/^(null|true|false)$/i.test(v)) return { kind: "literal", sql: v.toUpperCase() };
  return undefined;
}

/**
 * The rules as the run applies them, or why the run fails before touching data: a database the branch
 * lacks, a function outside the set, a value that is no literal. Names a rule by its position only.
 */
function plan(ctx: Ctx, branch: Branch, rules: readonly MaskingRule[]): MaskTarget[] | string {
  const databases = new Set(ctx.store.databasesOf(branch.id).map((d) => d.name));
  const targets: MaskTarget[] = [];
  for (const [i, r] of rules.entries()) {
    const position = i + 1;
    if (!databases.has(r.database_name))
      return `masking rule ${position}: its database does not exist on the branch`;
    const set =
      r.masking_function !== undefined
        ? functionSetter(r.masking_function)
        : literalSetter(r.masking_value ?? "");
    if (!set) {
      return r.masking_function !== undefined
        ? `masking rule ${position}: its masking_function is not a function this service knows`
        : `masking rule ${position}: its masking_value is not an SQL literal ('text', a number, NULL, TRUE or FALSE)`;
    }
    targets.push({
      position,
      database: r.database_name,
      schema: r.schema_name,
      table: r.table_name,
      column: r.column_name,
      set,
    });
  }
  return targets;
}

/**
 * Notes when the branch was first ready, and gives its run an outcome when it has none and nothing
 * works on it: at once in memory (the databases hold no tables to check), else from a masking of the
 * real data (asked again after an emulator restart forgot the earlier request).
 */
function settle(ctx: Ctx, branch: Branch): void {
  const records = anonymizedBranches.in(ctx.store);
  let rec = records.get(branch.id, RECORD_ID);
  if (rec && rec.ready_at === undefined && branch.current_state === "ready") {
    rec = records.replace(branch.id, { ...rec, ready_at: branch.state_changed_at });
  }
  const run = rec?.run;
  if (!rec || !run || run.outcome) return;
  const planned = plan(ctx, branch, run.rules);
  const record = (outcome: Run["outcome"]) => {
    const current = anonymizedBranches.in(ctx.emu.store).get(branch.id, RECORD_ID);
    if (!current?.run || current.run.number !== run.number || current.run.outcome) return;
    anonymizedBranches.in(ctx.emu.store).replace(branch.id, { ...current, run: { ...current.run, outcome } });
    ctx.emu.store.saveIfDirty();
  };
  if (typeof planned === "string") return record({ ok: false, message: planned });
  const pg = ctx.emu.realPg;
  if (!pg) {
    const columns = new Set(
      planned.map((t) => [t.database, t.schema, t.table, t.column].map(ident).join(".")),
    );
    return record({ ok: true, masked_columns: columns.size });
  }
  if (pg.anonymizing(branch.id)) return;
  pg.anonymize(branch.id, planned, (o: MaskOutcome) =>
    record(o.ok ? { ok: true, masked_columns: o.maskedColumns } : { ok: false, message: o.message }),
  );
}

/** Starts a run of the branch's current rules. */
function startRun(ctx: Ctx, branch: Branch, rec: AnonymizedRecord): AnonymizedRecord {
  const user = ctx.principal.user;
  const run: Run = {
    number: (rec.run?.number ?? 0) + 1,
    requested_at: iso(ctx.now()),
    ...(user ? { triggered_by: user.id, triggered_by_username: user.name } : {}),
    rules: rec.masking_rules,
  };
  return { ...rec, run };
}

/** The branch's record; 404 (a read) or 400 (a write) when the branch is not anonymized. */
function recordOf(ctx: Ctx, what: string, write: boolean) {
  const scoped = anonymizedBranches.at(ctx, what);
  const branch = scoped.branch!;
  const rec = scoped.get(RECORD_ID);
  if (!rec) {
    const message = `Failed to ${what}: branch ${branch.id} is not an anonymized branch; create one with POST /projects/${scoped.project.id}/branch_anonymized`;
    throw write ? badRequest(message) : notFound(message);
  }
  settle(ctx, branch);
  return { scoped, branch, rec: scoped.get(RECORD_ID)! };
}

export const anonymizedResource = resource({
  name: "anonymized branches",
  collections: [anonymizedBranches],
  routes(r) {
    r.post("/projects/:project_id/branch_anonymized", (ctx) => {
      const what = "create anonymized branch";
      const project = ctx.project(ctx.params().project_id, what);
      // The whole body first: bad rules make nothing.
      const body = parseBody(AnonymizedCreateBody, ctx.req.body, what);
      const created = createBranch(
        ctx,
        project,
        { ...(body.branch_create ?? {}), annotation_value: body.annotation_value },
        what,
      );
      const branch = created.branch;
      let rec: AnonymizedRecord = { created_at: branch.created_at, masking_rules: body.masking_rules ?? [] };
      if (body.start_anonymization === true) rec = startRun(ctx, branch, rec);
      anonymizedBranches.in(ctx.store).add(branch.id, rec);
      settle(ctx, branch);
      return { status: 201, body: created };
    });

    r.get("/projects/:project_id/branches/:branch_id/masking_rules", (ctx) => {
      const { rec } = recordOf(ctx, "get masking rules", false);
      return { body: { masking_rules: rec.masking_rules } };
    });

    r.patch("/projects/:project_id/branches/:branch_id/masking_rules", (ctx) => {
      const what = "update masking rules";
      const { scoped, rec } = recordOf(ctx, what, true);
      const { masking_rules } = ctx.body(MaskingRulesBody, what);
      scoped.replace({ ...rec, masking_rules });
      return { body: { masking_rules } };
    });

    r.get("/projects/:project_id/branches/:branch_id/anonymized_status", (ctx) => {
      const { branch, rec } = recordOf(ctx, "get anonymized branch status", false);
      return { body: statusOf(ctx, branch, rec) };
    });

    r.post("/projects/:project_id/branches/:branch_id/anonymize", (ctx) => {
      const what = "start anonymization";
      const { scoped, branch, rec } = recordOf(ctx, what, true);
      const state = statusOf(ctx, branch, rec).state;
      if (state === "created") ctx.ready(branch);
      if (state === "anonymizing") {
        throw conflict(`Failed to ${what}: branch ${branch.id} is being anonymized; wait for the run to end`);
      }
      if (state === "initialization_error") {
        throw conflict(
          `Failed to ${what}: branch ${branch.id} could not be created; delete it and create another`,
        );
      }
      const next = scoped.replace(startRun(ctx, branch, rec));
      settle(ctx, branch);
      return { body: statusOf(ctx, branch, scoped.get(RECORD_ID) ?? next) };
    });
  },
});
