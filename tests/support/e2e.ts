/**
 * What end-to-end test files share: an emulator per file with a client of its API, and a transcript
 * of the CLI's output (printed when a test fails, so that its failure shows what the CLI said).
 */
import { spawn } from "child_process";
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

/** The emulator as a user runs it (`npm run emulator`), in its own process. */
export interface EmulatorCommand {
  url: string;
  apiKey: string;
  projectId: string;
  /** Stops it (the whole process group) and waits until it has exited. */
  stop(): Promise<void>;
}

/**
 * Runs `npm run emulator -- <args>` in `cwd` and resolves once it has printed where it listens; what
 * it printed before it failed is in the error. Not started within `startMs` (it builds first: slow
 * on a loaded machine, never minutes), it is stopped and the promise rejects, so that no process is
 * left behind a hook that would otherwise wait for jest's own timeout.
 */
export function runEmulatorCommand(
  cwd: string,
  args: readonly string[],
  startMs = 300_000,
): Promise<EmulatorCommand> {
  const child = spawn("npm", ["run", "--silent", "emulator", "--", ...args], {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
    await exited;
  };
  let printed = "";
  return new Promise((resolve, reject) => {
    const late = setTimeout(() => {
      void stop().then(() =>
        reject(new Error(`npm run emulator did not start within ${startMs / 1000} s:\n${printed}`)),
      );
    }, startMs);
    child.once("exit", () => clearTimeout(late));
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      const url = /Emulator listening: (\S+)/.exec(printed)?.[1];
      const apiKey = /API key \(personal, bootstrap\): (\S+)/.exec(printed)?.[1];
      const projectId = /\nProject: (\S+)/.exec(printed)?.[1];
      if (url && apiKey && projectId) {
        clearTimeout(late);
        resolve({ url, apiKey, projectId, stop });
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
    });
    child.once("exit", (code) => reject(new Error(`npm run emulator exited with ${code}:\n${printed}`)));
  });
}
