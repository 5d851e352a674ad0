/**
 * Static masking on a branch's real Postgres data, for the anonymized branches of
 * `routes/anonymized.ts`. PostgreSQL Anonymizer has no package for the Postgres the emulator runs, so
 * the emulator brings a small `anon` schema of its own with the functions the API's document names
 * (`anon.fake_email()`, `anon.random_string(n)`, `anon.hash(value)`), made in each database a run
 * masks, and applies each rule as an `UPDATE` of its column.
 *
 * Messages never repeat a rule's names or values (the document marks every field of a rule
 * sensitive): a rule is named by its position in the branch's list.
 */

/** What one rule writes into its column: a function of the set, a hash of a column, or a literal. */
export type MaskSetter =
  { kind: "function"; sql: string } | { kind: "hash"; column: string } | { kind: "literal"; sql: string };

/** One masking rule, checked against the grammar, ready to be applied. */
export interface MaskTarget {
  /** Its position in the branch's rules (1-based), for messages. */
  position: number;
  database: string;
  schema: string;
  table: string;
  column: string;
  set: MaskSetter;
}

/** How a run ended. */
export type MaskOutcome = { ok: true; maskedColumns: number } | { ok: false; message: string };

/** Runs SQL as the superuser in one database of the branch; with `tuples`, answers unaligned rows. */
export type SqlRunner = (database: string, script: string, tuples?: boolean) => Promise<string>;

/** The emulator's `anon` schema: the functions the document names, nothing else. */
export const ANON_SCHEMA_SQL = `
CREATE SCHEMA IF NOT EXISTS anon;
GRANT USAGE ON SCHEMA anon TO PUBLIC;
CREATE OR REPLACE FUNCTION anon.fake_email() RETURNS text LANGUAGE sql VOLATILE AS
$fn$ SELECT 'user_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16) || '@example.com' $fn$;
CREATE OR REPLACE FUNCTION anon.random_string(n integer) RETURNS text LANGUAGE sql VOLATILE AS
$fn$ SELECT string_agg(substr('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  1 + floor(random() * 62)::int, 1), '') FROM generate_series(1, n) $fn$;
CREATE OR REPLACE FUNCTION anon.hash(value text) RETURNS text LANGUAGE sql IMMUTABLE AS
$fn$ SELECT encode(sha256(convert_to(value, 'UTF8')), 'hex') $fn$;
`;

/** Every column of the database's user tables, as one JSON array of `[schema, table, column]`. */
const COLUMNS_SQL = `
SELECT coalesce(json_agg(json_build_array(n.nspname, c.relname, a.attname)), '[]')
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%';
`;

/** A quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Applies the rules to the branch's databases (those the run names, in order): first every rule's
 * schema, table and column (and a hashed column) is checked against the catalog, so that a rule naming
 * a missing one changes nothing; then each database's rules run in one transaction, after its `anon`
 * schema is made. Postgres's refusal (a value of the wrong type, a constraint) ends the run as an
 * error; databases done before it keep their masking.
 */
export async function applyMasking(run: SqlRunner, targets: readonly MaskTarget[]): Promise<MaskOutcome> {
  const byDb = new Map<string, MaskTarget[]>();
  for (const t of targets) byDb.set(t.database, [...(byDb.get(t.database) ?? []), t]);
  for (const [db, rules] of byDb) {
    const rows = JSON.parse((await run(db, COLUMNS_SQL, true)).trim() || "[]") as [string, string, string][];
    for (const t of rules) {
      const missing = missingPart(rows, t);
      if (missing)
        return {
          ok: false,
          message: `masking rule ${t.position}: its ${missing} does not exist on the branch`,
        };
    }
  }
  let masked = 0;
  for (const [db, rules] of byDb) {
    try {
      await run(db, `BEGIN;\n${ANON_SCHEMA_SQL}\n${updates(rules).join("\n")}\nCOMMIT;\n`);
    } catch (e) {
      const positions = rules.map((r) => r.position).join(", ");
      return {
        ok: false,
        message: `masking rules ${positions}: Postgres refused the masking (${pgReason(e)})`,
      };
    }
    masked += new Set(rules.map((r) => `${r.schema}\u0000${r.table}\u0000${r.column}`)).size;
  }
  return { ok: true, maskedColumns: masked };
}

/** Which part of the rule's column the catalog lacks: schema, table, column or hashed column. */
function missingPart(rows: readonly [string, string, string][], t: MaskTarget): string | undefined {
  if (!rows.some((r) => r[0] === t.schema)) return "schema";
  const table = rows.filter((r) => r[0] === t.schema && r[1] === t.table);
  if (table.length === 0) return "table";
  if (!table.some((r) => r[2] === t.column)) return "column";
  if (t.set.kind === "hash" && !table.some((r) => r[2] === (t.set as { column: string }).column)) {
    return "hashed column";
  }
  return undefined;
}

/** One `UPDATE` per table: every rule of the table in one statement (each reads the row's old values). */
function updates(rules: readonly MaskTarget[]): string[] {
  const byTable = new Map<string, MaskTarget[]>();
  for (const r of rules) {
    const key = `${ident(r.schema)}.${ident(r.table)}`;
    byTable.set(key, [...(byTable.get(key) ?? []), r]);
  }
  return [...byTable].map(([table, rs]) => {
    // A later rule for the same column wins, as a later label would.
    const sets = new Map(rs.map((r) => [r.column, `${ident(r.column)} = ${setterSql(r.set)}`]));
    return `UPDATE ${table} SET ${[...sets.values()].join(", ")};`;
  });
}

function setterSql(s: MaskSetter): string {
  return s.kind === "hash" ? `anon.hash((${ident(s.column)})::text)` : s.sql;
}

/** Postgres's reason, its first line, with quoted parts (which may hold a rule's value) left out. */
function pgReason(e: unknown): string {
  const text = String((e as Error).message ?? e);
  const line = text.split("\n").find((l) => /ERROR:/.test(l)) ?? text.split("\n")[0];
  return line
    .replace(/^.*ERROR:\s*/, "")
    .replace(/"[^"]*"/g, '"…"')
    .trim();
}
