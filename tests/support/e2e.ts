/**
 * What end-to-end test files share: an emulator per file with a client of its API, and a transcript
 * of the CLI's output (printed when a test fails, so that its failure shows what the CLI said).
 */
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from "../../emulator";
import { createNeonClient, type NeonClient } from "../../provider/api";

/** A running emulator and a client of its API, for the tests of one file. */
export interface EmulatorForTests {
  readonly emulator: EmulatorHandle;
  readonly api: NeonClient;
}

/** Starts an emulator before the file's tests and stops it after them. */
export function useEmulator(options: EmulatorOptions): EmulatorForTests {
  let emulator: EmulatorHandle | undefined;
  let api: NeonClient | undefined;
  beforeAll(async () => {
    emulator = await startEmulator(options);
    api = createNeonClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
  });
  afterAll(async () => {
    await emulator?.stop();
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

/** The CLI output of a file's tests: `capture` is what `onOutput`/`onError` take. */
export interface Transcript {
  capture(s: string): void;
  readonly text: string;
}

/** A transcript that is printed after a test that failed. */
export function useTranscript(): Transcript {
  let text = "";
  afterEach(() => {
    const { assertionCalls, numPassingAsserts } = expect.getState();
    if (assertionCalls !== numPassingAsserts) console.log(text);
  });
  return {
    capture: (s: string) => {
      text += s;
    },
    get text() {
      return text;
    },
  };
}
