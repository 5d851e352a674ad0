/**
 * Compute sizes and the figures the limits table derives from them.
 *
 * Pure data and functions: used by `check` (is this size offered?), by the
 * resource outputs (RAM, LFC, max_connections, temp disk) and by tests.
 */

/** Largest size that may take part in autoscaling (min ≠ max). */
export const MAX_AUTOSCALING_CU = 16;
/** Every compute size offered, ascending: 0.25, 0.5, 1–16 step 1, 18–56 step 2. */
export const COMPUTE_SIZES: readonly number[] = Object.freeze([
  0.25,
  0.5,
  ...Array.from({ length: 16 }, (_, i) => i + 1),
  ...Array.from({ length: 20 }, (_, i) => 18 + i * 2),
]);

/** True when `cu` is one of the offered sizes. */
export function isOfferedSize(cu: number): boolean {
  return COMPUTE_SIZES.includes(cu);
}

// max_connections per fixed size, as the limits table states it. 9–38 CU are all 4000;
// 40–56 CU are not stated, so no figure is derived for them.
const MAX_CONNECTIONS: ReadonlyMap<number, number> = new Map([
  [0.25, 112],
  [0.5, 225],
  [1, 450],
  [2, 901],
  [3, 1351],
  [4, 1802],
  [5, 2253],
  [6, 2703],
  [7, 3154],
  [8, 3604],
]);

/** Figures derived from a compute's size bounds. */
export interface ComputeSizing {
  /** RAM in GB at the maximum size (4 GB per CU). */
  ramGb: number;
  /** Local file cache in GB at the maximum size (75 % of RAM). */
  lfcGb: number;
  /** Postgres `max_connections`, only where the limits table states it (fixed sizes up to 38 CU). */
  maxConnections?: number;
  /** Local temporary disk: the larger of 20 GiB and 15 GiB × the maximum size. */
  tempDiskGiB: number;
}

/** `max_connections` for a fixed size, or undefined where the table does not state it. */
export function maxConnectionsFor(cu: number): number | undefined {
  const stated = MAX_CONNECTIONS.get(cu);
  if (stated !== undefined) return stated;
  if (cu >= 9 && cu <= 38 && isOfferedSize(cu)) return 4000;
  return undefined;
}

/**
 * Derives sizing from the autoscaling bounds. For an autoscaling compute the
 * table does not say how `max_connections` is derived, so it is left out.
 */
export function deriveSizing(minCu: number, maxCu: number): ComputeSizing {
  const ramGb = maxCu * 4;
  const sizing: ComputeSizing = {
    ramGb,
    lfcGb: ramGb * 0.75,
    tempDiskGiB: Math.max(20, 15 * maxCu),
  };
  if (minCu === maxCu) {
    const maxConnections = maxConnectionsFor(maxCu);
    if (maxConnections !== undefined) sizing.maxConnections = maxConnections;
  }
  return sizing;
}
