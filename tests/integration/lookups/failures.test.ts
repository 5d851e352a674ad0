/**
 * A lookup that fails, against the emulator over real HTTP (provider/lookups: `lookupOutput`,
 * `unknownAtPreview`; the plugin's invoke). An `…Output` lookup's failure fails the program once, with
 * a one-line `RunError`, and its Output never rejects (Pulumi would report each promise it builds from
 * a rejected value as handled late). At preview, a 404 about something this run may make
 * (`getConnectionUri`'s database, `getRolePassword`'s role) or that is gone (the stack's branch, deleted at its expiry) is an
 * unknown with one warning, as is `getSchemaDiff`'s database when a resource gives its name; a database
 * name or an id typed by hand that is not there fails. The plugin cannot answer an unknown (the engine refuses one in an invoke's result): it fails,
 * naming the gone branch and the remedy.
 */
import * as util from "util";
import * as pulumi from "@pulumi/pulumi";
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import { LOOKUP_CALLS, lookupOutput, type LookupSeams } from "../../../provider/lookups";
import { createProvider } from "../../../provider/plugin/provider";
import { PACKAGE } from "../../../provider/resources/classes";
import { Runtime } from "../../../provider/resources/runtime";
import { withEmulator } from "../../support/emulator";

jest.setTimeout(60_000);

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;

withEmulator({ opMs: 20, seed: 53 }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
  process.env.NEON_API_KEY = emulator.apiKey;
  process.env.NEON_API_URL = emulator.url;
});

afterAll(() => {
  delete process.env.NEON_API_KEY;
  delete process.env.NEON_API_URL;
});

/** A branch of the seeded project with its read_write compute, its operations finished. */
async function branchWithCompute(name: string): Promise<string> {
  const made = await api.branches.create(projectId, {
    branch: { name },
    endpoints: [{ type: "read_write" }],
  });
  emulator.clock.advance(5_000);
  await api.waitForOperations(projectId, made.operations);
  return made.branch.id;
}

/** Seams that record what a failed lookup did; `failed` settles at its first failure. */
function recorder(preview: boolean) {
  const warnings: string[] = [];
  const failures: unknown[] = [];
  let failed!: () => void;
  const firstFailure = new Promise<void>((r) => (failed = r));
  const seams: LookupSeams = {
    isDryRun: () => preview,
    warn: (m) => warnings.push(m),
    fail: (err) => {
      failures.push(err);
      failed();
    },
  };
  return { seams, warnings, failures, firstFailure };
}

/** What an Output came to: its value (undefined when unknown) and whether it is known. */
async function valueOf<T>(out: pulumi.Output<T>): Promise<{ known: boolean; value: T | undefined }> {
  const o = out as unknown as { isKnown: Promise<boolean>; promise(withUnknowns?: boolean): Promise<T> };
  const known = await o.isKnown;
  return { known, value: known ? await o.promise() : undefined };
}

/** True when `p` has not settled after the event loop turned a few times. */
async function stillPending(p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return !settled;
}

describe("an …Output lookup that fails", () => {
  it("at up fails the program once with a one-line RunError; its Output neither rejects nor resolves", async () => {
    const branchId = await branchWithCompute("fail-up");
    const r = recorder(false);
    const out = lookupOutput(
      "getConnectionUri",
      { projectId, branchId: pulumi.output(branchId), databaseName: "ap", roleName: "neondb_owner" },
      LOOKUP_CALLS.getConnectionUri as never,
      r.seams,
    );
    await r.firstFailure;
    expect(r.failures).toHaveLength(1);
    const err = r.failures[0] as Error;
    expect(err.message).toMatch(/database "ap" not found .*\(HTTP 404/);
    // The remedy names the argument, from the branch's databases (read, not the answer's words).
    expect(err.message).toMatch(
      new RegExp(`databaseName "ap" is not a database of branch ${branchId} \\(its databases: neondb\\)\\.$`),
    );
    expect(r.warnings).toEqual([]);
    expect(await stillPending((out as unknown as { isKnown: Promise<boolean> }).isKnown)).toBe(true);
  });

  it("at preview: a mistyped databaseName of getConnectionUri is unknown with one warning (up fails on it)", async () => {
    const branchId = await branchWithCompute("typo-preview");
    const r = recorder(true);
    const out = lookupOutput(
      "getConnectionUri",
      { projectId, branchId: pulumi.output(branchId), databaseName: "ap", roleName: "neondb_owner" },
      LOOKUP_CALLS.getConnectionUri as never,
      r.seams,
    );
    expect(await valueOf(out)).toEqual({ known: false, value: undefined });
    expect(r.failures).toEqual([]);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^getConnectionUri: .*database "ap" not found.*`pulumi up` fails here\)$/);
  });

  it("at preview: getRolePassword of a role not made yet is unknown with one warning; at up it fails naming it", async () => {
    const branchId = await branchWithCompute("role-not-yet");
    const args = { projectId, branchId: pulumi.output(branchId), roleName: "app_not_yet" };
    const preview = recorder(true);
    const out = lookupOutput("getRolePassword", args, LOOKUP_CALLS.getRolePassword as never, preview.seams);
    expect(await valueOf(out)).toEqual({ known: false, value: undefined });
    expect(preview.failures).toEqual([]);
    expect(preview.warnings).toEqual([
      expect.stringMatching(
        /^getRolePassword: .*the password is unknown in this preview \(right when this update creates the role; otherwise check roleName/,
      ),
    ]);
    const up = recorder(false);
    lookupOutput("getRolePassword", args, LOOKUP_CALLS.getRolePassword as never, up.seams);
    await up.firstFailure;
    expect((up.failures[0] as Error).message).toMatch(
      new RegExp(
        `roleName "app_not_yet" is not a role of branch ${branchId} \\(its roles: neondb_owner\\)\\.$`,
      ),
    );
    expect(up.warnings).toEqual([]);
  });

  it("at preview: getSchemaDiff of a database neither side has fails, as at up", async () => {
    const branchId = await branchWithCompute("schema-404");
    const r = recorder(true);
    lookupOutput(
      "getSchemaDiff",
      { projectId, branchId: pulumi.output(branchId), databaseName: "nope" },
      LOOKUP_CALLS.getSchemaDiff as never,
      r.seams,
    );
    await r.firstFailure;
    expect(r.warnings).toEqual([]);
    const err = r.failures[0] as Error;
    expect(pulumi.RunError.isInstance(err)).toBe(true);
    expect(err.message).toMatch(/the branch has no database "nope"/);
    // One line: what Pulumi's handler prints of it has no frame.
    expect(util.inspect(err)).not.toMatch(/\n\s+at /);
  });

  it("at preview: getSchemaDiff of a database a resource names (being made or renamed) is unknown with one warning", async () => {
    const branchId = await branchWithCompute("schema-renamed");
    const r = recorder(true);
    // `databaseName: db.name`, the new name of a database this update renames: not in the service yet.
    const out = lookupOutput(
      "getSchemaDiff",
      { projectId, branchId: pulumi.output(branchId), databaseName: pulumi.output("renamed_app") },
      LOOKUP_CALLS.getSchemaDiff as never,
      r.seams,
    );
    expect(await valueOf(out)).toEqual({ known: false, value: undefined });
    expect(r.failures).toEqual([]);
    expect(r.warnings).toEqual([
      expect.stringMatching(
        /^getSchemaDiff: .*the branch has no database "renamed_app".*unknown in this preview \(right when this update creates or renames the database/,
      ),
    ]);
  });

  it("at preview: the stack's branch, gone at its expiry, is unknown with one warning per lookup; an id typed by hand fails", async () => {
    const branchId = await branchWithCompute("expires");
    const at = new Date(api.serviceNow() + 3_600_000).toISOString();
    await api.branches.update(projectId, branchId, { expires_at: at });
    emulator.clock.advance(2 * 3_600_000);
    await expect(api.branches.get(projectId, branchId)).rejects.toMatchObject({ kind: "not_found" });

    const r = recorder(true);
    const fromStack = pulumi.output(branchId);
    const schema = lookupOutput(
      "getSchemaDiff",
      { projectId, branchId: fromStack, databaseName: "neondb" },
      LOOKUP_CALLS.getSchemaDiff as never,
      r.seams,
    );
    const uri = lookupOutput(
      "getConnectionUri",
      { projectId, branchId: fromStack, databaseName: "neondb", roleName: "neondb_owner" },
      LOOKUP_CALLS.getConnectionUri as never,
      r.seams,
    );
    expect([(await valueOf(schema)).known, (await valueOf(uri)).known]).toEqual([false, false]);
    expect(r.failures).toEqual([]);
    expect(r.warnings).toHaveLength(2);
    for (const w of r.warnings) {
      expect(w).toMatch(
        new RegExp(
          `^get(SchemaDiff|ConnectionUri): the result is unknown in this preview: branch ${branchId} is gone`,
        ),
      );
      expect(w).toMatch(/`pulumi refresh` drops it/);
    }

    // The same id typed by hand is not the stack's: a wrong argument, which fails.
    const typed = recorder(true);
    lookupOutput(
      "getSchemaDiff",
      { projectId, branchId, databaseName: "neondb" },
      LOOKUP_CALLS.getSchemaDiff as never,
      typed.seams,
    );
    await typed.firstFailure;
    expect((typed.failures[0] as Error).message).toMatch(new RegExp(`branch ${branchId} does not exist`));
    expect(typed.warnings).toEqual([]);
  });
});

describe("the plugin's invoke", () => {
  const token = (name: string) => `${PACKAGE}:index:${name}`;
  // Pulumi's wire form of a secret.
  const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
  const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

  function plugin() {
    const p = createProvider("0.0.0-test");
    p.useRuntime(
      new Runtime({ settings: { apiKey: emulator.apiKey, apiUrl: emulator.url }, namespace: PACKAGE }),
    );
    return p;
  }

  it("at preview names the branch of the stack that reached its expiry, and the remedy; at up, the 404", async () => {
    const branchId = await branchWithCompute("plugin-expires");
    const at = new Date(api.serviceNow() + 3_600_000).toISOString();
    await api.branches.update(projectId, branchId, { expires_at: at });
    emulator.clock.advance(2 * 3_600_000);
    const p = plugin();
    // What the Branch's diff of this run records: the program declares the branch, with this expiry.
    p.runtime().ledger.expiryPlanned.set(`${projectId}/${branchId}`, at);
    const args = { projectId, branchId, databaseName: "neondb", roleName: "neondb_owner" };
    const preview = p.invokeAt(token("getConnectionUri"), args, true);
    await expect(preview).rejects.toThrow(
      `Failed to run getConnectionUri: branch ${branchId} reached its expiry (${at}) and the service deleted it; ` +
        "the stack still holds it: `pulumi refresh` drops it",
    );
    await expect(p.invokeAt(token("getConnectionUri"), args, false)).rejects.toThrow(/HTTP 404/);
    // A branch no Branch of this run declares: the service's 404, at preview too.
    const other = plugin();
    await expect(other.invokeAt(token("getConnectionUri"), args, true)).rejects.toThrow(/HTTP 404/);
  });

  it("getRolePassword answers the password marked secret; an unknown role fails naming it", async () => {
    const p = plugin();
    const r = await p.invokeAt(token("getRolePassword"), { projectId, roleName: "neondb_owner" }, false);
    const password = await api.roles.revealPassword(projectId, emulator.seed.defaultBranchId, "neondb_owner");
    expect(r.outputs).toEqual({ password: { [SECRET_SIG_KEY]: SECRET_SIG, value: password } });
    await expect(
      p.invokeAt(token("getRolePassword"), { projectId, roleName: "nope" }, false),
    ).rejects.toThrow(/roleName "nope" is not a role of branch/);
  });

  it("a failure is one line: a RunError whose stack is its message", async () => {
    const err = (await plugin()
      .invokeAt(
        token("getSchemaDiff"),
        { projectId, branchId: "br-typed-123456", databaseName: "neondb" },
        false,
      )
      .catch((e: unknown) => e)) as Error;
    expect(pulumi.RunError.isInstance(err)).toBe(true);
    expect(err.stack).toBe(`${err.name}: ${err.message}`);
  });
});
