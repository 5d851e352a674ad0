/**
 * An anonymized `Branch` (Neon's Beta `branch_anonymized`): made from its parent with masking rules that
 * PostgreSQL Anonymizer applies to the branch's own copy of the data, the parent keeping its values. The
 * rules are the `maskingRules` input, secret (Neon's document marks every field of a rule sensitive:
 * messages name a rule by its place in the list, never by its contents). A change of the rules is applied
 * in place and masks nothing by itself; a new `anonymizeTrigger` runs them again. Every run is waited
 * for; one that ends in error fails the step that ran it, the branch kept in the stack.
 */
import { ApiError, anonymizationPhase, isNotFound, type AnonymizedStatus, type MaskingRule } from "../../api";
import type { CheckFailure } from "../check";
import type { ResourceLogger } from "../engine-log";
import { UNKNOWN, type Bag } from "../kit";
import type { Runtime } from "../runtime";
import type { BranchMaskingRuleInputs } from "./types";

/** True when the branch is declared (or recorded) anonymized: it has at least one masking rule. */
export function anonymized(rules: unknown): rules is BranchMaskingRuleInputs[] {
  return Array.isArray(rules) && rules.length > 0;
}

/**
 * True when the branch was made anonymized: it has rules, or a state of its runs (a branch's kind is
 * fixed at its creation; rules emptied outside the stack do not make it a plain one).
 */
export function madeAnonymized(state: Bag): boolean {
  return anonymized(state.maskingRules) || state.anonymizationState !== undefined;
}

/** True when both lists hold the same rules, whatever their order (check keeps one rule per column). */
export function sameRules(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const key = (r: Bag) => JSON.stringify([r.databaseName, r.schemaName, r.tableName, r.columnName]);
  const mask = (r: Bag) => JSON.stringify([r.maskingFunction ?? null, r.maskingValue ?? null]);
  const byKey = new Map((a as Bag[]).map((r) => [key(r), mask(r)]));
  return (b as Bag[]).every((r) => byKey.get(key(r)) === mask(r));
}

/** True when the last run of the branch's rules did not end masked: the next update runs them again. */
export function runOwed(olds: Bag): boolean {
  return (
    madeAnonymized(olds) &&
    typeof olds.anonymizationState === "string" &&
    olds.anonymizationState !== "anonymized"
  );
}

/** The rules as the service takes them. */
export function apiRules(rules: readonly BranchMaskingRuleInputs[]): MaskingRule[] {
  return rules.map((r) => ({
    database_name: r.databaseName,
    schema_name: r.schemaName,
    table_name: r.tableName,
    column_name: r.columnName,
    ...(r.maskingFunction !== undefined ? { masking_function: r.maskingFunction } : {}),
    ...(r.maskingValue !== undefined ? { masking_value: r.maskingValue } : {}),
  }));
}

/** The rules as the service answers them, in the inputs' shape. */
export function ruleInputs(rules: readonly MaskingRule[]): BranchMaskingRuleInputs[] {
  return rules.map((r) => ({
    databaseName: r.database_name,
    schemaName: r.schema_name,
    tableName: r.table_name,
    columnName: r.column_name,
    ...(r.masking_function ? { maskingFunction: r.masking_function } : {}),
    ...(r.masking_value ? { maskingValue: r.masking_value } : {}),
  }));
}

/**
 * The rules' own faults (no request): a rule with both a function and a value, or neither; a column
 * masked twice; a trigger without rules; rules with an input that makes the branch another way.
 */
export function ruleFailures(inputs: Bag): CheckFailure[] {
  const rules = inputs.maskingRules;
  if (rules === UNKNOWN) return [];
  if (!anonymized(rules)) {
    return inputs.anonymizeTrigger !== undefined
      ? [
          {
            property: "anonymizeTrigger",
            reason:
              "runs the branch's masking rules again, and the branch has none: declare maskingRules, or remove it",
          },
        ]
      : [];
  }
  const failures: CheckFailure[] = [];
  for (const other of ["restoreFrom", "importId", "adoptDefault"] as const) {
    if (inputs[other] !== undefined && inputs[other] !== false) {
      failures.push({
        property: "maskingRules",
        reason:
          `cannot be declared with ${other}: an anonymized branch is made from its parent with its rules, and ` +
          `${other} makes the branch another way; remove one of them`,
      });
    }
  }
  const seen = new Map<string, number>();
  rules.forEach((r, i) => {
    if (typeof r !== "object" || r === null) return;
    const given = [r.maskingFunction, r.maskingValue].filter((v) => v !== undefined).length;
    if (given !== 1) {
      failures.push({
        property: `maskingRules[${i}]`,
        reason:
          given === 0
            ? "has no mask: give maskingFunction (e.g. `anon.fake_email()`) or maskingValue (an SQL literal such as `'REDACTED'`)"
            : "has both maskingFunction and maskingValue: give one of them",
      });
    }
    const names = [r.databaseName, r.schemaName, r.tableName, r.columnName];
    if (names.some((n) => n === UNKNOWN)) return;
    const key = JSON.stringify(names);
    const first = seen.get(key);
    if (first !== undefined) {
      failures.push({
        property: `maskingRules[${i}]`,
        reason: `masks the column maskingRules[${first}] masks already: keep one rule per column`,
      });
    } else seen.set(key, i);
  });
  return failures;
}

/**
 * What a read-only look at the branch the data comes from can tell (its parent for a new branch, the
 * branch itself for changed rules): a rule naming a database, table or column it lacks. Rules with an
 * unknown name, and a branch that cannot be read, are left to the service.
 */
export async function previewRules(
  rt: Runtime,
  projectId: string,
  branchId: string,
  rules: readonly BranchMaskingRuleInputs[],
  whose: string,
): Promise<CheckFailure[]> {
  const api = rt.client();
  const known = (r: BranchMaskingRuleInputs) =>
    [r.databaseName, r.schemaName, r.tableName, r.columnName].every(
      (n) => typeof n === "string" && n !== UNKNOWN,
    );
  if (!rules.some(known)) return [];
  let databases: string[];
  try {
    databases = (await api.databases.list(projectId, branchId)).map((d) => d.name);
  } catch (err) {
    if (isNotFound(err) || (err instanceof ApiError && err.kind === "forbidden")) return [];
    throw err;
  }
  const tables = new Map<string, Promise<Map<string, Set<string>>>>();
  const tablesOf = (db: string) => {
    let t = tables.get(db);
    if (!t) {
      t = api.branches.tables(projectId, branchId, db).then(
        (all) => new Map(all.map((x) => [`${x.schema}.${x.name}`, new Set(x.columns.map((c) => c.name))])),
        // Gone since the listing: no tables.
        (err: unknown) => (isNotFound(err) ? new Map<string, Set<string>>() : Promise.reject(err)),
      );
      tables.set(db, t);
    }
    return t;
  };
  const failures: CheckFailure[] = [];
  for (const [i, r] of rules.entries()) {
    if (!known(r)) continue;
    // A database this program declares on the branch is made in this run, with the tables its migrations
    // make: left to the run, which fails if they are still missing.
    if (rt.ledger.declaredBy(`database:${projectId}/${branchId}/${r.databaseName}`)) continue;
    if (!databases.includes(r.databaseName)) {
      failures.push({
        property: `maskingRules[${i}].databaseName`,
        reason: `names a database ${whose} (branch ${branchId}) does not have; name one of its databases`,
      });
      continue;
    }
    const columns = (await tablesOf(r.databaseName)).get(`${r.schemaName}.${r.tableName}`);
    if (!columns) {
      failures.push({
        property: `maskingRules[${i}].tableName`,
        reason:
          `names a table its database on ${whose} (branch ${branchId}) does not have in that schema; ` +
          "check schemaName and tableName (the rules run on the branch's copy of that data)",
      });
    } else if (!columns.has(r.columnName)) {
      failures.push({
        property: `maskingRules[${i}].columnName`,
        reason: `names a column its table on ${whose} (branch ${branchId}) does not have; check columnName`,
      });
    }
  }
  return failures;
}

/**
 * Waits for the branch's run of its rules to end; one that ends in error fails, saying what to check
 * (never the service's status message: it may name the tables being masked).
 */
export async function awaitRun(
  rt: Runtime,
  projectId: string,
  branchId: string,
  log: ResourceLogger,
  startedBy?: AnonymizedStatus,
): Promise<AnonymizedStatus> {
  log.progress(`masking the data of branch ${branchId} (its masking rules run)`);
  const status = await rt.client().anonymized.waitForRun(projectId, branchId, {
    timeoutMs: rt.deadlineMs(),
    startedBy,
    onStatus: (s) => log.progress(`masking the data of branch ${branchId}: ${s.state}`),
  });
  if (anonymizationPhase(status.state, true) === "failed") {
    throw new Error(
      `Failed to anonymize branch ${branchId}: the run of its masking rules ended in state "${status.state}"` +
        `${status.failed_at ? ` at ${status.failed_at}` : ""}, and its data may be partly masked or not at all. ` +
        "Check that every rule names an existing database, schema, table and column and a function PostgreSQL " +
        "Anonymizer has, then run `pulumi up` again: while the last run is not `anonymized`, every update runs " +
        "the rules again.",
    );
  }
  log.info(
    `masked the data of branch ${branchId}` +
      (status.last_run?.masked_columns !== undefined ? ` (${status.last_run.masked_columns} columns)` : ""),
  );
  return status;
}
