/**
 * One emulator for the tests of a file, over real HTTP: started before them with an admin client of
 * its API, reset to its seed before each test when asked, stopped after them. Integration and e2e
 * files share it.
 */
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";

/** A running emulator and a client of its API, for the tests of one file. */
export interface EmulatorForTests {
  readonly emulator: EmulatorHandle;
  readonly api: NeonClient;
}

/**
 * Starts an emulator before the file's tests and hands it, with an admin client of its API, to
 * `started` (where a file keeps its own names and reads the seed); `resetEach` resets it to its seed
 * before each test (faults set during a test stay set: a file that sets some clears them itself).
 */
export function withEmulator(
  options: EmulatorOptions,
  started: (emulator: EmulatorHandle, api: NeonClient) => void | Promise<void>,
  opts: { resetEach?: boolean } = {},
): void {
  let emulator: EmulatorHandle | undefined;
  beforeAll(async () => {
    emulator = await startEmulator(options);
    await started(emulator, createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url }));
  });
  if (opts.resetEach) beforeEach(() => emulator?.reset());
  afterAll(async () => {
    await emulator?.stop();
  });
}

/** {@link withEmulator}, its emulator and client read through the object returned (inside a test). */
export function useEmulator(options: EmulatorOptions): EmulatorForTests {
  let emulator: EmulatorHandle | undefined;
  let api: NeonClient | undefined;
  withEmulator(options, (e, a) => {
    emulator = e;
    api = a;
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the emulator is started in beforeAll: use it inside a test");
    return value;
  };
  return {
    get emulator() {
      return started(emulator);
    },
    get api() {
      return started(api);
    },
  };
}

/**
 * A new project made with `store_passwords: false` (the client's create has no such field), its
 * operations finished: its `reveal_password` answers 412. Its create answer's roles carry their
 * passwords (the only time the service shows them).
 */
export async function projectWithoutPasswords(
  emulator: EmulatorHandle,
  api: NeonClient,
  name: string,
): Promise<{ projectId: string; branchId: string; roles: { name: string; password?: string }[] }> {
  const res = await fetch(`${emulator.url}/projects`, {
    method: "POST",
    headers: { authorization: `Bearer ${emulator.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ project: { name, store_passwords: false } }),
  });
  const made = (await res.json()) as {
    project: { id: string };
    branch: { id: string };
    roles: { name: string; password?: string }[];
    operations: never[];
  };
  await api.waitForOperations(made.project.id, made.operations);
  return { projectId: made.project.id, branchId: made.branch.id, roles: made.roles };
}

/**
 * Whether a client connecting to a branch as `role` with `password` gets in: the emulator's stand-in
 * for a Postgres login (`POST /_emulator/login`).
 */
export async function emulatorLogin(
  emulator: EmulatorHandle,
  on: { projectId: string; branchId: string },
  role: string,
  password: unknown,
): Promise<boolean> {
  const res = await fetch(`${emulator.url.replace(/\/api\/v2$/, "")}/_emulator/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ project_id: on.projectId, branch_id: on.branchId, role_name: role, password }),
  });
  return ((await res.json()) as { ok: boolean }).ok;
}
