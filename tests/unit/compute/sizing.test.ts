import {
  COMPUTE_SIZES,
  deriveSizing,
  isOfferedSize,
  maxConnectionsFor,
} from "../../../provider/resources/compute/sizing";

describe("compute sizes", () => {
  it("offers 0.25, 0.5, 1–16 and 18–56 in steps of 2", () => {
    expect(COMPUTE_SIZES.slice(0, 3)).toEqual([0.25, 0.5, 1]);
    expect(COMPUTE_SIZES).toContain(16);
    expect(COMPUTE_SIZES).toContain(18);
    expect(COMPUTE_SIZES).toContain(56);
    expect(COMPUTE_SIZES).toHaveLength(38);
    for (const bad of [0, 0.1, 0.75, 1.5, 17, 19, 57, 58, -1]) expect(isOfferedSize(bad)).toBe(false);
  });

  it.each([
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
    [9, 4000],
    [16, 4000],
    [38, 4000],
  ])("max_connections for %p CU is %p", (cu, expected) => {
    expect(maxConnectionsFor(cu)).toBe(expected);
  });

  it("states no max_connections where the table does not (40–56 CU)", () => {
    for (const cu of [40, 48, 56]) expect(maxConnectionsFor(cu)).toBeUndefined();
  });

  it("derives RAM, LFC and temp disk from the maximum size", () => {
    expect(deriveSizing(0.25, 0.25)).toEqual({ ramGb: 1, lfcGb: 0.75, maxConnections: 112, tempDiskGiB: 20 });
    expect(deriveSizing(2, 2)).toEqual({ ramGb: 8, lfcGb: 6, maxConnections: 901, tempDiskGiB: 30 });
    expect(deriveSizing(56, 56)).toEqual({ ramGb: 224, lfcGb: 168, tempDiskGiB: 840 });
  });

  it("leaves max_connections out for autoscaling computes", () => {
    expect(deriveSizing(1, 4)).toEqual({ ramGb: 16, lfcGb: 12, tempDiskGiB: 60 });
  });
});
