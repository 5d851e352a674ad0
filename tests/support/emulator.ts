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
