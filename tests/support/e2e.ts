/**
 * What end-to-end test files share: an emulator per file with a client of its API (`./emulator.ts`),
 * and a transcript of the CLI's output (printed when a test fails, so that its failure shows what the
 * CLI said).
 */
import { spawn } from "child_process";

export { useEmulator, type EmulatorForTests } from "./emulator";

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
