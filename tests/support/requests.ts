/** Counts of what an emulator was asked, for tests that check that a step sent nothing (or little). */
import type { EmulatorHandle } from "../../emulator";

/** How many requests other than reads (`GET`) the emulator has answered so far. */
export function mutationCount(emulator: Pick<EmulatorHandle, "requestsByRoute">): number {
  return Object.entries(emulator.requestsByRoute())
    .filter(([k]) => !k.startsWith("GET "))
    .reduce((n, [, v]) => n + v, 0);
}
