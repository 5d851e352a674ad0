/**
 * `neon-connection-string`'s pure parts: its arguments, the requests it makes, and a project that does
 * not store passwords — judged by the status and the project's `store_passwords`, never by words. The API is a stand-in answering from plain values; the running
 * command against the emulator is tests/integration/cli.
 */
import { ApiError, type NeonClient } from "../../../provider/api";
import { connectionString, parseCommandArgs, runCommand } from "../../../provider/cli/connection-string";

describe("parseCommandArgs", () => {
  it("reads every option, in either form, with the defaults left out", () => {
    expect(
      parseCommandArgs([
        "--project",
        "p-1",
        "--branch=br-1",
        "--compute",
        "ep-1",
        "--role=app",
        "--database",
        "appdb",
        "--pooled",
      ]),
    ).toEqual({
      projectId: "p-1",
      branchId: "br-1",
      computeId: "ep-1",
      roleName: "app",
      databaseName: "appdb",
      pooled: true,
    });
    expect(parseCommandArgs(["--project", "p-1", "--role", "app", "--database", "appdb"])).toEqual({
      projectId: "p-1",
      branchId: undefined,
      computeId: undefined,
      roleName: "app",
      databaseName: "appdb",
      pooled: false,
    });
    expect(parseCommandArgs(["-h"])).toBe("help");
  });

  it("refuses what is missing, empty or unknown", () => {
    expect(() => parseCommandArgs(["--role", "app"])).toThrow("--project and --database are required");
    expect(() => parseCommandArgs(["--project", "p", "--role", "a", "--database", ""])).toThrow(
      "--database is required",
    );
    expect(() => parseCommandArgs(["--project", "p", "--role", "a", "--database", "d", "--branch="])).toThrow(
      "--branch needs a value",
    );
    expect(() => parseCommandArgs(["--project", "p", "--role", "a", "--database", "d", "extra"])).toThrow(
      /extra/,
    );
  });
});

/** A 412 as the client raises it, in words that say nothing about passwords. */
const precondition = () =>
  new ApiError({
    kind: "invalid",
    method: "GET",
    path: "/projects/p-1/branches/br-main/roles/app/reveal_password",
    verb: "read the password of",
    thing: "role app",
    status: 412,
    apiMessage: "precondition failed",
  } as never);

/**
 * The calls the command makes: the branches (`br-main` the default), the role's password (or its
 * failure), the project's `store_passwords` and the connection string; `asked` records the branches asked.
 */
function stand(password: string | Error, stores: boolean) {
  const asked: string[] = [];
  const api = {
    branches: { list: async () => [{ id: "br-old" }, { id: "br-main", default: true }] },
    roles: {
      revealPassword: async (_p: string, b: string) => {
        asked.push(`reveal ${b}`);
        if (password instanceof Error) throw password;
        return password;
      },
    },
    projects: {
      get: async () => ({ id: "p-1", store_passwords: stores }),
      connectionUri: async (_p: string, q: { branchId?: string; pooled?: boolean }) => {
        asked.push(`uri ${q.branchId} pooled=${q.pooled}`);
        return URI;
      },
    },
  } as unknown as NeonClient;
  return { api, asked };
}

const args = { projectId: "p-1", roleName: "app", databaseName: "appdb" };
const URI = "postgresql://app:pw@ep-1.example/appdb?sslmode=require";

describe("connectionString", () => {
  it("gives the service's string, on the default branch named in both requests, or the one given", async () => {
    const s = stand("pw", true);
    expect(await connectionString(s.api, args)).toBe(URI);
    expect(s.asked.sort()).toEqual(["reveal br-main", "uri br-main pooled=undefined"]);
    const named = stand("pw", true);
    expect(await connectionString(named.api, { ...args, branchId: "br-old", pooled: true })).toBe(URI);
    expect(named.asked.sort()).toEqual(["reveal br-old", "uri br-old pooled=true"]);
  });

  it("refuses a project that does not store passwords (a 412, judged by store_passwords), whatever connection_uri gives", async () => {
    await expect(connectionString(stand(precondition(), false).api, args)).rejects.toThrow(
      /^Failed to read the password of role "app" of branch br-main: project p-1 does not store role passwords/,
    );
  });

  it("lets a 412 of a project that stores passwords stand as the service's error", async () => {
    const err = await connectionString(stand(precondition(), true).api, args).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(412);
  });
});

describe("runCommand", () => {
  it("exits 2 for wrong arguments and 1 without a key, before any request, writing only to stderr", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { env: {}, stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) };
    expect(await runCommand(["--project"], io)).toBe(2);
    expect(await runCommand(["--project", "p", "--role", "a", "--database", "d"], io)).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual([
      expect.stringMatching(/^neon-connection-string: .*--project.*See `neon-connection-string --help`\.\n$/),
      expect.stringMatching(
        /^neon-connection-string: Failed to read the connection string: no API key is set\./,
      ),
    ]);
  });
});
