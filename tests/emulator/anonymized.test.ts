/**
 * Anonymized branches (`emulator/routes/anonymized.ts`), every answer validated against the OpenAPI
 * document by the client: the create (`branch_anonymized`) with rules and a start, the rules' reads and
 * replacement, the states a run goes through on the emulator clock, the refusals (a bad rule's shape
 * makes nothing; a rule naming what the branch lacks or a function outside the set ends the run in
 * `error`), and, with real Postgres, masked values on the anonymized branch while its parent keeps the
 * originals.
 */
import { createHash } from "node:crypto";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { psql } from "../../scripts/lib/psql";
import { Client, ownerUri, settle } from "./client";

const CREATE = "/projects/{project_id}/branch_anonymized";
const RULES = "/projects/{project_id}/branches/{branch_id}/masking_rules";
const STATUS = "/projects/{project_id}/branches/{branch_id}/anonymized_status";
const START = "/projects/{project_id}/branches/{branch_id}/anonymize";
const BR = "/projects/{project_id}/branches";

jest.setTimeout(180_000);

/** A run's duration in memory. */
const RUN_MS = 1000;

const rule = (column: string, set: { masking_function?: string; masking_value?: string }) => ({
  database_name: "neondb",
  schema_name: "public",
  table_name: "users",
  column_name: column,
  ...set,
});

describe("in memory", () => {
  let emu: EmulatorHandle;
  let c: Client;
  let p: { project_id: string };

  beforeAll(async () => {
    // A frozen clock: a run's states change only when the test moves it; a run outlasts `settle`'s steps.
    emu = await startEmulator({ opMs: 20, opDurations: { anonymize: RUN_MS }, seed: 56, frozenClock: true });
    c = new Client(emu);
    p = { project_id: emu.seed.projectId };
  });
  afterAll(() => emu.stop());

  const status = async (branch_id: string) => {
    const r = await c.get(STATUS, { params: { ...p, branch_id } });
    expect(r.status).toBe(200);
    return r.body;
  };

  test("a create with rules and a start goes created → anonymizing → anonymized", async () => {
    const rules = [
      rule("email", { masking_function: "anon.fake_email()" }),
      rule("note", { masking_value: "'x'" }),
    ];
    const r = await c.post(CREATE, {
      params: p,
      body: {
        branch_create: { branch: { name: "anon-1" }, endpoints: [{ type: "read_write" }] },
        masking_rules: rules,
        start_anonymization: true,
        annotation_value: { pr: "56" },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.operations.map((o: { action: string }) => o.action)).toEqual([
      "create_branch",
      "start_compute",
    ]);
    expect(r.body.endpoints).toHaveLength(1);
    const b = { ...p, branch_id: r.body.branch.id };
    expect((await status(b.branch_id)).state).toBe("created");
    // A start while the branch is being created: 422, as other work on such a branch.
    expect((await c.post(START, { params: b })).status).toBe(422);
    await settle(c, p.project_id);
    const running = await status(b.branch_id);
    expect(running.state).toBe("anonymizing");
    expect(running.last_run.started_at).toEqual(expect.any(String));
    expect(running.last_run.completed_at).toBeUndefined();
    expect((await c.post(START, { params: b })).status).toBe(409);
    emu.clock.advance(RUN_MS);
    const done = await status(b.branch_id);
    expect(done).toMatchObject({ state: "anonymized", last_run: { masked_columns: 2 } });
    expect(done.failed_at).toBeUndefined();
    expect((await c.get(RULES, { params: b })).body.masking_rules).toEqual(rules);
    // The branch is an ordinary branch too, with its annotation.
    const got = await c.get("/projects/{project_id}/branches/{branch_id}", { params: b });
    expect(got.body.annotation.value).toEqual({ pr: "56" });

    // New rules replace the list; a run starts only when asked.
    const next = [rule("email", { masking_function: "anon.hash(email)" })];
    const patched = await c.patch(RULES, { params: b, body: { masking_rules: next } });
    expect(patched.status).toBe(200);
    expect(patched.body.masking_rules).toEqual(next);
    expect((await status(b.branch_id)).state).toBe("anonymized");
    const again = await c.post(START, { params: b });
    expect(again.status).toBe(200);
    expect(again.body.state).toBe("anonymizing");
    emu.clock.advance(RUN_MS);
    expect(await status(b.branch_id)).toMatchObject({ state: "anonymized", last_run: { masked_columns: 1 } });
  });

  test("without a start the branch waits, initialized", async () => {
    const r = await c.post(CREATE, { params: p, body: { branch_create: { branch: { name: "anon-2" } } } });
    expect(r.status).toBe(201);
    await settle(c, p.project_id);
    const b = { ...p, branch_id: r.body.branch.id };
    expect(await status(b.branch_id)).toMatchObject({ state: "initialized" });
    expect((await status(b.branch_id)).last_run).toBeUndefined();
    expect((await c.get(RULES, { params: b })).body).toEqual({ masking_rules: [] });
  });

  test("a bad rule's shape is refused with 400 and makes nothing", async () => {
    const before = (await c.get(BR, { params: p })).body.branches.length;
    for (const bad of [
      rule("email", { masking_function: "anon.fake_email()", masking_value: "'x'" }),
      rule("email", {}),
      { ...rule("email", { masking_value: "'x'" }), table_name: "" },
      { ...rule("email", { masking_value: "'x'" }), extra: 1 },
    ]) {
      const r = await c.post(CREATE, {
        params: p,
        body: { masking_rules: [bad], start_anonymization: true },
      });
      expect(r.status).toBe(400);
    }
    expect((await c.get(BR, { params: p })).body.branches.length).toBe(before);
    // A body the document requires (`MaskingRulesUpdateRequest.masking_rules`).
    const made = await c.post(CREATE, { params: p, body: {} });
    expect(made.status).toBe(201);
    const b = { ...p, branch_id: made.body.branch.id };
    expect((await c.patch(RULES, { params: b, body: {} })).status).toBe(400);
    expect((await c.patch(RULES, { params: b, body: { masking_rules: [rule("x", {})] } })).status).toBe(400);
    await settle(c, p.project_id);
  });

  test("a run whose rules name a missing database, an unknown function or no literal ends in error", async () => {
    const made = await c.post(CREATE, {
      params: p,
      body: { branch_create: { branch: { name: "anon-err" } } },
    });
    const b = { ...p, branch_id: made.body.branch.id };
    await settle(c, p.project_id);
    for (const bad of [
      { ...rule("email", { masking_function: "anon.fake_email()" }), database_name: "nodb" },
      rule("email", { masking_function: "anon.nosuch()" }),
      rule("email", { masking_function: "pg_catalog.now()" }),
      rule("email", { masking_function: "anon.random_string(0)" }),
      rule("email", { masking_value: "REDACTED" }),
    ]) {
      expect((await c.patch(RULES, { params: b, body: { masking_rules: [bad] } })).status).toBe(200);
      const started = await c.post(START, { params: b });
      expect(started.status).toBe(200);
      emu.clock.advance(RUN_MS);
      const s = await status(b.branch_id);
      expect(s.state).toBe("error");
      expect(s.failed_at).toEqual(expect.any(String));
      expect(s.last_run.completed_at).toEqual(expect.any(String));
      // The rule is named by its position; its names and values (sensitive) are not repeated.
      expect(s.status_message).toContain("masking rule 1");
      expect(s.status_message).not.toMatch(/nodb|nosuch|now\(|REDACTED/);
    }
    // A run after an error starts again.
    await c.patch(RULES, { params: b, body: { masking_rules: [] } });
    expect((await c.post(START, { params: b })).status).toBe(200);
    emu.clock.advance(RUN_MS);
    expect(await status(b.branch_id)).toMatchObject({ state: "anonymized", last_run: { masked_columns: 0 } });
  });

  test("a branch that is not anonymized: reads 404, writes 400; an unknown branch 404", async () => {
    const plain = { ...p, branch_id: emu.seed.branchIds[1] };
    expect((await c.get(STATUS, { params: plain })).status).toBe(404);
    expect((await c.get(RULES, { params: plain })).status).toBe(404);
    expect((await c.patch(RULES, { params: plain, body: { masking_rules: [] } })).status).toBe(400);
    expect((await c.post(START, { params: plain })).status).toBe(400);
    const unknown = { ...p, branch_id: "br-unknown-000000" };
    expect((await c.get(STATUS, { params: unknown })).status).toBe(404);
    expect((await c.post(START, { params: unknown })).status).toBe(404);
  });

  test("a reset of the branch does not move its last run", async () => {
    const made = await c.post(CREATE, { params: p, body: { masking_rules: [], start_anonymization: true } });
    const b = { ...p, branch_id: made.body.branch.id };
    await settle(c, p.project_id);
    emu.clock.advance(RUN_MS);
    const before = await status(b.branch_id);
    expect(before.state).toBe("anonymized");
    const reset = await c.post("/projects/{project_id}/branches/{branch_id}/restore", {
      params: b,
      body: { source_branch_id: made.body.branch.parent_id },
    });
    expect(reset.status).toBe(200);
    await settle(c, p.project_id);
    expect(await status(b.branch_id)).toEqual(before);
  });

  test("a deleted anonymized branch takes its record with it", async () => {
    const made = await c.post(CREATE, { params: p, body: { masking_rules: [], start_anonymization: true } });
    const b = { ...p, branch_id: made.body.branch.id };
    await settle(c, p.project_id);
    expect((await c.del("/projects/{project_id}/branches/{branch_id}", { params: b })).status).toBe(200);
    await settle(c, p.project_id);
    expect((await c.get(STATUS, { params: b })).status).toBe(404);
  });
});

describe("with real Postgres", () => {
  let emu: EmulatorHandle;
  let c: Client;
  let p: { project_id: string };

  beforeAll(async () => {
    emu = await startEmulator({ opMs: 100, seed: 57, postgres: true });
    c = new Client(emu);
    p = { project_id: emu.seed.projectId };
  });
  afterAll(() => emu?.stop());

  const uriOf = (branchId: string) => ownerUri(c, p.project_id, branchId);

  /** Polls the status as a client does, moving the clock, until the run has ended. */
  async function ended(branch_id: string): Promise<{ state: string; [k: string]: unknown }> {
    for (let i = 0; i < 200; i++) {
      const s = (await c.get(STATUS, { params: { ...p, branch_id } })).body;
      if (!["created", "anonymizing"].includes(s.state)) return s;
      emu.clock.advance(100);
    }
    throw new Error("the run did not end");
  }

  const rows = async (uri: string) =>
    (await psql(uri, "SELECT id, email, name, note, age FROM users ORDER BY id")).out
      .split("\n")
      .map((l) => l.split("|"));

  test("the anonymized branch holds masked values; its parent keeps the originals", async () => {
    const parent = await c.post(BR, {
      params: p,
      body: { branch: { name: "prod" }, endpoints: [{ type: "read_write" }] },
    });
    expect(parent.status).toBe(201);
    await settle(c, p.project_id);
    const prodUri = await uriOf(parent.body.branch.id);
    const made = await psql(
      prodUri,
      "CREATE TABLE users (id int primary key, email text unique, name text, note text, age int);" +
        "INSERT INTO users VALUES (1, 'ada@corp.example', 'Ada', 'vip', 36), (2, 'bob@corp.example', 'Bob', 'late payer', 41)",
    );
    expect(made.error).toBe("");
    const originals = await rows(prodUri);

    const r = await c.post(CREATE, {
      params: p,
      body: {
        branch_create: {
          branch: { name: "pr-56", parent_id: parent.body.branch.id },
          endpoints: [{ type: "read_write" }],
        },
        masking_rules: [
          rule("email", { masking_function: "anon.fake_email()" }),
          rule("name", { masking_function: "anon.hash(name)" }),
          rule("note", { masking_value: "'REDACTED'" }),
          rule("age", { masking_function: "anon.random_string(2)" }),
        ],
        start_anonymization: true,
      },
    });
    expect(r.status).toBe(201);
    const anon = r.body.branch.id as string;
    await settle(c, p.project_id);
    const s = await ended(anon);
    // `age` is an integer: two random letters do not go into it, and the whole database's masking is undone.
    expect(s.state).toBe("error");
    const anonUri = await uriOf(anon);
    expect(await rows(anonUri)).toEqual(originals);

    // Rules that fit the columns, run again.
    const fixed = [
      rule("email", { masking_function: "anon.fake_email()" }),
      rule("name", { masking_function: "anon.hash(name)" }),
      rule("note", { masking_value: "'REDACTED'" }),
      rule("age", { masking_value: "0" }),
    ];
    expect(
      (await c.patch(RULES, { params: { ...p, branch_id: anon }, body: { masking_rules: fixed } })).status,
    ).toBe(200);
    expect((await c.post(START, { params: { ...p, branch_id: anon } })).status).toBe(200);
    expect(await ended(anon)).toMatchObject({ state: "anonymized", last_run: { masked_columns: 4 } });

    const masked = await rows(anonUri);
    const sha = (v: string) => createHash("sha256").update(v).digest("hex");
    expect(masked.map((m) => m[0])).toEqual(["1", "2"]);
    for (const [i, m] of masked.entries()) {
      expect(m[1]).toMatch(/^user_[0-9a-f]{16}@example\.com$/);
      expect(m[1]).not.toBe(originals[i][1]);
      expect(m[2]).toBe(sha(originals[i][2]));
      expect(m[3]).toBe("REDACTED");
      expect(m[4]).toBe("0");
    }
    // The parent keeps its values, and has no `anon` schema.
    expect(await rows(prodUri)).toEqual(originals);
    expect((await psql(prodUri, "SELECT count(*) FROM pg_namespace WHERE nspname = 'anon'")).out).toBe("0");

    // A rule naming a missing column ends the run in error and changes nothing.
    const before = await rows(anonUri);
    const missing = [rule("note", { masking_value: "'other'" }), rule("nosuch", { masking_value: "'x'" })];
    await c.patch(RULES, { params: { ...p, branch_id: anon }, body: { masking_rules: missing } });
    expect((await c.post(START, { params: { ...p, branch_id: anon } })).status).toBe(200);
    const failed = await ended(anon);
    expect(failed.state).toBe("error");
    expect(failed.status_message).toContain("masking rule 2");
    expect(await rows(anonUri)).toEqual(before);
  });
});
