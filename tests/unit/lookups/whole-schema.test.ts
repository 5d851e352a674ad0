/**
 * A database the base does not have, shown by `getSchemaDiff` as wholly new: its schema against an empty
 * one, in the unified format of `compare_schema` (the emulator writes that with the `diff` package, whose
 * output this is checked against), and no difference for SQL that defines nothing.
 */
import { createTwoFilesPatch } from "diff";
import { wholeSchemaAdded } from "../../../provider/lookups/schema";

// How compare_schema's diffs are written: the `diff` package's patch without its `====` line.
const patchOfEmpty = (db: string, sql: string) =>
  createTwoFilesPatch(`a/${db}`, `b/${db}`, "", sql).replace(/^=+\n/, "");

const PREAMBLE = [
  "--",
  "-- PostgreSQL database dump",
  "--",
  "",
  "SET statement_timeout = 0;",
  "SELECT pg_catalog.set_config('search_path', '', false);",
  "SET default_tablespace = '';",
  "\\restrict abc123",
  "",
].join("\n");

test.each([
  ["a table after the preamble", `${PREAMBLE}CREATE TABLE public.orders (\n    id bigint NOT NULL\n);\n`],
  ["one line", "CREATE SCHEMA app;\n"],
  ["no newline at the end", "CREATE SCHEMA app;\n-- end"],
])("%s: every line added, as the diff of an empty text and it", (_, sql) => {
  const diff = wholeSchemaAdded("app", sql);
  expect(diff).toBe(patchOfEmpty("app", sql));
  expect(diff).toMatch(/^--- a\/app\n\+\+\+ b\/app\n@@ -0,0 \+1,\d+ @@\n/);
  expect(
    diff
      .split("\n")
      .slice(3, -1)
      .every((l) => l.startsWith("+") || l.startsWith("\\")),
  ).toBe(true);
});

test("SQL that defines nothing (comments, settings, blank lines, meta-commands) is an empty schema", () => {
  expect(wholeSchemaAdded("app", "")).toBe("");
  expect(wholeSchemaAdded("app", PREAMBLE)).toBe("");
  expect(wholeSchemaAdded("app", `${PREAMBLE}\n--\n-- PostgreSQL database dump complete\n--\n\n`)).toBe("");
  // A setting is not an object; a statement that makes one is, wherever it stands.
  expect(wholeSchemaAdded("app", `${PREAMBLE}CREATE EXTENSION citext;\n`)).not.toBe("");
  expect(wholeSchemaAdded("app", "SET search_path = app; CREATE TABLE t (id int);\n")).not.toBe("");
});
