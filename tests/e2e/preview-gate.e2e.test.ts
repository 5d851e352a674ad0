/**
 * End to end (issue 25): a green preview means a green up. Under the real CLI, through both faces (a
 * TypeScript program of dynamic resources, a YAML program through the plugin), each mistake of the
 * issue's table fails `pulumi preview` with its message — a wrong projectId, an invalid API key, a
 * size above a Free project's limit, a branch name given as parentId, a database owner that is no role
 * of the branch, an address given access to the project by someone else, a Role removed while its role
 * owns a database that stays (after an `up`) — and the emulator serves no request that changes anything
 * during it. The same program with the mistake undone previews green. A lookup with a mistyped
 * `databaseName` fails where it fails (issue 53): the TypeScript face's preview passes with one warning and
 * its `up` fails; the plugin's preview fails; each with the error once, in one line, and no
 * `PromiseRejectionHandledWarning`; the next `up` goes green. Then that role is renamed in one `up`, the
 * database kept.
 */
import * as fs from "fs";
import * as path from "path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import { createNeonClient } from "../../provider/api";
import { createTempStack, type TempStack } from "../../scripts/lib/pulumi";
import { useStepBudgets } from "../support/budgets";
import { expectOneLineFailure, expectPassWithWarnings } from "./cli-diagnostics";
import { cliRun, pluginPath } from "./plugin-helpers";
import { mutationCount } from "../support/requests";

useStepBudgets();

let emulator: EmulatorHandle;

beforeAll(async () => {
  emulator = await startEmulator({ opMs: 30, seed: 25 });
  // Access someone gave outside the stacks: a ProjectPermission of this address fails the preview.
  const api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  await api.permissions.grant(emulator.seed.projectId, "held@example.com");
});

afterAll(async () => {
  await emulator?.stop();
});

const mutations = () => mutationCount(emulator);

/** Previews with `config` over the stack's own; resolves with what the CLI printed and whether it passed. */
async function preview(
  temp: TempStack,
  config: Record<string, string>,
  keyName: string,
): Promise<{ ok: boolean; out: string }> {
  for (const [k, value] of Object.entries(config)) {
    await temp.stack.setConfig(k, { value, secret: k === keyName });
  }
  let out = "";
  const capture = (s: string) => {
    out += s;
  };
  const before = mutations();
  const ok = await temp.stack.preview({ onOutput: capture, onError: capture }).then(
    () => true,
    (err: Error) => {
      out += err.message;
      return false;
    },
  );
  expect(mutations()).toBe(before); // a preview sends nothing that changes anything
  return { ok, out };
}

/**
 * Declares the Role of the program's owned database with the role name `name`, or removes the Role
 * (`undefined`), keeping the database.
 */
type RoleSwitch = (name: string | undefined) => Promise<void>;

/** Adds (true) or takes out (false) the resources of a mistake the program's text or config switches on. */
type ProgramSwitch = (on: boolean) => Promise<void>;

/** Mistakes of resources the program adds: a new expiring branch with a child, one address granted twice. */
const PROGRAM_MISTAKES: Array<[string, RegExp]> = [
  [
    "expiringChild",
    /parentId.*each such branch \("env"\) has expiresAt: the service sets an expiry only on a branch without children/,
  ],
  [
    "grantsTwice",
    /access of twice@example.com to the project this program makes \(made\) is already declared by another resource of this program/,
  ],
];

async function table(
  face: "TypeScript" | "YAML",
  temp: TempStack,
  ns: string,
  keyName: string,
  withRole: RoleSwitch,
  program: (name: string) => ProgramSwitch,
): Promise<void> {
  await withRole("gate_owner");
  const { projectId, defaultBranchId, freeProjectId, freeProjectBranchId } = emulator.seed;
  const api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  const ownerOf = async (p: string, b: string) => (await api.roles.list(p, b))[0].name;
  const good = {
    [`${ns}projectId`]: projectId,
    [`${ns}parentId`]: defaultBranchId,
    [`${ns}maxCu`]: "1",
    // A branch with a read_write compute: Neon makes databases through it.
    [`${ns}dbBranchId`]: defaultBranchId,
    [`${ns}ownerName`]: await ownerOf(projectId, defaultBranchId),
    [`${ns}shareWith`]: "reviewer@example.com",
    [keyName]: emulator.apiKey,
  };
  expect(await preview(temp, good, keyName)).toMatchObject({ ok: true });

  const mistakes: Array<[string, Record<string, string>, RegExp]> = [
    [
      "a wrong projectId",
      { [`${ns}projectId`]: "wrong-project-1" },
      /projectId wrong-project-1: the API key cannot see this project/,
    ],
    ["an invalid API key", { [keyName]: "wrong" }, /401|API key is invalid/],
    [
      "maxCu 4 on a Free-plan project",
      {
        [`${ns}projectId`]: freeProjectId,
        [`${ns}parentId`]: freeProjectBranchId,
        [`${ns}dbBranchId`]: freeProjectBranchId,
        [`${ns}ownerName`]: await ownerOf(freeProjectId, freeProjectBranchId),
        [`${ns}maxCu`]: "4",
      },
      /above the free plan's 2 CU/,
    ],
    ['parentId: "main"', { [`${ns}parentId`]: "main" }, /"main" is the name of a branch; its id is br-/],
    [
      "an ownerName that is no role of the branch",
      { [`${ns}ownerName`]: "nobody" },
      /ownerName "nobody" is not a role of branch/,
    ],
    [
      "an address someone else gave access to the project",
      { [`${ns}shareWith`]: "Held@example.com" },
      /held@example.com already has access to project .*which no resource of this stack manages .*To manage it here, set importId: "/,
    ],
  ];
  for (const [what, change, message] of mistakes) {
    const r = await preview(temp, change, keyName);
    expect({ what, ok: r.ok }).toEqual({ what, ok: false });
    expect(r.out).toMatch(message);
    expect(r.out).not.toMatch(/    at .*\.js:\d+/); // one line, no stack trace
    await preview(temp, good, keyName).then((back) =>
      expect({ what, back: back.ok }).toEqual({ what, back: true }),
    );
  }

  for (const [what, message] of PROGRAM_MISTAKES) {
    await program(what)(true);
    const r = await preview(temp, {}, keyName);
    expect({ what, ok: r.ok }).toEqual({ what, ok: false });
    expect(r.out).toMatch(message);
    expect(r.out).not.toMatch(/    at .*\.js:\d+/);
    await program(what)(false);
  }

  // A lookup whose databaseName no database has fails where it fails today, in one line. The
  // TypeScript face's preview shows the connection string unknown with one warning (the name could be a
  // database this update makes) and its `up` fails; an invoke cannot answer an unknown, so the plugin's
  // preview fails.
  await program("mistypedUri")(true);
  const notFound = /database "gat" not found on branch br-/;
  const sent = mutations();
  const uriPreview = await cliRun(temp, ["preview", "--color", "never"]);
  expect(mutations()).toBe(sent);
  if (face === "TypeScript") {
    expectPassWithWarnings(uriPreview, [new RegExp(`getConnectionUri: .*${notFound.source}`)]);
    // The program fails at the lookup; the engine keeps what it made before that, and the next up
    // (below, the mistake undone) goes green.
    expectOneLineFailure(await cliRun(temp, ["up", "--yes", "--skip-preview", "--color", "never"]), notFound);
  } else {
    expectOneLineFailure(uriPreview, notFound);
  }
  await program("mistypedUri")(false);

  // The table's last row needs a stack that has the role and its database: up, then remove the Role.
  await temp.stack.up();
  try {
    await withRole(undefined);
    const r = await preview(temp, {}, keyName);
    expect(r.ok).toBe(false);
    expect(r.out).toMatch(
      /its owner, role "gate_owner", was made by the Role "gateOwner" of this stack, which the program no longer declares/,
    );
    expect(r.out).not.toMatch(/    at .*\.js:\d+/);
    await withRole("gate_owner");
    expect(await preview(temp, {}, keyName)).toMatchObject({ ok: true });

    // The role renamed: one up (the new role first, the owner moves, the old role goes); the database stays.
    const api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
    const { projectId } = emulator.seed;
    const branchId = (await temp.stack.outputs()).branchId.value as string;
    const before = (await api.databases.list(projectId, branchId)).find((d) => d.name === "owned");
    expect(before?.owner_name).toBe("gate_owner");
    await withRole("gate_renamed");
    await temp.stack.up();
    const after = (await api.databases.list(projectId, branchId)).find((d) => d.name === "owned");
    expect([after?.id, after?.owner_name]).toEqual([before?.id, "gate_renamed"]);
    const roles = (await api.roles.list(projectId, branchId)).map((r) => r.name);
    expect(roles).toContain("gate_renamed");
    expect(roles).not.toContain("gate_owner");
  } finally {
    await temp.stack.destroy();
  }
}

test("TypeScript: each mistake fails the preview, nothing is sent", async () => {
  const temp = await createTempStack({
    programDir: path.join(__dirname, "preview-gate-program"),
    config: { "neon:apiUrl": { value: emulator.url } },
    env: { NEON_API_KEY: "" },
  });
  try {
    const ns = "neon-e2e-preview-gate:";
    await temp.stack.setConfig(`${ns}orgId`, { value: emulator.seed.orgId });
    await table(
      "TypeScript",
      temp,
      ns,
      "neon:apiKey",
      async (name) => {
        await temp.stack.setConfig(`${ns}withRole`, { value: String(name !== undefined) });
        if (name) await temp.stack.setConfig(`${ns}roleName`, { value: name });
      },
      (what) => (on) => temp.stack.setConfig(`${ns}${what}`, { value: String(on) }),
    );
  } finally {
    await temp.dispose();
  }
});

test("YAML (the plugin): each mistake fails the preview, nothing is sent", async () => {
  const temp = await createTempStack({
    programDir: path.join(__dirname, "preview-gate-yaml-program"),
    config: { "neoncompute:apiUrl": { value: emulator.url } },
    env: { PATH: pluginPath(), NEON_API_KEY: "" },
  });
  try {
    const file = path.join(temp.workDir, "Pulumi.yaml");
    const declared = fs.readFileSync(file, "utf8");
    // Without the Role: its lines go, and the database names its owner by text.
    const removed = declared
      .replace(/ *# role:begin[\s\S]*# role:end\n/, "")
      .replace("${gateOwner.name}", "gate_owner");
    expect(removed).not.toMatch(/neoncompute:index:Role/);
    // The program's mistakes as text added to it (YAML declares no resource conditionally), before its outputs.
    const outputs = declared.slice(declared.indexOf("\noutputs:") + 1);
    const expires = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const added: Record<string, (text: string) => string> = {
      expiringChild: (text) =>
        text.replace(
          "      parentId: ${parentId}\n",
          `      parentId: \${parentId}\n      expiresAt: ${expires}\n`,
        ) +
        "  child:\n    type: neoncompute:index:Branch\n    properties:\n      projectId: ${projectId}\n" +
        "      parentId: ${env.id}\n",
      grantsTwice: (text) =>
        text +
        `  made:\n    type: neoncompute:index:Project\n    properties:\n      name: gate-made\n      orgId: ${emulator.seed.orgId}\n` +
        ["twiceA", "twiceB"]
          .map(
            (n) =>
              `  ${n}:\n    type: neoncompute:index:ProjectPermission\n    properties:\n      projectId: \${made.id}\n` +
              "      email: twice@example.com\n",
          )
          .join(""),
      mistypedUri: (text) =>
        text +
        "variables:\n  uri:\n    fn::invoke:\n      function: neoncompute:index:getConnectionUri\n" +
        "      arguments:\n        projectId: ${projectId}\n        branchId: ${dbBranchId}\n" +
        "        databaseName: gat\n        roleName: ${ownerName}\n",
    };
    await table(
      "YAML",
      temp,
      "",
      "neoncompute:apiKey",
      async (name) =>
        fs.writeFileSync(file, name ? declared.replace("name: gate_owner", `name: ${name}`) : removed),
      (what) => async (on) => {
        const resources = declared.slice(0, declared.length - outputs.length);
        fs.writeFileSync(file, on ? added[what](resources) + outputs : declared);
      },
    );
  } finally {
    await temp.dispose();
  }
});
