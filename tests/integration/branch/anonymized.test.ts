/**
 * An anonymized `Branch` (`maskingRules`, Neon's Beta anonymized branches) against the emulator with real
 * Postgres: made from its parent with two rules, its create waiting for the run; `psql` sees masked values
 * on it and the originals on its parent. Bad rules are refused at preview with nothing sent; a change of
 * a rule is an update that masks nothing until `anonymizeTrigger` changes; removing the rules replaces
 * the branch; a lost answer to the create makes no second branch.
 */
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { boundProgram, urnOf } from "../../support/provider";
import { mutationCount } from "../../support/requests";
import { withEmulator } from "../../support/emulator";
import { psql } from "../../../scripts/lib/psql";

jest.setTimeout(240_000);

type Props = Record<string, unknown>;

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let mainId: string;
let logs: string[] = [];

withEmulator({ opMs: 40, opDurations: { anonymize: 200 }, seed: 57, postgres: true }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
  mainId = emulator.seed.branchIds[0];
});

const program = () =>
  boundProgram(["Branch"], { apiKey: emulator.apiKey, apiUrl: emulator.url }, (l) => logs.push(l));

const EMAIL = {
  databaseName: "neondb",
  schemaName: "public",
  tableName: "users",
  columnName: "email",
  maskingFunction: "anon.fake_email()",
};
const NAME = { ...EMAIL, columnName: "name", maskingFunction: undefined, maskingValue: "'REDACTED'" };
const rule = (r: Props) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));

async function query(branchId: string, sql: string): Promise<string> {
  const uri = await api.projects.connectionUri(projectId, {
    branchId,
    databaseName: "neondb",
    roleName: "neondb_owner",
  });
  const r = await psql(uri, sql);
  expect(r.error).toBe("");
  return r.out.trim();
}

const USERS = "SELECT string_agg(email || '|' || name, ',' ORDER BY id) FROM users";

beforeAll(async () => {
  await query(
    mainId,
    "CREATE TABLE users (id int PRIMARY KEY, email text, name text); " +
      "INSERT INTO users VALUES (1, 'ada@corp.example', 'Ada'), (2, 'bob@corp.example', 'Bob')",
  );
});

beforeEach(() => {
  logs = [];
});

const news = (name: string, inputs: Props) => ({
  __provider: "shim",
  __urn: urnOf("Branch", name),
  projectId,
  name,
  compute: { minCu: 0.25, maxCu: 0.25 },
  ...inputs,
});

test("two rules mask the branch's copy of the data, its parent keeps the originals; a changed rule runs when triggered", async () => {
  const p = program();
  const c = await p.Branch.check({}, news("pr-anon", { maskingRules: [rule(EMAIL), rule(NAME)] }));
  expect(c.failures ?? []).toEqual([]);
  const made = await p.Branch.create(c.inputs);
  const outs = made.outs as Props;
  expect(outs.anonymizationState).toBe("anonymized");
  const masked = (await query(made.id, USERS)).split(",");
  expect(masked).toHaveLength(2);
  for (const row of masked) {
    const [email, name] = row.split("|");
    expect(email).not.toMatch(/corp\.example/);
    expect(email).toMatch(/@/);
    expect(name).toBe("REDACTED");
  }
  expect(await query(mainId, USERS)).toBe("ada@corp.example|Ada,bob@corp.example|Bob");
  expect((await api.anonymized.getRules(projectId, made.id)).map((r) => r.column_name)).toEqual([
    "email",
    "name",
  ]);

  // A changed rule: an update in place that masks nothing by itself.
  const changed = [
    rule(EMAIL),
    rule({ ...NAME, maskingValue: undefined, maskingFunction: "anon.random_string(6)" }),
  ];
  const c2 = await p.Branch.check(c.inputs, news("pr-anon", { maskingRules: changed }));
  expect(c2.failures ?? []).toEqual([]);
  const d2 = await p.Branch.diff(made.id, outs, c2.inputs);
  expect(d2).toMatchObject({ changes: true, replaces: [] });
  expect(logs.join("\n")).toContain("mask nothing now: change anonymizeTrigger");
  const u2 = await p.Branch.update(made.id, outs, c2.inputs);
  expect(await query(made.id, "SELECT string_agg(name, ',') FROM users")).toBe("REDACTED,REDACTED");

  // The trigger runs the rules again on the branch's data.
  const c3 = await p.Branch.check(
    c2.inputs,
    news("pr-anon", { maskingRules: changed, anonymizeTrigger: "1" }),
  );
  const d3 = await p.Branch.diff(made.id, u2.outs as Props, c3.inputs);
  expect(d3).toMatchObject({ changes: true, replaces: [] });
  const u3 = await p.Branch.update(made.id, u2.outs as Props, c3.inputs);
  expect((u3.outs as Props).anonymizationState).toBe("anonymized");
  const names = (await query(made.id, "SELECT string_agg(name, ',' ORDER BY id) FROM users")).split(",");
  expect(names.map((n) => n.length)).toEqual([6, 6]);
  expect(await query(mainId, USERS)).toBe("ada@corp.example|Ada,bob@corp.example|Bob");

  // A refresh reads the rules and the state: no drift.
  const read = await p.Branch.read(made.id, u3.outs as Props);
  expect((read.props as Props).maskingRules).toEqual(changed);
  expect((await p.Branch.diff(made.id, read.props as Props, c3.inputs)).changes).toBe(false);

  // Without rules the branch would have to be another: a replacement.
  const c4 = await p.Branch.check(c3.inputs, news("pr-anon", {}));
  expect((await p.Branch.diff(made.id, read.props as Props, c4.inputs)).replaces).toContain("maskingRules");
  await p.Branch.delete(made.id, read.props as Props);
});

test("bad rules are refused at preview, each naming its property, with nothing sent", async () => {
  const p = program();
  const before = mutationCount(emulator);
  const failures = async (inputs: Props) =>
    ((await p.Branch.check({}, news("pr-bad", inputs))).failures ?? []).map((f) => f.property);
  expect(await failures({ maskingRules: [rule({ ...EMAIL, tableName: "customers" })] })).toEqual([
    "maskingRules[0].tableName",
  ]);
  expect(await failures({ maskingRules: [rule(EMAIL), rule({ ...NAME, columnName: "phone" })] })).toEqual([
    "maskingRules[1].columnName",
  ]);
  expect(await failures({ maskingRules: [rule({ ...EMAIL, databaseName: "nodb" })] })).toEqual([
    "maskingRules[0].databaseName",
  ]);
  expect(await failures({ maskingRules: [rule({ ...EMAIL, maskingValue: "'x'" })] })).toEqual([
    "maskingRules[0]",
  ]);
  expect(await failures({ maskingRules: [rule(EMAIL), rule(EMAIL)] })).toEqual(["maskingRules[1]"]);
  expect(await failures({ anonymizeTrigger: "1" })).toEqual(["anonymizeTrigger"]);
  // The rules' contents are secret: no message repeats them.
  const all = await p.Branch.check(
    {},
    news("pr-bad", { maskingRules: [rule({ ...EMAIL, tableName: "customers" })] }),
  );
  expect(JSON.stringify(all.failures)).not.toContain("customers");
  expect(mutationCount(emulator)).toBe(before);
});

test("a lost answer to the create makes no second branch; the run is waited for", async () => {
  const p = program();
  const c = await p.Branch.check({}, news("pr-lost", { maskingRules: [rule(EMAIL)] }));
  expect(c.failures ?? []).toEqual([]);
  emulator.setFaults({ dropAfterCommitRate: 1 });
  const made = await p.Branch.create(c.inputs).finally(() => emulator.setFaults({}));
  expect((await api.branches.list(projectId)).filter((b) => b.name === "pr-lost").map((b) => b.id)).toEqual([
    made.id,
  ]);
  expect(logs.join("\n")).toMatch(/the answer to the create request was lost; found branch/);
  expect((made.outs as Props).anonymizationState).toBe("anonymized");
  expect(await query(made.id, "SELECT count(*) FROM users WHERE email LIKE '%corp.example'")).toBe("0");
  await p.Branch.delete(made.id, made.outs as Props);
});

test("a reset runs the rules again; a failed run is run again by the next update; drift stays an update", async () => {
  const p = program();
  const c = await p.Branch.check({}, news("pr-again", { maskingRules: [rule(EMAIL)] }));
  const made = await p.Branch.create(c.inputs);
  const outs = made.outs as Props;
  // A reset brings the parent's rows back: the rules run right after it.
  const r = await p.Branch.check(
    c.inputs,
    news("pr-again", { maskingRules: [rule(EMAIL)], resetTrigger: "1" }),
  );
  const d = await p.Branch.diff(made.id, outs, r.inputs);
  expect(d).toMatchObject({ changes: true, replaces: [] });
  expect(logs.join("\n")).toContain("its masking rules run again right after it");
  const reset = await p.Branch.update(made.id, outs, r.inputs);
  expect(await query(made.id, "SELECT count(*) FROM users WHERE email LIKE '%corp.example'")).toBe("0");

  // Rules emptied outside the stack: the refresh shows it, and the next update sets them again in place.
  await api.anonymized.setRules(projectId, made.id, []);
  const read = await p.Branch.read(made.id, reset.outs as Props);
  expect((read.props as Props).maskingRules).toEqual([]);
  const drift = await p.Branch.diff(made.id, read.props as Props, r.inputs);
  expect(drift).toMatchObject({ changes: true, replaces: [] });
  const back = await p.Branch.update(made.id, read.props as Props, r.inputs);
  // The same rules in another order are no change.
  const two = [rule(EMAIL), rule(NAME)];
  const t = await p.Branch.check(r.inputs, news("pr-again", { maskingRules: two, resetTrigger: "1" }));
  const set = await p.Branch.update(made.id, back.outs as Props, t.inputs);
  const swapped = await p.Branch.check(
    t.inputs,
    news("pr-again", { maskingRules: [...two].reverse(), resetTrigger: "1" }),
  );
  expect((await p.Branch.diff(made.id, set.outs as Props, swapped.inputs)).changes).toBe(false);
  await p.Branch.delete(made.id, set.outs as Props);

  // A run that fails (a function the service lacks): the branch is kept, the next update runs again.
  const bad = [rule({ ...EMAIL, maskingFunction: "anon.nope()" })];
  const b = await p.Branch.check({}, news("pr-failed", { maskingRules: bad }));
  const err = (await p.Branch.create(b.inputs).catch((e: unknown) => e)) as {
    properties?: Props;
    id?: string;
  };
  expect(String(err)).toMatch(/run `pulumi up` again: while the last run is not `anonymized`/);
  expect(err.properties?.anonymizationState).toBe("error");
  const fixed = await p.Branch.check(b.inputs, news("pr-failed", { maskingRules: [rule(EMAIL)] }));
  expect((await p.Branch.diff(String(err.id), err.properties as Props, fixed.inputs)).changes).toBe(true);
  const ran = await p.Branch.update(String(err.id), err.properties as Props, fixed.inputs);
  expect((ran.outs as Props).anonymizationState).toBe("anonymized");
  expect(await query(String(err.id), "SELECT count(*) FROM users WHERE email LIKE '%corp.example'")).toBe(
    "0",
  );
  await p.Branch.delete(String(err.id), ran.outs as Props);
});

test("rules declared on a plain branch are judged before its replacement deletes it", async () => {
  const p = program();
  const c = await p.Branch.check({}, news("pr-plain", {}));
  const made = await p.Branch.create(c.inputs);
  const before = mutationCount(emulator);
  const bad = await p.Branch.check(
    c.inputs,
    news("pr-plain", { maskingRules: [rule({ ...EMAIL, tableName: "nope" })] }),
  );
  expect(bad.failures ?? []).toEqual([]);
  await expect(p.Branch.diff(made.id, made.outs as Props, bad.inputs)).rejects.toThrow(
    /Failed to replace branch .* with an anonymized one: maskingRules\[0\]\.tableName .*Nothing was changed/,
  );
  expect(mutationCount(emulator)).toBe(before);
  await p.Branch.delete(made.id, made.outs as Props);
});
