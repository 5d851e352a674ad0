/**
 * `getRolePassword` against the emulator with real Postgres behind it, over real HTTP: the password of a
 * role on the default branch (no branchId) or a named one logs in; the `Output` variant is a secret; a
 * project that does not store passwords fails saying why and what to do, judged by the project's
 * `store_passwords` whatever the 412's words; an unknown role is named with the branch's roles; missing
 * arguments are refused before any request. (At preview, a role not made yet: failures.test.ts.)
 */
import * as pulumi from "@pulumi/pulumi";
import type { EmulatorHandle } from "../../../emulator";
import type { NeonClient } from "../../../provider/api";
import {
  getConnectionUri,
  getRolePassword,
  getRolePasswordOutput,
  withLookupClient,
} from "../../../provider/lookups";
import { psql, withPassword } from "../../../scripts/lib/psql";
import { projectWithoutPasswords, withEmulator } from "../../support/emulator";

jest.setTimeout(180_000);

let emulator: EmulatorHandle;
let api: NeonClient;
let projectId: string;
let main: string;

withEmulator({ opMs: 100, seed: 59, postgres: true }, (e, client) => {
  emulator = e;
  api = client;
  projectId = emulator.seed.projectId;
  main = emulator.seed.defaultBranchId;
});

const lookup = <T>(fn: () => Promise<T>) => withLookupClient(api, fn);

test("the password of a role logs in, read on the default branch or a named one; the Output is a secret", async () => {
  const { uri } = await lookup(() =>
    getConnectionUri({ projectId, databaseName: "neondb", roleName: "neondb_owner" }),
  );
  const { password } = await lookup(() => getRolePassword({ projectId, roleName: "neondb_owner" }));
  expect(password).toBe(decodeURIComponent(new URL(uri).password));
  const login = await psql(withPassword(uri, password), "SELECT current_user");
  expect(login).toMatchObject({ ok: true, out: "neondb_owner" });
  // Postgres refuses another password: the login above proves this one.
  expect((await psql(withPassword(uri, `${password}x`), "SELECT 1")).ok).toBe(false);

  expect(
    await lookup(() => getRolePassword({ projectId, branchId: main, roleName: "neondb_owner" })),
  ).toEqual({
    password,
  });
  // Made inside the lookup's client scope, as a program's Output runs in its own.
  const viaOutput = await lookup(
    () =>
      new Promise<{ password: string; secret: boolean }>((resolve) => {
        const out = getRolePasswordOutput({ projectId: pulumi.output(projectId), roleName: "neondb_owner" });
        const secret = (out as unknown as { isSecret: Promise<boolean> }).isSecret;
        out.password.apply(async (p) => resolve({ password: p, secret: await secret }));
      }),
  );
  expect(viaOutput).toEqual({ password, secret: true });

  // A rotation changes what it reads.
  const reset = await api.roles.resetPassword(projectId, main, "neondb_owner");
  await api.waitForOperations(projectId, reset.operations);
  const after = await lookup(() => getRolePassword({ projectId, roleName: "neondb_owner" }));
  expect(after.password).toBe(reset.role.password);
  expect(after.password).not.toBe(password);
});

test("a project that does not store passwords fails saying why and what to do, whatever the 412's words", async () => {
  const nostore = await projectWithoutPasswords(emulator, api, "nostore");
  emulator.setFaults({ rewordPreconditions: true });
  try {
    for (const branchId of [undefined, nostore.branchId]) {
      await expect(
        lookup(() => getRolePassword({ projectId: nostore.projectId, branchId, roleName: "neondb_owner" })),
      ).rejects.toThrow(
        new RegExp(
          `^Failed to read the password of role "neondb_owner" of branch ${nostore.branchId}: project ` +
            `${nostore.projectId} does not store role passwords .*412.*Rotate it \\(change the Role's passwordRotationTrigger\\)`,
        ),
      );
    }
  } finally {
    emulator.setFaults({});
  }
});

test("an unknown role is named with the branch's roles; missing arguments are refused before any request", async () => {
  await expect(lookup(() => getRolePassword({ projectId, roleName: "nope" }))).rejects.toThrow(
    new RegExp(`roleName "nope" is not a role of branch ${main} \\(its roles: neondb_owner\\)`),
  );
  await expect(
    lookup(() => getRolePassword({ projectId, branchId: "br-gone-123456", roleName: "neondb_owner" })),
  ).rejects.toThrow(/br-gone-123456/);
  const before = emulator.requestCount();
  await expect(lookup(() => getRolePassword({ projectId, roleName: "" }))).rejects.toThrow(
    /^Failed to run getRolePassword: roleName is required \(a string\), got ""\.$/,
  );
  await expect(
    lookup(() =>
      getRolePassword({ roleName: "neondb_owner" } as unknown as { projectId: string; roleName: string }),
    ),
  ).rejects.toThrow(/getRolePassword: projectId is required/);
  expect(emulator.requestCount()).toBe(before);
});
